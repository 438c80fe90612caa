// __constant__ arrays and scalars, including initialised ones.
__constant__ float coeffs[16];
__constant__ double dscale = 1.5;
__constant__ int table[8] = {1, -2, 3, -4, 5, -6, 7, -8};
__device__ int counter = 42;
__device__ float gtable[4] = {0.5f, 1.0f, 2.0f, 4.0f};

__global__ void conv(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f;
    #pragma unroll 1
    for (int k = 0; k < 16; ++k) {
        int j = min(max(i + k - 8, 0), n - 1);
        acc += coeffs[k] * in[j];
    }
    out[i] = (float)(acc * dscale) + table[i & 7] + gtable[i & 3] + counter;
}
