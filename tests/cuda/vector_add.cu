// The basic path: cudaMalloc, copies both ways, a <<<>>> launch (CUDA 13's __cudaGetKernel +
// __cudaLaunchKernel), an explicit cudaLaunchKernel, cudaGetLastError, cudaFree. The test
// script also checks the WARPSIM_STATS line of the launch.
// EXPECT-STATS: {"kernel":"vecAdd(float const*, float const*, float*, int)","kernel_mangled":"_Z6vecAddPKfS0_Pfi","grid":[4,1,1],"block":[256,1,1],"warp_instructions":
#include "check.h"

__global__ void vecAdd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void scale(float *x, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}

int main() {
    const int n = 1000;
    float a[n], b[n], c[n];
    for (int i = 0; i < n; i++) {
        a[i] = i;
        b[i] = 2 * i + 1;
    }
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, n * sizeof(float)));
    CHECK(cudaMalloc(&db, n * sizeof(float)));
    CHECK(cudaMalloc(&dc, n * sizeof(float)));
    CHECK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    vecAdd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(c[i] == 3 * i + 1);

    // The runtime API's own launch call, with an argument array.
    float s = 0.5f;
    int nn = n;
    void *args[] = {&dc, &s, &nn};
    CHECK(cudaLaunchKernel((const void *)scale, dim3(8), dim3(128), args, 0, 0));
    CHECK(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDefault));
    for (int i = 0; i < n; i++) EXPECT(c[i] == (3 * i + 1) * 0.5f);

    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    CHECK(cudaFree(nullptr));
    printf("PASS vector_add\n");
    return 0;
}
