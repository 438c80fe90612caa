// Policies set, MOTRR's MVT (PolyBench-GPU, the MOTRR paper's Table 2): x1 += A y1 and
// x2 += A^T y2 for a 1024 x 1024 matrix, with the suite's own kernels
// (crates/suite/kernels/poly_mvt, included below with C names) at the suite's small size:
// 2 launches of 4 CTAs x 256 threads, the uncoalesced row kernel first, then the coalesced
// column kernel. Our MOTRR claims flip at small size on this program.
#include "../programs/common.h"
extern "C" {
#include "../../crates/suite/kernels/poly_mvt/poly_mvt.cu"
}

#define N 1024

int main() {
    float *A = device_alloc<float>((size_t)N * N), *y1 = device_alloc<float>(N);
    float *y2 = device_alloc<float>(N), *x1 = device_alloc<float>(N), *x2 = device_alloc<float>(N);
    setup_floats<<<120, 256>>>(A, N * N, 0u);
    CHECK_LAUNCH();
    setup_floats<<<4, 256>>>(y1, N, 1u << 28);
    CHECK_LAUNCH();
    setup_floats<<<4, 256>>>(y2, N, 1u << 29);
    CHECK_LAUNCH();
    setup_floats<<<4, 256>>>(x1, N, 1u << 30);
    CHECK_LAUNCH();
    setup_floats<<<4, 256>>>(x2, N, 3u << 29);
    CHECK_LAUNCH();
    mvtRowDot<<<N / MVT_THREADS, MVT_THREADS>>>(A, y1, x1, N);
    CHECK_LAUNCH();
    mvtColDot<<<N / MVT_THREADS, MVT_THREADS>>>(A, y2, x2, N);
    CHECK_LAUNCH();
    float *got1 = host_copy(x1, N), *got2 = host_copy(x2, N);
    auto a = [](int i, int j) { return hval((unsigned)(i * N + j)); };
    // The same fused multiply-adds in the same order. Within 2e-3, not bit-exact: GPGPU-Sim 4.2
    // rounds fma.rn.f32 twice (warpsim is exact).
    for (int i = 0; i < N; i++) {
        float acc = hval((unsigned)i + (1u << 30));
        for (int j = 0; j < N; j++) acc = fmaf(a(i, j), hval((unsigned)j + (1u << 28)), acc);
        expect_near("x1", i, acc, got1[i], 2e-3);
    }
    for (int i = 0; i < N; i++) {
        float acc = hval((unsigned)i + (3u << 29));
        for (int j = 0; j < N; j++) acc = fmaf(a(j, i), hval((unsigned)j + (1u << 29)), acc);
        expect_near("x2", i, acc, got2[i], 2e-3);
    }
    return finish("poly_mvt");
}
