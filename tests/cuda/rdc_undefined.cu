// A relocatable-device-code program calling a __device__ function no unit defines. Built for
// PTX only, nvcc's device link leaves the linking to the driver at load time, so the program
// builds; loading its device code must fail, naming the function, and launches must fail.
// NVCC-FLAGS: -gencode arch=compute_75,code=compute_75 -rdc=true
// EXPECT-STDERR: undefined external function `missing(int)` (`_Z7missingi`), used by translation unit 1 of 1 (defines k(int*))
// NATIVE: warpsim-only: checks warpsim's message for an unresolved device symbol
#include "check.h"

__device__ int missing(int v);

__global__ void k(int *x) { *x = missing(1); }

int main() {
    int *d;
    CHECK(cudaMalloc(&d, 4));
    k<<<1, 1>>>(d);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidPtx);
    CHECK(cudaFree(d));
    printf("PASS rdc_undefined\n");
    return 0;
}
