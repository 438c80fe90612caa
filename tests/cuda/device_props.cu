// The simulated device: count, selection, cudaGetDeviceProperties (CUDA 13's 1008-byte
// cudaDeviceProp, read field by field), attributes, versions, kernel attributes (registers
// from the cubin), occupancy, limits, flags, cache configuration.
// NATIVE: warpsim-only: checks warpsim's device name and properties
#include "check.h"
#include <cstring>

__global__ void small(float *x) { x[threadIdx.x] += 1.0f; }

__global__ void __launch_bounds__(256) tiled(float *x) {
    __shared__ float tile[1024];
    tile[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = tile[255 - threadIdx.x];
}

int main() {
    EXPECT(sizeof(cudaDeviceProp) == 1008);
    int n = 0, dev = -1;
    CHECK(cudaGetDeviceCount(&n));
    EXPECT(n == 1);
    CHECK(cudaSetDevice(0));
    CHECK(cudaGetDevice(&dev));
    EXPECT(dev == 0);

    cudaDeviceProp p;
    memset(&p, 0xab, sizeof p);
    CHECK(cudaGetDeviceProperties(&p, 0));
    printf("%s: cc %d.%d, %d SMs, %zu MB, warp %d\n", p.name, p.major, p.minor, p.multiProcessorCount,
           p.totalGlobalMem >> 20, p.warpSize);
    EXPECT(strcmp(p.name, "warpsim (gtx480)") == 0);
    EXPECT(p.major == 7 && p.minor == 5);
    EXPECT(p.multiProcessorCount == 15);
    EXPECT(p.totalGlobalMem == (size_t)4 << 30);
    EXPECT(p.sharedMemPerBlock == 48 * 1024);
    EXPECT(p.sharedMemPerMultiprocessor == 48 * 1024);
    EXPECT(p.regsPerBlock == 32768 && p.regsPerMultiprocessor == 32768);
    EXPECT(p.warpSize == 32);
    EXPECT(p.maxThreadsPerBlock == 1024);
    EXPECT(p.maxThreadsDim[0] == 1024 && p.maxThreadsDim[1] == 1024 && p.maxThreadsDim[2] == 64);
    EXPECT(p.maxGridSize[0] == 2147483647 && p.maxGridSize[1] == 65535 && p.maxGridSize[2] == 65535);
    EXPECT(p.maxThreadsPerMultiProcessor == 1536);
    EXPECT(p.maxBlocksPerMultiProcessor == 8);
    EXPECT(p.totalConstMem == 65536);
    EXPECT(p.l2CacheSize == 768 * 1024);
    EXPECT(p.memoryBusWidth == 384);
    EXPECT(p.unifiedAddressing == 1);
    EXPECT(p.managedMemory == 1 && p.canMapHostMemory == 1 && p.concurrentManagedAccess == 1);
    EXPECT(p.sharedMemPerBlockOptin == 48 * 1024);
    EXPECT(p.hostNumaId == -1);
    EXPECT(p.reserved[55] == 0);

    int v;
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0));
    EXPECT(v == 700000); // the model's core clock (GPGPU-Sim halves the 1400 MHz shader clock)
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(v == 15);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerMultiProcessor, 0));
    EXPECT(v == 1536);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0));
    EXPECT(v == 7);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, 0));
    EXPECT(v == 49152);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0));
    EXPECT(v == 32);
    EXPECT_ERR(cudaDeviceGetAttribute(&v, (cudaDeviceAttr)100000, 0), cudaErrorInvalidValue);

    int rt = 0, drv = 0;
    CHECK(cudaRuntimeGetVersion(&rt));
    CHECK(cudaDriverGetVersion(&drv));
    EXPECT(rt == 13050 && drv == 13050);

    // Kernel attributes: registers from the cubin's REGCOUNT, static shared memory.
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, small));
    printf("small: %d registers, %zu bytes shared, max %d threads\n", fa.numRegs, fa.sharedSizeBytes, fa.maxThreadsPerBlock);
    EXPECT(fa.numRegs > 0 && fa.numRegs < 64);
    EXPECT(fa.sharedSizeBytes == 0);
    EXPECT(fa.maxThreadsPerBlock == 1024);
    EXPECT(fa.ptxVersion == 75 && fa.binaryVersion == 75);
    CHECK(cudaFuncGetAttributes(&fa, tiled));
    EXPECT(fa.sharedSizeBytes == 4096);
    EXPECT(fa.maxThreadsPerBlock == 256);
    EXPECT(fa.maxDynamicSharedSizeBytes == 48 * 1024 - 4096);
    CHECK(cudaFuncSetAttribute(tiled, cudaFuncAttributeMaxDynamicSharedMemorySize, 8192));
    CHECK(cudaFuncGetAttributes(&fa, tiled));
    EXPECT(fa.maxDynamicSharedSizeBytes == 8192);
    EXPECT_ERR(cudaFuncSetAttribute(tiled, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000), cudaErrorInvalidValue);
    CHECK(cudaFuncSetCacheConfig(small, cudaFuncCachePreferShared));
    const char *fname = nullptr;
    CHECK(cudaFuncGetName(&fname, tiled));
    EXPECT(strcmp(fname, "_Z5tiledPf") == 0);
    cudaDeviceProp want = p;
    int chosen = -1;
    CHECK(cudaChooseDevice(&chosen, &want));
    EXPECT(chosen == 0);
    static int not_a_kernel;
    EXPECT_ERR(cudaFuncGetAttributes(&fa, &not_a_kernel), cudaErrorInvalidDeviceFunction);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidDeviceFunction);

    // Occupancy with the GTX480 limits: 8 CTAs, 48 warps, 32768 registers, 48 KB.
    int blocks;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, small, 64, 0));
    EXPECT(blocks == 8);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, small, 512, 0));
    EXPECT(blocks == 3);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, tiled, 32, 20 * 1024));
    EXPECT(blocks == 2);  // 4 KB static + 20 KB dynamic = 24 KB per CTA
    int grid = 0, block = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&grid, &block, small, 0, 0));
    printf("potential block size %d, grid %d\n", block, grid);
    EXPECT(block > 0 && grid > 0);

    // Limits and flags.
    size_t stack = 0;
    CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 128 * 1024));
    CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    EXPECT(stack >= 128 * 1024);
    CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 22));
    CHECK(cudaDeviceGetLimit(&stack, cudaLimitPrintfFifoSize));
    EXPECT(stack == 1 << 22);
    CHECK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    unsigned int flags = 0;
    CHECK(cudaGetDeviceFlags(&flags));
    EXPECT(flags == cudaDeviceScheduleBlockingSync);
    CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));

    float *d;
    CHECK(cudaMalloc(&d, 256 * sizeof(float)));
    CHECK(cudaMemset(d, 0, 256 * sizeof(float)));
    small<<<1, 256>>>(d);
    tiled<<<1, 256>>>(d);
    CHECK(cudaDeviceSynchronize());
    float h[256];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 1.0f && h[255] == 1.0f);
    CHECK(cudaGetLastError());
    printf("PASS device_props\n");
    return 0;
}
