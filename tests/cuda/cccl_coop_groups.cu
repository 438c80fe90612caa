// Census program (issue 40, item 3): cooperative groups' tiled partitions, cg::reduce,
// labeled_partition and cg::memcpy_async, checked against the CPU.
// PTX only, host code unoptimised: warpsim reads the PTX, not the SASS ptxas would add, and
// neither changes it while both take a third of this program's build (scripts/test-cudart.sh).
// NVCC-FLAGS: -arch=compute_75 -O0
#include "check.h"
#ifndef CCCL_NAME
#define CCCL_NAME "cccl_coop_groups"
#endif
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <vector>

namespace cg = cooperative_groups;
constexpr int BLOCK = 128;

__global__ void groups(const int *in, int *tile_sums, int *label_sums, int *copied) {
    __shared__ int buf[BLOCK];
    auto block = cg::this_thread_block();
    int i = blockIdx.x * BLOCK + threadIdx.x;
    cg::memcpy_async(block, buf, in + blockIdx.x * BLOCK, sizeof(int) * BLOCK);
    cg::wait(block);
    int x = buf[threadIdx.x];
    copied[i] = x;
    // A 16-thread tile sums its values; its first thread writes the sum.
    auto tile = cg::tiled_partition<16>(block);
    int s = cg::reduce(tile, x, cg::plus<int>());
    if (tile.thread_rank() == 0) tile_sums[i / 16] = s;
    // Within each warp, threads with the same x mod 4 form a group; each sums its maxima.
    auto warp = cg::tiled_partition<32>(block);
    auto same = cg::labeled_partition(warp, x & 3);
    int m = cg::reduce(same, x, cg::greater<int>());
    label_sums[i] = m;
}

int main() {
    const int blocks = 4, n = blocks * BLOCK;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++) h[i] = (i * 2654435761u) % 1000;
    int *in, *ts, *ls, *cp;
    CHECK(cudaMalloc(&in, n * 4));
    CHECK(cudaMalloc(&ts, n / 16 * 4));
    CHECK(cudaMalloc(&ls, n * 4));
    CHECK(cudaMalloc(&cp, n * 4));
    CHECK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
    groups<<<blocks, BLOCK>>>(in, ts, ls, cp);
    CHECK(cudaGetLastError());
    std::vector<int> gt(n / 16), gl(n), gc(n);
    CHECK(cudaMemcpy(gt.data(), ts, gt.size() * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gl.data(), ls, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gc.data(), cp, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(gc[i] == h[i]);
    for (int t = 0; t < n / 16; t++) {
        int s = 0;
        for (int j = 0; j < 16; j++) s += h[t * 16 + j];
        EXPECT(gt[t] == s);
    }
    for (int i = 0; i < n; i++) {
        int w = i / 32 * 32, m = -1;
        for (int j = w; j < w + 32; j++)
            if ((h[j] & 3) == (h[i] & 3) && h[j] > m) m = h[j];
        EXPECT(gl[i] == m);
    }
    printf("PASS %s\n", CCCL_NAME);
    return 0;
}
