// Timing mode under another preset and policy: the device describes titanx-pascal, occupancy
// uses its limits, events measure simulated cycles at its 1417 MHz core clock, and each
// launch's statistics line carries the timing model's numbers.
// ENV: WARPSIM_MODE=timing
// ENV: WARPSIM_CONFIG=titanx-pascal
// ENV: WARPSIM_POLICY=lrr
// EXPECT-STATS: "mode":"timing","config":"titanx-pascal","policy":"lrr","registers":
// EXPECT-STATS: "issue":{"issued":
// EXPECT-STATS: "memory":{"l1d":{"hits":
// NATIVE: warpsim-only: checks warpsim's device name per preset
#include "check.h"
#include <cstring>

__global__ void saxpy(int n, float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    EXPECT(strcmp(p.name, "warpsim (titanx-pascal)") == 0);
    EXPECT(p.multiProcessorCount == 28);
    EXPECT(p.maxThreadsPerMultiProcessor == 2048 && p.maxBlocksPerMultiProcessor == 32);
    EXPECT(p.regsPerMultiprocessor == 65536 && p.sharedMemPerMultiprocessor == 96 * 1024);
    EXPECT(p.l2CacheSize == 3 * 1024 * 1024);
    int v;
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0));
    EXPECT(v == 1417000);
    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, 256, 0));
    EXPECT(blocks == 8); // 2048 threads / 256 (few registers)

    const int n = 28 * 2 * 256;
    float *x, *y, hx[n], hy[n];
    for (int i = 0; i < n; i++) {
        hx[i] = (float)i;
        hy[i] = 1.0f;
    }
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&y, sizeof hy));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    CHECK(cudaEventRecord(a));
    saxpy<<<n / 256, 256>>>(n, 2.0f, x, y);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    // At least the 5000-cycle launch latency of the preset; far below a millisecond.
    printf("saxpy: %d elements in %g simulated ms\n", n, ms);
    EXPECT(ms >= 5000.0f / 1417000.0f && ms < 1.0f);
    CHECK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(hy[i] == 2.0f * i + 1.0f);
    printf("PASS timing_preset\n");
    return 0;
}
