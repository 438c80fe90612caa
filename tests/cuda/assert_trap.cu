// A failed device-side assert gives cudaErrorAssert (sticky); after cudaDeviceReset a trap
// gives cudaErrorLaunchFailure.
// EXPECT-STDERR: device assertion
#include "check.h"
#include <cassert>

__global__ void checked(const int *x) { assert(x[threadIdx.x] >= 0); }
__global__ void trapping() { if (threadIdx.x == 5) asm volatile("trap;"); }

int main() {
    int h[32], *d;
    for (int i = 0; i < 32; i++) h[i] = i == 7 ? -1 : i;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    checked<<<1, 32>>>(d);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorAssert);
    EXPECT_ERR(cudaGetLastError(), cudaErrorAssert);
    CHECK(cudaDeviceReset());
    trapping<<<1, 32>>>();
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    CHECK(cudaDeviceReset());
    printf("PASS assert_trap\n");
    return 0;
}
