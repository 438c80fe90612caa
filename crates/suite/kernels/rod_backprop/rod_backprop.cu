// rod_backprop: one training step of a two-layer perceptron (Rodinia "backprop" structure):
// `in` input units, 16 hidden units, one output unit. The host launches
//   bpLayerForward  grid of in/16 CTAs of 16 x 16 threads: CTA b stages its 16 inputs, each
//                   thread forms input[i] * w[i][j] for one (input i, hidden j) pair, and the
//                   16 products of each hidden unit are summed by a shared-memory tree over
//                   the inputs (4 levels, a barrier per level); the CTA writes 16 partial sums.
//   (host)          sums the partials of every hidden unit, applies the sigmoid, runs the
//                   output layer and computes the error terms, as Rodinia's host does.
//   bpAdjustWeights same grid: every weight moves by eta * delta_j * x_i + momentum * dw_old,
//                   and the change is kept for the next step's momentum term.
// Barriers: bpLayerForward has 1 + 4 (staging, then one per tree level); bpAdjustWeights
// none. Every float operation is an explicit round-to-nearest intrinsic, so the host
// reproduces the partial sums and the new weights bit for bit.

#define BP_B 16

// w and dw: (in + 1) x (BP_B + 1) row-major like Rodinia's weight matrix; row 0 and column 0
// belong to the bias units and are not touched here.
__global__ void bpLayerForward(const float *input, const float *w, float *partial, int in)
{
    __shared__ float x[BP_B];
    __shared__ float prod[BP_B][BP_B];
    const int tx = threadIdx.x, ty = threadIdx.y;  // tx: hidden unit, ty: input within the CTA
    const int i = blockIdx.x * BP_B + ty + 1;      // input unit (1-based; 0 is the bias)
    if (tx == 0)
        x[ty] = input[i];
    __syncthreads();
    prod[ty][tx] = __fmul_rn(x[ty], w[i * (BP_B + 1) + tx + 1]);
#pragma unroll 1
    for (int stride = BP_B / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (ty < stride)
            prod[ty][tx] = __fadd_rn(prod[ty][tx], prod[ty + stride][tx]);
    }
    if (ty == 0)
        partial[blockIdx.x * BP_B + tx] = prod[0][tx];
}

__global__ void bpAdjustWeights(const float *delta, const float *input, float *w, float *dw, float eta,
                                float momentum)
{
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = blockIdx.x * BP_B + ty + 1;
    const int k = i * (BP_B + 1) + tx + 1;
    const float change = __fadd_rn(__fmul_rn(__fmul_rn(eta, delta[tx + 1]), input[i]), __fmul_rn(momentum, dw[k]));
    w[k] = __fadd_rn(w[k], change);
    dw[k] = change;
}
