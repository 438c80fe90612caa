// An out-of-bounds write in a kernel: cudaErrorIllegalAddress from the launch's
// synchronisation and cudaGetLastError, sticky (later calls fail too) until cudaDeviceReset,
// after which the modules are loaded again and kernels work.
// EXPECT-STDERR: warpsim: cudaErrorIllegalAddress in kernel `write(int*, int)`
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
