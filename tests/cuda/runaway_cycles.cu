// In timing mode a kernel that never ends hits WARPSIM_MAX_CYCLES: cudaErrorLaunchTimeout,
// sticky, with one diagnostic naming the limit.
// ENV: WARPSIM_MODE=timing
// ENV: WARPSIM_MAX_CYCLES=200000
// EXPECT-STDERR: did not finish within 200000 simulated cycles
// EXPECT-STDERR: WARPSIM_MAX_CYCLES sets the limit
// NATIVE: warpsim-only: checks warpsim's cycle limit; on a GPU the kernel runs until the timeout
#include "check.h"

__global__ void spin(volatile int *flag) {
    while (*flag == 0) {
    }
}

int main() {
    int *d;
    CHECK(cudaMalloc(&d, sizeof(int)));
    CHECK(cudaMemset(d, 0, sizeof(int)));
    spin<<<1, 32>>>(d);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorLaunchTimeout);
    EXPECT_ERR(cudaGetLastError(), cudaErrorLaunchTimeout);
    printf("PASS runaway_cycles\n");
    return 0;
}
