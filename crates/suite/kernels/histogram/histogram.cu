// histogram: 256-bin byte histogram.
//
// Each CTA builds a private sub-histogram in shared memory with shared-memory atomics, then
// merges its non-zero bins into the global histogram with global atomics. The input is read
// as 32-bit words, four bytes per word (grid-stride loop over words).

#define BINS 256

__global__ void histogram256(unsigned int *hist, const unsigned int *words, int nwords)
{
    __shared__ unsigned int sub[BINS];

    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        sub[b] = 0;
    __syncthreads();

    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += stride) {
        const unsigned int w = words[i];
        atomicAdd(&sub[w & 0xffu], 1u);
        atomicAdd(&sub[(w >> 8) & 0xffu], 1u);
        atomicAdd(&sub[(w >> 16) & 0xffu], 1u);
        atomicAdd(&sub[w >> 24], 1u);
    }
    __syncthreads();

    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        const unsigned int c = sub[b];
        if (c != 0)
            atomicAdd(&hist[b], c);
    }
}
