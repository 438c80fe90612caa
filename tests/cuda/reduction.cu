// A block reduction with dynamic shared memory (extern __shared__, the third <<<>>>
// argument), __syncthreads, atomics, a 2D grid of 2D blocks, and a struct argument by value.
#include "check.h"

struct Params {
    int n;
    float scale;
    int pad[2];
};

__global__ void reduce(const float *in, float *out, Params p) {
    extern __shared__ float s[];
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int threads = blockDim.x * blockDim.y;
    int block = blockIdx.y * gridDim.x + blockIdx.x;
    int i = block * threads + t;
    s[t] = i < p.n ? in[i] * p.scale : 0.0f;
    __syncthreads();
    for (int k = threads / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) atomicAdd(out, s[0]);
}

int main() {
    const int n = 3000;
    static float h[n];
    double want = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (i % 17) * 0.25f;
        want += h[i] * 2.0;
    }
    float *din, *dout;
    CHECK(cudaMalloc(&din, sizeof h));
    CHECK(cudaMalloc(&dout, sizeof(float)));
    CHECK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dout, 0, sizeof(float)));
    Params p = {n, 2.0f, {0, 0}};
    dim3 block(16, 8), grid(4, (n + 16 * 8 * 4 - 1) / (16 * 8 * 4));
    reduce<<<grid, block, block.x * block.y * sizeof(float)>>>(din, dout, p);
    CHECK(cudaGetLastError());
    float got;
    CHECK(cudaMemcpy(&got, dout, sizeof got, cudaMemcpyDeviceToHost));
    printf("sum %.2f (want %.2f)\n", got, want);
    EXPECT(got == (float)want);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    printf("PASS reduction\n");
    return 0;
}
