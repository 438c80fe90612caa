// tc_gemm: C = A·B + C on the tensor cores through the WMMA C++ API. A (M×K) and B (K×N) are
// f16, row-major; C is f32, row-major, read and written in place. One CTA of 4 warps computes
// a 32×32 tile of C, each warp one 16×16 accumulator fragment; for every 16-wide slice of K
// the CTA stages a 32×16 tile of A and a 16×32 tile of B in shared memory (rows padded so the
// fragment loads are free of bank conflicts), and each warp loads its A and B fragments from
// there and multiplies. M and N are multiples of 32, K of 16 (the driver's sizes).
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define TILE 32
#define KT 16
// Padded row lengths (halves): multiples of 8 as wmma requires; 48- and 80-byte rows.
#define LDA_S (KT + 8)
#define LDB_S (TILE + 8)

__global__ void wmmaGemm(float* c, const __half* a, const __half* b, int M, int N, int K) {
    __shared__ __align__(32) __half as[TILE][LDA_S];
    __shared__ __align__(32) __half bs[KT][LDB_S];
    const int warp = threadIdx.x / 32;
    const int wr = warp / 2, wc = warp % 2;
    const int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float* ctile = c + (size_t)(row0 + wr * 16) * N + col0 + wc * 16;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(acc, ctile, N, wmma::mem_row_major);
    for (int k0 = 0; k0 < K; k0 += KT) {
        // 128 threads move the 512 halves of each tile, 4 each.
        for (int i = threadIdx.x; i < TILE * KT; i += blockDim.x) {
            const int ra = i / KT, ca = i % KT;
            as[ra][ca] = a[(size_t)(row0 + ra) * K + k0 + ca];
            const int rb = i / TILE, cb = i % TILE;
            bs[rb][cb] = b[(size_t)(k0 + rb) * N + col0 + cb];
        }
        __syncthreads();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
        wmma::load_matrix_sync(fa, &as[wr * 16][0], LDA_S);
        wmma::load_matrix_sync(fb, &bs[0][wc * 16], LDB_S);
        wmma::mma_sync(acc, fa, fb, acc);
        __syncthreads();
    }
    wmma::store_matrix_sync(ctile, acc, N, wmma::mem_row_major);
}
