// ispass_cp: Coulombic potential on a 2-D slice of a lattice by direct summation (the PRO
// paper's Table II "CP", kernel cenergy: 256 CTAs at paper size, a 512 x 512 slice).
//
// Every lattice point of the slice z = const accumulates sum_i q_i / |p - a_i| over the atoms
// of one chunk. The atoms live in constant memory as (x, y, dz^2, q): the host folds the
// atom's distance to the slice into dz^2, so the kernel reads one float4 per atom and every
// thread of a warp reads the same atom at the same time (a constant-cache broadcast).
// CTAs are 16 x 8 threads; each thread computes CP_UNROLL = 8 points of one row, 16 points
// apart (so the 16 threads of a half-warp row touch 16 consecutive points per store): a CTA
// covers 128 x 8 points. Per atom a thread computes dy^2 + dz^2 once and then, per point,
// dx, r^2 = dx^2 + (dy^2 + dz^2) (an fma) and q * rsqrt(r^2). No barriers and no shared
// memory: the kernel is bound by the SFU (rsqrt) and the arithmetic pipeline.
// The energies are added to the values already in the grid (the host may sum several
// chunks by relaunching with the next atoms in constant memory).

#define CP_MAXATOMS 1024
#define CP_BX 16
#define CP_BY 8
#define CP_UNROLL 8

__constant__ float4 cp_atoms[CP_MAXATOMS];

__global__ void cenergy(float *energy, int nx, int ny, float spacing, int natoms)
{
    const int x0 = blockIdx.x * (CP_BX * CP_UNROLL) + threadIdx.x;
    const int y = blockIdx.y * CP_BY + threadIdx.y;
    if (y >= ny)
        return;
    const float py = spacing * y;
    float px[CP_UNROLL];
    float e[CP_UNROLL];
#pragma unroll
    for (int u = 0; u < CP_UNROLL; u++) {
        px[u] = spacing * (x0 + u * CP_BX);
        e[u] = 0.0f;
    }
#pragma unroll 1
    for (int a = 0; a < natoms; a++) {
        const float4 at = cp_atoms[a];
        const float dy = py - at.y;
        const float dyz2 = fmaf(dy, dy, at.z);
#pragma unroll
        for (int u = 0; u < CP_UNROLL; u++) {
            const float dx = px[u] - at.x;
            e[u] = fmaf(at.w, rsqrtf(fmaf(dx, dx, dyz2)), e[u]);
        }
    }
    float *row = energy + y * nx;
#pragma unroll
    for (int u = 0; u < CP_UNROLL; u++) {
        const int x = x0 + u * CP_BX;
        if (x < nx)
            row[x] += e[u];
    }
}
