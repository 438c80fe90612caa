// Census program (issue 40, item 3): CUB's DeviceRadixSort, DeviceScan, DeviceSelect,
// DeviceReduce and the block/warp collectives BlockReduce, BlockScan and WarpReduce, each
// checked against the same computation on the CPU.
// PTX only, host code unoptimised: warpsim reads the PTX, not the SASS ptxas would add, and
// neither changes it while both take a third of this program's build (scripts/test-cudart.sh).
// NVCC-FLAGS: -arch=compute_75 -O0
#include "check.h"
#ifndef CCCL_NAME
#define CCCL_NAME "cccl_cub"
#endif
#include <algorithm>
#include <numeric>
#include <vector>
#include <cub/cub.cuh>

constexpr int BLOCK = 128;

__global__ void block_ops(const int *in, int *sums, int *scan, int *warp_sums) {
    using BR = cub::BlockReduce<int, BLOCK>;
    using BS = cub::BlockScan<int, BLOCK>;
    using WR = cub::WarpReduce<int>;
    __shared__ typename BR::TempStorage br;
    __shared__ typename BS::TempStorage bs;
    __shared__ typename WR::TempStorage wr[BLOCK / 32];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    int x = in[i];
    int total = BR(br).Sum(x);
    if (threadIdx.x == 0) sums[blockIdx.x] = total;
    int pre;
    BS(bs).ExclusiveSum(x, pre);
    scan[i] = pre;
    int w = WR(wr[threadIdx.x / 32]).Sum(x);
    if (threadIdx.x % 32 == 0) warp_sums[i / 32] = w;
}

struct is_odd {
    __host__ __device__ bool operator()(int x) const { return x & 1; }
};

int main() {
    const int n = 4096;
    std::vector<int> h(n), hv(n);
    unsigned s = 777;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        h[i] = (int)(s >> 12) % 100000 - 50000;
        hv[i] = i;
    }
    int *dk, *dv, *dk2, *dv2, *dout, *dnum;
    CHECK(cudaMalloc(&dk, n * 4));
    CHECK(cudaMalloc(&dv, n * 4));
    CHECK(cudaMalloc(&dk2, n * 4));
    CHECK(cudaMalloc(&dv2, n * 4));
    CHECK(cudaMalloc(&dout, n * 4));
    CHECK(cudaMalloc(&dnum, 4));
    CHECK(cudaMemcpy(dk, h.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dv, hv.data(), n * 4, cudaMemcpyHostToDevice));
    void *tmp = nullptr;
    size_t tb = 0, need = 0;
    // One temporary buffer big enough for every algorithm.
    cub::DeviceRadixSort::SortPairs(nullptr, need, dk, dk2, dv, dv2, n);
    tb = std::max(tb, need);
    cub::DeviceScan::ExclusiveSum(nullptr, need, dk, dout, n);
    tb = std::max(tb, need);
    cub::DeviceSelect::If(nullptr, need, dk, dout, dnum, n, is_odd());
    tb = std::max(tb, need);
    cub::DeviceReduce::Sum(nullptr, need, dk, dnum, n);
    tb = std::max(tb, need);
    CHECK(cudaMalloc(&tmp, tb));

    // DeviceRadixSort::SortPairs (stable)
    CHECK(cub::DeviceRadixSort::SortPairs(tmp, tb, dk, dk2, dv, dv2, n));
    std::vector<int> idx(n), got(n), gotv(n);
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return h[a] < h[b]; });
    CHECK(cudaMemcpy(got.data(), dk2, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gotv.data(), dv2, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(got[i] == h[idx[i]] && gotv[i] == idx[i]);

    // DeviceScan::ExclusiveSum
    CHECK(cub::DeviceScan::ExclusiveSum(tmp, tb, dk, dout, n));
    CHECK(cudaMemcpy(got.data(), dout, n * 4, cudaMemcpyDeviceToHost));
    int acc = 0;
    for (int i = 0; i < n; i++) {
        EXPECT(got[i] == acc);
        acc += h[i];
    }

    // DeviceSelect::If
    CHECK(cub::DeviceSelect::If(tmp, tb, dk, dout, dnum, n, is_odd()));
    int num = 0;
    CHECK(cudaMemcpy(&num, dnum, 4, cudaMemcpyDeviceToHost));
    std::vector<int> odd;
    for (int x : h)
        if (x & 1) odd.push_back(x);
    EXPECT(num == (int)odd.size());
    CHECK(cudaMemcpy(got.data(), dout, num * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < num && i < (int)odd.size(); i++) EXPECT(got[i] == odd[i]);

    // DeviceReduce::Sum
    CHECK(cub::DeviceReduce::Sum(tmp, tb, dk, dnum, n));
    int sum = 0;
    CHECK(cudaMemcpy(&sum, dnum, 4, cudaMemcpyDeviceToHost));
    EXPECT(sum == acc);

    // BlockReduce, BlockScan, WarpReduce
    int *sums, *warp_sums;
    CHECK(cudaMalloc(&sums, n / BLOCK * 4));
    CHECK(cudaMalloc(&warp_sums, n / 32 * 4));
    block_ops<<<n / BLOCK, BLOCK>>>(dk, sums, dout, warp_sums);
    CHECK(cudaGetLastError());
    std::vector<int> bs(n / BLOCK), ws(n / 32);
    CHECK(cudaMemcpy(bs.data(), sums, bs.size() * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ws.data(), warp_sums, ws.size() * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got.data(), dout, n * 4, cudaMemcpyDeviceToHost));
    for (int b = 0; b < n / BLOCK; b++) {
        int t = 0;
        for (int i = 0; i < BLOCK; i++) {
            EXPECT(got[b * BLOCK + i] == t);
            t += h[b * BLOCK + i];
        }
        EXPECT(bs[b] == t);
    }
    for (int w = 0; w < n / 32; w++) {
        int t = 0;
        for (int i = 0; i < 32; i++) t += h[w * 32 + i];
        EXPECT(ws[w] == t);
    }
    printf("PASS %s\n", CCCL_NAME);
    return 0;
}
