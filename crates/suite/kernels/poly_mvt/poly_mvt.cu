// poly_mvt: x1 += A y1 and x2 += A^T y2 for an n x n row-major matrix A (PolyBench-GPU "MVT",
// the MOTRR paper's Table 2; n = 4096 at paper size). Two kernels, one thread per output
// element, 256-thread CTAs as PolyBench-GPU launches them:
//   mvtRowDot: x1[i] += sum_j A[i][j] y1[j]  - thread i walks row i (a warp reads 32 rows at
//              each step: uncoalesced, each row's line reused over 32 steps);
//   mvtColDot: x2[i] += sum_j A[j][i] y2[j]  - thread i walks column i (a warp reads 32
//              consecutive floats of one row per step: coalesced).
// Each thread starts from its x value, adds the products with explicit fused multiply-adds
// in index order in a register and stores once (one writer per output), so the host repeats
// it bit for bit.

#define MVT_THREADS 256

__global__ void mvtRowDot(const float *A, const float *y1, float *x1, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float *row = A + (size_t)i * n;
    float acc = x1[i];
    for (int j = 0; j < n; j++)
        acc = __fmaf_rn(row[j], y1[j], acc);
    x1[i] = acc;
}

__global__ void mvtColDot(const float *A, const float *y2, float *x2, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = x2[i];
    for (int j = 0; j < n; j++)
        acc = __fmaf_rn(A[(size_t)j * n + i], y2[j], acc);
    x2[i] = acc;
}
