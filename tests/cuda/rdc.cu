// Relocatable device code (-rdc=true) needs device linking, which warpsim does not do yet:
// a clear diagnostic at registration, and launches fail with cudaErrorNoKernelImageForDevice.
// NVCC-FLAGS: -arch=sm_75 -rdc=true
// EXPECT-STDERR: relocatable device code
// NATIVE: warpsim-only: checks warpsim's error for relocatable device code
#include "check.h"

__global__ void k(int *x) { *x = 1; }

int main() {
    int *d;
    CHECK(cudaMalloc(&d, 4));
    k<<<1, 1>>>(d);
    EXPECT_ERR(cudaGetLastError(), cudaErrorNoKernelImageForDevice);
    CHECK(cudaFree(d));
    printf("PASS rdc\n");
    return 0;
}
