// Instruction-cache misses: 30 CTAs x 128 threads run a straight-line body of 512 distinct
// steps (~1500 instructions, ~12 KB of code: larger than either preset's L1 I-cache) twice,
// so warps keep fetching lines the others evicted.
#include "common.h"

#define CTAS 30
#define THREADS 128

// One step: its own shift and odd multiplier, so the compiler cannot roll the body into a loop.
#define STEP(k) x = (x ^ (x >> ((k) % 13 + 1))) * (0x9e3779b1u + 2u * (k));
#define S4(k) STEP(k) STEP((k) + 1) STEP((k) + 2) STEP((k) + 3)
#define S16(k) S4(k) S4((k) + 4) S4((k) + 8) S4((k) + 12)
#define S64(k) S16(k) S16((k) + 16) S16((k) + 32) S16((k) + 48)
#define S512(k) S64(k) S64((k) + 64) S64((k) + 128) S64((k) + 192) \
                S64((k) + 256) S64((k) + 320) S64((k) + 384) S64((k) + 448)

__host__ __device__ inline unsigned body(unsigned x) {
    S512(0)
    return x;
}

extern "C" __global__ void icache(unsigned *out, int reps) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, x = hash32(tid);
    for (int r = 0; r < reps; r++) x = body(x) + r;
    out[tid] = x;
}

int main() {
    const int n = CTAS * THREADS, reps = 2;
    unsigned *d_out = device_alloc<unsigned>(n);
    icache<<<CTAS, THREADS>>>(d_out, reps);
    CHECK_LAUNCH();
    unsigned *out = host_copy(d_out, n);
    for (int t = 0; t < n; t++) {
        unsigned x = hash32(t);
        for (int r = 0; r < reps; r++) x = body(x) + r;
        expect_eq("out", t, x, out[t]);
    }
    return finish("icache");
}
