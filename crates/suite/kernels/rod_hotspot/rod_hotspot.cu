// rod_hotspot: transient chip-temperature simulation (Rodinia "hotspot" structure). The grid
// of rows x cols cells is advanced `steps` time steps per launch with the pyramid (ghost-zone)
// scheme: each 16 x 16 CTA loads a tile overlapping its neighbours by `steps` cells on every
// side, advances it `steps` times in shared memory (the valid region shrinks by one cell per
// step) and writes only its inner (16 - 2 steps)^2 cells. The host launches ceil(iterations /
// steps) times, ping-ponging two temperature buffers.
// Barriers (Rodinia's loop): one after loading the tile and power, then per step one after
// computing the new values into a second tile and, except after the last step, one after
// copying them back (all reads of the old tile before any write, all writes before the next
// step's reads); the last step's values are written to global memory straight from the
// second tile. With `steps` = 2 (Rodinia's pyramid height) that is 4 barriers per CTA around a
// body of ~15 float operations per cell and step plus the tile loads.
// Cell update (edges clamp: a missing neighbour reads the cell itself):
//   t' = t + sdc * (p + (tS + tN - 2t) ry + (tE + tW - 2t) rx + (amb - t) rz)
// with every operation an explicit round-to-nearest intrinsic, so the host reproduces it bit
// for bit.

#define HS_B 16

__global__ void hotspotStep(const float *power, const float *tin, float *tout, int rows, int cols, int steps,
                            float sdc, float rx, float ry, float rz, float amb)
{
    __shared__ float tt[HS_B][HS_B];
    __shared__ float pp[HS_B][HS_B];
    __shared__ float nt[HS_B][HS_B];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int inner = HS_B - 2 * steps;
    // Global cell of this thread (may lie outside the grid).
    const int r = blockIdx.y * inner - steps + ty;
    const int c = blockIdx.x * inner - steps + tx;
    const bool inside = r >= 0 && r < rows && c >= 0 && c < cols;
    if (inside) {
        tt[ty][tx] = tin[r * cols + c];
        pp[ty][tx] = power[r * cols + c];
    }
    __syncthreads();
    // Tile-local bounds of the cells that hold grid data.
    const int lo_y = max(0, -(blockIdx.y * inner - steps)), hi_y = min(HS_B - 1, rows - 1 - (blockIdx.y * inner - steps));
    const int lo_x = max(0, -(blockIdx.x * inner - steps)), hi_x = min(HS_B - 1, cols - 1 - (blockIdx.x * inner - steps));
    bool computed = false;
#pragma unroll 1
    for (int s = 1; s <= steps; s++) {
        computed = false;
        // Cells whose neighbours are all valid after step s-1: s cells in from the tile edge.
        if (inside && ty >= s && ty <= HS_B - 1 - s && tx >= s && tx <= HS_B - 1 - s) {
            const float t = tt[ty][tx];
            const float tn = ty - 1 < lo_y ? t : tt[ty - 1][tx];
            const float ts = ty + 1 > hi_y ? t : tt[ty + 1][tx];
            const float tw = tx - 1 < lo_x ? t : tt[ty][tx - 1];
            const float te = tx + 1 > hi_x ? t : tt[ty][tx + 1];
            const float two_t = __fmul_rn(2.0f, t);
            float v = __fmul_rn(__fsub_rn(__fadd_rn(ts, tn), two_t), ry);
            v = __fadd_rn(pp[ty][tx], v);
            v = __fadd_rn(v, __fmul_rn(__fsub_rn(__fadd_rn(te, tw), two_t), rx));
            v = __fadd_rn(v, __fmul_rn(__fsub_rn(amb, t), rz));
            nt[ty][tx] = __fadd_rn(t, __fmul_rn(sdc, v));
            computed = true;
        }
        __syncthreads();
        if (s == steps)
            break;
        if (computed)
            tt[ty][tx] = nt[ty][tx];
        __syncthreads();
    }
    if (computed)
        tout[r * cols + c] = nt[ty][tx];
}
