#include <cuda_fp16.h>
// Half precision arithmetic, __nanosleep, clocks, fences and a spin lock.
__global__ void half_add(const __half* a, const __half* b, __half* c, const __half2* a2, __half2* c2, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = __hadd(a[i], b[i]) * __float2half(0.5f);
        c2[i] = __hfma2(a2[i], a2[i], __half2half2(b[i]));
    }
}

__global__ void spin(int* lock, int* data, long long* clocks) {
    long long t0 = clock64();
    if (threadIdx.x == 0) {
        unsigned ns = 8;
        while (atomicCAS(lock, 0, 1) != 0) { __nanosleep(ns); if (ns < 256) ns *= 2; }
        __threadfence();
        data[blockIdx.x] += 1;
        __threadfence_block();
        atomicExch(lock, 0);
    }
    __syncthreads();
    clocks[blockIdx.x * blockDim.x + threadIdx.x] = clock64() - t0 + clock();
}
