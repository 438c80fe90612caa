// poly_bicg: the BiCGStab sub-kernel s = A^T r and q = A p for an nx x ny row-major matrix A
// (PolyBench-GPU "BICG", the MOTRR paper's Table 2; 4096 x 4096 at paper size). Two kernels in
// PolyBench-GPU's order, one thread per output element, 256-thread CTAs:
//   bicgColDot: s[j] = sum_i r[i] A[i][j]  - thread j walks column j (a warp reads 32
//               consecutive floats of one row per step: coalesced);
//   bicgRowDot: q[i] = sum_j A[i][j] p[j]  - thread i walks row i (a warp reads 32 rows at
//               each step: uncoalesced, each row's line reused over 32 steps).
// Each sum is a chain of explicit fused multiply-adds in index order, accumulated in a
// register and stored once (one writer per output), so the host repeats it bit for bit.

#define BICG_THREADS 256

__global__ void bicgColDot(const float *A, const float *r, float *s, int nx, int ny)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= ny)
        return;
    float acc = 0.0f;
    for (int i = 0; i < nx; i++)
        acc = __fmaf_rn(r[i], A[(size_t)i * ny + j], acc);
    s[j] = acc;
}

__global__ void bicgRowDot(const float *A, const float *p, float *q, int nx, int ny)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nx)
        return;
    const float *row = A + (size_t)i * ny;
    float acc = 0.0f;
    for (int j = 0; j < ny; j++)
        acc = __fmaf_rn(row[j], p[j], acc);
    q[i] = acc;
}
