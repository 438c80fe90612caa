// baws_mm: C = A * B with 16 x 16 shared-memory tiles (BAWS Table 2 "MM": 8 warps/CTA,
// 6 CTAs/SM; ours runs at 5 CTAs/SM, see below).
//
// A is M x K, B is K x N, C is M x N, row-major, all multiples of MM_TILE. Grid
// (N / 16, M / 16), block (16, 16). Per K-tile: load one tile of A and one of B, barrier,
// 16 multiply-adds per thread, barrier (before the tiles are overwritten).
//
// The inner product is the CUDA SDK matrixMul form: the 16 steps of
// acc += As[ty][k] * Bs[k][tx] fully unrolled, i.e. 32 shared loads and 16 fused
// multiply-adds per K-tile with no loop overhead between them. That density of shared loads
// is what keeps the LD/ST unit busy enough for the CTA's warps to drift apart between its
// barriers (docs/barrier-intensity.md: rolled forms with fewer shared loads per instruction
// measure about 10% LRR). The K-tile loop itself stays rolled.
//
// Registers and occupancy on the GTX 480 (256 threads, 2 KB of shared memory): left alone,
// ptxas (nvcc 13.5, sm_75) gives this kernel 38 registers, 3 CTAs/SM. __maxnreg__(24) caps
// it without spills at 23 registers, which GPGPU-Sim rounds up to 24: 32768 / (24 x 256) = 5
// CTAs/SM, one fewer than Table 2's 6. Six would need at most 20, and 24 is ptxas's floor
// here (a __maxnreg__ or -maxrregcount below it is raised to 24), so 5 x 8 is the one
// deviation from Table 2 in the BAWS set (warpsim_suite::occupancy::BAWS_TABLE2 records it
// with this reason).

#define MM_TILE 16

__global__ void __maxnreg__(24) mmTiled(float *C, const float *A, const float *B, int M, int N, int K)
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
#pragma unroll
        for (int k = 0; k < MM_TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M)
        C[row * N + col] = acc;
}
