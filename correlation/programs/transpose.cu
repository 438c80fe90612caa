// Matrix transpose through shared memory: 256 x 256 floats, 8 x 8 CTAs of 32 x 8 threads,
// each moving a 32 x 32 tile (4 rows per thread) through a padded shared tile [32][33]
// (conflict-free column reads), coalesced loads and stores, one barrier.
#include "common.h"

#define N 256
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose(const float *in, float *out) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
    float *d_in = device_alloc<float>(N * N), *d_out = device_alloc<float>(N * N);
    setup_floats<<<64, 256>>>(d_in, N * N, 0);
    CHECK_LAUNCH();
    transpose<<<dim3(N / TILE, N / TILE), dim3(TILE, ROWS)>>>(d_in, d_out);
    CHECK_LAUNCH();
    float *got = host_copy(d_out, N * N);
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) expect_eq("out", y * N + x, hval(x * N + y), got[y * N + x]);
    return finish("transpose");
}
