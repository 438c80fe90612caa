// Policies set (correlation/README.md, "Policies in GPGPU-Sim"), BAWS kind "imbalanced work between barriers":
// 180 CTAs x 256 threads (two waves on gtx480); in each of 4 rounds warp w adds a word loaded
// from global memory and runs (w + 1) * 8 dependent integer steps, then the CTA meets at
// __syncthreads() and exchanges through shared memory, so the faster warps wait for warp 7.
#include "../programs/common.h"

#define CTAS 180
#define THREADS 256
#define ROUNDS 4
#define STEPS 8
#define N (CTAS * THREADS)

__host__ __device__ inline unsigned work(unsigned x, int n) {
    for (int i = 0; i < n; i++) x = x * 1664525u + 1013904223u;
    return x;
}

extern "C" __global__ void bar_imbalance(const unsigned *in, unsigned *out) {
    __shared__ unsigned s[THREADS];
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = 0;
    int n = ((threadIdx.x / 32) + 1) * STEPS;
    for (int r = 0; r < ROUNDS; r++) {
        x = work(x + in[r * N + tid], n);
        s[threadIdx.x] = x;
        __syncthreads();
        x ^= s[(threadIdx.x + 32) % THREADS];
        __syncthreads();
    }
    out[tid] = x;
}

int main() {
    unsigned *d_in = device_alloc<unsigned>(ROUNDS * N), *d_out = device_alloc<unsigned>(N);
    setup_words<<<120, 256>>>(d_in, ROUNDS * N, 0u, 0xffffffffu);
    CHECK_LAUNCH();
    bar_imbalance<<<CTAS, THREADS>>>(d_in, d_out);
    CHECK_LAUNCH();
    unsigned *out = host_copy(d_out, N);
    unsigned *x = (unsigned *)calloc(N, sizeof(unsigned)), *s = (unsigned *)malloc(THREADS * sizeof(unsigned));
    for (int c = 0; c < CTAS; c++)
        for (int r = 0; r < ROUNDS; r++) {
            for (int t = 0; t < THREADS; t++) {
                unsigned i = c * THREADS + t;
                s[t] = x[i] = work(x[i] + hash32(r * N + i), (t / 32 + 1) * STEPS);
            }
            for (int t = 0; t < THREADS; t++) x[c * THREADS + t] ^= s[(t + 32) % THREADS];
        }
    for (int t = 0; t < N; t++) expect_eq("out", t, x[t], out[t]);
    return finish("bar_imbalance");
}
