// Policies set, MOTRR's BICG (PolyBench-GPU, the MOTRR paper's Table 2): s = A^T r and
// q = A p for a 1024 x 1024 matrix, with the suite's own kernels
// (crates/suite/kernels/poly_bicg, included below with C names) at the suite's small size:
// 2 launches of 4 CTAs x 256 threads, the coalesced column kernel first, then the
// uncoalesced row kernel. Our MOTRR claims flip at small size on this program.
#include "../programs/common.h"
extern "C" {
#include "../../crates/suite/kernels/poly_bicg/poly_bicg.cu"
}

#define NX 1024
#define NY 1024

int main() {
    float *A = device_alloc<float>((size_t)NX * NY), *r = device_alloc<float>(NX);
    float *p = device_alloc<float>(NY), *s = device_alloc<float>(NY), *q = device_alloc<float>(NX);
    setup_floats<<<120, 256>>>(A, NX * NY, 0u);
    CHECK_LAUNCH();
    setup_floats<<<4, 256>>>(r, NX, 1u << 28);
    CHECK_LAUNCH();
    setup_floats<<<4, 256>>>(p, NY, 1u << 29);
    CHECK_LAUNCH();
    bicgColDot<<<NY / BICG_THREADS, BICG_THREADS>>>(A, r, s, NX, NY);
    CHECK_LAUNCH();
    bicgRowDot<<<NX / BICG_THREADS, BICG_THREADS>>>(A, p, q, NX, NY);
    CHECK_LAUNCH();
    float *got_s = host_copy(s, NY), *got_q = host_copy(q, NX);
    auto a = [](int i, int j) { return hval((unsigned)(i * NY + j)); };
    // The same fused multiply-adds in the same order. Within 2e-3, not bit-exact: GPGPU-Sim 4.2
    // rounds fma.rn.f32 twice (warpsim is exact).
    for (int j = 0; j < NY; j++) {
        float acc = 0.0f;
        for (int i = 0; i < NX; i++) acc = fmaf(hval((unsigned)i + (1u << 28)), a(i, j), acc);
        expect_near("s", j, acc, got_s[j], 2e-3);
    }
    for (int i = 0; i < NX; i++) {
        float acc = 0.0f;
        for (int j = 0; j < NY; j++) acc = fmaf(a(i, j), hval((unsigned)j + (1u << 29)), acc);
        expect_near("q", i, acc, got_q[i], 2e-3);
    }
    return finish("poly_bicg");
}
