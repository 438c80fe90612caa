// A __managed__ variable: registration (__cudaRegisterManagedVar, __cudaInitModule) must not
// crash; managed memory is not supported, reported once, and the rest of the program works.
// EXPECT-STDERR: __managed__ variables are not supported (`counter`)
#include "check.h"

__managed__ int counter;

__global__ void bump() { atomicAdd(&counter, 1); }
__global__ void fill(int *x) { x[threadIdx.x] = 2 * threadIdx.x; }

int main() {
    int *d, h[32];
    CHECK(cudaMalloc(&d, sizeof h));
    fill<<<1, 32>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[31] == 62);
    void *p;
    EXPECT_ERR(cudaMallocManaged(&p, 16), cudaErrorNotSupported);
    printf("PASS managed\n");
    return 0;
}
