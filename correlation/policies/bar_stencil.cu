// Policies set, BAWS kind "shared-memory stencil": 192 CTAs x 256 threads; each CTA loads a
// 256-word tile and a one-word halo each side from global memory into shared memory, then
// runs 4 sweeps of x[i] = x[i-1] + 2 x[i] + x[i+1] (mod 2^32, halo fixed), with a barrier
// before and after each sweep's shared-memory update.
#include "../programs/common.h"

#define CTAS 192
#define THREADS 256
#define SWEEPS 4
#define N (CTAS * THREADS)

extern "C" __global__ void bar_stencil(const unsigned *in, unsigned *out) {
    __shared__ unsigned s[THREADS + 2];
    int g = blockIdx.x * THREADS + threadIdx.x;
    s[threadIdx.x + 1] = in[g];
    if (threadIdx.x == 0) s[0] = g > 0 ? in[g - 1] : 0u;
    if (threadIdx.x == THREADS - 1) s[THREADS + 1] = g + 1 < N ? in[g + 1] : 0u;
    for (int k = 0; k < SWEEPS; k++) {
        __syncthreads();
        unsigned v = s[threadIdx.x] + 2u * s[threadIdx.x + 1] + s[threadIdx.x + 2];
        __syncthreads();
        s[threadIdx.x + 1] = v;
    }
    out[g] = s[threadIdx.x + 1];
}

int main() {
    unsigned *d_in = device_alloc<unsigned>(N), *d_out = device_alloc<unsigned>(N);
    setup_words<<<120, 256>>>(d_in, N, 0u, 0xffffffffu);
    CHECK_LAUNCH();
    bar_stencil<<<CTAS, THREADS>>>(d_in, d_out);
    CHECK_LAUNCH();
    unsigned *out = host_copy(d_out, N);
    unsigned a[THREADS + 2], b[THREADS + 2];
    for (int c = 0; c < CTAS; c++) {
        for (int i = 0; i < THREADS + 2; i++) {
            int g = c * THREADS + i - 1;
            a[i] = (g >= 0 && g < N) ? hash32(g) : 0u;
        }
        for (int k = 0; k < SWEEPS; k++) {
            b[0] = a[0];
            b[THREADS + 1] = a[THREADS + 1];
            for (int i = 1; i <= THREADS; i++) b[i] = a[i - 1] + 2u * a[i] + a[i + 1];
            for (int i = 0; i < THREADS + 2; i++) a[i] = b[i];
        }
        for (int t = 0; t < THREADS; t++) expect_eq("out", c * THREADS + t, a[t + 1], out[c * THREADS + t]);
    }
    return finish("bar_stencil");
}
