// mem_shared: shared-memory bank conflicts.
//
// One warp walks a dependent chain of shared loads; lane l reads word l * stride, and the
// table holds each word's own index, so every load of the chain has the same address
// pattern: stride 1 is conflict-free, stride 2^k (k <= 5) makes 2^k lanes share a bank.
// out[0] = cycles of the timed walk, out[1] = sum of the final indices (keeps it live).

#define WORDS 1024

extern "C" __global__ void mem_shared(long long *out, int stride, int hops)
{
    __shared__ unsigned table[WORDS];
    for (int i = threadIdx.x; i < WORDS; i += blockDim.x)
        table[i] = i;
    __syncthreads();
    unsigned idx = (threadIdx.x * stride) % WORDS;
    long long t0 = clock64();
    for (int i = 0; i < hops; i++)
        idx = table[idx];
    long long t1 = clock64();
    atomicAdd((unsigned long long *)&out[1], (unsigned long long)idx);
    if (threadIdx.x == 0)
        out[0] = t1 - t0;
}
