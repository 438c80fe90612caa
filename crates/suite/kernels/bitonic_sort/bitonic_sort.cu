// bitonic_sort: sorts independent 1024-element blocks of (key, value) pairs.
//
// One CTA of SORT_N / 2 threads per block; each thread owns one compare-exchange per step.
// The whole block lives in shared memory; a barrier separates every step of the network.
// `ascending` != 0 sorts ascending, 0 descending.

#define SORT_N 1024

__global__ void bitonicSortBlocks(unsigned int *keys, unsigned int *vals, int ascending)
{
    __shared__ unsigned int sk[SORT_N];
    __shared__ unsigned int sv[SORT_N];

    const unsigned int base = blockIdx.x * SORT_N;
    for (unsigned int i = threadIdx.x; i < SORT_N; i += blockDim.x) {
        sk[i] = keys[base + i];
        sv[i] = vals[base + i];
    }

    const bool up_all = ascending != 0;
    const unsigned int t = threadIdx.x;  // pair index, 0 .. SORT_N/2-1
    for (unsigned int size = 2; size <= SORT_N; size <<= 1) {
        for (unsigned int stride = size >> 1; stride > 0; stride >>= 1) {
            __syncthreads();
            const unsigned int lo = 2 * t - (t & (stride - 1));
            const unsigned int hi = lo + stride;
            // Sub-sequences of length `size` alternate direction; the last merge (size ==
            // SORT_N) has (lo & size) == 0 everywhere, i.e. the requested direction.
            const bool up = ((lo & size) == 0) == up_all;
            const unsigned int klo = sk[lo];
            const unsigned int khi = sk[hi];
            if ((klo > khi) == up && klo != khi) {
                sk[lo] = khi;
                sk[hi] = klo;
                const unsigned int v = sv[lo];
                sv[lo] = sv[hi];
                sv[hi] = v;
            }
        }
    }
    __syncthreads();

    for (unsigned int i = threadIdx.x; i < SORT_N; i += blockDim.x) {
        keys[base + i] = sk[i];
        vals[base + i] = sv[i];
    }
}
