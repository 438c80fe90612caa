// Tiled SGEMM, C = A B with 128 x 128 matrices: 16 x 16 CTAs, each loading 16 x 16 tiles of
// A and B into shared memory (two barriers per tile step).
#include "common.h"

#define DIM 128
#define TILE 16

extern "C" __global__ void sgemm(const float *a, const float *b, float *c) {
    __shared__ float ta[TILE][TILE], tb[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < DIM; k0 += TILE) {
        ta[threadIdx.y][threadIdx.x] = a[row * DIM + k0 + threadIdx.x];
        tb[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * DIM + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();
    }
    c[row * DIM + col] = acc;
}

int main() {
    const int n = DIM * DIM;
    float *d_a = device_alloc<float>(n), *d_b = device_alloc<float>(n), *d_c = device_alloc<float>(n);
    setup_floats<<<64, 256>>>(d_a, n, 0);
    CHECK_LAUNCH();
    setup_floats<<<64, 256>>>(d_b, n, 1u << 20);
    CHECK_LAUNCH();
    sgemm<<<dim3(DIM / TILE, DIM / TILE), dim3(TILE, TILE)>>>(d_a, d_b, d_c);
    CHECK_LAUNCH();
    float *c = host_copy(d_c, n);
    for (int i = 0; i < DIM; i++)
        for (int j = 0; j < DIM; j++) {
            // DIM products (|a b| <= 1/4) summed in order, each fma/mul+add rounding once or
            // twice: |error| <= 2 * DIM * 2^-24 * sum|a b|.
            double ref = 0, mag = 0;
            for (int k = 0; k < DIM; k++) {
                double ab = (double)hval(i * DIM + k) * (double)hval((k * DIM + j) + (1u << 20));
                ref += ab;
                mag += fabs(ab);
            }
            expect_near("c", i * DIM + j, ref, c[i * DIM + j], 2.0 * DIM * mag / 16777216.0);
        }
    return finish("sgemm");
}
