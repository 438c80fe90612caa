// Constant memory, broadcast: 60 CTAs x 256 threads; in every step all lanes of a warp read
// the same constant word (one constant-cache access serves the warp).
#include "const_table.h"

#define CTAS 60
#define THREADS 256
#define ITERS 64

extern "C" __global__ void const_bcast(unsigned *out) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, acc = tid;
#pragma unroll 4
    for (int i = 0; i < ITERS; i++) acc += c_table[(i * 7 + blockIdx.x) & (CONST_WORDS - 1)];
    out[tid] = acc;
}

int main() {
    check_table();
    const int n = CTAS * THREADS;
    unsigned *d_out = device_alloc<unsigned>(n);
    const_bcast<<<CTAS, THREADS>>>(d_out);
    CHECK_LAUNCH();
    unsigned *out = host_copy(d_out, n);
    for (int t = 0; t < n; t++) {
        unsigned acc = t, c = t / THREADS;
        for (unsigned i = 0; i < ITERS; i++) acc += h_table[(i * 7 + c) & (CONST_WORDS - 1)];
        expect_eq("out", t, acc, out[t]);
    }
    return finish("const_bcast");
}
