// Timing mode on a preset without tensor cores (issue 38, item 2): the timing presets model
// Fermi and Pascal GPUs, which have none, so a launch of a kernel with wmma is refused by
// name (kernel, PTX line, instruction, preset) with an error, not timed as something else;
// the context stays usable and a kernel without tensor-core instructions still runs.
// (tensor_core.cu runs the same kind of kernel in functional mode.)
// NVCC-FLAGS: -arch=sm_80
// ENV: WARPSIM_MODE=timing
// ENV: WARPSIM_CONFIG=gtx480
// EXPECT-STDERR: wmma.load.a.sync.aligned.row.m16n16k16.global.f16 is a tensor-core instruction and the preset `gtx480` has no tensor cores; run it in functional mode
// EXPECT-STDERR: tensor(__half const*, __half const*, float*)
// NATIVE: warpsim-only: a GPU with tensor cores runs the kernel
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

__global__ void fill(float *c, float v) { c[threadIdx.x] = v; }

int main() {
    half *a;
    float *c;
    CHECK(cudaMalloc(&a, 16 * 16 * sizeof(half)));
    CHECK(cudaMalloc(&c, 16 * 16 * sizeof(float)));
    CHECK(cudaMemset(a, 0, 16 * 16 * sizeof(half)));
    tensor<<<1, 32>>>(a, a, c);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    EXPECT(e != cudaSuccess);
    fill<<<1, 256>>>(c, 2.5f);
    CHECK(cudaGetLastError());
    float host[256];
    CHECK(cudaMemcpy(host, c, sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 256; i++) EXPECT(host[i] == 2.5f);
    CHECK(cudaFree(a));
    CHECK(cudaFree(c));
    printf("PASS tensor_core_timing\n");
    return 0;
}
