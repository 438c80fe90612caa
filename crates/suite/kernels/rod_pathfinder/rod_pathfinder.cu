// rod_pathfinder: minimum-cost path from the top row to the bottom row of a rows x cols grid
// of weights, moving down to one of the three nearest cells each row (Rodinia "pathfinder"
// dynamic programming with its pyramid scheme). Each launch advances `steps` rows: a CTA of
// PF_T threads loads PF_T consecutive entries of the previous cost row (overlapping its
// neighbours by `steps` entries on each side), runs `steps` row updates in shared memory,
// the valid range shrinking by one entry per side per step, and writes its
// PF_T - 2 steps inner results. The host loops over launches, ping-ponging two cost rows.
// Barriers: one after loading, then two per step (old row fully read before it is
// overwritten; new row complete before the next step reads it). Integer: exact.

#define PF_T 256

__global__ void pathStep(const int *wall, const int *src, int *dst, int cols, int startRow, int steps)
{
    __shared__ int prev[PF_T];
    __shared__ int next[PF_T];
    const int tx = threadIdx.x;
    const int inner = PF_T - 2 * steps;
    const int base = blockIdx.x * inner - steps;
    const int c = base + tx;
    const bool inside = c >= 0 && c < cols;
    if (inside)
        prev[tx] = src[c];
    __syncthreads();
    // Tile-local range of grid columns (the grid edges clamp the neighbourhood).
    const int lo = max(0, -base), hi = min(PF_T - 1, cols - 1 - base);
    bool computed = false;
    for (int s = 1; s <= steps; s++) {
        computed = false;
        if (inside && tx >= s && tx <= PF_T - 1 - s) {
            int m = prev[tx];
            if (tx - 1 >= lo)
                m = min(m, prev[tx - 1]);
            if (tx + 1 <= hi)
                m = min(m, prev[tx + 1]);
            next[tx] = m + wall[(startRow + s) * cols + c];
            computed = true;
        }
        __syncthreads();
        if (computed)
            prev[tx] = next[tx];
        __syncthreads();
    }
    if (computed && tx >= steps && tx < PF_T - steps)
        dst[c] = prev[tx];
}
