// Dependent fp32 latency: one warp runs a chain of N = 1024 fused multiply-adds (x = fma(x, a, b)),
// timed with clock().
#include "common.h"

#define N 1024

extern "C" __global__ void lat_fp32(float *out, unsigned *time, float a, float b) {
    float x = hval(threadIdx.x);
    unsigned t0 = clock32();
#pragma unroll 16
    for (int i = 0; i < N; i++) x = fmaf(x, a, b);
    unsigned t1 = clock32();
    out[threadIdx.x] = x;
    time[threadIdx.x] = t1 - t0;
}

int main() {
    const float a = 0.999f, b = 0.25f;
    float *d_out = device_alloc<float>(32);
    unsigned *d_time = device_alloc<unsigned>(32);
    lat_fp32<<<1, 32>>>(d_out, d_time, a, b);
    CHECK_LAUNCH();
    float *out = host_copy(d_out, 32);
    unsigned *time = host_copy(d_time, 32);
    for (int t = 0; t < 32; t++) {
        // |x| stays below b / (1 - a) = 250. A simulator may round a*x and +b separately:
        // at most 2 roundings of <= 2^-24 * 251 per step, and |a| < 1 damps earlier errors,
        // so the chains differ by less than N * 2 * 2^-24 * 251.
        float x = hval(t);
        for (int i = 0; i < N; i++) x = fmaf(x, a, b);
        expect_near("out", t, x, out[t], N * 2.0 * 251.0 / 16777216.0);
    }
    metric("lat_fp32", "cycles_per_op", (double)time[0] / N);
    return finish("lat_fp32");
}
