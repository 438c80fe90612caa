// rod_nw: Needleman-Wunsch global alignment score matrix of two sequences of length n
// (n a multiple of NW_B = 16), with Rodinia "nw"'s blocked wavefront: the (n+1) x (n+1)
// score matrix is cut into 16 x 16 blocks and the host launches one kernel per anti-diagonal
// of blocks (nwUpper for the first nb diagonals, nwLower for the remaining nb - 1), one CTA
// of 16 threads per block on the diagonal. A CTA stages its block's substitution scores and
// its top and left borders (already final) in shared memory (barrier), then sweeps the
// block's 31 inner anti-diagonals, a barrier after each, and writes the block back.
// Cell: s[i][j] = max(s[i-1][j-1] + sub(a_i, b_j), s[i-1][j] - gap, s[i][j-1] - gap), with
// sub from a 24 x 24 BLOSUM-like table. Integer: exact.
// Barriers: 1 + 31 per CTA, with one warp per CTA (16 threads), as in Rodinia.

#define NW_B 16

__device__ void nwBlock(int *score, const int *ref, int n, int gap, int bx, int by)
{
    __shared__ int t[NW_B + 1][NW_B + 1];
    __shared__ int sub[NW_B][NW_B];
    const int tx = threadIdx.x;
    const int pitch = n + 1;
    // Block (bx, by) covers score rows by*16+1 .. by*16+16 and columns bx*16+1 .. bx*16+16.
    const int r0 = by * NW_B, c0 = bx * NW_B;
#pragma unroll 1
    for (int r = 0; r < NW_B; r++)
        sub[r][tx] = ref[(r0 + r + 1) * pitch + c0 + tx + 1];
    t[0][tx + 1] = score[r0 * pitch + c0 + tx + 1];
    t[tx + 1][0] = score[(r0 + tx + 1) * pitch + c0];
    if (tx == 0)
        t[0][0] = score[r0 * pitch + c0];
    __syncthreads();
    // Anti-diagonal m of the block: thread tx handles row tx + 1, column m - tx + 1.
#pragma unroll 1
    for (int m = 0; m < 2 * NW_B - 1; m++) {
        const int col = m - tx;
        if (col >= 0 && col < NW_B) {
            const int i = tx + 1, j = col + 1;
            const int diag = t[i - 1][j - 1] + sub[i - 1][j - 1];
            const int up = t[i - 1][j] - gap;
            const int left = t[i][j - 1] - gap;
            t[i][j] = max(diag, max(up, left));
        }
        __syncthreads();
    }
#pragma unroll 1
    for (int r = 0; r < NW_B; r++)
        score[(r0 + r + 1) * pitch + c0 + tx + 1] = t[r + 1][tx + 1];
}

// Diagonal `diag` (0-based) of the upper-left triangle: blocks (bx, by) with bx + by = diag.
__global__ void nwUpper(int *score, const int *ref, int n, int gap, int diag)
{
    const int bx = blockIdx.x, by = diag - blockIdx.x;
    nwBlock(score, ref, n, gap, bx, by);
}

// Diagonal nb - 1 + diag of the lower-right triangle (diag >= 1).
__global__ void nwLower(int *score, const int *ref, int n, int gap, int diag)
{
    const int nb = n / NW_B;
    const int bx = diag + blockIdx.x, by = nb - 1 - blockIdx.x;
    nwBlock(score, ref, n, gap, bx, by);
}
