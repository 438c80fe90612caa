// 32-bit shared addresses wrap (issue 19, item 1). A windowed sum over a shared array with a
// run-time radius: nvcc 13.5 (-arch=sm_75) unrolls the loop by four and addresses the four
// elements as `add.s32 %r71, %r74, -8; ld.shared.u32 %r63, [%r71+4]` (…+8, +12), where %r71
// points at element i = t - r (+ a multiple of 4). For threads t < r that element is below the
// array, so the register holds a negative (wrapped) offset and only the immediate brings the
// access back in bounds, as the hardware's 32-bit shared address arithmetic does.
#include "check.h"

__global__ void window_sum(const int *in, int *out, int r) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    int sum = 0;
    for (int i = t - r; i <= t + r; i++)
        if (i >= 0 && i < (int)blockDim.x) sum += s[i];
    out[blockIdx.x * blockDim.x + t] = sum;
}

int main() {
    const int block = 128, grid = 3, n = block * grid;
    static int h[n], got[n];
    for (int i = 0; i < n; i++) h[i] = (i * 37) % 101 - 50;
    int *din, *dout;
    CHECK(cudaMalloc(&din, sizeof h));
    CHECK(cudaMalloc(&dout, sizeof got));
    CHECK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
    const int radii[] = {1, 2, 3, 5, 9};
    for (int r : radii) {
        window_sum<<<grid, block>>>(din, dout, r);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
        for (int b = 0; b < grid; b++)
            for (int t = 0; t < block; t++) {
                int want = 0;
                for (int i = t - r; i <= t + r; i++)
                    if (i >= 0 && i < block) want += h[b * block + i];
                if (got[b * block + t] != want) {
                    fprintf(stderr, "FAIL r=%d block %d thread %d: %d, want %d\n", r, b, t, got[b * block + t], want);
                    return 1;
                }
            }
    }
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    printf("PASS shared_wrap\n");
    return 0;
}
