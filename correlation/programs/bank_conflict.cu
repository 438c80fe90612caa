// Shared-memory bank conflicts, 1- to 32-way: one warp reads shared word
// (lane * stride + i) mod 1024 in a loop of independent loads, launched once per stride 1,
// 2, 4, 8, 16, 32 (with 32 banks of 4-byte words, lanes meet in 'stride' ways per bank).
#include "common.h"

#define WORDS 1024
#define ITERS 64

extern "C" __global__ void bank_conflict(unsigned *out, unsigned *time, int stride) {
    __shared__ unsigned s[WORDS];
    for (int i = threadIdx.x; i < WORDS; i += blockDim.x) s[i] = i;
    __syncthreads();
    unsigned base = threadIdx.x * stride, acc = 0;
    unsigned t0 = clock32();
#pragma unroll 8
    for (int i = 0; i < ITERS; i++) acc += s[(base + i) & (WORDS - 1)];
    unsigned t1 = clock32();
    out[threadIdx.x] = acc;
    time[threadIdx.x] = t1 - t0;
}

int main() {
    unsigned *d_out = device_alloc<unsigned>(32), *d_time = device_alloc<unsigned>(32);
    for (int stride = 1; stride <= 32; stride *= 2) {
        bank_conflict<<<1, 32>>>(d_out, d_time, stride);
        CHECK_LAUNCH();
        unsigned *out = host_copy(d_out, 32), *time = host_copy(d_time, 32);
        for (unsigned t = 0; t < 32; t++) {
            unsigned acc = 0;
            for (unsigned i = 0; i < ITERS; i++) acc += (t * stride + i) & (WORDS - 1);
            expect_eq("out", t, acc, out[t]);
        }
        char key[32];
        snprintf(key, sizeof key, "cycles_per_load_%dway", stride);
        metric("bank_conflict", key, (double)time[0] / ITERS);
        free(out);
        free(time);
    }
    return finish("bank_conflict");
}
