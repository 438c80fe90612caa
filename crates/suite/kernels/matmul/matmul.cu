// matmul: C = A * B with 16x16 tiles staged in shared memory.
//
// A is M x K, B is K x N, C is M x N, all row-major; M, N and K are multiples of TILE.
// Grid (N / TILE, M / TILE), block (TILE, TILE). Two barriers per K-tile: one after the
// tile is loaded, one before it is overwritten.

#define TILE 16

__global__ void matmulTiled(float *C, const float *A, const float *B, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;

    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = A[row * K + (t + tx)];
        Bs[ty][tx] = B[(t + ty) * N + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
