// A kernel that never ends hits WARPSIM_MAX_INSTRUCTIONS (functional mode's runaway guard;
// runaway_cycles.cu tests timing mode's): cudaErrorLaunchTimeout.
// ENV: WARPSIM_MODE=functional
// ENV: WARPSIM_MAX_INSTRUCTIONS=200000
// EXPECT-STDERR: exceeded the limit of 200000 warp instructions
// NATIVE: warpsim-only: checks warpsim's instruction limit; on a GPU the kernel runs until the timeout
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
    printf("PASS runaway\n");
    return 0;
}
