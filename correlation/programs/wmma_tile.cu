// Tensor cores fed through shared memory, with ALU work around them: out = leaky(A B + bias),
// 256 x 256 x 256. A and B arrive as 32-bit words (row-major) and are turned into f16 small
// integers on the fly (w % 7 - 3 and its f16 bits: integer ALU) while being staged, 32 x 32
// tiles at a time, into padded shared tiles; after a barrier each of the CTA's 4 warps loads
// its fragments from shared memory (generic-address wmma.load: see generic() below) and
// issues two wmma m16n16k16 (f32 accumulators) per tile, then a second barrier. At the end
// each warp stores its accumulators into a shared f32 tile (a generic-address wmma.store) and
// the CTA applies the epilogue (bias, leaky ReLU: fp32 ALU) and writes the 32 x 32 block.
// 8 x 8 CTAs of 128 threads. Needs tensor cores (compute_70): scripts/correlate.sh runs it on
// qv100, rtx2060 and rtx3070 only.
//
// Every operand is an integer in -3..3, so products, 16-term partial sums (|sum| <= 144) and
// accumulators (<= 256 * 9) are integers, and the epilogue only scales them by 1/2 or 1/4 and
// adds a small integer: all exact in both simulators whatever order or precision they add in
// (GPGPU-Sim 4.2 sums an instruction's 16 products in f16 before adding C in f32). The check
// is exact.
#include "common.h"
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define DIM 256
#define TILE 32   // the CTA's block of C, and the K slice staged per step
#define PAD 8     // f16 elements of padding per shared row (keeps 32-byte fragment alignment)
#define THREADS 128

__host__ __device__ inline int small_int(unsigned w) { return (int)(w % 7u) - 3; }

// f16 bits of a small integer -3..3, by 32-bit integer ALU alone: GPGPU-Sim 4.2 has no
// conversion to f16 (`cvt.rn.f16.s32` aborts in its s2f), and it keeps only the low 32 bits
// of a large 64-bit immediate (`mov.u64 %rd3, 4755871576254054400`), so no 64-bit lookup
// constant either. 1, 2, 3 are 0x3c00, 0x4000, 0x4200; the sign is bit 15.
__host__ __device__ inline unsigned short half_bits(int v) {
    unsigned m = (unsigned)(v < 0 ? -v : v);
    unsigned bits = m == 0 ? 0u : m == 1 ? 0x3c00u : m == 2 ? 0x4000u : 0x4200u;
    return (unsigned short)(v < 0 ? bits | 0x8000u : bits);
}

// The same pointer, as a generic address nvcc cannot trace back to __shared__, so the wmma
// loads and stores it feeds are the generic forms (`wmma.load.a.sync.aligned.row.m16n16k16.f16
// [generic]`) rather than `.shared` ones: GPGPU-Sim 4.2's PTX grammar gives every wmma
// load/store the global space (`wmma_spec` in ptx.y; its lexer folds `.m16n16k16.shared` into
// the shape token), so a `.shared` wmma.load reads global memory at the shared offset (zeros),
// while a generic address it recognises as shared (mma_ld_impl / mma_st_impl) is right.
template <typename T> __device__ inline T *generic(T *p) {
    asm volatile("" : "+l"(p));
    return p;
}

// a[i * DIM + k] = A[i][k] and b[k * DIM + j] = B[k][j] as words; bias[j] as words.
extern "C" __global__ void wmma_tile(const unsigned *a, const unsigned *b, const unsigned *bias, float *out) {
    __shared__ __align__(32) __half sa[TILE][TILE + PAD];
    __shared__ __align__(32) __half sb[TILE][TILE + PAD];
    __shared__ __align__(32) float sc[TILE][TILE + PAD / 2];
    int warp = threadIdx.x / 32, wy = warp / 2, wx = warp % 2;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    __half *pa = generic(&sa[0][0]), *pb = generic(&sb[0][0]);
    float *pc = generic(&sc[0][0]);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 < DIM; k0 += TILE) {
        for (int e = threadIdx.x; e < TILE * TILE; e += THREADS) {
            int r = e / TILE, c = e % TILE;
            sa[r][c] = __ushort_as_half(half_bits(small_int(a[(row0 + r) * DIM + k0 + c])));
            sb[r][c] = __ushort_as_half(half_bits(small_int(b[(k0 + r) * DIM + col0 + c])));
        }
        __syncthreads();
        for (int kk = 0; kk < TILE; kk += 16) {
            wmma::load_matrix_sync(fa, pa + wy * 16 * (TILE + PAD) + kk, TILE + PAD);
            wmma::load_matrix_sync(fb, pb + kk * (TILE + PAD) + wx * 16, TILE + PAD);
            wmma::mma_sync(acc, fa, fb, acc);
        }
        __syncthreads();
    }
    wmma::store_matrix_sync(pc + wy * 16 * (TILE + PAD / 2) + wx * 16, acc, TILE + PAD / 2, wmma::mem_row_major);
    __syncthreads();
    for (int e = threadIdx.x; e < TILE * TILE; e += THREADS) {
        int r = e / TILE, c = e % TILE;
        float v = sc[r][c], t = (float)small_int(bias[col0 + c]);
        out[(row0 + r) * DIM + col0 + c] = v >= 0.0f ? 0.5f * v + t : 0.25f * v - t;
    }
}

int main() {
    const int n = DIM * DIM;
    unsigned *d_a = device_alloc<unsigned>(n), *d_b = device_alloc<unsigned>(n), *d_bias = device_alloc<unsigned>(DIM);
    float *d_out = device_alloc<float>(n);
    setup_words<<<64, 256>>>(d_a, n, 0, 0xffffffffu);
    CHECK_LAUNCH();
    setup_words<<<64, 256>>>(d_b, n, 1u << 20, 0xffffffffu);
    CHECK_LAUNCH();
    setup_words<<<1, 256>>>(d_bias, DIM, 1u << 21, 0xffffffffu);
    CHECK_LAUNCH();
    wmma_tile<<<dim3(DIM / TILE, DIM / TILE), THREADS>>>(d_a, d_b, d_bias, d_out);
    CHECK_LAUNCH();
    float *out = host_copy(d_out, n);
    int *at = (int *)malloc(n * sizeof(int)), *bt = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) {
        at[i] = small_int(hash32(i));
        bt[i] = small_int(hash32(i + (1u << 20)));
    }
    for (int i = 0; i < DIM; i++)
        for (int j = 0; j < DIM; j++) {
            int dot = 0;
            for (int k = 0; k < DIM; k++) dot += at[i * DIM + k] * bt[k * DIM + j];
            double t = small_int(hash32(j + (1u << 21)));
            double want = dot >= 0 ? 0.5 * dot + t : 0.25 * dot - t;
            expect_eq("out", i * DIM + j, want, out[i * DIM + j]);
        }
    return finish("wmma_tile");
}
