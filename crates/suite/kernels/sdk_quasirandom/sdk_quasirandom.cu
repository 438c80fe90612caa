// sdk_quasirandom: the CUDA SDK's quasirandomGenerator sample (the KAWS paper's Table 2 "QRG":
// 42 kernels of 128 CTAs). Two kernels, each launched 21 times in a row as the sample does
// (one warm-up launch, then its 20 timed iterations), on a fixed grid of 128 CTAs:
//   quasirandomKernel: 128 x 3 threads per CTA, threadIdx.y the dimension; each thread walks
//                      the points pos = tid, tid + 128 * 128, ... (grid-stride) and XORs the
//                      generator-matrix columns c_table[dim][bit] of the set bits of
//                      seed + pos (31 bits), then scales (result + 1) by 1 / (2^31 + 1)
//                      into (0, 1);
//   inverseCNDKernel:  Moro's inverse cumulative normal of every point (128-thread CTAs,
//                      grid-stride), shared with sdk_montecarlo.
// The 3 x 31 generator columns live in __constant__ memory, written by the host; all threads
// of a warp read the same column (a broadcast).

#include "../sdk_montecarlo/inverse_cnd.cuh"

#define QRNG_DIMENSIONS 3
#define QRNG_RESOLUTION 31
#define QRNG_THREADS 128

__constant__ unsigned int c_table[QRNG_DIMENSIONS][QRNG_RESOLUTION];

__global__ void quasirandomKernel(float *out, unsigned int seed, unsigned int n)
{
    const unsigned int *columns = c_table[threadIdx.y];
    const unsigned int threads = QRNG_THREADS * gridDim.x;
    // 1 / (2^31 + 1) rounded to float: the SDK's scale, so the largest value stays below 1.
    const float scale = 1.0f / (float)0x80000001U;
#pragma unroll 1
    for (unsigned int pos = blockIdx.x * QRNG_THREADS + threadIdx.x; pos < n; pos += threads) {
        unsigned int result = 0;
        unsigned int data = seed + pos;
        for (int bit = 0; bit < QRNG_RESOLUTION; bit++, data >>= 1)
            if (data & 1)
                result ^= columns[bit];
        out[threadIdx.y * n + pos] = __fmul_rn(__uint2float_rn(result + 1), scale);
    }
}
