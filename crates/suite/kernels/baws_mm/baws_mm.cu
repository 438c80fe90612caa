// baws_mm: C = A * B with 16 x 16 shared-memory tiles (BAWS Table 2 "MM": 8 warps/CTA,
// 6 CTAs/SM).
//
// A is M x K, B is K x N, C is M x N, row-major, all multiples of MM_TILE. Grid
// (N / 16, M / 16), block (16, 16). Per K-tile: load one tile of A and one of B, barrier,
// 16 multiply-adds per thread, barrier (before the tiles are overwritten).
//
// Occupancy on the GTX 480: 256 threads, 2 KB of shared memory, and at most 20 registers so
// that the 32768-register file holds 6 CTAs (GPGPU-Sim rounds registers up to a multiple of
// 4). The CUDA SDK kernel this follows unrolls the 16-step inner product completely; ptxas
// for sm_75 then needs 38 registers (23 at its lowest limit, 24), i.e. 3 or 5 CTAs/SM. So the
// K-tile loop stays rolled and the inner product walks a row of As and a column of Bs by
// pointer, two steps per iteration: one pointer compare ends the loop (10 instructions per
// two steps, 4 of them shared loads), and ptxas needs 20 registers.

#define MM_TILE 16

__global__ void mmTiled(float *C, const float *A, const float *B, int M, int N, int K)
{
    __shared__ float As[MM_TILE][MM_TILE];
    __shared__ float Bs[MM_TILE][MM_TILE];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * MM_TILE + ty;
    const int col = blockIdx.x * MM_TILE + tx;
    const float *aRow = &As[ty][0];
    const float *bCol = &Bs[0][tx];

    float acc = 0.0f;
#pragma unroll 1
    for (int t = 0; t < K; t += MM_TILE) {
        As[ty][tx] = A[row * K + t + tx];
        Bs[ty][tx] = B[(t + ty) * N + col];
        __syncthreads();
        const float *a = aRow, *b = bCol;
#pragma unroll 1
        for (; a < aRow + MM_TILE; a += 2, b += 2 * MM_TILE) {
            acc = fmaf(a[0], b[0], acc);
            acc = fmaf(a[1], b[MM_TILE], acc);
        }
        __syncthreads();
    }
    if (row < M)
        C[row * N + col] = acc;
}
