// The environment: WARPSIM_MODE=functional runs without the timing model (its statistics say
// so), an unknown policy and a bad WARPSIM_MAX_INSTRUCTIONS are reported by name and the
// defaults kept.
// ENV: WARPSIM_MODE=functional
// ENV: WARPSIM_POLICY=fifo
// ENV: WARPSIM_MAX_INSTRUCTIONS=lots
// EXPECT-STDERR: WARPSIM_POLICY=`fifo`: unknown issue policy `fifo`
// EXPECT-STDERR: WARPSIM_MAX_INSTRUCTIONS=`lots` is not a positive integer
// EXPECT-STATS: "thread_instructions":
// EXPECT-STATS: ,"mode":"functional"}
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
