// A trap instruction in a kernel gives cudaErrorLaunchFailure ("unspecified launch failure",
// CUDA's error for an exception during a kernel), sticky: later calls return it too. In a
// process of its own, with no earlier error (assert_trap.cu's trap follows a cudaDeviceReset
// after an assert, which only warpsim recovers from).
#include "check.h"

__global__ void trapping(int *x) {
    if (threadIdx.x == 5) asm volatile("trap;");
    x[threadIdx.x] = 1;
}

int main() {
    int *d;
    CHECK(cudaMalloc(&d, 32 * sizeof(int)));
    trapping<<<1, 32>>>(d);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_ERR(cudaGetLastError(), cudaErrorLaunchFailure);
    EXPECT_ERR(cudaMalloc(&d, 16), cudaErrorLaunchFailure);  // sticky
    printf("PASS trap\n");
    return 0;
}
