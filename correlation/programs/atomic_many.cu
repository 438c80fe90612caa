// Atomics to many addresses: 30 CTAs x 256 threads each add twice to one of 4096 global
// counters picked by a hash (lanes of a warp mostly hit distinct lines).
#include "common.h"

#define CTAS 30
#define THREADS 256
#define REPS 2
#define COUNTERS 4096

extern "C" __global__ void setup_zero(unsigned *x, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] = 0;
}

extern "C" __global__ void atomic_many(unsigned *counters) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    for (int r = 0; r < REPS; r++) atomicAdd(&counters[hash32(tid * REPS + r) % COUNTERS], 1u);
}

int main() {
    unsigned *d_c = device_alloc<unsigned>(COUNTERS);
    setup_zero<<<16, 256>>>(d_c, COUNTERS);
    CHECK_LAUNCH();
    atomic_many<<<CTAS, THREADS>>>(d_c);
    CHECK_LAUNCH();
    unsigned *c = host_copy(d_c, COUNTERS);
    unsigned *ref = (unsigned *)calloc(COUNTERS, sizeof(unsigned));
    for (unsigned t = 0; t < CTAS * THREADS; t++)
        for (unsigned r = 0; r < REPS; r++) ref[hash32(t * REPS + r) % COUNTERS]++;
    for (int i = 0; i < COUNTERS; i++) expect_eq("counter", i, ref[i], c[i]);
    return finish("atomic_many");
}
