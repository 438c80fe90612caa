// Separate compilation as build systems do it: each unit compiled with `nvcc -dc`, the device
// code linked by its own `nvcc -dlink`, the host objects linked by the host compiler. Three
// units: this one (host code and a kernel), poly.cu (a device function), vars.cu (variables
// and a kernel).
// NVCC-FLAGS: -rdc=true
// DEVICE-LINK: separate
#include "../check.h"

__device__ float poly(float x);         // poly.cu
extern __device__ float offset;         // vars.cu
extern __device__ unsigned calls;       // vars.cu
void run_fill(float *out, int n);       // vars.cu

__global__ void eval(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = poly(in[i]) + offset;
        atomicAdd(&calls, 1u);
    }
}

int main() {
    const int n = 1000;
    float *in, *out, h_in[n], h_out[n];
    for (int i = 0; i < n; i++) h_in[i] = 0.01f * i - 3.0f;
    CHECK(cudaMalloc(&in, sizeof h_in));
    CHECK(cudaMalloc(&out, sizeof h_out));
    CHECK(cudaMemcpy(in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    float off = 0.5f;
    CHECK(cudaMemcpyToSymbol(offset, &off, sizeof off));
    eval<<<(n + 127) / 128, 128>>>(in, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        float x = h_in[i], want = (2.0f * x - 1.0f) * x + 3.0f + off;
        EXPECT(fabsf(h_out[i] - want) <= 1e-4f * fabsf(want) + 1e-5f);
    }
    run_fill(out, n);
    CHECK(cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(h_out[i] == off * i);
    unsigned c;
    CHECK(cudaMemcpyFromSymbol(&c, calls, sizeof c));
    EXPECT(c == 2u * n);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    printf("PASS rdc_dlink\n");
    return 0;
}
