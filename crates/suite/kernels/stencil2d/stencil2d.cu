// stencil2d: one Jacobi sweep of a 5-point stencil on a w x h grid.
//
// The host ping-pongs two buffers and launches this once per iteration. Boundary cells are
// copied unchanged (Dirichlet boundary); interior cells become
//     c_center * u[i] + c_neigh * (u[W] + u[E] + u[N] + u[S]).
// 2-D grid of 2-D blocks; w and h need not be multiples of the block shape.

__global__ void jacobi5(float *out, const float *in, int w, int h, float c_center, float c_neigh)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;

    const int i = y * w + x;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        out[i] = in[i];
        return;
    }
    const float neigh = (in[i - 1] + in[i + 1]) + (in[i - w] + in[i + w]);
    out[i] = c_center * in[i] + c_neigh * neigh;
}
