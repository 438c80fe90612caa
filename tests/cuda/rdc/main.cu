// Relocatable device code (-rdc=true), two units: a kernel here calls a __device__ function
// of scale.cu, which reads a variable and a __constant__ array defined there but written from
// here with cudaMemcpyToSymbol; scale.cu's kernel calls a function of this unit. Each unit has
// its own static `helper` and `which` of the same name, and both use one .weak template
// function and launch one .weak template kernel.
// NVCC-FLAGS: -rdc=true
// EXPECT-PTX: .extern .func  (.param .b32 func_retval0) _Z9scale_addi
// EXPECT-PTX: .weak .entry _Z10fill_twiceIiEvPT_i
#include "../check.h"
#include "shared.h"

static __device__ __noinline__ int helper(int v) { return v + 1000; }
static __device__ int which = 1;

__device__ __noinline__ int from_main(int v) { return helper(v) + which; }

__global__ void main_kernel(int *out, int n) {
    extern __shared__ int tile[];
    int i = threadIdx.x;
    tile[i] = n - 1 - i;
    __syncthreads();
    out[i] = scale_add(tile[i]) + helper(0) + twice(i) + which;
}

__global__ void bump_bias(int by) { bias += by; }

int main() {
    const int n = 64;
    int *d, h[n];
    CHECK(cudaMalloc(&d, sizeof h));
    int f[4] = {1, 2, 3, 4}, b = 11;
    CHECK(cudaMemcpyToSymbol(factors, f, sizeof f));
    CHECK(cudaMemcpyToSymbol(bias, &b, sizeof b));

    main_kernel<<<1, n, n * sizeof(int)>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int v = n - 1 - i;
        int scale_add = 3 * v * f[v & 3] + b + 2;  // scale.cu's helper, bias, its which
        EXPECT(h[i] == scale_add + 1000 + 2 * i + 1);
    }

    scale_kernel<<<1, n, n * sizeof(int)>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int from_main = (n - 1 - i) + 1000 + 1;  // this unit's helper and which
        EXPECT(h[i] == from_main + 2 * i + 2);
    }

    // One template kernel, instantiated by both units, launched from each.
    fill_twice<<<1, n>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(h[i] == 2 * i + 1);
    CHECK(cudaMemset(d, 0, sizeof h));
    scale_fill(d, n);
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(h[i] == 2 * i + 1);

    // Register counts come from the device-linked cubin, as the driver's do.
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, scale_kernel));
    EXPECT(attr.numRegs > 0);

    bump_bias<<<1, 1>>>(5);
    CHECK(cudaGetLastError());
    int got;
    CHECK(cudaMemcpyFromSymbol(&got, bias, sizeof got));
    EXPECT(got == b + 5);
    CHECK(cudaMemcpyFromSymbol(&got, which, sizeof got));
    EXPECT(got == 1);
    EXPECT(scale_unit_which() == 2);
    CHECK(cudaFree(d));

    // A reset loads the linked program again: the variables are back to their initial values.
    CHECK(cudaDeviceReset());
    CHECK(cudaMemcpyFromSymbol(&got, bias, sizeof got));
    EXPECT(got == 7);
    bump_bias<<<1, 1>>>(1);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyFromSymbol(&got, bias, sizeof got));
    EXPECT(got == 8);
    printf("PASS rdc\n");
    return 0;
}
