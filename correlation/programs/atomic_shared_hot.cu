// Contended shared-memory atomics: 30 CTAs x 256 threads, 16 atom.shared.add per thread into
// a 64-bin shared histogram where half of all updates hit bin 0 (every warp's hot lanes
// serialise on one word) and the rest spread over bins 1-63; each CTA writes its bins out.
#include "common.h"

#define CTAS 30
#define THREADS 256
#define BINS 64
#define PER_THREAD 16

__host__ __device__ inline unsigned bin_of(unsigned h) {
    return (h & 1) ? 0 : 1 + (h >> 1) % (BINS - 1); // half of the updates on bin 0
}

extern "C" __global__ void atomic_shared_hot(unsigned *out) {
    __shared__ unsigned h[BINS];
    if (threadIdx.x < BINS) h[threadIdx.x] = 0;
    __syncthreads();
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < PER_THREAD; k++) atomicAdd(&h[bin_of(hash32(t * PER_THREAD + k))], 1u);
    __syncthreads();
    if (threadIdx.x < BINS) out[blockIdx.x * BINS + threadIdx.x] = h[threadIdx.x];
}

int main() {
    unsigned *d_out = device_alloc<unsigned>(CTAS * BINS);
    atomic_shared_hot<<<CTAS, THREADS>>>(d_out);
    CHECK_LAUNCH();
    unsigned *got = host_copy(d_out, CTAS * BINS);
    for (int c = 0; c < CTAS; c++) {
        unsigned ref[BINS] = {0};
        for (unsigned t = c * THREADS; t < (unsigned)(c + 1) * THREADS; t++)
            for (int k = 0; k < PER_THREAD; k++) ref[bin_of(hash32(t * PER_THREAD + k))]++;
        for (int b = 0; b < BINS; b++) expect_eq("out", c * BINS + b, ref[b], got[c * BINS + b]);
    }
    return finish("atomic_shared_hot");
}
