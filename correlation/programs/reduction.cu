// Tree reduction: 64 K integers; each of 128 CTAs x 256 threads loads two values, then a
// shared-memory tree halves the active threads per level with a barrier per level; the host
// adds the CTA sums.
#include "common.h"

#define N (64 * 1024)
#define THREADS 256
#define CTAS (N / (2 * THREADS))

extern "C" __global__ void reduction(const unsigned *in, unsigned *partial) {
    __shared__ unsigned s[THREADS];
    unsigned i = blockIdx.x * 2 * THREADS + threadIdx.x;
    s[threadIdx.x] = in[i] + in[i + THREADS];
    __syncthreads();
    for (int w = THREADS / 2; w > 0; w /= 2) {
        if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

int main() {
    unsigned *d_in = device_alloc<unsigned>(N), *d_p = device_alloc<unsigned>(CTAS);
    setup_words<<<CTAS / 2, THREADS>>>(d_in, N, 0, 0xffff);
    CHECK_LAUNCH();
    reduction<<<CTAS, THREADS>>>(d_in, d_p);
    CHECK_LAUNCH();
    unsigned *p = host_copy(d_p, CTAS);
    for (int c = 0; c < CTAS; c++) {
        unsigned ref = 0;
        for (int i = 0; i < 2 * THREADS; i++) ref += hash32(c * 2 * THREADS + i) & 0xffff;
        expect_eq("partial", c, ref, p[c]);
    }
    return finish("reduction");
}
