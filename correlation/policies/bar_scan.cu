// Policies set, BAWS kind "prefix scan": 160 CTAs x 256 threads, each an exclusive Blelloch
// scan of 512 words (two per thread, read from global memory): an up-sweep and a down-sweep of
// 9 levels, a barrier at every level.
#include "../programs/common.h"

#define CTAS 160
#define THREADS 256
#define M (2 * THREADS)
#define N (CTAS * M)

extern "C" __global__ void bar_scan(const unsigned *in, unsigned *out) {
    __shared__ unsigned s[M];
    unsigned base = blockIdx.x * M;
    int t = threadIdx.x;
    s[t] = in[base + t];
    s[t + THREADS] = in[base + t + THREADS];
    int off = 1;
    for (int d = M / 2; d > 0; d /= 2) {
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            s[bi] += s[ai];
        }
        off *= 2;
    }
    if (t == 0) s[M - 1] = 0;
    for (int d = 1; d < M; d *= 2) {
        off /= 2;
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            unsigned v = s[ai];
            s[ai] = s[bi];
            s[bi] += v;
        }
    }
    __syncthreads();
    out[base + t] = s[t];
    out[base + t + THREADS] = s[t + THREADS];
}

int main() {
    unsigned *d_in = device_alloc<unsigned>(N), *d_out = device_alloc<unsigned>(N);
    setup_words<<<120, 256>>>(d_in, N, 0u, 0xffffu);
    CHECK_LAUNCH();
    bar_scan<<<CTAS, THREADS>>>(d_in, d_out);
    CHECK_LAUNCH();
    unsigned *out = host_copy(d_out, N);
    for (int c = 0; c < CTAS; c++) {
        unsigned sum = 0;
        for (int i = 0; i < M; i++) {
            expect_eq("out", c * M + i, sum, out[c * M + i]);
            sum += hash32(c * M + i) & 0xffffu;
        }
    }
    return finish("bar_scan");
}
