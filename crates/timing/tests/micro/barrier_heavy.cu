// barrier_heavy: ITER phases of M dependent adds each, separated by __syncthreads().
//
// With 8 warps per CTA on an SM, each phase is bound by one warp's dependent chain
// (M x the add latency; the other warps fill the latency gaps), and every warp then waits at
// the barrier for the slowest. Thread 0 times the whole loop with clock64 (out[blockIdx.x]).

#define ITER 16
#define M 64

extern "C" __global__ void barrier_heavy(long long *out, int seed)
{
    int x = seed + threadIdx.x;
    long long t0 = clock64();
    for (int i = 0; i < ITER; i++) {
#pragma unroll
        for (int j = 0; j < M; j++)
            asm volatile("add.s32 %0, %0, 1;" : "+r"(x));
        __syncthreads();
    }
    long long t1 = clock64();
    if (threadIdx.x == 0)
        out[blockIdx.x] = t1 - t0;
    if (x == -1)
        out[gridDim.x] = x; // keeps x live; never true for the seeds used
}
