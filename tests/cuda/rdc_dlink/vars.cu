// Variables another unit uses, and a kernel of this unit that uses them too (see main.cu).
#include "../check.h"

__device__ float offset;
__device__ unsigned calls;

__global__ void fill(float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = offset * i;
        atomicAdd(&calls, 1u);
    }
}

void run_fill(float *out, int n) {
    fill<<<(n + 255) / 256, 256>>>(out, n);
    CHECK(cudaGetLastError());
}
