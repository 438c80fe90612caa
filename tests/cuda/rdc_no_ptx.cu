// A relocatable-device-code program built for SASS only: its unit carries no PTX, so there is
// nothing warpsim can link; a clear diagnostic at registration, and launches fail with
// cudaErrorNoKernelImageForDevice, as for a whole-program SASS-only build (no_ptx.cu).
// NVCC-FLAGS: -gencode arch=compute_75,code=sm_75 -rdc=true
// EXPECT-STDERR: translation unit 1 of 1 of this relocatable-device-code program embeds no PTX (only sm_75)
// NATIVE: warpsim-only: checks warpsim's error for a program without PTX
#include "check.h"

__global__ void k(int *x) { *x = 1; }

int main() {
    int *d;
    CHECK(cudaMalloc(&d, 4));
    k<<<1, 1>>>(d);
    EXPECT_ERR(cudaGetLastError(), cudaErrorNoKernelImageForDevice);
    CHECK(cudaFree(d));
    printf("PASS rdc_no_ptx\n");
    return 0;
}
