// A sequence of 32 small launches, 120 CTAs x 64 threads each (x = 3 x + 1 over 7680 words):
// per-launch costs (CTA dispatch to every SM, the kernel's code and parameters fetched
// cold by each CTA, the drain at the end) against little work per CTA.
#include "common.h"

#define CTAS 120
#define THREADS 64
#define N (CTAS * THREADS)
#define LAUNCHES 32

extern "C" __global__ void bump(unsigned *x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = 3 * x[i] + 1;
}

int main() {
    unsigned *d_x = device_alloc<unsigned>(N);
    setup_words<<<CTAS, THREADS>>>(d_x, N, 0, 0xffffffffu);
    CHECK_LAUNCH();
    for (int l = 0; l < LAUNCHES; l++) {
        bump<<<CTAS, THREADS>>>(d_x);
        CHECK_LAUNCH();
    }
    unsigned *got = host_copy(d_x, N);
    for (int i = 0; i < N; i++) {
        unsigned v = hash32(i);
        for (int l = 0; l < LAUNCHES; l++) v = 3 * v + 1;
        expect_eq("x", i, v, got[i]);
    }
    return finish("launch_many");
}
