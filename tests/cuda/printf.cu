// Kernel printf goes to stdout in a deterministic order and interleaves with the host's own
// output in program order (the script compares stdout with printf.expected).
#include "check.h"

__global__ void hello(int tag) {
    printf("block %d thread %d tag %d value %.2f\n", blockIdx.x, threadIdx.x, tag, threadIdx.x * 0.5f);
}

__global__ void strings(const char *who) {
    if (threadIdx.x == 0) printf("%s says hi: %s %c %u %lld %x\n", "kernel", "ok", 'Z', 7u, -5ll, 255);
}

int main() {
    printf("host before\n");
    hello<<<2, 3>>>(42);
    CHECK(cudaDeviceSynchronize());
    printf("host between\n");
    strings<<<1, 4>>>(nullptr);
    CHECK(cudaDeviceSynchronize());
    printf("host after\n");
    printf("PASS printf\n");
    return 0;
}
