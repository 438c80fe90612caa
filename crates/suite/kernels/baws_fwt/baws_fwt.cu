// baws_fwt: fast Walsh-Hadamard transform and dyadic convolution (BAWS Table 2 "FWT":
// 16 warps/CTA, 3 CTAs/SM).
//
// The transform of length N = 2^n applies, for every bit b < n, the butterfly
// (x, y) -> (x + y, x - y) to the pairs of elements whose indices differ only in bit b; the
// levels commute, so any order gives the same (naturally ordered) transform. A radix-4
// butterfly fuses the levels of bits b and b + 1 on four elements i, i + s, i + 2s, i + 3s.
//
//   fwtGlobalR4  levels of bits b, b+1 >= 11 (strides s >= 2048): one radix-4 butterfly per
//                thread, in global memory, no barriers. blockIdx.y selects the vector of a
//                batch (vectors are N apart).
//   fwtGlobalR2  a single level (used when the number of global levels is odd).
//   fwtChunk     levels of bits 0..10: each CTA loads a 2048-element chunk into shared
//                memory, runs five radix-4 stages (strides 1, 4, 16, 64, 256) and one radix-2
//                stage (stride 1024), with a __syncthreads() before every stage.
//   fwtModulate  pointwise a[i] = a[i] * b[i] * scale (the convolution's spectrum product);
//                blockIdx.y selects the signal of a batch, all multiplied by the same b.
//
// Sizes (driver): paper, one signal of 2^21; small, a batch of 23 signals of 2^13 with one
// shared kernel, so fwtChunk does 11 of the 13 levels and its launches fill the GPU twice.
//
// Occupancy on the GTX 480 (fwtChunk): 512 threads, 8 KB of shared memory, <= 20 registers:
// thread slots give 1536 / 512 = 3 CTAs/SM.

#define FWT_THREADS 512
#define FWT_CHUNK 2048

__device__ __forceinline__ void radix4(float &a, float &b, float &c, float &d)
{
    const float t0 = a + b, t1 = a - b, t2 = c + d, t3 = c - d;
    a = t0 + t2;
    b = t1 + t3;
    c = t0 - t2;
    d = t1 - t3;
}

__global__ void fwtGlobalR4(float *data, int n, int stride)
{
    float *v = data + blockIdx.y * n;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;  // butterfly index < n / 4
    if (j >= n / 4)
        return;
    const int off = j & (stride - 1);
    const int i = (j - off) * 4 + off;
    float a = v[i], b = v[i + stride], c = v[i + 2 * stride], d = v[i + 3 * stride];
    radix4(a, b, c, d);
    v[i] = a;
    v[i + stride] = b;
    v[i + 2 * stride] = c;
    v[i + 3 * stride] = d;
}

__global__ void fwtGlobalR2(float *data, int n, int stride)
{
    float *v = data + blockIdx.y * n;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;  // butterfly index < n / 2
    if (j >= n / 2)
        return;
    const int off = j & (stride - 1);
    const int i = (j - off) * 2 + off;
    const float x = v[i], y = v[i + stride];
    v[i] = x + y;
    v[i + stride] = x - y;
}

__global__ void fwtChunk(float *data, int n)
{
    __shared__ float s[FWT_CHUNK];
    float *v = data + blockIdx.y * n + blockIdx.x * FWT_CHUNK;
    const int tid = threadIdx.x;

#pragma unroll 1
    for (int e = tid; e < FWT_CHUNK; e += FWT_THREADS)
        s[e] = v[e];
#pragma unroll 1
    for (int stride = 1; stride < FWT_CHUNK / 2; stride <<= 2) {
        __syncthreads();
        const int off = tid & (stride - 1);
        const int i = (tid - off) * 4 + off;
        float a = s[i], b = s[i + stride], c = s[i + 2 * stride], d = s[i + 3 * stride];
        radix4(a, b, c, d);
        s[i] = a;
        s[i + stride] = b;
        s[i + 2 * stride] = c;
        s[i + 3 * stride] = d;
    }
    __syncthreads();
#pragma unroll 1
    for (int p = tid; p < FWT_CHUNK / 2; p += FWT_THREADS) {
        const float x = s[p], y = s[p + FWT_CHUNK / 2];
        s[p] = x + y;
        s[p + FWT_CHUNK / 2] = x - y;
    }
    __syncthreads();
#pragma unroll 1
    for (int e = tid; e < FWT_CHUNK; e += FWT_THREADS)
        v[e] = s[e];
}

__global__ void fwtModulate(float *a, const float *b, int n, float scale)
{
    float *v = a + blockIdx.y * n;  // signal blockIdx.y of the batch; b is shared by all
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = __fmul_rn(__fmul_rn(v[i], b[i]), scale);
}
