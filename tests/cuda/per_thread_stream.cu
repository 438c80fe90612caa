// Built with --default-stream per-thread: launches use __cudaLaunchKernel_ptsz and copies
// the _ptds/_ptsz entry points.
// NVCC-FLAGS: --default-stream per-thread
#include "check.h"

__device__ int total;

__global__ void add(const int *x, int n) {
    int i = threadIdx.x;
    if (i < n) atomicAdd(&total, x[i]);
}

int main() {
    int h[100], *d, zero = 0, got = 0;
    for (int i = 0; i < 100; i++) h[i] = i;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyToSymbol(total, &zero, sizeof zero));
    CHECK(cudaMemsetAsync(d + 50, 0, 50 * sizeof(int), 0));
    add<<<1, 128>>>(d, 100);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(0));
    CHECK(cudaMemcpyFromSymbol(&got, total, sizeof got));
    EXPECT(got == 49 * 50 / 2);
    printf("PASS per_thread_stream\n");
    return 0;
}
