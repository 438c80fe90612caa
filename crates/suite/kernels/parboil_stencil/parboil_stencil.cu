// parboil_stencil: 7-point Jacobi stencil on an nx x ny x nz grid (Parboil's "stencil", the
// MOTRR paper's Table 2 "STC"), one sweep per launch, the host ping-ponging two grids.
//
// Shape of Parboil's block2D_hybrid_coarsen_x: 2-D CTAs of STC_TX x STC_TY threads over the
// (i, j) plane, each thread coarsened to two points in x (i and i + STC_TX), so a CTA covers a
// 2 STC_TX x STC_TY tile and the grid is ceil(nx / 2 STC_TX) x ceil(ny / STC_TY); 32 x 4 threads
// as Parboil 2.5 launches it (64 CTAs on its 128 x 128 x 32 input). Every thread
// marches up its two columns in k. The current plane's tile sits in shared memory (no halo:
// neighbours past the tile's edge come from global memory), the planes below and above in
// registers. Per plane: load the plane above, compute, barrier (everyone has read the tile),
// rotate the tile to the next plane, barrier (the new tile is complete): 2 barriers per
// plane, plus 1 after the first tile is staged.
//
// Boundary points are never written (the host starts both grids from the input). Interior
// points get (west + east + south + north + below + above) * c1 - centre * c0, each operation
// an explicit round-to-nearest intrinsic in that order, so the host repeats it bit for bit.

#define STC_TX 32
#define STC_TY 4

__device__ __forceinline__ float stencilPoint(float c0, float c1, float centre, float west, float east,
                                              float south, float north, float below, float above)
{
    float s = __fadd_rn(west, east);
    s = __fadd_rn(s, south);
    s = __fadd_rn(s, north);
    s = __fadd_rn(s, below);
    s = __fadd_rn(s, above);
    return __fsub_rn(__fmul_rn(s, c1), __fmul_rn(centre, c0));
}

__global__ void stencilCoarsenX(float c0, float c1, const float *in, float *out, int nx, int ny, int nz)
{
    __shared__ float tile[STC_TY][2 * STC_TX];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i0 = blockIdx.x * 2 * STC_TX + tx;
    const int i1 = i0 + STC_TX;
    const int j = blockIdx.y * STC_TY + ty;
    const int plane = nx * ny;
    const bool in0 = i0 < nx && j < ny;
    const bool in1 = i1 < nx && j < ny;
    const bool innerJ = j > 0 && j < ny - 1;
    const bool w0 = in0 && innerJ && i0 > 0 && i0 < nx - 1;
    const bool w1 = in1 && innerJ && i1 < nx - 1; // i1 >= STC_TX > 0
    int c = j * nx + i0; // index of point (i0, j, k); point (i1, j, k) is c + STC_TX

    float below0 = in0 ? in[c] : 0.0f;
    float below1 = in1 ? in[c + STC_TX] : 0.0f;
    tile[ty][tx] = in0 ? in[c + plane] : 0.0f;
    tile[ty][tx + STC_TX] = in1 ? in[c + plane + STC_TX] : 0.0f;
    __syncthreads();

    for (int k = 1; k < nz - 1; k++) {
        c += plane;
        const float above0 = in0 ? in[c + plane] : 0.0f;
        const float above1 = in1 ? in[c + plane + STC_TX] : 0.0f;
        if (w0) {
            const float west = tx == 0 ? in[c - 1] : tile[ty][tx - 1];
            const float south = ty == 0 ? in[c - nx] : tile[ty - 1][tx];
            const float north = ty == STC_TY - 1 ? in[c + nx] : tile[ty + 1][tx];
            out[c] = stencilPoint(c0, c1, tile[ty][tx], west, tile[ty][tx + 1], south, north, below0, above0);
        }
        if (w1) {
            const int c1i = c + STC_TX;
            const float east = tx == STC_TX - 1 ? in[c1i + 1] : tile[ty][tx + STC_TX + 1];
            const float south = ty == 0 ? in[c1i - nx] : tile[ty - 1][tx + STC_TX];
            const float north = ty == STC_TY - 1 ? in[c1i + nx] : tile[ty + 1][tx + STC_TX];
            out[c1i] = stencilPoint(c0, c1, tile[ty][tx + STC_TX], tile[ty][tx + STC_TX - 1], east, south, north,
                                    below1, above1);
        }
        __syncthreads();
        below0 = tile[ty][tx];
        below1 = tile[ty][tx + STC_TX];
        tile[ty][tx] = above0;
        tile[ty][tx + STC_TX] = above1;
        __syncthreads();
    }
}
