// Policies set, BAWS kind "tree reduction": 240 CTAs x 256 threads (about three waves on
// gtx480); each thread adds 4 words read from global memory (coalesced, a CTA-sized stride),
// then the CTA halves a shared array with a barrier per level; thread 0 writes the CTA's sum.
#include "../programs/common.h"

#define CTAS 240
#define THREADS 256
#define PER 4
#define N (CTAS * THREADS * PER)

extern "C" __global__ void bar_reduce(const unsigned *in, unsigned *out) {
    __shared__ unsigned s[THREADS];
    unsigned base = blockIdx.x * THREADS * PER + threadIdx.x;
    unsigned x = 0;
    for (int k = 0; k < PER; k++) x += in[base + k * THREADS];
    s[threadIdx.x] = x;
    __syncthreads();
    for (int h = THREADS / 2; h > 0; h /= 2) {
        if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

int main() {
    unsigned *d_in = device_alloc<unsigned>(N), *d_out = device_alloc<unsigned>(CTAS);
    setup_words<<<120, 256>>>(d_in, N, 0u, 0xffffffffu);
    CHECK_LAUNCH();
    bar_reduce<<<CTAS, THREADS>>>(d_in, d_out);
    CHECK_LAUNCH();
    unsigned *out = host_copy(d_out, CTAS);
    for (int c = 0; c < CTAS; c++) {
        unsigned sum = 0;
        for (int i = 0; i < THREADS * PER; i++) sum += hash32(c * THREADS * PER + i);
        expect_eq("out", c, sum, out[c]);
    }
    return finish("bar_reduce");
}
