// Built with SASS only (no PTX): warpsim has nothing to run, so launches fail with
// cudaErrorNoKernelImageForDevice and a diagnostic says how to rebuild.
// NVCC-FLAGS: -gencode arch=compute_75,code=sm_75
// EXPECT-STDERR: the program embeds no PTX
// NATIVE: warpsim-only: checks warpsim's error for a program without PTX (native builds embed code for the GPU)
#include "check.h"

__global__ void k(int *x) { *x = 1; }

int main() {
    int *d;
    CHECK(cudaMalloc(&d, 4));
    k<<<1, 1>>>(d);
    EXPECT_ERR(cudaGetLastError(), cudaErrorNoKernelImageForDevice);
    cudaFuncAttributes fa;
    EXPECT_ERR(cudaFuncGetAttributes(&fa, k), cudaErrorNoKernelImageForDevice);
    CHECK(cudaFree(d));
    printf("PASS no_ptx\n");
    return 0;
}
