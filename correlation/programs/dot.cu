// DRAM bandwidth, read only: dot product of two 1 MB vectors; each of 120 CTAs x 256
// threads sums a grid-strided share, then a shared-memory tree gives one partial per CTA
// (the host adds the partials).
#include "common.h"

#define N (256 * 1024)
#define CTAS 120
#define THREADS 256

extern "C" __global__ void dot(const float *a, const float *b, float *partial, int n) {
    __shared__ float s[THREADS];
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += a[i] * b[i];
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int w = THREADS / 2; w > 0; w /= 2) {
        if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

int main() {
    float *d_a = device_alloc<float>(N), *d_b = device_alloc<float>(N), *d_p = device_alloc<float>(CTAS);
    setup_floats<<<CTAS, THREADS>>>(d_a, N, 0);
    CHECK_LAUNCH();
    setup_floats<<<CTAS, THREADS>>>(d_b, N, 1u << 24);
    CHECK_LAUNCH();
    dot<<<CTAS, THREADS>>>(d_a, d_b, d_p, N);
    CHECK_LAUNCH();
    float *p = host_copy(d_p, CTAS);
    const int stride = CTAS * THREADS;
    for (int c = 0; c < CTAS; c++) {
        // Each partial sums N / CTAS products (|a b| <= 1/4) in float: every product and
        // every addition rounds once, relative error <= 2^-24 of a running sum bounded by
        // the sum of |a b|, so |error| <= (terms + 1) * 2^-24 * sum|a b|.
        double ref = 0, mag = 0;
        int terms = 0;
        for (int t = 0; t < THREADS; t++)
            for (int i = c * THREADS + t; i < N; i += stride) {
                double ab = (double)hval(i) * (double)hval(i + (1u << 24));
                ref += ab;
                mag += fabs(ab);
                terms++;
            }
        expect_near("partial", c, ref, p[c], (terms + 1) * mag / 16777216.0);
    }
    return finish("dot");
}
