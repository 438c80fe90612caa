// Policies set, MOTRR's ATAX (PolyBench-GPU, the MOTRR paper's Table 2): y = A^T (A x) for a
// 1024 x 1024 matrix, with the suite's own kernels (crates/suite/kernels/poly_atax, included
// below with C names) at the suite's small size: 2 launches of 4 CTAs x 256 threads. The row
// kernel's warps read 32 different rows per step (uncoalesced, each line reused over 32 steps:
// the locality greedy and memory-first schedulers keep in L1), the column kernel's read one
// coalesced row segment per step. Our MOTRR claims flip at small size on this program.
#include "../programs/common.h"
extern "C" {
#include "../../crates/suite/kernels/poly_atax/poly_atax.cu"
}

#define NX 1024
#define NY 1024

int main() {
    float *A = device_alloc<float>((size_t)NX * NY), *x = device_alloc<float>(NY);
    float *tmp = device_alloc<float>(NX), *y = device_alloc<float>(NY);
    setup_floats<<<120, 256>>>(A, NX * NY, 0u);
    CHECK_LAUNCH();
    setup_floats<<<4, 256>>>(x, NY, 1u << 28);
    CHECK_LAUNCH();
    ataxRowDot<<<NX / ATAX_THREADS, ATAX_THREADS>>>(A, x, tmp, NX, NY);
    CHECK_LAUNCH();
    ataxColDot<<<NY / ATAX_THREADS, ATAX_THREADS>>>(A, tmp, y, NX, NY);
    CHECK_LAUNCH();
    float *got_tmp = host_copy(tmp, NX), *got_y = host_copy(y, NY);
    float *ref_tmp = (float *)malloc(NX * sizeof(float));
    // The same fused multiply-adds in the same order. Within 2e-3, not bit-exact: GPGPU-Sim 4.2
    // rounds fma.rn.f32 twice (warpsim is exact).
    for (int i = 0; i < NX; i++) {
        float acc = 0.0f;
        for (int j = 0; j < NY; j++) acc = fmaf(hval((unsigned)(i * NY + j)), hval((unsigned)j + (1u << 28)), acc);
        ref_tmp[i] = acc;
        expect_near("tmp", i, acc, got_tmp[i], 2e-3);
    }
    for (int j = 0; j < NY; j++) {
        float acc = 0.0f;
        for (int i = 0; i < NX; i++) acc = fmaf(hval((unsigned)(i * NY + j)), ref_tmp[i], acc);
        expect_near("y", j, acc, got_y[j], 2e-3);
    }
    return finish("poly_atax");
}
