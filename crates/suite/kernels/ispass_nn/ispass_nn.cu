// ispass_nn: a convolutional digit recogniser's forward pass (the PRO paper's Table II "NN",
// GPGPU-Sim's ISPASS-2009 neural network: executeFirstLayer 168 CTAs, executeSecondLayer 1400,
// executeThirdLayer 2800, executeFourthLayer 280, i.e. 28 images of a 29x29 -> 6x13x13 ->
// 50x5x5 -> 100 -> 10 network, the network of Simard et al. for handwritten digits).
//
// Every grid is (neurons or feature maps of the layer, images): blockIdx.y picks the image.
// - executeFirstLayer: CTA (13, 13), one per (map of 6, image); each thread convolves a 5x5
//   window at stride 2 of the 29x29 input with its map's kernel. No barrier.
// - executeSecondLayer: CTA (5, 5), one per (map of 50, image); each thread convolves 5x5
//   windows at stride 2 of all 6 first-layer maps. No barrier.
// - executeThirdLayer: CTA of 50 threads, one per (neuron of 100, image), fully connected to
//   the 1250 second-layer outputs: thread t takes map t's 25, the partial sums go to shared
//   memory, a barrier, and thread 0 adds them in order.
// - executeFourthLayer: CTA of 100 threads, one per (output of 10, image): thread n
//   multiplies neuron n's output by its weight, a barrier, thread 0 adds the 100 products.
//
// Each neuron's weights start with its bias. The activation is the rational sigmoid
// x / (1 + |x|) instead of the usual scaled tanh, and every operation is an explicit
// round-to-nearest intrinsic in a fixed order, so the driver's f32 reference is bit for bit.

#define IN_SIDE 29
#define L1_MAPS 6
#define L1_SIDE 13
#define L2_MAPS 50
#define L2_SIDE 5
#define L3_NEURONS 100
#define L4_OUTPUTS 10
#define WIN 5
#define WIN_TAPS (WIN * WIN)
#define L1_OUT (L1_MAPS * L1_SIDE * L1_SIDE)
#define L2_OUT (L2_MAPS * L2_SIDE * L2_SIDE)

__device__ __forceinline__ float activate(float x)
{
    return __fdiv_rn(x, __fadd_rn(1.0f, fabsf(x)));
}

// in: 29x29 per image; w: per map, bias then 25 taps; out: 6 maps of 13x13 per image.
__global__ void executeFirstLayer(float *out, const float *in, const float *w)
{
    const int map = blockIdx.x, image = blockIdx.y;
    const int ox = threadIdx.x, oy = threadIdx.y;
    const float *src = in + image * IN_SIDE * IN_SIDE + (2 * oy) * IN_SIDE + 2 * ox;
    const float *k = w + map * (1 + WIN_TAPS);
    float sum = k[0];
    // Window rows not unrolled: fully unrolled, nvcc hoists all 25 loads (62 registers, 2 CTAs
    // of 169 threads per SM on the GTX 480).
#pragma unroll 1
    for (int ky = 0; ky < WIN; ky++)
#pragma unroll
        for (int kx = 0; kx < WIN; kx++)
            sum = __fmaf_rn(k[1 + ky * WIN + kx], src[ky * IN_SIDE + kx], sum);
    out[image * L1_OUT + map * L1_SIDE * L1_SIDE + oy * L1_SIDE + ox] = activate(sum);
}

// in: first-layer maps; w: per map, bias then 6 x 25 taps; out: 50 maps of 5x5 per image.
__global__ void executeSecondLayer(float *out, const float *in, const float *w)
{
    const int map = blockIdx.x, image = blockIdx.y;
    const int ox = threadIdx.x, oy = threadIdx.y;
    const float *k = w + map * (1 + L1_MAPS * WIN_TAPS);
    float sum = k[0];
#pragma unroll 1
    for (int c = 0; c < L1_MAPS; c++) {
        const float *src = in + image * L1_OUT + c * L1_SIDE * L1_SIDE + (2 * oy) * L1_SIDE + 2 * ox;
        const float *kc = k + 1 + c * WIN_TAPS;
#pragma unroll 1
        for (int ky = 0; ky < WIN; ky++)
#pragma unroll
            for (int kx = 0; kx < WIN; kx++)
                sum = __fmaf_rn(kc[ky * WIN + kx], src[ky * L1_SIDE + kx], sum);
    }
    out[image * L2_OUT + map * L2_SIDE * L2_SIDE + oy * L2_SIDE + ox] = activate(sum);
}

// in: second-layer outputs; w: per neuron, bias then 1250 weights; out: 100 per image.
__global__ void executeThirdLayer(float *out, const float *in, const float *w)
{
    __shared__ float partial[L2_MAPS];
    const int neuron = blockIdx.x, image = blockIdx.y, t = threadIdx.x;
    const float *k = w + neuron * (1 + L2_OUT) + 1 + t * WIN_TAPS;
    const float *src = in + image * L2_OUT + t * WIN_TAPS;
    float sum = 0.0f;
#pragma unroll 5
    for (int i = 0; i < WIN_TAPS; i++)
        sum = __fmaf_rn(k[i], src[i], sum);
    partial[t] = sum;
    __syncthreads();
    if (t == 0) {
        float total = w[neuron * (1 + L2_OUT)];
#pragma unroll 1
        for (int i = 0; i < L2_MAPS; i++)
            total = __fadd_rn(total, partial[i]);
        out[image * L3_NEURONS + neuron] = activate(total);
    }
}

// in: third-layer outputs; w: per output, bias then 100 weights; out: 10 per image.
__global__ void executeFourthLayer(float *out, const float *in, const float *w)
{
    __shared__ float product[L3_NEURONS];
    const int output = blockIdx.x, image = blockIdx.y, n = threadIdx.x;
    product[n] = __fmul_rn(w[output * (1 + L3_NEURONS) + 1 + n], in[image * L3_NEURONS + n]);
    __syncthreads();
    if (n == 0) {
        float total = w[output * (1 + L3_NEURONS)];
#pragma unroll 1
        for (int i = 0; i < L3_NEURONS; i++)
            total = __fadd_rn(total, product[i]);
        out[image * L4_OUTPUTS + output] = activate(total);
    }
}
