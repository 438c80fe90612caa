// An out-of-bounds write in a kernel: cudaErrorIllegalAddress from the launch's
// synchronisation and cudaGetLastError, sticky (later calls fail too) until cudaDeviceReset,
// after which the modules are loaded again and kernels work.
// The report names the buffer, the distance from its end and the threads that fault
// (compute-sanitizer's memcheck style): thread 100 is the first, threads 100..127 of its warp.
// EXPECT-STDERR: warpsim: cudaErrorIllegalAddress in kernel `write(int*, int)`
// EXPECT-STDERR: (Global space): 0 bytes after the end of a 400-byte allocation at 0x
// EXPECT-STDERR: (cudaMalloc call 1); 28 of the warp's 32 active threads fault, the first at kernel `write(int*, int)`, CTA (1,0,0), thread (36,0,0)
// NATIVE: warpsim-only: a GPU does not detect these out-of-bounds accesses; warpsim's memory checker does
#include "check.h"

__global__ void write(int *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = i;  // no bounds check: the grid is larger than the buffer
}

int main() {
    int *d;
    CHECK(cudaMalloc(&d, 100 * sizeof(int)));
    write<<<1, 100>>>(d, 100);
    CHECK(cudaDeviceSynchronize());
    write<<<4, 64>>>(d, 100);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    EXPECT_ERR(cudaGetLastError(), cudaErrorIllegalAddress);
    // Sticky: the context is unusable.
    EXPECT_ERR(cudaGetLastError(), cudaErrorIllegalAddress);
    int *e;
    EXPECT_ERR(cudaMalloc(&e, 16), cudaErrorIllegalAddress);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    // Queries still answer.
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    EXPECT(count == 1);

    CHECK(cudaDeviceReset());
    CHECK(cudaGetLastError());
    CHECK(cudaMalloc(&d, 100 * sizeof(int)));
    write<<<1, 100>>>(d, 100);
    CHECK(cudaDeviceSynchronize());
    int h[100];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[99] == 99);
    printf("PASS illegal_address\n");
    return 0;
}
