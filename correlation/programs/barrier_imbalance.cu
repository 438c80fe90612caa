// Barriers with imbalanced warps: 60 CTAs x 256 threads; in each of 4 rounds warp w runs
// (w + 1) * 8 dependent integer steps, then the CTA meets at __syncthreads(), so the
// faster warps wait for warp 7 every round.
#include "common.h"

#define CTAS 60
#define THREADS 256
#define ROUNDS 4
#define STEPS 8

__host__ __device__ inline unsigned work(unsigned x, int n) {
    for (int i = 0; i < n; i++) x = x * 1664525u + 1013904223u;
    return x;
}

extern "C" __global__ void barrier_imbalance(unsigned *out) {
    __shared__ unsigned s[THREADS];
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = hash32(tid);
    int n = ((threadIdx.x / 32) + 1) * STEPS;
    for (int r = 0; r < ROUNDS; r++) {
        x = work(x, n);
        s[threadIdx.x] = x;
        __syncthreads();
        x ^= s[(threadIdx.x + 32) % THREADS];
        __syncthreads();
    }
    out[tid] = x;
}

int main() {
    const int n = CTAS * THREADS;
    unsigned *d_out = device_alloc<unsigned>(n);
    barrier_imbalance<<<CTAS, THREADS>>>(d_out);
    CHECK_LAUNCH();
    unsigned *out = host_copy(d_out, n);
    unsigned *x = (unsigned *)malloc(n * sizeof(unsigned)), *s = (unsigned *)malloc(THREADS * sizeof(unsigned));
    for (int t = 0; t < n; t++) x[t] = hash32(t);
    for (int c = 0; c < CTAS; c++)
        for (int r = 0; r < ROUNDS; r++) {
            for (int t = 0; t < THREADS; t++) s[t] = x[c * THREADS + t] = work(x[c * THREADS + t], (t / 32 + 1) * STEPS);
            for (int t = 0; t < THREADS; t++) x[c * THREADS + t] ^= s[(t + 32) % THREADS];
        }
    for (int t = 0; t < n; t++) expect_eq("out", t, x[t], out[t]);
    return finish("barrier_imbalance");
}
