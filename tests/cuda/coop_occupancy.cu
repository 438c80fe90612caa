// Occupancy has one definition (issue 41). A cooperative program sized by the occupancy API,
// like NVIDIA's simpleAWBarrier sample (544-thread CTAs, 30 registers, grid.sync()): the
// grid cudaOccupancyMaxActiveBlocksPerMultiprocessor allows runs, in timing mode too, because
// the answer is the timing model's own residency (GPGPU-Sim's rule: 32 × 544 = 17408 registers
// per CTA, 1 CTA per GTX480 SM; CUDA's calculator said 2, and 30 CTAs waited forever in
// grid.sync()). One CTA more is cudaErrorCooperativeLaunchTooLarge at the launch, in both
// modes. A CTA that fits no SM (matrixMul's 1024 threads × 44 registers on gtx480) is refused
// alike in functional and timing mode, with the same message.
// The registers are pinned (WARPSIM_REGISTERS) so the figures are the issue's whatever ptxas
// allocates. coop_occupancy_pascal.cu runs this program on titanx-pascal.
// ENV: WARPSIM_CONFIG=gtx480
// ENV: WARPSIM_REGISTERS=normVecByDotProduct=30,bigBlock=44
// EXPECT-STDERR: cudaErrorCooperativeLaunchTooLarge: cooperative launch of `normVecByDotProduct` too large: 16 CTAs, but at most 15 can be resident at once (1 per SM, limited by registers, × 15 SMs)
// EXPECT-STDERR: invalid launch of `bigBlock`: one CTA (1024 threads, 44 registers/thread, 0 B shared) does not fit on an SM: it needs 45056 registers
#include "check.h"
#include <cmath>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#ifndef PROGRAM
#define PROGRAM "coop_occupancy"
#define GTX480 1
#endif

// What the modelled GPU holds of a 544-thread CTA with 30 registers per thread.
#ifdef GTX480
#define EXPECTED_CTAS_PER_SM 1 // 32768 / 17408
#else
#define EXPECTED_CTAS_PER_SM 3 // titanx-pascal: 64 warp slots / 17, also 65536 / 17408
#endif

// Block sum of `v` into tmp[0] (one double per warp, then warp 0).
__device__ double blockSum(double v, double *tmp) {
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
    for (int o = 16; o > 0; o /= 2) v += tile.shfl_down(v, o);
    if (tile.thread_rank() == 0) tmp[tile.meta_group_rank()] = v;
    cg::sync(cta);
    if (tile.meta_group_rank() == 0) {
        double w = tile.thread_rank() < tile.meta_group_size() ? tmp[tile.thread_rank()] : 0.0;
        for (int o = 16; o > 0; o /= 2) w += tile.shfl_down(w, o);
        if (tile.thread_rank() == 0) tmp[0] = w;
    }
    cg::sync(cta);
    return tmp[0];
}

// simpleAWBarrier's shape: every CTA sums its share of a·b, grid.sync(), CTA 0 adds the
// partial sums, grid.sync(), every thread normalises its elements of a by sqrt(a·b).
extern "C" __global__ void normVecByDotProduct(float *a, const float *b, double *partial, int n) {
    extern __shared__ double tmp[];
    cg::grid_group grid = cg::this_grid();
    double s = 0.0;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) s += (double)(a[i] * b[i]);
    s = blockSum(s, tmp);
    if (threadIdx.x == 0) partial[blockIdx.x] = s;
    grid.sync();
    if (blockIdx.x == 0) {
        double t = 0.0;
        for (int i = threadIdx.x; i < gridDim.x; i += blockDim.x) t += partial[i];
        t = blockSum(t, tmp);
        if (threadIdx.x == 0) partial[gridDim.x] = t;
    }
    grid.sync();
    float norm = (float)sqrt(partial[gridDim.x]);
    for (int i = grid.thread_rank(); i < n; i += grid.size()) a[i] /= norm;
}

extern "C" __global__ void bigBlock(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f; }

int main() {
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    const int threads = 544, n = 1 << 16;
    const size_t smem = (threads / 32 + 1) * sizeof(double);
    int perSm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, normVecByDotProduct, threads, smem));
    printf("%d CTAs of %d threads per SM, %d SMs\n", perSm, threads, p.multiProcessorCount);
    WARPSIM_ONLY(EXPECT(perSm == EXPECTED_CTAS_PER_SM));
    EXPECT(perSm > 0);
    const int ctas = perSm * p.multiProcessorCount;

    static float ha[n], hb[n];
    double dot = 0.0;
    for (int i = 0; i < n; i++) {
        ha[i] = (float)(i % 7 + 1);
        hb[i] = 1.0f;
        dot += (double)(ha[i] * hb[i]);
    }
    float *a, *b;
    double *partial;
    CHECK(cudaMalloc(&a, sizeof ha));
    CHECK(cudaMalloc(&b, sizeof hb));
    CHECK(cudaMalloc(&partial, (ctas + 2) * sizeof(double)));
    CHECK(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice));
    int size = n;
    void *args[] = {&a, &b, &partial, &size};
    // The grid the occupancy API allows: every CTA resident, both grid.sync()s complete.
    CHECK(cudaLaunchCooperativeKernel((void *)normVecByDotProduct, dim3(ctas), dim3(threads), args, smem, 0));
    CHECK(cudaDeviceSynchronize());
    static float out[n];
    CHECK(cudaMemcpy(out, a, sizeof out, cudaMemcpyDeviceToHost));
    float norm = (float)sqrt(dot);
    for (int i = 0; i < n; i++) EXPECT(fabsf(out[i] - ha[i] / norm) <= 1e-6f * fabsf(ha[i] / norm));
    printf("normalised %d elements over %d CTAs\n", n, ctas);

    // One CTA more than can be resident: refused at the launch, before anything runs.
    EXPECT_ERR(cudaLaunchCooperativeKernel((void *)normVecByDotProduct, dim3(ctas + 1), dim3(threads), args, smem, 0),
               cudaErrorCooperativeLaunchTooLarge);
    EXPECT_ERR(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);
    // The issue's grid: 2 CTAs per SM (CUDA's rule), twice what a GTX480 SM holds.
#ifdef GTX480
    WARPSIM_ONLY(EXPECT_ERR(cudaLaunchCooperativeKernel((void *)normVecByDotProduct, dim3(2 * 15), dim3(threads), args, smem, 0),
                            cudaErrorCooperativeLaunchTooLarge));
#endif
    // The refused launches changed nothing.
    CHECK(cudaMemcpy(out, a, sizeof out, cudaMemcpyDeviceToHost));
    EXPECT(fabsf(out[n - 1] - ha[n - 1] / norm) <= 1e-6f * fabsf(ha[n - 1] / norm));

    // Kernel attributes from the same rule: the largest block one SM holds at 44 registers.
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, bigBlock));
    int big = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&big, bigBlock, fa.maxThreadsPerBlock, 0));
    EXPECT(big >= 1);
    float *x;
    CHECK(cudaMalloc(&x, 1024 * sizeof(float)));
    CHECK(cudaMemset(x, 0, 1024 * sizeof(float)));
#ifdef GTX480
    WARPSIM_ONLY(EXPECT(fa.maxThreadsPerBlock == 736)); // 32768 / 44 = 744 → 23 warps
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&big, bigBlock, 1024, 0));
    WARPSIM_ONLY(EXPECT(big == 0));
    // matrixMul's launch: 1024 threads × 44 registers fit no GTX480 SM, in either mode.
    bigBlock<<<1, 1024>>>(x);
    WARPSIM_ONLY(EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue));
    // The dynamic shared memory two 256-thread CTAs may each have (registers allow 2, not 3).
    size_t dyn = 0;
    CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, bigBlock, 2, 256));
    WARPSIM_ONLY(EXPECT(dyn == 24 * 1024));
    WARPSIM_ONLY(EXPECT_ERR(cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, bigBlock, 3, 256), cudaErrorInvalidValue));
#else
    WARPSIM_ONLY(EXPECT(fa.maxThreadsPerBlock == 1024)); // 1024 × 44 = 45056 ≤ 65536
    bigBlock<<<1, 1024>>>(x);
    CHECK(cudaGetLastError());
#endif
    // What the calculator allows is what a launch gets: the largest dynamic size fits, one
    // byte more does not.
    size_t most = 0;
    CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&most, bigBlock, 1, 256));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&big, bigBlock, 256, most));
    EXPECT(big >= 1);
    CHECK(cudaDeviceSynchronize());
    printf("PASS %s\n", PROGRAM);
    return 0;
}
