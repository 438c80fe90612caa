// Tensor cores, functionally (issue 38, item 2). (1) A 64×64×64 GEMM through the C++
// nvcuda::wmma API: f16 inputs, f32 accumulators loaded from C (D = A·B + C), A row-major and
// B column-major, one warp per 16×16 tile. (2) The same with f16 accumulators (mixed
// precision: each mma_sync rounds its f32 sum to f16 once). (3) bf16 inputs (sm_80). (4) An
// inline-PTX mma.sync.m16n8k16 GEMM whose fragments come from shared memory through
// ldmatrix (.x4 for A, .x2.trans for B, as the PTX ISA lays them out). Each result is checked
// against a CPU reference summing over k in order in f32 (warpsim's documented order, so the
// check is bit-exact under warpsim; on a GPU, which sums in its own order, to a tolerance).
// The timing presets have no tensor cores: this program runs in functional mode
// (tensor_core_timing.cu checks that timing mode refuses it by name).
// NVCC-FLAGS: -arch=sm_80
// ENV: WARPSIM_MODE=functional
// EXPECT-PTX: wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32
// EXPECT-PTX: wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16
// EXPECT-PTX: wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32
// EXPECT-PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// EXPECT-PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// EXPECT-PTX: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <cmath>
#include <cstdint>
#include <cstring>
#include "check.h"
using namespace nvcuda;

constexpr int N = 64;  // M = N = K

// (1)-(3): warp w of the grid computes the 16×16 tile (w / 4, w % 4) of D = A·B + C.
template <typename In, typename Acc>
__global__ void wmma_gemm(const In *a, const In *b, const Acc *c, Acc *d) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int ti = warp / (N / 16), tj = warp % (N / 16);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, In, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, In, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, Acc> acc;
    wmma::load_matrix_sync(acc, c + ti * 16 * N + tj * 16, N, wmma::mem_row_major);
    for (int k = 0; k < N; k += 16) {
        wmma::load_matrix_sync(fa, a + ti * 16 * N + k, N);  // A[i][k] at a[i*N + k]
        wmma::load_matrix_sync(fb, b + tj * 16 * N + k, N);  // B[k][j] at b[j*N + k]
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(d + ti * 16 * N + tj * 16, acc, N, wmma::mem_row_major);
}

// (4): warp w computes the 16×8 tile (w / 8, w % 8) of D = A·B (A, B row-major f16) with
// mma.sync.m16n8k16, each k step staging A's 16×16 and B's 16×8 block in its own shared
// memory and reading the fragments back with ldmatrix.
__global__ void mma_gemm(const __half *a, const __half *b, float *d) {
    __shared__ __align__(16) __half sa[4][16 * 16];
    __shared__ __align__(16) __half sb[4][16 * 8];
    int lane = threadIdx.x % 32, wib = threadIdx.x / 32;
    int warp = blockIdx.x * (blockDim.x / 32) + wib;
    int ti = warp / (N / 8), tj = warp % (N / 8);
    float acc[4] = {0, 0, 0, 0};
    for (int k = 0; k < N; k += 16) {
        for (int e = lane; e < 16 * 16; e += 32) sa[wib][e] = a[(ti * 16 + e / 16) * N + k + e % 16];
        for (int e = lane; e < 16 * 8; e += 32) sb[wib][e] = b[(k + e / 8) * N + tj * 8 + e % 8];
        __syncwarp();
        // A: matrices (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15,
        // k 8-15) are a0a1, a2a3, a4a5, a6a7; lane l points at row l % 16, column 8·(l / 16).
        uint32_t ra[4], rb[2];
        uint32_t pa = (uint32_t)__cvta_generic_to_shared(&sa[wib][(lane % 16) * 16 + 8 * (lane / 16)]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(ra[0]), "=r"(ra[1]), "=r"(ra[2]), "=r"(ra[3])
                     : "r"(pa));
        // B (k×n row-major): the transposed loads of rows k 0-7 and 8-15 are b0b1 and b2b3;
        // lanes 0-15 point at row k = lane.
        uint32_t pb = (uint32_t)__cvta_generic_to_shared(&sb[wib][(lane % 16) * 8]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                     : "=r"(rb[0]), "=r"(rb[1])
                     : "r"(pb));
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
            "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
            : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
            : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
        __syncwarp();
    }
    // c0..c3: row groupID (+8 for c2, c3), column 2·threadID_in_group + (i & 1).
    int g = lane / 4, t = lane % 4;
    for (int i = 0; i < 4; i++) {
        int row = ti * 16 + g + 8 * (i / 2), col = tj * 8 + 2 * t + (i & 1);
        d[row * N + col] = acc[i];
    }
}

static uint32_t seed = 12345;
// Random values exact in f16: an 11-bit significand times 2^-3 … 2^3, either sign. Their
// products (up to 22 bits) and partial sums round in f32, so the summation order shows.
static float next_value() {
    seed = seed * 1664525u + 1013904223u;
    float v = ldexpf((float)(1024 + ((seed >> 8) & 1023)) / 1024.0f, (int)((seed >> 20) % 7) - 3);
    return (seed >> 31) ? -v : v;
}

// D = A·B + C in warpsim's order: acc starts from C and adds A[i][k]·B[k][j] (exact in f32)
// for k = 0, 1, … one f32 add at a time; with f16 accumulators the sum is rounded to f16 after
// every 16 (once per mma_sync). A[i][k] = a[i*N + k], B[k][j] = bt[j*N + k].
static void reference(const float *a, const float *bt, const float *c, bool f16_acc, float *d) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            float acc = c ? c[i * N + j] : 0.0f;
            for (int k0 = 0; k0 < N; k0 += 16) {
                for (int k = k0; k < k0 + 16; k++) {
                    float p = a[i * N + k] * bt[j * N + k];
                    acc = acc + p;
                }
                if (f16_acc) acc = __half2float(__float2half_rn(acc));
            }
            d[i * N + j] = acc;
        }
}

static int failures = 0;
static void compare(const char *what, const float *got, const float *want) {
    for (int i = 0; i < N * N; i++) {
#ifdef NATIVE_GPU
        bool ok = fabsf(got[i] - want[i]) <= 1e-2f * (1.0f + fabsf(want[i]));
#else
        bool ok = memcmp(&got[i], &want[i], sizeof(float)) == 0;
#endif
        if (!ok) {
            fprintf(stderr, "FAIL %s: D[%d][%d] = %.9g, want %.9g\n", what, i / N, i % N, got[i], want[i]);
            failures++;
            return;
        }
    }
}

template <typename T>
static T *upload(const T *host, size_t n) {
    T *dev;
    CHECK(cudaMalloc(&dev, n * sizeof(T)));
    CHECK(cudaMemcpy(dev, host, n * sizeof(T), cudaMemcpyHostToDevice));
    return dev;
}

int main() {
    // A[i][k] at a[i*N + k]; B[k][j] at bt[j*N + k] (column-major, for wmma) and at
    // br[k*N + j] (row-major, for mma.sync). The f* arrays hold the values the device sees.
    static float fa[N * N], fbt[N * N], fc[N * N], fc16[N * N], fba[N * N], fbbt[N * N];
    static __half ha[N * N], hbt[N * N], hbr[N * N], hc[N * N];
    static __nv_bfloat16 ba[N * N], bbt[N * N];
    for (int i = 0; i < N * N; i++) {
        fa[i] = next_value();
        fbt[i] = next_value();
        fc[i] = next_value();
        ha[i] = __float2half_rn(fa[i]);
        hbt[i] = __float2half_rn(fbt[i]);
        hc[i] = __float2half_rn(fc[i]);
        fc16[i] = __half2float(hc[i]);
        ba[i] = __float2bfloat16_rn(fa[i]);
        bbt[i] = __float2bfloat16_rn(fbt[i]);
        fba[i] = __bfloat162float(ba[i]);
        fbbt[i] = __bfloat162float(bbt[i]);
    }
    for (int k = 0; k < N; k++)
        for (int j = 0; j < N; j++) hbr[k * N + j] = hbt[j * N + k];
    static float want32[N * N], want16[N * N], want_bf16[N * N], want_mma[N * N];
    reference(fa, fbt, fc, false, want32);
    reference(fa, fbt, fc16, true, want16);
    reference(fba, fbbt, fc, false, want_bf16);
    reference(fa, fbt, nullptr, false, want_mma);

    const int threads = 128, blocks = (N / 16) * (N / 16) * 32 / threads;
    float *d32;
    CHECK(cudaMalloc(&d32, N * N * sizeof(float)));
    static float got[N * N];

    // (1) f16 × f16 + f32.
    __half *da = upload(ha, N * N), *dbt = upload(hbt, N * N), *dbr = upload(hbr, N * N);
    float *dc = upload(fc, N * N);
    wmma_gemm<__half, float><<<blocks, threads>>>(da, dbt, dc, d32);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, d32, sizeof got, cudaMemcpyDeviceToHost));
    compare("wmma f16 -> f32", got, want32);

    // (2) f16 × f16 + f16.
    __half *dc16 = upload(hc, N * N), *d16;
    CHECK(cudaMalloc(&d16, N * N * sizeof(__half)));
    wmma_gemm<__half, __half><<<blocks, threads>>>(da, dbt, dc16, d16);
    CHECK(cudaGetLastError());
    static __half got16[N * N];
    CHECK(cudaMemcpy(got16, d16, sizeof got16, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N * N; i++) got[i] = __half2float(got16[i]);
    compare("wmma f16 -> f16", got, want16);

    // (3) bf16 × bf16 + f32 (the inputs rounded to bf16).
    __nv_bfloat16 *dba = upload(ba, N * N), *dbbt = upload(bbt, N * N);
    wmma_gemm<__nv_bfloat16, float><<<blocks, threads>>>(dba, dbbt, dc, d32);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, d32, sizeof got, cudaMemcpyDeviceToHost));
    compare("wmma bf16 -> f32", got, want_bf16);

    // (4) mma.sync + ldmatrix, C = 0.
    mma_gemm<<<(N / 16) * (N / 8) / 4, 128>>>(da, dbr, d32);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, d32, sizeof got, cudaMemcpyDeviceToHost));
    compare("mma.sync m16n8k16 + ldmatrix", got, want_mma);

    for (void *p : {(void *)da, (void *)dbt, (void *)dbr, (void *)dc, (void *)dc16, (void *)d16,
                    (void *)dba, (void *)dbbt, (void *)d32})
        CHECK(cudaFree(p));
    if (failures) return 1;
    printf("PASS tensor_core\n");
    return 0;
}
