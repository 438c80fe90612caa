// Issue throughput: 60 CTAs x 256 threads, each thread running four independent fma chains
// (no dependence stalls once enough warps are resident), so cycles ~ warp instructions /
// issue rate.
#include "common.h"

#define CTAS 60
#define THREADS 256
#define ITERS 32

extern "C" __global__ void alu_stream(float *out, float a, float b) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    float x0 = hval(4 * tid), x1 = hval(4 * tid + 1), x2 = hval(4 * tid + 2), x3 = hval(4 * tid + 3);
#pragma unroll 8
    for (int i = 0; i < ITERS; i++) {
        x0 = fmaf(x0, a, b);
        x1 = fmaf(x1, a, b);
        x2 = fmaf(x2, a, b);
        x3 = fmaf(x3, a, b);
    }
    out[tid] = (x0 + x1) + (x2 + x3);
}

int main() {
    const float a = 0.999f, b = 0.25f;
    const int n = CTAS * THREADS;
    float *d_out = device_alloc<float>(n);
    alu_stream<<<CTAS, THREADS>>>(d_out, a, b);
    CHECK_LAUNCH();
    float *out = host_copy(d_out, n);
    for (int t = 0; t < n; t++) {
        float x[4];
        for (int j = 0; j < 4; j++) {
            x[j] = hval(4 * t + j);
            for (int i = 0; i < ITERS; i++) x[j] = fmaf(x[j], a, b);
        }
        // Per chain as lat_fp32 (|x| < 251, two roundings a step), then three adds.
        double bound = 4 * ITERS * 2.0 * 251.0 / 16777216.0 + 3 * 1004.0 / 16777216.0;
        expect_near("out", t, (x[0] + x[1]) + (x[2] + x[3]), out[t], bound);
    }
    return finish("alu_stream");
}
