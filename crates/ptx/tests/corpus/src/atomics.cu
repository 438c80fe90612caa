// Atomics of many kinds on global and shared memory.
__global__ void atomics(int* ai, unsigned* au, unsigned long long* al, float* af, double* ad, int* hist, const int* keys, int n) {
    __shared__ unsigned local_hist[64];
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 64) local_hist[threadIdx.x] = 0;
    __syncthreads();
    if (t < n) {
        int k = keys[t];
        atomicAdd(&local_hist[k & 63], 1u);
        atomicAdd(&ai[0], k);
        atomicSub(&ai[1], 1);
        atomicMin(&ai[2], k);
        atomicMax(&ai[3], k);
        atomicAnd(&au[0], (unsigned)k);
        atomicOr(&au[1], 1u << (k & 31));
        atomicXor(&au[2], (unsigned)k);
        atomicInc(&au[3], 100u);
        atomicDec(&au[4], 100u);
        atomicExch(&au[5], (unsigned)t);
        unsigned old = au[6], assumed;
        do {
            assumed = old;
            old = atomicCAS(&au[6], assumed, assumed + (unsigned)k);
        } while (assumed != old);
        atomicAdd(&al[0], (unsigned long long)k);
        atomicCAS(&al[1], 0ull, (unsigned long long)t);
        atomicAdd(&af[0], 0.5f * k);
        atomicExch(&af[1], (float)k);
        atomicAdd(&ad[0], (double)k);
    }
    __syncthreads();
    if (threadIdx.x < 64) atomicAdd(&hist[threadIdx.x], (int)local_hist[threadIdx.x]);
}
