// A module with tensor-core instructions (wmma, compiled for sm_80): warpsim names each
// unsupported instruction at registration and says tensor cores are not simulated; its
// kernels fail with cudaErrorInvalidPtx, and the context stays usable.
// NVCC-FLAGS: -arch=sm_80
// EXPECT-STDERR: unsupported wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32
// EXPECT-STDERR: warpsim does not simulate tensor-core instructions (wmma, mma, ldmatrix, stmatrix, movmatrix)
// EXPECT-STDERR: cannot launch `tensor(__half const*, __half const*, float*)` (cudaErrorInvalidPtx): its module could not be loaded: line
// NATIVE: warpsim-only: warpsim does not simulate tensor cores; a GPU runs them
#include <mma.h>
#include "check.h"
using namespace nvcuda;

__global__ void tensor(const half *a, const half *b, float *c) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

int main() {
    half *a;
    float *c;
    CHECK(cudaMalloc(&a, 16 * 16 * sizeof(half)));
    CHECK(cudaMalloc(&c, 16 * 16 * sizeof(float)));
    tensor<<<1, 32>>>(a, a, c);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidPtx);
    CHECK(cudaMemset(c, 0, 16 * 16 * sizeof(float)));
    CHECK(cudaFree(a));
    CHECK(cudaFree(c));
    printf("PASS tensor_core\n");
    return 0;
}
