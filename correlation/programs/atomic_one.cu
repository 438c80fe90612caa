// Atomics to one address: 15 CTAs x 256 threads each add once to a single global
// counter (every warp's 32 lanes collide).
#include "common.h"

#define CTAS 15
#define THREADS 256
#define REPS 1

extern "C" __global__ void setup_zero(unsigned *x, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] = 0;
}

extern "C" __global__ void atomic_one(unsigned *counter) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    for (int r = 0; r < REPS; r++) atomicAdd(counter, (hash32(tid * REPS + r) & 15) + 1);
}

int main() {
    unsigned *d_c = device_alloc<unsigned>(1);
    setup_zero<<<1, 32>>>(d_c, 1);
    CHECK_LAUNCH();
    atomic_one<<<CTAS, THREADS>>>(d_c);
    CHECK_LAUNCH();
    unsigned *c = host_copy(d_c, 1), ref = 0;
    for (unsigned t = 0; t < CTAS * THREADS; t++)
        for (unsigned r = 0; r < REPS; r++) ref += (hash32(t * REPS + r) & 15) + 1;
    expect_eq("counter", 0, ref, c[0]);
    return finish("atomic_one");
}
