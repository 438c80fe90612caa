// Tensor-core GEMM straight from global memory: C = A B with A 256 x 256 f16 row-major, B
// 256 x 256 f16 column-major (the wmma "row.col" form) and C f32 row-major. 8 x 8 CTAs of
// 4 warps; each warp owns one 16 x 16 tile of C and, for each of the 16 slices of K, loads
// its A and B fragments with wmma.load.global and issues one wmma m16n16k16 (f32
// accumulators). The warps of a CTA share A rows and B columns pairwise (L1 hits). Needs
// tensor cores (compute_70): scripts/correlate.sh runs it on qv100, rtx2060 and rtx3070 only.
//
// The operands are small integers (-3..3) held as f16, so every product, every 16-term
// partial sum (|sum| <= 144) and every accumulated value (<= 256 * 9) is an integer both
// simulators represent exactly, whatever order or precision they add in (GPGPU-Sim 4.2 sums
// an instruction's 16 products in f16 before adding C in f32): the check is exact.
#include "common.h"
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define DIM 256
#define WARPS_X 2
#define WARPS_Y 2

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

// a[i * DIM + k] = A[i][k]; b[j * DIM + k] = B[k][j]; c[i * DIM + j] = C[i][j].
extern "C" __global__ void wmma_gemm(const __half *a, const __half *b, float *c) {
    int warp = threadIdx.x / 32;
    int row = (blockIdx.y * WARPS_Y + warp / WARPS_X) * 16;
    int col = (blockIdx.x * WARPS_X + warp % WARPS_X) * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < DIM; k += 16) {
        wmma::load_matrix_sync(fa, a + row * DIM + k, DIM);
        wmma::load_matrix_sync(fb, b + col * DIM + k, DIM);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + row * DIM + col, acc, DIM, wmma::mem_row_major);
}

int main() {
    const int n = DIM * DIM;
    __half *d_a = device_alloc<__half>(n), *d_b = device_alloc<__half>(n);
    float *d_c = device_alloc<float>(n);
    setup_small_halves<<<64, 256>>>(d_a, n, 0);
    CHECK_LAUNCH();
    setup_small_halves<<<64, 256>>>(d_b, n, 1u << 20);
    CHECK_LAUNCH();
    wmma_gemm<<<dim3(DIM / (16 * WARPS_X), DIM / (16 * WARPS_Y)), 32 * WARPS_X * WARPS_Y>>>(d_a, d_b, d_c);
    CHECK_LAUNCH();
    float *c = host_copy(d_c, n);
    int *at = (int *)malloc(n * sizeof(int)), *bt = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) {
        at[i] = small_int(i);
        bt[i] = small_int(i + (1u << 20));
    }
    for (int i = 0; i < DIM; i++)
        for (int j = 0; j < DIM; j++) {
            int dot = 0;
            for (int k = 0; k < DIM; k++) dot += at[i * DIM + k] * bt[j * DIM + k];
            expect_eq("c", i * DIM + j, (double)dot, c[i * DIM + j]);
        }
    return finish("wmma_gemm");
}
