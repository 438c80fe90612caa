// Surface objects (issue 19, item 5): surf2Dwrite / surf2Dread round trip on a cudaArray, a
// kernel that transforms one surface into another, the .zero and .clamp boundary modes, a
// 3-D array filled with cudaMemcpy3D and read through surf3Dread and tex3D, and last an
// out-of-range write in the default .trap mode: a located fault and cudaErrorIllegalAddress
// (sticky, so it comes last).
// EXPECT-STDERR: surface write outside surface
#include "check.h"
#include <cstring>

const int W = 37, H = 9;

__global__ void fill(cudaSurfaceObject_t s) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < W) surf2Dwrite(x * 1000 + y, s, x * (int)sizeof(int), y);
}

__global__ void transform(cudaSurfaceObject_t in, cudaSurfaceObject_t out) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < W) {
        int v;
        surf2Dread(&v, in, x * (int)sizeof(int), y);
        // Mirror horizontally while doubling.
        surf2Dwrite(2 * v + 1, out, (W - 1 - x) * (int)sizeof(int), y);
    }
}

__global__ void edges(cudaSurfaceObject_t s, int *out) {
    int t = threadIdx.x;
    int x = t - 3, y = t % 4 - 1;
    int z = -1, c = -1;
    surf2Dread(&z, s, x * (int)sizeof(int), y, cudaBoundaryModeZero);
    surf2Dread(&c, s, x * (int)sizeof(int), y, cudaBoundaryModeClamp);
    out[2 * t] = z;
    out[2 * t + 1] = c;
    // Outside and .zero: dropped.
    surf2Dwrite(-5, s, (W + t) * (int)sizeof(int), 0, cudaBoundaryModeZero);
}

__global__ void read3d(cudaSurfaceObject_t s, cudaTextureObject_t t, float *out, int w, int h, int d) {
    int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
    if (x < w) {
        float a, b;
        surf3Dread(&a, s, x * (int)sizeof(float), y, z);
        b = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
        out[(z * h + y) * w + x] = a + 1000.0f * b;
    }
}

__global__ void write_past(cudaSurfaceObject_t s) { surf2Dwrite(1, s, (W + threadIdx.x) * (int)sizeof(int), 0); }

static cudaSurfaceObject_t surface_of(cudaArray_t a) {
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &r));
    return s;
}

int main() {
    cudaChannelFormatDesc f = cudaCreateChannelDesc<int>();
    cudaArray_t a, b;
    CHECK(cudaMallocArray(&a, &f, W, H, cudaArraySurfaceLoadStore));
    CHECK(cudaMallocArray(&b, &f, W, H, cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t sa = surface_of(a), sb = surface_of(b);
    dim3 grid((W + 31) / 32, H);
    fill<<<grid, 32>>>(sa);
    CHECK(cudaGetLastError());
    static int img[H][W];
    CHECK(cudaMemcpy2DFromArray(img, sizeof img[0], a, 0, 0, sizeof img[0], H, cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) EXPECT(img[y][x] == x * 1000 + y);

    transform<<<grid, 32>>>(sa, sb);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy2DFromArray(img, sizeof img[0], b, 0, 0, sizeof img[0], H, cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) EXPECT(img[y][W - 1 - x] == 2 * (x * 1000 + y) + 1);

    // Boundary modes: x from -3, y from -1.
    int *dout;
    CHECK(cudaMalloc(&dout, 2 * 64 * sizeof(int)));
    edges<<<1, 64>>>(sa, dout);
    CHECK(cudaGetLastError());
    static int e[2 * 64];
    CHECK(cudaMemcpy(e, dout, sizeof e, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++) {
        int x = t - 3, y = t % 4 - 1;
        bool inside = x >= 0 && x < W && y >= 0 && y < H;
        int cx = x < 0 ? 0 : x >= W ? W - 1 : x, cy = y < 0 ? 0 : y >= H ? H - 1 : y;
        EXPECT(e[2 * t] == (inside ? x * 1000 + y : 0));
        EXPECT(e[2 * t + 1] == cx * 1000 + cy);
    }
    CHECK(cudaMemcpy2DFromArray(img, sizeof img[0], a, 0, 0, sizeof img[0], H, cudaMemcpyDeviceToHost));
    for (int x = 0; x < W; x++) EXPECT(img[0][x] == x * 1000);

    // CUDA documents surfaces over arrays made with cudaArraySurfaceLoadStore, but creating one
    // over an array without it succeeds (measured on an H200, CUDA 13.0 driver, 2026-11-28).
    // warpsim then treats the array as if it had the flag (what a GPU does with it: unknown).
    cudaArray_t plain;
    CHECK(cudaMallocArray(&plain, &f, W, H));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = plain;
    cudaSurfaceObject_t unflagged;
    CHECK(cudaCreateSurfaceObject(&unflagged, &r));
    WARPSIM_ONLY(fill<<<grid, 32>>>(unflagged));
    WARPSIM_ONLY(CHECK(cudaMemcpy2DFromArray(img, sizeof img[0], plain, 0, 0, sizeof img[0], H, cudaMemcpyDeviceToHost)));
    WARPSIM_ONLY(for (int x = 0; x < W; x++) EXPECT(img[H - 1][x] == x * 1000 + H - 1));
    CHECK(cudaDestroySurfaceObject(unflagged));
    CHECK(cudaDestroySurfaceObject(unflagged));  // not live any more: a no-op (unmeasured)
    CHECK(cudaFreeArray(plain));

    // 3-D: a float volume from a pitched host buffer through cudaMemcpy3D, read back both as
    // a surface and as a texture, then copied out again with cudaMemcpy3D.
    const int w = 10, h = 4, d = 3;
    cudaChannelFormatDesc ff = cudaCreateChannelDesc<float>();
    cudaArray_t vol;
    CHECK(cudaMalloc3DArray(&vol, &ff, make_cudaExtent(w, h, d), cudaArraySurfaceLoadStore));
    static float hv[d][h][w + 2];
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) hv[z][y][x] = (float)(z * 100 + y * 10 + x);
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(hv, (w + 2) * sizeof(float), w, h);
    p.dstArray = vol;
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    cudaSurfaceObject_t sv = surface_of(vol);
    cudaResourceDesc rv;
    memset(&rv, 0, sizeof rv);
    rv.resType = cudaResourceTypeArray;
    rv.res.array.array = vol;
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    cudaTextureObject_t tv;
    CHECK(cudaCreateTextureObject(&tv, &rv, &td, nullptr));
    float *dv;
    CHECK(cudaMalloc(&dv, w * h * d * sizeof(float)));
    read3d<<<dim3(h, d), 32>>>(sv, tv, dv, w, h, d);
    CHECK(cudaGetLastError());
    static float ov[d][h][w];
    CHECK(cudaMemcpy(ov, dv, sizeof ov, cudaMemcpyDeviceToHost));
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) EXPECT(ov[z][y][x] == 1001.0f * hv[z][y][x]);
    static float round_trip[d][h][w];
    memset(&p, 0, sizeof p);
    p.srcArray = vol;
    p.srcPos = make_cudaPos(1, 0, 1);
    p.dstPtr = make_cudaPitchedPtr(round_trip, w * sizeof(float), w, h);
    p.extent = make_cudaExtent(w - 1, h, d - 1);
    p.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&p));
    for (int z = 0; z < d - 1; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w - 1; x++) EXPECT(round_trip[z][y][x] == hv[z + 1][y][x + 1]);
    p.extent = make_cudaExtent(w, h, d);  // now overruns the array from (1, 0, 1)
    EXPECT_ERR(cudaMemcpy3D(&p), cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaDestroyTextureObject(tv));
    CHECK(cudaDestroySurfaceObject(sv));
    CHECK(cudaFreeArray(vol));

    // Outside the surface in the default .trap mode: the kernel faults.
    write_past<<<1, 32>>>(sb);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    printf("PASS surface\n");
    return 0;
}
