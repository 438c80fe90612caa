// poly_atax: y = A^T (A x) for an nx x ny row-major matrix A (PolyBench-GPU "ATAX", the MOTRR
// paper's Table 2; 4096 x 4096 at paper size). Two kernels, one thread per output element,
// 256-thread CTAs as PolyBench-GPU launches them:
//   ataxRowDot: tmp[i] = sum_j A[i][j] x[j]  - thread i walks row i, so the 32 threads of a
//               warp read 32 different rows at each step (uncoalesced; each row's 128-byte
//               line is reused over 32 steps: the intra-warp locality GTO keeps in L1);
//   ataxColDot: y[j] = sum_i A[i][j] tmp[i]  - thread j walks column j, a warp reads 32
//               consecutive floats of one row per step (coalesced).
// Each sum is a chain of explicit fused multiply-adds in index order, accumulated in a
// register and stored once (one writer per output), so the host repeats it bit for bit.

#define ATAX_THREADS 256

__global__ void ataxRowDot(const float *A, const float *x, float *tmp, int nx, int ny)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nx)
        return;
    const float *row = A + (size_t)i * ny;
    float acc = 0.0f;
    for (int j = 0; j < ny; j++)
        acc = __fmaf_rn(row[j], x[j], acc);
    tmp[i] = acc;
}

__global__ void ataxColDot(const float *A, const float *tmp, float *y, int nx, int ny)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= ny)
        return;
    float acc = 0.0f;
    for (int i = 0; i < nx; i++)
        acc = __fmaf_rn(A[(size_t)i * ny + j], tmp[i], acc);
    y[j] = acc;
}
