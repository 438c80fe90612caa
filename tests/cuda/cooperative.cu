// cudaLaunchCooperativeKernel: runs like a launch when every CTA fits on the GPU at once,
// else cudaErrorCooperativeLaunchTooLarge; and the argument-array launch path in general.
// Grid-wide synchronisation (issue 19, item 2): cooperative groups' grid.sync() between
// rounds of a rotation whose every element crosses CTAs, checked on the host; without a
// cooperative launch warpsim gives grid.sync() no workspace and it traps (last: sticky).
// WARPSIM_ONLY: an H200's driver gave the ordinary launch a workspace too, so grid.sync()
// worked there (all 30 CTAs were resident); CUDA requires a cooperative launch for it, and
// warpsim reports the misuse (crates/cudart/README.md, "Stricter than a GPU").
#include "check.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void fill(int *x, int v) { x[blockIdx.x * blockDim.x + threadIdx.x] = v + threadIdx.x; }

// Round r: b = a rotated by `shift` (an element from another CTA), then a = b + r. Without a
// grid-wide barrier between the phases, CTAs would read elements not yet written.
__global__ void rotate_rounds(int *a, int *b, int shift, int rounds) {
    cg::grid_group grid = cg::this_grid();
    int n = grid.size(), i = grid.thread_rank();
    for (int r = 0; r < rounds; r++) {
        b[i] = a[(i + shift) % n];
        grid.sync();
        a[i] = b[i] + r;
        grid.sync();
    }
}

int main() {
    int *d, h[256];
    CHECK(cudaMalloc(&d, sizeof h));
    fill<<<2, 128>>>(d, 1000);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 256; i++) EXPECT(h[i] == 1000 + i % 128);
    // An invalid configuration is cudaErrorInvalidValue in CUDA 13 (measured on an H200, CUDA
    // 13.0 driver, 2026-11-28), from a cooperative launch too (that one unmeasured).
    fill<<<1, 4096>>>(d, 0);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);

    int v = 7;
    void *args[] = {&d, &v};
    CHECK(cudaLaunchCooperativeKernel((const void *)fill, dim3(2), dim3(128), args, 0, 0));
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[255] == 7 + 127);
    void *bad_args[] = {&d, &v};
    EXPECT_ERR(cudaLaunchCooperativeKernel((const void *)fill, dim3(2), dim3(2048), bad_args, 0, 0), cudaErrorInvalidValue);
    // More CTAs than fit on warpsim's GPU at once (15 SMs x 8 CTAs). A property of the GPU,
    // not of CUDA: all 1000 fit on an H200 (132 SMs x 32 CTAs), where the launch succeeded.
    WARPSIM_ONLY(EXPECT_ERR(cudaLaunchCooperativeKernel((const void *)fill, dim3(1000), dim3(32), args, 0, 0),
                            cudaErrorCooperativeLaunchTooLarge));

    // Grid sync: 30 CTAs of 64 threads, 5 rounds; then the host computes the same.
    const int ctas = 30, threads = 64, n = ctas * threads, shift = 100, rounds = 5;
    static int ha[n], want[n], tmp[n];
    for (int i = 0; i < n; i++) ha[i] = want[i] = i * 3;
    int *a, *b;
    CHECK(cudaMalloc(&a, sizeof ha));
    CHECK(cudaMalloc(&b, sizeof ha));
    CHECK(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice));
    int sh = shift, rs = rounds;
    void *rargs[] = {&a, &b, &sh, &rs};
    CHECK(cudaLaunchCooperativeKernel((const void *)rotate_rounds, dim3(ctas), dim3(threads), rargs, 0, 0));
    CHECK(cudaMemcpy(ha, a, sizeof ha, cudaMemcpyDeviceToHost));
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < n; i++) tmp[i] = want[(i + shift) % n];
        for (int i = 0; i < n; i++) want[i] = tmp[i] + r;
    }
    for (int i = 0; i < n; i++) EXPECT(ha[i] == want[i]);
    printf("grid.sync: %d rounds over %d CTAs\n", rounds, ctas);

    // An ordinary launch gives grid.sync() no workspace in warpsim: the kernel traps. (On an
    // H200, CUDA 13.0 driver, 2026-11-28, it ran: cudaSuccess.)
    rotate_rounds<<<ctas, threads>>>(a, b, shift, 1);
    cudaError_t ordinary = cudaDeviceSynchronize();
    WARPSIM_ONLY(EXPECT(ordinary == cudaErrorLaunchFailure));
    (void)ordinary;
    printf("PASS cooperative\n");
    return 0;
}
