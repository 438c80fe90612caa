// A failed device-side assert gives cudaErrorAssert, sticky (measured on an H200, CUDA 13.0
// driver, 2026-11-28). After cudaDeviceReset warpsim runs a trap, cudaErrorLaunchFailure:
// WARPSIM_ONLY, because CUDA's docs say of cudaErrorAssert "the device cannot be used again
// ... the process must be terminated and relaunched", and on the H200 the launch after
// cudaDeviceReset failed with cudaErrorDevicesUnavailable (what the docs lead one to expect;
// the exact code may also be an artefact of the VM the GPU ran in). warpsim's reset recovers
// from sticky errors, a leniency (crates/cudart/README.md, "Stricter than a GPU"); trap.cu
// checks a trap natively.
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
    WARPSIM_ONLY(trapping<<<1, 32>>>());
    WARPSIM_ONLY(EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorLaunchFailure));
    WARPSIM_ONLY(CHECK(cudaDeviceReset()));
    printf("PASS assert_trap\n");
    return 0;
}
