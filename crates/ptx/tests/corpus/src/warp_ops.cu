// Warp-level primitives: shuffles, votes, ballot, match, activemask.
__device__ int warp_sum(int v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

__global__ void warp_ops(const int* in, int* out, unsigned* masks) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[t];
    int s = warp_sum(v);
    int x = __shfl_xor_sync(0xffffffffu, v, 1);
    int u = __shfl_up_sync(0xffffffffu, v, 2, 16);
    int b = __shfl_sync(0xffffffffu, v, 0);
    unsigned ballot = __ballot_sync(0xffffffffu, v > 0);
    int all = __all_sync(0xffffffffu, v != 0);
    int any = __any_sync(0xffffffffu, v < 0);
    unsigned act = __activemask();
    unsigned same = __match_any_sync(act, v & 7);
    int pred;
    unsigned alls = __match_all_sync(act, v >> 4, &pred);
    out[t] = s + x + u + b + all + any + pred;
    if ((threadIdx.x & 31) == 0) {
        masks[4 * (t / 32) + 0] = ballot;
        masks[4 * (t / 32) + 1] = act;
        masks[4 * (t / 32) + 2] = same;
        masks[4 * (t / 32) + 3] = alls;
    }
    __syncwarp();
    out[t] += __popc(ballot) + __clz(v) + __ffs(v) + __brev(v);
}
