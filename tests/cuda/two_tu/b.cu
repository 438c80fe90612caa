// The second translation unit of two_tu (see a.cu).
#include "../check.h"

static __device__ int which = 2;
__device__ int b_counter;

__global__ void b_kernel(int *x, int n) {
    int i = threadIdx.x;
    if (i < n) {
        x[i] = x[i] * 2 + which;
        atomicAdd(&b_counter, 1);
    }
}

void run_b(int *x, int n) {
    b_kernel<<<1, n>>>(x, n);
    CHECK(cudaGetLastError());
}

int read_b_counter() {
    int c;
    CHECK(cudaMemcpyFromSymbol(&c, b_counter, sizeof c));
    return c;
}
