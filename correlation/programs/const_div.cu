// Constant memory, divergent: as const_bcast, but the lanes of a warp read 32 different
// constant words per step (the constant cache serialises distinct addresses).
#include "const_table.h"

#define CTAS 60
#define THREADS 256
#define ITERS 16

extern "C" __global__ void const_div(unsigned *out) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, acc = tid;
#pragma unroll 4
    for (int i = 0; i < ITERS; i++) acc += c_table[(i * 7 + threadIdx.x * 3) & (CONST_WORDS - 1)];
    out[tid] = acc;
}

int main() {
    check_table();
    const int n = CTAS * THREADS;
    unsigned *d_out = device_alloc<unsigned>(n);
    const_div<<<CTAS, THREADS>>>(d_out);
    CHECK_LAUNCH();
    unsigned *out = host_copy(d_out, n);
    for (int t = 0; t < n; t++) {
        unsigned acc = t, l = t % THREADS;
        for (unsigned i = 0; i < ITERS; i++) acc += h_table[(i * 7 + l * 3) & (CONST_WORDS - 1)];
        expect_eq("out", t, acc, out[t]);
    }
    return finish("const_div");
}
