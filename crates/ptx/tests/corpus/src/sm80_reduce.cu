// sm_80 warp reductions and other newer intrinsics (compiled with compute_80).
__global__ void sm80_reduce(const unsigned* in, unsigned* out, int* sout) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[t];
    unsigned s = __reduce_add_sync(0xffffffffu, v);
    unsigned mn = __reduce_min_sync(0xffffffffu, v);
    unsigned mx = __reduce_max_sync(0xffffffffu, v);
    unsigned a = __reduce_and_sync(0xffffffffu, v);
    unsigned o = __reduce_or_sync(0xffffffffu, v);
    unsigned x = __reduce_xor_sync(0xffffffffu, v);
    int si = __reduce_add_sync(0xffffffffu, (int)v - 5);
    if ((threadIdx.x & 31) == 0) {
        out[6 * (t / 32)] = s; out[6 * (t / 32) + 1] = mn; out[6 * (t / 32) + 2] = mx;
        out[6 * (t / 32) + 3] = a; out[6 * (t / 32) + 4] = o; out[6 * (t / 32) + 5] = x;
        sout[t / 32] = si;
    }
}
