// sdk_sobol: Sobol quasi-random sequence generator (the CUDA SDK's SobolQRNG, the MOTRR paper's
// Table 2 "SQRNG"). The host computes 32 direction vectors per dimension; the kernel writes
// point i of dimension d as out[d * nVectors + i] = X * 2^-32, where X is the XOR of the
// direction vectors v[b] over the set bits b of the Gray code i ^ (i >> 1).
//
// Launch shape as the SDK's: SOBOL_THREADS-thread CTAs, gridDim.y = dimensions, gridDim.x a
// power of two chosen by the host. A CTA stages its dimension's 32 vectors in shared memory
// (one barrier), then each thread computes its first point from the Gray code and walks the
// rest with stride gridDim.x * SOBOL_THREADS = 2^s: from index p to p + 2^s the Gray code
// changes in exactly two bits, s - 1 and the lowest zero bit of p at or above s, so each
// further point costs two XORs. One writer per output.

#define SOBOL_THREADS 64
#define SOBOL_BITS 32

__global__ void sobolGray(int nVectors, const unsigned int *directions, float *out)
{
    __shared__ unsigned int v[SOBOL_BITS];
    directions += SOBOL_BITS * blockIdx.y;
    out += (size_t)nVectors * blockIdx.y;
    if (threadIdx.x < SOBOL_BITS)
        v[threadIdx.x] = directions[threadIdx.x];
    __syncthreads();

    const float scale = 2.3283064365386963e-10f; // 2^-32, exact
    const unsigned int n = nVectors;
    const unsigned int first = blockIdx.x * blockDim.x + threadIdx.x;
    if (first >= n)
        return;
    unsigned int x = 0;
    for (unsigned int g = first ^ (first >> 1), b = 0; g != 0; g >>= 1, b++)
        if (g & 1)
            x ^= v[b];
    out[first] = (float)x * scale;

    const unsigned int stride = gridDim.x * blockDim.x;
    const unsigned int vStride = v[__ffs(stride) - 2]; // v[s - 1]
    for (unsigned int i = first + stride; i < n; i += stride) {
        x ^= vStride ^ v[__ffs(~((i - stride) | (stride - 1))) - 1];
        out[i] = (float)x * scale;
    }
}
