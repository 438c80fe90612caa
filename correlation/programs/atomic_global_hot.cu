// Contended global atomics on hot bins: 30 CTAs x 256 threads, 4 atom.global.add per thread
// onto 32 bins one 128-byte line apart, 3 of 4 updates on bins 0-3 (same-word lanes of a
// warp become one L2 request each, queued at a few slices), the rest on bins 4-31.
#include "common.h"

#define CTAS 30
#define THREADS 256
#define BINS 32
#define STRIDE 32 // words between bins: one 128-byte line each
#define PER_THREAD 4

__host__ __device__ inline unsigned bin_of(unsigned h) {
    return (h & 3) ? (h >> 2) % 4 : 4 + (h >> 2) % (BINS - 4);
}

extern "C" __global__ void setup_zero(unsigned *x, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] = 0;
}

extern "C" __global__ void atomic_global_hot(unsigned *bins) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < PER_THREAD; k++) atomicAdd(&bins[STRIDE * bin_of(hash32(t * PER_THREAD + k))], 1u);
}

int main() {
    unsigned *d_bins = device_alloc<unsigned>(BINS * STRIDE);
    setup_zero<<<4, 256>>>(d_bins, BINS * STRIDE);
    CHECK_LAUNCH();
    atomic_global_hot<<<CTAS, THREADS>>>(d_bins);
    CHECK_LAUNCH();
    unsigned *got = host_copy(d_bins, BINS * STRIDE), ref[BINS * STRIDE] = {0};
    for (unsigned t = 0; t < CTAS * THREADS; t++)
        for (int k = 0; k < PER_THREAD; k++) ref[STRIDE * bin_of(hash32(t * PER_THREAD + k))]++;
    for (int i = 0; i < BINS * STRIDE; i++) expect_eq("bins", i, ref[i], got[i]);
    return finish("atomic_global_hot");
}
