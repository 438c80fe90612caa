// Dependent tensor-core latency: one warp runs a chain of N = 64 wmma m16n16k16 multiply-adds
// (f16 A and B, f32 accumulators: acc = A B + acc, each needing the previous acc), timed
// with clock(). Needs tensor cores (compute_70): scripts/correlate.sh runs it on qv100,
// rtx2060 and rtx3070 only.
//
// The operands are small integers (-3..3) held as f16, so every product, every partial sum
// of a 16-term dot product (|sum| <= 144) and every accumulated value (<= 64 * 144) is an
// integer both simulators represent exactly, whatever order or precision they add in
// (GPGPU-Sim 4.2 sums the 16 products in f16 before adding C in f32): the check is exact.
#include "common.h"
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define N 64

__host__ __device__ inline int small_int(unsigned i) { return (int)(hash32(i) % 7u) - 3; }

// f16 bits of a small integer -3..3, by 32-bit integer ALU alone: GPGPU-Sim 4.2 has no
// conversion to f16 (`cvt.rn.f16.s32` aborts in its s2f), and it keeps only the low 32 bits
// of a large 64-bit immediate (`mov.u64 %rd3, 4755871576254054400`), so no 64-bit lookup
// constant either. 1, 2, 3 are 0x3c00, 0x4000, 0x4200; the sign is bit 15.
__host__ __device__ inline unsigned short half_bits(int v) {
    unsigned m = (unsigned)(v < 0 ? -v : v);
    unsigned bits = m == 0 ? 0u : m == 1 ? 0x3c00u : m == 2 ? 0x4000u : 0x4200u;
    return (unsigned short)(v < 0 ? bits | 0x8000u : bits);
}

// Fills x[0..n) with small_int(i + salt) as f16.
extern "C" __global__ void setup_small_halves(__half *x, int n, unsigned salt) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] = __ushort_as_half(half_bits(small_int((unsigned)i + salt)));
}

// a: 16 x 16 row-major, b: 16 x 16 column-major, out: 16 x 16 row-major.
extern "C" __global__ void wmma_lat(const __half *a, const __half *b, float *out, unsigned *time) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::fill_fragment(acc, 0.0f);
    unsigned t0 = clock32();
#pragma unroll 16
    for (int i = 0; i < N; i++) wmma::mma_sync(acc, fa, fb, acc);
    unsigned t1 = clock32();
    wmma::store_matrix_sync(out, acc, 16, wmma::mem_row_major);
    time[threadIdx.x] = t1 - t0;
}

int main() {
    __half *d_a = device_alloc<__half>(256), *d_b = device_alloc<__half>(256);
    float *d_out = device_alloc<float>(256);
    unsigned *d_time = device_alloc<unsigned>(32);
    setup_small_halves<<<1, 256>>>(d_a, 256, 0);
    CHECK_LAUNCH();
    setup_small_halves<<<1, 256>>>(d_b, 256, 1u << 16);
    CHECK_LAUNCH();
    wmma_lat<<<1, 32>>>(d_a, d_b, d_out, d_time);
    CHECK_LAUNCH();
    float *out = host_copy(d_out, 256);
    unsigned *time = host_copy(d_time, 32);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            int dot = 0; // b is column-major: B[k][j] = b[j * 16 + k]
            for (int k = 0; k < 16; k++) dot += small_int(i * 16 + k) * small_int((j * 16 + k) + (1u << 16));
            expect_eq("out", i * 16 + j, (double)(N * dot), out[i * 16 + j]);
        }
    metric("wmma_lat", "cycles_per_mma", (double)time[0] / N);
    return finish("wmma_lat");
}
