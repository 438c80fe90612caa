// Dependent SFU latency: one warp runs a chain of N = 512 fast sines (x = __sinf(x), one
// sin.approx.f32 per step), timed with clock().
#include "common.h"

#define N 512

extern "C" __global__ void lat_sfu(float *out, unsigned *time) {
    float x = 1.0f + hval(threadIdx.x);
    unsigned t0 = clock32();
#pragma unroll 16
    for (int i = 0; i < N; i++) x = __sinf(x);
    unsigned t1 = clock32();
    out[threadIdx.x] = x;
    time[threadIdx.x] = t1 - t0;
}

int main() {
    float *d_out = device_alloc<float>(32);
    unsigned *d_time = device_alloc<unsigned>(32);
    lat_sfu<<<1, 32>>>(d_out, d_time);
    CHECK_LAUNCH();
    float *out = host_copy(d_out, 32);
    unsigned *time = host_copy(d_time, 32);
    for (int t = 0; t < 32; t++) {
        // __sinf's absolute error on [-pi, pi] is 2^-21.41; sin is a contraction there
        // (|cos| <= 1), so N steps drift by at most N * 2^-21.41 (+ the reference's own).
        double x = 1.0 + hval(t);
        for (int i = 0; i < N; i++) x = sin(x);
        expect_near("out", t, x, out[t], N * 4.0e-7 + 1e-6);
        if (!(out[t] > 0.0f)) mismatch("out > 0", t, x, out[t]);
    }
    metric("lat_sfu", "cycles_per_op", (double)time[0] / N);
    return finish("lat_sfu");
}
