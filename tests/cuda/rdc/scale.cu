// The second unit of the rdc program (see main.cu).
#include "../check.h"
#include "shared.h"

static __device__ __noinline__ int helper(int v) { return v * 3; }
static __device__ int which = 2;
__device__ int bias = 7;
__constant__ int factors[4];

__device__ __noinline__ int scale_add(int v) { return helper(v) * factors[v & 3] + bias + which; }

__global__ void scale_kernel(int *out, int n) {
    extern __shared__ int buf[];
    int i = threadIdx.x;
    buf[i] = from_main(i);
    __syncthreads();
    if (i < n) out[i] = buf[n - 1 - i] + twice(i) + which;
}

int scale_unit_which() {
    int w;
    CHECK(cudaMemcpyFromSymbol(&w, which, sizeof w));
    return w;
}

void scale_fill(int *out, int n) {
    fill_twice<<<1, n>>>(out, n);
    CHECK(cudaGetLastError());
}
