// Dependent integer latency: one warp runs a chain of N = 1024 multiply-adds (x = x * x + k, one
// mad.lo per step, each needing the previous result), timed with clock().
#include "common.h"

#define N 1024

extern "C" __global__ void lat_int(unsigned *out, unsigned *time, unsigned k) {
    unsigned x = hash32(threadIdx.x);
    unsigned t0 = clock32();
#pragma unroll 16
    for (int i = 0; i < N; i++) x = x * x + k;
    unsigned t1 = clock32();
    out[threadIdx.x] = x;
    time[threadIdx.x] = t1 - t0;
}

int main() {
    const unsigned k = 0x9e3779b9u;
    unsigned *d_out = device_alloc<unsigned>(32), *d_time = device_alloc<unsigned>(32);
    lat_int<<<1, 32>>>(d_out, d_time, k);
    CHECK_LAUNCH();
    unsigned *out = host_copy(d_out, 32), *time = host_copy(d_time, 32);
    for (int t = 0; t < 32; t++) {
        unsigned x = hash32(t);
        for (int i = 0; i < N; i++) x = x * x + k;
        expect_eq("out", t, x, out[t]);
    }
    metric("lat_int", "cycles_per_op", (double)time[0] / N);
    return finish("lat_int");
}
