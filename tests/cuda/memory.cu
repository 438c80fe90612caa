// Memory: memset (sync and async), device-to-device and host-to-host copies, every
// cudaMemcpyDefault direction, pinned host memory, cudaMemGetInfo, pitched 2D allocation,
// copies and memset, pointer attributes. The checks of warpsim's 4 GiB device are
// WARPSIM_ONLY.
#include "check.h"
#include <cstring>

__global__ void sum(const unsigned char *x, int n, int *out) {
    int s = 0;
    for (int i = 0; i < n; i++) s += x[i];
    *out = s;
}

int main() {
    const int n = 1024;
    unsigned char *d1, *d2;
    int *dsum;
    CHECK(cudaMalloc(&d1, n));
    CHECK(cudaMalloc(&d2, n));
    CHECK(cudaMalloc(&dsum, sizeof(int)));
    CHECK(cudaMemset(d1, 0x7, n));
    CHECK(cudaMemsetAsync(d1 + 512, 0x1, 256, 0));
    sum<<<1, 1>>>(d1, n, dsum);
    int s;
    CHECK(cudaMemcpy(&s, dsum, sizeof s, cudaMemcpyDeviceToHost));
    EXPECT(s == 768 * 7 + 256 * 1);

    // Device to device, explicit and inferred.
    CHECK(cudaMemcpy(d2, d1, n, cudaMemcpyDeviceToDevice));
    unsigned char h[n];
    CHECK(cudaMemcpy(h, d2, n, cudaMemcpyDefault));
    for (int i = 0; i < n; i++) EXPECT(h[i] == (i >= 512 && i < 768 ? 1 : 7));
    CHECK(cudaMemset(d2, 0, n));
    CHECK(cudaMemcpy(d2 + 100, d1 + 500, 50, cudaMemcpyDefault));
    CHECK(cudaMemcpy(h, d2, n, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(h[i] == (i >= 100 && i < 150 ? (500 + i - 100 >= 512 ? 1 : 7) : 0));

    // Host to host, both kinds.
    char a[16] = "warpsim", b[16] = {0}, c[16] = {0};
    CHECK(cudaMemcpy(b, a, sizeof a, cudaMemcpyHostToHost));
    CHECK(cudaMemcpy(c, b, sizeof b, cudaMemcpyDefault));
    EXPECT(strcmp(c, "warpsim") == 0);

    // Pinned host memory.
    int *pinned, *mapped;
    CHECK(cudaMallocHost(&pinned, 256 * sizeof(int)));
    CHECK(cudaHostAlloc(&mapped, 64, cudaHostAllocDefault));
    for (int i = 0; i < 256; i++) pinned[i] = i * i;
    int *dp;
    CHECK(cudaMalloc(&dp, 256 * sizeof(int)));
    CHECK(cudaMemcpyAsync(dp, pinned, 256 * sizeof(int), cudaMemcpyHostToDevice, 0));
    for (int i = 0; i < 256; i++) pinned[i] = 0;
    CHECK(cudaMemcpy(pinned, dp, 256 * sizeof(int), cudaMemcpyDefault));
    for (int i = 0; i < 256; i++) EXPECT(pinned[i] == i * i);
    cudaPointerAttributes attr;
    CHECK(cudaPointerGetAttributes(&attr, dp));
    EXPECT(attr.type == cudaMemoryTypeDevice && attr.devicePointer == dp);
    CHECK(cudaPointerGetAttributes(&attr, pinned + 3));
    EXPECT(attr.type == cudaMemoryTypeHost);
    CHECK(cudaPointerGetAttributes(&attr, a));
    EXPECT(attr.type == cudaMemoryTypeUnregistered);
    unsigned int flags = 99;
    CHECK(cudaHostGetFlags(&flags, pinned));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFreeHost(mapped));
    EXPECT_ERR(cudaFreeHost(a), cudaErrorInvalidValue);
    CHECK(cudaHostRegister(a, sizeof a, cudaHostRegisterDefault));
    CHECK(cudaHostUnregister(a));

    // Memory accounting.
    size_t free0, total, free1;
    CHECK(cudaMemGetInfo(&free0, &total));
    EXPECT(free0 < total);
    WARPSIM_ONLY(EXPECT(total == (size_t)4 << 30));
    void *big;
    CHECK(cudaMalloc(&big, 64 << 20));
    CHECK(cudaMemGetInfo(&free1, &total));
    EXPECT(free0 - free1 == (size_t)64 << 20);
    CHECK(cudaFree(big));
    WARPSIM_ONLY(EXPECT_ERR(cudaMalloc(&big, (size_t)8 << 30), cudaErrorMemoryAllocation));
    void *empty = (void *)1;
    CHECK(cudaMalloc(&empty, 0));
    EXPECT(empty == nullptr);

    // Pitched 2D.
    float *img;
    size_t pitch;
    const int w = 100, rows = 5;
    CHECK(cudaMallocPitch((void **)&img, &pitch, w * sizeof(float), rows));
    EXPECT(pitch >= w * sizeof(float) && pitch % 256 == 0);
    CHECK(cudaMemset2D(img, pitch, 0, w * sizeof(float), rows));
    static float src[rows][w], dst[rows][w];
    for (int r = 0; r < rows; r++)
        for (int x = 0; x < w; x++) src[r][x] = r * 1000 + x;
    CHECK(cudaMemcpy2D(img, pitch, src, w * sizeof(float), w * sizeof(float), rows, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2D(dst, w * sizeof(float), img, pitch, w * sizeof(float), rows, cudaMemcpyDeviceToHost));
    for (int r = 0; r < rows; r++)
        for (int x = 0; x < w; x++) EXPECT(dst[r][x] == r * 1000 + x);
    // A width above a pitch: cudaErrorInvalidValue, not cudaErrorInvalidPitchValue (measured on
    // an H200, CUDA 13.0 driver, 2026-11-28, for the one-row copy; the others follow the rule).
    EXPECT_ERR(cudaMemcpy2D(dst, 4, img, pitch, 8, 1, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemcpy2D(dst, 4, img, pitch, 8, 3, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemset2D(img, pitch, 0, pitch + 4, 2), cudaErrorInvalidValue);

    CHECK(cudaFree(img));
    CHECK(cudaFree(dp));
    CHECK(cudaFree(d1));
    CHECK(cudaFree(d2));
    CHECK(cudaFree(dsum));
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    printf("PASS memory\n");
    return 0;
}
