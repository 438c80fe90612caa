// warpSize (PTX's WARP_SZ) in a warp-shuffle reduction, plus %laneid and %lanemask_lt
// read through inline PTX (issue 19, item 3). Each lane of each warp writes what it saw.
#include "check.h"

__device__ unsigned lane_id() { unsigned r; asm("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__device__ unsigned lanemask_lt() { unsigned r; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); return r; }

// One sum per warp: the shuffle loop's bounds come from warpSize.
__global__ void warp_sums(const int *in, int *sums, int *ws, unsigned *lane_ok, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int d = warpSize / 2; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    int warp = i / warpSize;
    if (threadIdx.x % warpSize == 0) sums[warp] = v;
    if (i == 0) *ws = warpSize;
    // The lane's own view: %laneid == threadIdx.x % warpSize, %lanemask_lt == (1 << lane) - 1.
    unsigned lane = lane_id();
    lane_ok[i] = (lane == threadIdx.x % warpSize) && lanemask_lt() == ((1u << lane) - 1);
}

int main() {
    const int n = 1000, block = 128, grid = (n + block - 1) / block, warps = grid * block / 32;
    static int h[n];
    for (int i = 0; i < n; i++) h[i] = (i * 7919) % 1001 - 500;
    int *din, *dsums, *dws;
    unsigned *dok;
    CHECK(cudaMalloc(&din, sizeof h));
    CHECK(cudaMalloc(&dsums, warps * sizeof(int)));
    CHECK(cudaMalloc(&dws, sizeof(int)));
    CHECK(cudaMalloc(&dok, grid * block * sizeof(unsigned)));
    CHECK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
    warp_sums<<<grid, block>>>(din, dsums, dws, dok, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    static int sums[warps];
    static unsigned ok[grid * block];
    int ws = 0;
    CHECK(cudaMemcpy(sums, dsums, sizeof sums, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&ws, dws, sizeof ws, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ok, dok, sizeof ok, cudaMemcpyDeviceToHost));
    EXPECT(ws == 32);
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    EXPECT(prop.warpSize == ws);
    for (int w = 0; w < warps; w++) {
        int want = 0;
        for (int i = w * 32; i < w * 32 + 32 && i < n; i++) want += h[i];
        if (sums[w] != want) {
            fprintf(stderr, "FAIL warp %d: sum %d, want %d\n", w, sums[w], want);
            return 1;
        }
    }
    for (int i = 0; i < grid * block; i++) EXPECT(ok[i] == 1);
    printf("warpSize %d, %d warp sums\n", ws, warps);
    printf("PASS warp_size\n");
    return 0;
}
