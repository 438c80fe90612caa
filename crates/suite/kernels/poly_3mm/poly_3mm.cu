// poly_3mm: G = (A B)(C D), PolyBench-GPU's "3MM" (the KAWS paper's Table 2: 3 kernels of 1024
// CTAs at 512 x 512). Three kernels, one per product, each one thread per output element in
// 32 x 8 thread blocks as PolyBench-GPU launches them:
//   mm3E: E = A B   (ni x nk times nk x nj)
//   mm3F: F = C D   (nj x nm times nm x nl)
//   mm3G: G = E F   (ni x nj times nj x nl), reading the first two kernels' outputs.
// Thread (i, j) walks row i of the left matrix (the 32 threads of a warp read the same value:
// a broadcast) and column j of the right one (32 consecutive floats: coalesced). Each sum is a
// chain of explicit fused multiply-adds in index order, accumulated in a register and stored
// once, so the host repeats it bit for bit.

#define MM3_TX 32
#define MM3_TY 8

// out[i][j] = sum_k left[i][k] right[k][j] for an rows x inner times inner x cols product.
__device__ __forceinline__ void rowTimesColumn(const float *left, const float *right, float *out, int rows, int cols,
                                               int inner)
{
    const int j = blockIdx.x * MM3_TX + threadIdx.x;
    const int i = blockIdx.y * MM3_TY + threadIdx.y;
    if (i >= rows || j >= cols)
        return;
    const float *row = left + (size_t)i * inner;
    float acc = 0.0f;
    for (int k = 0; k < inner; k++)
        acc = __fmaf_rn(row[k], right[(size_t)k * cols + j], acc);
    out[(size_t)i * cols + j] = acc;
}

__global__ void mm3E(const float *A, const float *B, float *E, int ni, int nj, int nk)
{
    rowTimesColumn(A, B, E, ni, nj, nk);
}

__global__ void mm3F(const float *C, const float *D, float *F, int nj, int nl, int nm)
{
    rowTimesColumn(C, D, F, nj, nl, nm);
}

__global__ void mm3G(const float *E, const float *F, float *G, int ni, int nl, int nj)
{
    rowTimesColumn(E, F, G, ni, nl, nj);
}
