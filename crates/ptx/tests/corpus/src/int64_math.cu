// 64-bit integer arithmetic: high multiplies, division, remainder, shifts, bit ops.
__global__ void int64_math(const unsigned long long* a, const unsigned long long* b, unsigned long long* out, long long* sout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned long long x = a[i], y = b[i] | 1ull;
        out[4 * i + 0] = __umul64hi(x, y);
        out[4 * i + 1] = x / y + x % y;
        out[4 * i + 2] = (x << (y & 63)) ^ (x >> 7) ^ __brevll(x);
        out[4 * i + 3] = __popcll(x) + __clzll(y) + __ffsll((long long)x);
        long long sx = (long long)x, sy = (long long)y;
        sout[i] = sx / sy - sx % sy + __mul64hi(sx, sy) + (sx >> 3);
        unsigned hi = __umulhi((unsigned)x, (unsigned)y);
        sout[i] += hi + (unsigned)x / ((unsigned)y | 1u);
    }
}
