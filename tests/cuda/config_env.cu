// The environment: WARPSIM_MODE=timing warns once and runs functionally, a policy is
// accepted, a bad WARPSIM_MAX_INSTRUCTIONS is reported by name and the default kept.
// ENV: WARPSIM_MODE=timing
// ENV: WARPSIM_POLICY=gto
// ENV: WARPSIM_MAX_INSTRUCTIONS=lots
// EXPECT-STDERR: WARPSIM_MODE=timing: the timing model is not implemented yet; running functionally
// EXPECT-STDERR: WARPSIM_MAX_INSTRUCTIONS=`lots` is not a positive integer
#include "check.h"

__global__ void sq(int *x) { x[threadIdx.x] = threadIdx.x * threadIdx.x; }

int main() {
    int *d, h[32];
    CHECK(cudaMalloc(&d, sizeof h));
    sq<<<1, 32>>>(d);
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[31] == 961);
    printf("PASS config_env\n");
    return 0;
}
