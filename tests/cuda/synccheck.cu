// WARPSIM_SYNCCHECK=1 (`warpsim exec --synccheck`): a __syncthreads() that threads of the
// block never reach because they returned is reported, like compute-sanitizer's synccheck,
// and the launch fails with cudaErrorLaunchFailure. A block whose threads all reach every
// barrier, and return only after the last one, runs as usual.
// ENV: WARPSIM_SYNCCHECK=1
// EXPECT-STDERR: synccheck: barrier 0 at pc
// EXPECT-STDERR: completed although 28 threads that should reach it had exited: warp 3 lanes 4-31
// NATIVE: warpsim-only: checks warpsim's --synccheck
#include "check.h"

// Correct: every thread passes the barrier, then the extra ones leave.
__global__ void reverse_then_trim(int *x, int n) {
    __shared__ int tile[128];
    int t = threadIdx.x;
    tile[t] = t < n ? x[t] : 0;
    __syncthreads();
    if (t >= n) return;
    x[t] = tile[n - 1 - t];
}

// Undefined behaviour: threads n.. return before the barrier the others wait at.
__global__ void trim_then_reverse(int *x, int n) {
    __shared__ int tile[128];
    int t = threadIdx.x;
    if (t >= n) return;
    tile[t] = x[t];
    __syncthreads();
    x[t] = tile[n - 1 - t];
}

int main() {
    const int n = 100;
    int h[n], *d;
    for (int i = 0; i < n; i++) h[i] = i;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    reverse_then_trim<<<1, 128>>>(d, n);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(h[i] == n - 1 - i);

    // 128 threads, 100 reach the barrier: warp 3 keeps lanes 0-3 (threads 96-99).
    trim_then_reverse<<<1, 128>>>(d, n);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    EXPECT_ERR(cudaGetLastError(), cudaErrorLaunchFailure);
    printf("PASS synccheck\n");
    return 0;
}
