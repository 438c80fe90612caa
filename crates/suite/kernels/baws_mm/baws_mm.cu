// baws_mm: C = A * B with 16 x 16 shared-memory tiles (BAWS Table 2 "MM": 8 warps/CTA,
// 6 CTAs/SM).
//
// A is M x K, B is K x N, C is M x N, row-major, all multiples of MM_TILE. Grid
// (N / 16, M / 16), block (16, 16). Per K-tile: load one tile of A and one of B, barrier,
// 16 multiply-adds per thread, barrier (before the tiles are overwritten).
//
// Occupancy on the GTX 480: 256 threads, 2 KB of shared memory; the K-tile loop is kept rolled
// and the 16-step product loop is unrolled only twice so the kernel stays within 20
// registers, and the 1536 thread slots give 6 CTAs/SM.

#define MM_TILE 16

__global__ void mmTiled(float *C, const float *A, const float *B, int M, int N, int K)
{
    __shared__ float As[MM_TILE][MM_TILE];
    __shared__ float Bs[MM_TILE][MM_TILE];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * MM_TILE + ty;
    const int col = blockIdx.x * MM_TILE + tx;

    float acc = 0.0f;
#pragma unroll 1
    for (int t = 0; t < K; t += MM_TILE) {
        As[ty][tx] = A[row * K + t + tx];
        Bs[ty][tx] = B[(t + ty) * N + col];
        __syncthreads();
#pragma unroll 2
        for (int k = 0; k < MM_TILE; ++k)
            acc = fmaf(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < M)
        C[row * N + col] = acc;
}
