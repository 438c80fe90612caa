// cudaLaunchCooperativeKernel: runs like a launch when every CTA fits on the GPU at once,
// else cudaErrorCooperativeLaunchTooLarge; and the argument-array launch path in general.
// Grid-wide synchronisation (issue 19, item 2): cooperative groups' grid.sync() between
// rounds of a rotation whose every element crosses CTAs, checked on the host; without a
// cooperative launch grid.sync() has no workspace and traps, as on a GPU (last: sticky).
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
    fill<<<1, 4096>>>(d, 0);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);

    int v = 7;
    void *args[] = {&d, &v};
    CHECK(cudaLaunchCooperativeKernel((const void *)fill, dim3(2), dim3(128), args, 0, 0));
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[255] == 7 + 127);
    // More CTAs than fit on the GPU at once (15 SMs x 8 CTAs).
    EXPECT_ERR(cudaLaunchCooperativeKernel((const void *)fill, dim3(1000), dim3(32), args, 0, 0),
               cudaErrorCooperativeLaunchTooLarge);

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

    // An ordinary launch gives grid.sync() no workspace: the kernel traps.
    rotate_rounds<<<ctas, threads>>>(a, b, shift, 1);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    printf("PASS cooperative\n");
    return 0;
}
