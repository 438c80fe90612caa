// 256-bin histogram of 256 KB of bytes: 30 CTAs x 256 threads, grid-stride over words; each
// CTA counts into a shared sub-histogram with shared atomics (a quarter of the bytes fall on
// 4 hot bins, for contention), then adds it to the global bins with global atomics.
#include "common.h"

#define WORDS (64 * 1024)
#define CTAS 30
#define THREADS 256
#define BINS 256

__host__ __device__ inline unsigned byte_of(unsigned w, int b) {
    unsigned v = (w >> (8 * b)) & 0xff;
    return (v & 0xc0) == 0 ? (v & 3) : v; // values 0-63 fold onto bins 0-3: hot bins
}

extern "C" __global__ void setup_zero(unsigned *x, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] = 0;
}

extern "C" __global__ void histogram(const unsigned *in, unsigned *bins, int n) {
    __shared__ unsigned h[BINS];
    h[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned w = in[i];
        for (int b = 0; b < 4; b++) atomicAdd(&h[byte_of(w, b)], 1u);
    }
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

int main() {
    unsigned *d_in = device_alloc<unsigned>(WORDS), *d_bins = device_alloc<unsigned>(BINS);
    setup_words<<<CTAS, THREADS>>>(d_in, WORDS, 0, 0xffffffffu);
    CHECK_LAUNCH();
    setup_zero<<<1, BINS>>>(d_bins, BINS);
    CHECK_LAUNCH();
    histogram<<<CTAS, THREADS>>>(d_in, d_bins, WORDS);
    CHECK_LAUNCH();
    unsigned *bins = host_copy(d_bins, BINS), ref[BINS] = {0};
    for (unsigned i = 0; i < WORDS; i++)
        for (int b = 0; b < 4; b++) ref[byte_of(hash32(i), b)]++;
    for (int i = 0; i < BINS; i++) expect_eq("bins", i, ref[i], bins[i]);
    return finish("histogram");
}
