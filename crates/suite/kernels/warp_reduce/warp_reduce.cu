// warp_reduce: warp-level primitives.
//
// warpStats (1-D blocks, blockDim.x a multiple of 32, at most 1024):
//   * per-warp float sum with __shfl_down_sync (lane 0 holds the result), then a per-block
//     sum: warp sums go through shared memory and warp 0 reduces them with shuffles again;
//   * per-warp int maximum with a __shfl_xor_sync butterfly (every lane ends with it);
//   * __ballot_sync of (key > threshold), its __popc, and __any_sync / __all_sync flags.
//   Lanes past n take part in every collective with neutral values (full member mask).
// warpScan: inclusive per-warp prefix sum of ints with __shfl_up_sync.

#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warpSumDown(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

__device__ __forceinline__ int warpMaxXor(int v)
{
    for (int mask = 16; mask > 0; mask >>= 1)
        v = max(v, __shfl_xor_sync(FULL_MASK, v, mask));
    return v;
}

__global__ void warpStats(const float *x, const int *keys, int n, int threshold,
                          float *warp_sum, float *block_sum, int *warp_max,
                          unsigned int *warp_ballot, int *warp_count, int *warp_flags)
{
    __shared__ float sums[32];

    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & 31;
    const int warp_in_block = threadIdx.x >> 5;
    const int warp = i >> 5;
    const bool valid = i < n;

    const float v = valid ? x[i] : 0.0f;
    const int k = valid ? keys[i] : INT_MIN;

    const float s = warpSumDown(v);
    const int m = warpMaxXor(k);
    const unsigned int above = __ballot_sync(FULL_MASK, valid && k > threshold);
    const int any_negative = __any_sync(FULL_MASK, valid && k < 0);
    const int all_even = __all_sync(FULL_MASK, !valid || (k & 1) == 0);
    // Every lane must agree on the butterfly result.
    const int agree = __all_sync(FULL_MASK, __shfl_sync(FULL_MASK, m, 0) == m);

    if (lane == 0) {
        warp_sum[warp] = s;
        warp_max[warp] = m;
        warp_ballot[warp] = above;
        warp_count[warp] = __popc(above);
        warp_flags[warp] = (any_negative ? 1 : 0) | (all_even ? 2 : 0) | (agree ? 4 : 0);
        sums[warp_in_block] = s;
    }
    __syncthreads();

    if (warp_in_block == 0) {
        const int nwarps = blockDim.x >> 5;
        float t = lane < nwarps ? sums[lane] : 0.0f;
        t = warpSumDown(t);
        if (lane == 0)
            block_sum[blockIdx.x] = t;
    }
}

__global__ void warpScan(const int *in, int *out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & 31;
    int v = i < n ? in[i] : 0;
    for (int offset = 1; offset < 32; offset <<= 1) {
        const int up = __shfl_up_sync(FULL_MASK, v, offset);
        if (lane >= offset)
            v += up;
    }
    if (i < n)
        out[i] = v;
}
