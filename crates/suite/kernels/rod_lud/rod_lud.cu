// rod_lud: blocked LU decomposition without pivoting (Rodinia "lud" structure), in place on an
// n x n row-major matrix, n a multiple of LUD_B = 16. For each diagonal block d the host
// launches, in order:
//   ludDiagonal   one CTA of 16 x 16 threads factors the diagonal tile A_dd = L_dd U_dd in
//                 shared memory (right-looking, one column per step).
//   ludPerimeter  one CTA per remaining block index b > d (2 x 16 threads): the first 16
//                 threads solve L_dd U_db = A_db (one column of U each, forward substitution),
//                 the other 16 solve L_bd U_dd = A_bd (one row of L each).
//   ludInternal   one CTA of 16 x 16 threads per trailing tile (i, j > d): A_ij -= L_id U_dj.
// Barriers: ludDiagonal has one after loading and two per column step (the tile is shared
// by all threads: 31 in all); ludPerimeter one after staging the diagonal tile; ludInternal
// one after staging the L and U tiles. The trailing update, which does nearly all the work, has a single barrier.
// Every float operation is an explicit round-to-nearest intrinsic in a fixed order, so the
// host repeats the algorithm in f32 and compares bit for bit.

#define LUD_B 16

__global__ void ludDiagonal(float *a, int n, int d)
{
    __shared__ float t[LUD_B][LUD_B];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int base = d * LUD_B * n + d * LUD_B;
    t[ty][tx] = a[base + ty * n + tx];
    __syncthreads();
#pragma unroll 1
    for (int k = 0; k < LUD_B - 1; k++) {
        // Multipliers of column k, then the rank-1 update of the trailing part.
        if (tx == k && ty > k)
            t[ty][k] = __fdiv_rn(t[ty][k], t[k][k]);
        __syncthreads();
        if (ty > k && tx > k)
            t[ty][tx] = __fsub_rn(t[ty][tx], __fmul_rn(t[ty][k], t[k][tx]));
        __syncthreads();
    }
    a[base + ty * n + tx] = t[ty][tx];
}

__global__ void ludPerimeter(float *a, int n, int d)
{
    __shared__ float dia[LUD_B][LUD_B];
    const int tid = threadIdx.x;
    const int b = d + 1 + blockIdx.x;
    const int diag = d * LUD_B * n + d * LUD_B;
    for (int i = tid; i < LUD_B * LUD_B; i += blockDim.x)
        dia[i / LUD_B][i % LUD_B] = a[diag + (i / LUD_B) * n + i % LUD_B];
    __syncthreads();
    if (tid < LUD_B) {
        // Column tid of U_db: unit-lower forward substitution, in place in global memory.
        float *u = a + d * LUD_B * n + b * LUD_B + tid;
        float col[LUD_B];
#pragma unroll
        for (int i = 0; i < LUD_B; i++)
            col[i] = u[i * n];
#pragma unroll
        for (int i = 1; i < LUD_B; i++)
#pragma unroll
            for (int k = 0; k < i; k++)
                col[i] = __fsub_rn(col[i], __fmul_rn(dia[i][k], col[k]));
#pragma unroll
        for (int i = 0; i < LUD_B; i++)
            u[i * n] = col[i];
    } else {
        // Row (tid - 16) of L_bd: substitution against the upper factor.
        float *l = a + (b * LUD_B + tid - LUD_B) * n + d * LUD_B;
        float row[LUD_B];
#pragma unroll
        for (int j = 0; j < LUD_B; j++)
            row[j] = l[j];
#pragma unroll
        for (int j = 0; j < LUD_B; j++) {
#pragma unroll
            for (int k = 0; k < j; k++)
                row[j] = __fsub_rn(row[j], __fmul_rn(row[k], dia[k][j]));
            row[j] = __fdiv_rn(row[j], dia[j][j]);
        }
#pragma unroll
        for (int j = 0; j < LUD_B; j++)
            l[j] = row[j];
    }
}

__global__ void ludInternal(float *a, int n, int d)
{
    __shared__ float l[LUD_B][LUD_B];
    __shared__ float u[LUD_B][LUD_B];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int bi = d + 1 + blockIdx.y, bj = d + 1 + blockIdx.x;
    l[ty][tx] = a[(bi * LUD_B + ty) * n + d * LUD_B + tx];
    u[ty][tx] = a[(d * LUD_B + ty) * n + bj * LUD_B + tx];
    __syncthreads();
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < LUD_B; k++)
        s = __fadd_rn(s, __fmul_rn(l[ty][k], u[k][tx]));
    float *p = a + (bi * LUD_B + ty) * n + bj * LUD_B + tx;
    *p = __fsub_rn(*p, s);
}
