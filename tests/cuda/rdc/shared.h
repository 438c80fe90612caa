// What the units of the rdc program (main.cu, scale.cu) share. With -rdc=true each
// declaration here is resolved by the device link, across units.
#pragma once

__device__ int scale_add(int v);                // scale.cu
extern __device__ int bias;                     // scale.cu
extern __constant__ int factors[4];             // scale.cu
__device__ int from_main(int v);                // main.cu: calls go both ways
__global__ void scale_kernel(int *out, int n);  // scale.cu, launched from main.cu
int scale_unit_which();                         // scale.cu: reads its own static `which`

// Emitted .weak in both units (a template instantiated in each): the link keeps one.
template <typename T>
__device__ __noinline__ T twice(T v) { return v * 2; }

// A template kernel both units instantiate (.weak .entry in each) and launch.
template <typename T>
__global__ void fill_twice(T *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = twice(T(i)) + 1;
}
void scale_fill(int *out, int n);  // scale.cu: launches fill_twice<int> from that unit
