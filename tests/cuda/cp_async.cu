// sm_80 asynchronous copies (cp.async) into shared memory. (1) A two-stage pipeline through
// cuda_pipeline.h: each CTA prefetches tile i+1 while it reads tile i (a neighbour's element,
// so the barrier after the wait matters), the last tile partly past the end of the input
// zero-filled without reading it (the memory checker would catch a read). (2) 16-byte `.cg`
// copies with an L2 prefetch hint and 8-byte `.ca` copies in inline PTX, `cp.async.wait_all`,
// and `ld.global.nc.L2::128B`. Results checked exactly on the host.
// NVCC-FLAGS: -arch=sm_80
// EXPECT-PTX: cp.async.ca.shared.global
// EXPECT-PTX: cp.async.cg.shared.global.L2::128B
// EXPECT-PTX: cp.async.wait_group 1
// EXPECT-PTX: cp.async.wait_all
#include <cuda_pipeline.h>
#include "check.h"

static const int T = 256;  // threads per CTA = ints per tile

__global__ void pipelined(const int *in, int *out, int n, int tiles) {
    __shared__ int buf[2][T];
    int t = threadIdx.x;
    int base = blockIdx.x * tiles * T;
    auto load = [&](int tile) {
        int i = base + tile * T + t;
        // Past the end: read 0 bytes and zero-fill 4 (the address itself is out of bounds).
        __pipeline_memcpy_async(&buf[tile & 1][t], &in[i], 4, i < n ? 0 : 4);
    };
    load(0);
    __pipeline_commit();
    int acc = 0;
    for (int tile = 0; tile < tiles; tile++) {
        if (tile + 1 < tiles) load(tile + 1);
        __pipeline_commit();
        __pipeline_wait_prior(1);  // every group but the newest: this tile's
        __syncthreads();
        acc += buf[tile & 1][(t + 1) % T] * (tile + 1);
        __syncthreads();  // the buffer is refilled next iteration
    }
    out[blockIdx.x * T + t] = acc;
}

__device__ unsigned smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

__global__ void wide(const int4 *in4, const int2 *in2, const int4 *nc, int *out) {
    __shared__ int4 a[64];
    __shared__ int2 b[64];
    int t = threadIdx.x;
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;" ::"r"(smem_addr(&a[t])), "l"(&in4[t]));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(smem_addr(&b[t])), "l"(&in2[t]));
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    int4 v;
    asm("ld.global.nc.L2::128B.v4.s32 {%0, %1, %2, %3}, [%4];"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
        : "l"(&nc[t]));
    int4 x = a[63 - t];
    int2 y = b[(t + 5) % 64];
    out[t] = x.x + 2 * x.y + 3 * x.z + 4 * x.w + 5 * y.x + 6 * y.y + v.x - v.w;
}

int main() {
    // (1) 5 CTAs x 4 tiles x 256 ints, the input 300 ints short of the last tile's end.
    const int ctas = 5, tiles = 4, n = ctas * tiles * T - 300;
    static int h_in[ctas * tiles * T], h_out[ctas * T];
    for (int i = 0; i < n; i++) h_in[i] = (i * 37) % 101 - 50;
    int *in, *out;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&out, sizeof h_out));
    CHECK(cudaMemcpy(in, h_in, n * sizeof(int), cudaMemcpyHostToDevice));
    pipelined<<<ctas, T>>>(in, out, n, tiles);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int c = 0; c < ctas; c++)
        for (int t = 0; t < T; t++) {
            int want = 0;
            for (int tile = 0; tile < tiles; tile++) {
                int i = c * tiles * T + tile * T + (t + 1) % T;
                want += (i < n ? h_in[i] : 0) * (tile + 1);
            }
            if (h_out[c * T + t] != want) {
                fprintf(stderr, "FAIL pipelined: out[%d] = %d, expected %d\n", c * T + t, h_out[c * T + t], want);
                return 1;
            }
        }

    // (2) 64 threads.
    static int4 h4[64], hnc[64];
    static int2 h2[64];
    static int h_wide[64];
    for (int i = 0; i < 64; i++) {
        h4[i] = make_int4(i, -i, 3 * i, 7 - i);
        h2[i] = make_int2(i * i, 11 - 2 * i);
        hnc[i] = make_int4(100 + i, 0, 0, i / 3);
    }
    int4 *d4, *dnc;
    int2 *d2;
    int *dw;
    CHECK(cudaMalloc(&d4, sizeof h4));
    CHECK(cudaMalloc(&dnc, sizeof hnc));
    CHECK(cudaMalloc(&d2, sizeof h2));
    CHECK(cudaMalloc(&dw, sizeof h_wide));
    CHECK(cudaMemcpy(d4, h4, sizeof h4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dnc, hnc, sizeof hnc, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d2, h2, sizeof h2, cudaMemcpyHostToDevice));
    wide<<<1, 64>>>(d4, d2, dnc, dw);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_wide, dw, sizeof h_wide, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++) {
        int4 x = h4[63 - t];
        int2 y = h2[(t + 5) % 64];
        int want = x.x + 2 * x.y + 3 * x.z + 4 * x.w + 5 * y.x + 6 * y.y + hnc[t].x - hnc[t].w;
        if (h_wide[t] != want) {
            fprintf(stderr, "FAIL wide: out[%d] = %d, expected %d\n", t, h_wide[t], want);
            return 1;
        }
    }
    printf("PASS cp_async\n");
    return 0;
}
