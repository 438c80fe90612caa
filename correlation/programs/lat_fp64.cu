// Dependent fp64 latency: one warp runs a chain of N = 256 double fused multiply-adds
// (x = fma(x, a, b)), timed with clock().
#include "common.h"

#define N 256

extern "C" __global__ void lat_fp64(double *out, unsigned *time, double a, double b) {
    double x = hval(threadIdx.x);
    unsigned t0 = clock32();
#pragma unroll 16
    for (int i = 0; i < N; i++) x = fma(x, a, b);
    unsigned t1 = clock32();
    out[threadIdx.x] = x;
    time[threadIdx.x] = t1 - t0;
}

int main() {
    const double a = 0.999, b = 0.25;
    double *d_out = device_alloc<double>(32);
    unsigned *d_time = device_alloc<unsigned>(32);
    lat_fp64<<<1, 32>>>(d_out, d_time, a, b);
    CHECK_LAUNCH();
    double *out = host_copy(d_out, 32);
    unsigned *time = host_copy(d_time, 32);
    for (int t = 0; t < 32; t++) {
        // As lat_fp32, with 2^-53: |x| < 251, at most two roundings per step.
        double x = hval(t);
        for (int i = 0; i < N; i++) x = fma(x, a, b);
        expect_near("out", t, x, out[t], N * 2.0 * 251.0 / 9007199254740992.0);
    }
    metric("lat_fp64", "cycles_per_op", (double)time[0] / N);
    return finish("lat_fp64");
}
