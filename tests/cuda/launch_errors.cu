// Errors that leave the context usable: an invalid launch configuration (2048 threads per
// block) reported by the launch and by cudaGetLastError (non-sticky, as in CUDA), copies
// through invalid pointers, bad kinds, bad devices, bad handles, an unsupported entry point.
// EXPECT-STDERR: warpsim: cudaMallocAsync is not supported
#include "check.h"
#include <cstring>

__global__ void touch(int *x) { x[threadIdx.x] = threadIdx.x; }

int main() {
    int *d;
    CHECK(cudaMalloc(&d, 1024 * sizeof(int)));

    // 2048 threads per block.
    touch<<<1, 2048>>>(d);
    EXPECT_ERR(cudaPeekAtLastError(), cudaErrorInvalidConfiguration);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    CHECK(cudaGetLastError());   // cleared: not sticky
    CHECK(cudaDeviceSynchronize());
    // A zero-sized grid, a block too deep, too much shared memory.
    touch<<<0, 32>>>(d);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    touch<<<1, dim3(1, 1, 128)>>>(d);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    touch<<<1, 32, 64 * 1024>>>(d);
    EXPECT(cudaGetLastError() != cudaSuccess);
    // The legacy entry point returns the error directly.
    void *args[] = {&d};
    EXPECT_ERR(cudaLaunchKernel((const void *)touch, dim3(1), dim3(2048), args, 0, 0), cudaErrorInvalidConfiguration);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    // The context still works.
    touch<<<1, 1024>>>(d);
    CHECK(cudaGetLastError());
    int h[1024];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[1000] == 1000);

    // Copies through invalid pointers come back as error codes.
    EXPECT_ERR(cudaMemcpy(h, d + 2048, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);  // past the end
    EXPECT_ERR(cudaMemcpy(d + 1020, h, 64, cudaMemcpyHostToDevice), cudaErrorInvalidValue);  // overruns it
    EXPECT_ERR(cudaMemcpy(h, nullptr, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemcpy(h, h + 4, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);      // host "device" pointer
    EXPECT_ERR(cudaMemcpy(d, h, 16, (cudaMemcpyKind)7), cudaErrorInvalidMemcpyDirection);
    int *freed;
    CHECK(cudaMalloc(&freed, 64));
    CHECK(cudaFree(freed));
    EXPECT_ERR(cudaMemcpy(h, freed, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    EXPECT_ERR(cudaFree(freed), cudaErrorInvalidValue);
    EXPECT_ERR(cudaFree(h), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemset(h, 0, 4), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMalloc(nullptr, 4), cudaErrorInvalidValue);

    // Devices, handles, unsupported calls.
    EXPECT_ERR(cudaSetDevice(1), cudaErrorInvalidDevice);
    cudaDeviceProp p;
    EXPECT_ERR(cudaGetDeviceProperties(&p, 3), cudaErrorInvalidDevice);
    EXPECT_ERR(cudaStreamSynchronize((cudaStream_t)0x1234), cudaErrorInvalidResourceHandle);
    touch<<<1, 1, 0, (cudaStream_t)0x1234>>>(d);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidResourceHandle);
    void *pooled;
    EXPECT_ERR(cudaMallocAsync(&pooled, 64, 0), cudaErrorNotSupported);
    EXPECT_ERR(cudaMallocAsync(&pooled, 64, 0), cudaErrorNotSupported);  // reported once only
    EXPECT_ERR(cudaGetLastError(), cudaErrorNotSupported);

    // Names and messages.
    EXPECT(strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration), "cudaErrorInvalidConfiguration") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorIllegalAddress), "an illegal memory access was encountered") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0);
    EXPECT(strcmp(cudaGetErrorName((cudaError_t)4242), "unrecognized error code") == 0);
    CHECK(cudaGetLastError());
    CHECK(cudaFree(d));
    printf("PASS launch_errors\n");
    return 0;
}
