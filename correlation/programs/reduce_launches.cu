// Reduction by many launches: 64 K integers halved once per launch (x[i] += x[i + n/2] for
// i < n/2), 16 launches of shrinking grids (128 CTAs x 256 threads down to 1 x 256 with
// one active thread): launch and drain costs dominate the later launches.
#include "common.h"

#define N (64 * 1024)
#define THREADS 256

extern "C" __global__ void halve(unsigned *x, int half) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < half) x[i] += x[i + half];
}

int main() {
    unsigned *d_x = device_alloc<unsigned>(N);
    setup_words<<<64, THREADS>>>(d_x, N, 0, 0xffff);
    CHECK_LAUNCH();
    for (int half = N / 2; half >= 1; half /= 2) {
        halve<<<(half + THREADS - 1) / THREADS, THREADS>>>(d_x, half);
        CHECK_LAUNCH();
    }
    unsigned *got = host_copy(d_x, 1), ref = 0;
    for (int i = 0; i < N; i++) ref += hash32(i) & 0xffff;
    expect_eq("sum", 0, ref, got[0]);
    return finish("reduce_launches");
}
