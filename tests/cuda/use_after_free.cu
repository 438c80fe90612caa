// Memory freed by cudaFree, or by a kernel's free(), and then used: cudaErrorIllegalAddress,
// reported as a use after free naming the allocation, the call that made it and the call
// that freed it.
// EXPECT-STDERR: write after free of 4 bytes at 0x
// EXPECT-STDERR: inside a 1024-byte allocation at 0x
// EXPECT-STDERR: (cudaMalloc call 2), freed by cudaFree call 1; 32 of the warp's 32 active threads fault
// EXPECT-STDERR: read after free of 4 bytes at 0x
// EXPECT-STDERR: (device malloc call 1), freed by device free call 1; 1 of the warp's 1 active thread faults
// NATIVE: warpsim-only: a GPU does not detect a use after free; warpsim's memory checker does
#include "check.h"

__global__ void fill(int *x, int v) { x[threadIdx.x] = v; }

// Thread 0 takes a block from the device heap, frees it, then reads it.
__global__ void dangling(int *out) {
    if (threadIdx.x != 0) return;
    int *p = (int *)malloc(4 * sizeof(int));
    p[0] = 7;
    free(p);
    out[0] = ((volatile int *)p)[0];
}

int main() {
    int *keep, *gone;
    CHECK(cudaMalloc(&keep, 256 * sizeof(int)));
    CHECK(cudaMalloc(&gone, 256 * sizeof(int)));
    fill<<<1, 32>>>(gone, 1);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(gone));
    fill<<<1, 32>>>(gone, 2);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);

    CHECK(cudaDeviceReset());
    int *out;
    CHECK(cudaMalloc(&out, sizeof(int)));
    dangling<<<1, 32>>>(out);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    printf("PASS use_after_free\n");
    return 0;
}
