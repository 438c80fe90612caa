// A module using an instruction warpsim does not execute (dp4a): a diagnostic at
// registration, then its kernels fail with cudaErrorInvalidPtx; the context stays usable.
// EXPECT-STDERR: unsupported dp4a
// NATIVE: warpsim-only: checks warpsim's error for PTX it does not support
#include "check.h"

__global__ void dot(const int *a, const int *b, int *c) { c[threadIdx.x] = __dp4a(a[threadIdx.x], b[threadIdx.x], 0); }

int main() {
    int *d;
    CHECK(cudaMalloc(&d, 64));
    dot<<<1, 4>>>(d, d, d);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidPtx);
    dot<<<1, 4>>>(d, d, d);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidPtx);
    CHECK(cudaMemset(d, 0, 64));
    CHECK(cudaFree(d));
    printf("PASS invalid_ptx\n");
    return 0;
}
