// cudaLaunchCooperativeKernel: runs like a launch when every CTA fits on the GPU at once,
// else cudaErrorCooperativeLaunchTooLarge; and the argument-array launch path in general.
#include "check.h"

__global__ void fill(int *x, int v) { x[blockIdx.x * blockDim.x + threadIdx.x] = v + threadIdx.x; }

int main() {
    int *d, h[256];
    CHECK(cudaMalloc(&d, sizeof h));
    fill<<<2, 128>>>(d, 1000);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 256; i++) EXPECT(h[i] == 1000 + i % 128);
    fill<<<1, 4096>>>(d, 0);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);

    int v = 7;
    void *args[] = {&d, &v};
    CHECK(cudaLaunchCooperativeKernel((const void *)fill, dim3(2), dim3(128), args, 0, 0));
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[255] == 7 + 127);
    // More CTAs than fit on the GPU at once (15 SMs x 8 CTAs).
    EXPECT_ERR(cudaLaunchCooperativeKernel((const void *)fill, dim3(1000), dim3(32), args, 0, 0),
               cudaErrorCooperativeLaunchTooLarge);
    printf("PASS cooperative\n");
    return 0;
}
