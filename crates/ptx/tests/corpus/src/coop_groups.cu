#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Cooperative groups: tiled partitions and thread-block reductions.
__global__ void cg_reduce(const int* in, int* out, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int i = block.group_index().x * block.size() + block.thread_rank();
    int v = i < n ? in[i] : 0;
    for (int o = tile.size() / 2; o > 0; o /= 2) v += tile.shfl_down(v, o);
    cg::thread_block_tile<4> quad = cg::tiled_partition<4>(tile);
    int q = quad.shfl(v, 0) + (int)quad.ballot(v > 0) + (int)tile.any(v == 3);
    block.sync();
    if (tile.thread_rank() == 0) atomicAdd(out, v + q);
}

// Grid-wide synchronisation (compiles for compute_75 without -rdc; launch cooperatively).
__global__ void grid_step(int* data, int n) {
    cg::grid_group g = cg::this_grid();
    int i = g.thread_rank();
    if (i < n) data[i] += 1;
    g.sync();
    if (i < n) data[i] += data[(i + 1) % n];
}
