// ispass_lps: one Jacobi step of the 3-D Laplace equation per launch (the PRO paper's
// Table II "LPS", kernel GPU_laplace3d: 100 CTAs at paper size, a 100^3 grid).
//
// CTAs are 32 x 4 threads over the (i, j) plane (ceil(100/32) x ceil(100/4) = 4 x 25 = 100
// CTAs); each thread marches up its column in k. Per plane the CTA stages the plane's
// 32 x 4 values plus a one-point halo on each side into a shared tile (barrier), reads its
// four in-plane neighbours from the tile and the two out-of-plane neighbours from registers
// (the column's previous and next values, rotated as k advances), then waits at a second
// barrier before the tile is overwritten by the next plane: 2 barriers per plane.
// Boundary points keep their value (Dirichlet); interior points get the mean of their six
// neighbours, summed in a fixed order with explicit round-to-nearest intrinsics so the host
// repeats it bit for bit. Threads outside the grid (partial CTAs in i) stay for the barriers.

#define LPS_BX 32
#define LPS_BY 4

__global__ void GPU_laplace3d(const float *u1, float *u2, int nx, int ny, int nz)
{
    __shared__ float tile[LPS_BY + 2][LPS_BX + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = blockIdx.x * LPS_BX + tx;
    const int j = blockIdx.y * LPS_BY + ty;
    const bool inside = i < nx && j < ny;
    const int plane = nx * ny;
    int ind = j * nx + i;
    float cur = inside ? u1[ind] : 0.0f;
    float below = 0.0f;
    const float sixth = 1.0f / 6.0f;
#pragma unroll 1
    for (int k = 0; k < nz; k++) {
        float above = 0.0f;
        if (inside) {
            if (k + 1 < nz)
                above = u1[ind + plane];
            tile[ty + 1][tx + 1] = cur;
            if (tx == 0 && i > 0)
                tile[ty + 1][0] = u1[ind - 1];
            if (tx == LPS_BX - 1 && i + 1 < nx)
                tile[ty + 1][LPS_BX + 1] = u1[ind + 1];
            if (ty == 0 && j > 0)
                tile[0][tx + 1] = u1[ind - nx];
            if (ty == LPS_BY - 1 && j + 1 < ny)
                tile[LPS_BY + 1][tx + 1] = u1[ind + nx];
        }
        __syncthreads();
        if (inside) {
            float v = cur;
            if (i > 0 && i < nx - 1 && j > 0 && j < ny - 1 && k > 0 && k < nz - 1) {
                float s = __fadd_rn(tile[ty + 1][tx], tile[ty + 1][tx + 2]);
                s = __fadd_rn(s, tile[ty][tx + 1]);
                s = __fadd_rn(s, tile[ty + 2][tx + 1]);
                s = __fadd_rn(s, below);
                s = __fadd_rn(s, above);
                v = __fmul_rn(s, sixth);
            }
            u2[ind] = v;
        }
        __syncthreads();
        below = cur;
        cur = above;
        ind += plane;
    }
}
