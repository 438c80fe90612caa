// baws_srad2: speckle-reducing anisotropic diffusion, v2 (BAWS Table 2 "SRAD2": 8 warps/CTA,
// 6 CTAs/SM).
//
// Per iteration the host launches, in order:
//   sradSums  ROI statistics: each CTA sums J and J^2 over a grid-stride share of the region
//             of interest, then reduces the 256 partials with a shared-memory tree (a barrier
//             per level) and writes one (sum, sum of squares) pair. The host adds the pairs
//             and derives q0^2 = var / mean^2 for the iteration.
//   srad1     one thread per pixel, 16 x 16 tiles: J and a one-pixel halo (edges clamped) are
//             staged in shared memory (barrier); the four directional derivatives and the
//             diffusion coefficient c (clamped to [0, 1]) are written out.
//   srad2     16 x 16 tiles: c and its south/east halo staged in shared memory (barrier); the
//             divergence D = cN dN + cS dS + cW dW + cE dE updates J += (lambda / 4) D.
// Every floating-point operation is an explicit round-to-nearest intrinsic in a fixed order
// (no contraction into fma), so the host reference reproduces all outputs bit for bit.
// Image sides are multiples of 16. The host runs a 320 x 320 image at the small size (400
// CTAs per tiled kernel, several waves on the GTX 480) and 512 x 512 at the paper size.
//
// Occupancy on the GTX 480 (srad1): 256 threads, 1.3 KB of shared memory, <= 20 registers:
// the 1536 thread slots give 6 CTAs/SM.

#define SRAD_T 16
#define SRAD_THREADS 256

__global__ void sradSums(const float *J, float *partials, int cols, int r1, int c1, int roiW, int roiSize)
{
    __shared__ float ssum[SRAD_THREADS];
    __shared__ float ssq[SRAD_THREADS];
    const int tid = threadIdx.x;
    float s = 0.0f, s2 = 0.0f;
#pragma unroll 1
    for (int i = blockIdx.x * SRAD_THREADS + tid; i < roiSize; i += gridDim.x * SRAD_THREADS) {
        const float v = J[(r1 + i / roiW) * cols + c1 + i % roiW];
        s = __fadd_rn(s, v);
        s2 = __fadd_rn(s2, __fmul_rn(v, v));
    }
    ssum[tid] = s;
    ssq[tid] = s2;
    __syncthreads();
#pragma unroll 1
    for (int stride = SRAD_THREADS / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            ssum[tid] = __fadd_rn(ssum[tid], ssum[tid + stride]);
            ssq[tid] = __fadd_rn(ssq[tid], ssq[tid + stride]);
        }
        __syncthreads();
    }
    if (tid == 0) {
        partials[2 * blockIdx.x] = ssum[0];
        partials[2 * blockIdx.x + 1] = ssq[0];
    }
}

__global__ void srad1(const float *J, float *dN, float *dS, float *dW, float *dE, float *C, int rows, int cols,
                      float q0sqr)
{
    __shared__ float tile[SRAD_T + 2][SRAD_T + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = blockIdx.y * SRAD_T + ty;
    const int j = blockIdx.x * SRAD_T + tx;
    const int k = i * cols + j;

    tile[ty + 1][tx + 1] = J[k];
    if (ty == 0)
        tile[0][tx + 1] = J[max(i - 1, 0) * cols + j];
    if (ty == SRAD_T - 1)
        tile[SRAD_T + 1][tx + 1] = J[min(i + 1, rows - 1) * cols + j];
    if (tx == 0)
        tile[ty + 1][0] = J[i * cols + max(j - 1, 0)];
    if (tx == SRAD_T - 1)
        tile[ty + 1][SRAD_T + 1] = J[i * cols + min(j + 1, cols - 1)];
    __syncthreads();

    const float jc = tile[ty + 1][tx + 1];
    const float n = __fsub_rn(tile[ty][tx + 1], jc);
    const float s = __fsub_rn(tile[ty + 2][tx + 1], jc);
    const float w = __fsub_rn(tile[ty + 1][tx], jc);
    const float e = __fsub_rn(tile[ty + 1][tx + 2], jc);
    dN[k] = n;
    dS[k] = s;
    dW[k] = w;
    dE[k] = e;

    float g2 = __fmul_rn(n, n);
    g2 = __fadd_rn(g2, __fmul_rn(s, s));
    g2 = __fadd_rn(g2, __fmul_rn(w, w));
    g2 = __fadd_rn(g2, __fmul_rn(e, e));
    const float sum = __fadd_rn(__fadd_rn(__fadd_rn(n, s), w), e);
    g2 = __fdiv_rn(g2, __fmul_rn(jc, jc));
    const float l = __fdiv_rn(sum, jc);
    const float num = __fsub_rn(__fmul_rn(0.5f, g2), __fmul_rn(0.0625f, __fmul_rn(l, l)));
    float den = __fadd_rn(1.0f, __fmul_rn(0.25f, l));
    const float qsqr = __fdiv_rn(num, __fmul_rn(den, den));
    den = __fdiv_rn(__fsub_rn(qsqr, q0sqr), __fmul_rn(q0sqr, __fadd_rn(1.0f, q0sqr)));
    const float c = __frcp_rn(__fadd_rn(1.0f, den));  // correctly rounded 1 / x
    C[k] = fminf(fmaxf(c, 0.0f), 1.0f);
}

__global__ void srad2(float *J, const float *dN, const float *dS, const float *dW, const float *dE, const float *C,
                      int rows, int cols, float lambda)
{
    __shared__ float tile[SRAD_T + 1][SRAD_T + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = blockIdx.y * SRAD_T + ty;
    const int j = blockIdx.x * SRAD_T + tx;
    const int k = i * cols + j;

    tile[ty][tx] = C[k];
    if (ty == SRAD_T - 1)
        tile[SRAD_T][tx] = C[min(i + 1, rows - 1) * cols + j];
    if (tx == SRAD_T - 1)
        tile[ty][SRAD_T] = C[i * cols + min(j + 1, cols - 1)];
    __syncthreads();

    const float cc = tile[ty][tx];
    float d = __fmul_rn(cc, dN[k]);
    d = __fadd_rn(d, __fmul_rn(tile[ty + 1][tx], dS[k]));
    d = __fadd_rn(d, __fmul_rn(cc, dW[k]));
    d = __fadd_rn(d, __fmul_rn(tile[ty][tx + 1], dE[k]));
    J[k] = __fadd_rn(J[k], __fmul_rn(__fmul_rn(0.25f, lambda), d));
}
