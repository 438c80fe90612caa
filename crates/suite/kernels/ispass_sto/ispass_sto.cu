// ispass_sto: SHA-1 of overlapping windows of a buffer, one window per thread (the PRO
// paper's Table II "STO", StoreGPU's kernel sha1_overlap: 384 CTAs at paper size).
//
// Thread t hashes the `window` bytes starting at byte t * stride (the windows overlap when
// stride < window, as in content-addressable storage that fingerprints sliding chunks).
// The message is read byte by byte (windows need not be word aligned) into big-endian
// message words, padded as FIPS 180-4 says (a 1 bit, zeros, the 64-bit bit length; windows
// are shorter than 2^29 bytes, so the length's high word is 0) and compressed 64 bytes at a
// time; the 16-word schedule is a circular buffer in local registers. The digest's five words
// are stored at out[5 t ... 5 t + 4]. No shared memory and no barriers: integer ALU bound,
// with byte loads that overlap between neighbouring threads (served by the L1).

#define STO_THREADS 128

__device__ __forceinline__ unsigned rotl(unsigned x, int n)
{
    return __funnelshift_l(x, x, n);
}

/// Byte `p` of the padded message of `len` bytes that starts at `msg`.
__device__ __forceinline__ unsigned padded_byte(const unsigned char *msg, unsigned p, unsigned len)
{
    if (p < len)
        return msg[p];
    return p == len ? 0x80u : 0u;
}

__global__ void sha1_overlap(unsigned *out, const unsigned char *buf, int nwindows, int stride, int window)
{
    const int t = blockIdx.x * STO_THREADS + threadIdx.x;
    if (t >= nwindows)
        return;
    const unsigned char *msg = buf + (size_t)t * stride;
    const unsigned len = window;
    // Blocks: the message, the 0x80 byte and the 8-byte length, rounded up to 64 bytes.
    const unsigned nblocks = (len + 8) / 64 + 1;
    unsigned h0 = 0x67452301u, h1 = 0xEFCDAB89u, h2 = 0x98BADCFEu, h3 = 0x10325476u, h4 = 0xC3D2E1F0u;
#pragma unroll 1
    for (unsigned blk = 0; blk < nblocks; blk++) {
        unsigned w[16];
#pragma unroll
        for (int i = 0; i < 16; i++) {
            const unsigned p = blk * 64 + 4 * i;
            w[i] = (padded_byte(msg, p, len) << 24) | (padded_byte(msg, p + 1, len) << 16) |
                   (padded_byte(msg, p + 2, len) << 8) | padded_byte(msg, p + 3, len);
        }
        if (blk == nblocks - 1)
            w[15] = len * 8;
        unsigned a = h0, b = h1, c = h2, d = h3, e = h4;
#pragma unroll
        for (int r = 0; r < 80; r++) {
            unsigned x;
            if (r >= 16) {
                x = rotl(w[(r + 13) & 15] ^ w[(r + 8) & 15] ^ w[(r + 2) & 15] ^ w[r & 15], 1);
                w[r & 15] = x;
            } else {
                x = w[r];
            }
            unsigned f, k;
            if (r < 20) {
                f = (b & c) | (~b & d);
                k = 0x5A827999u;
            } else if (r < 40) {
                f = b ^ c ^ d;
                k = 0x6ED9EBA1u;
            } else if (r < 60) {
                f = (b & c) | (b & d) | (c & d);
                k = 0x8F1BBCDCu;
            } else {
                f = b ^ c ^ d;
                k = 0xCA62C1D6u;
            }
            const unsigned tmp = rotl(a, 5) + f + e + k + x;
            e = d;
            d = c;
            c = rotl(b, 30);
            b = a;
            a = tmp;
        }
        h0 += a;
        h1 += b;
        h2 += c;
        h3 += d;
        h4 += e;
    }
    unsigned *dst = out + 5 * t;
    dst[0] = h0;
    dst[1] = h1;
    dst[2] = h2;
    dst[3] = h3;
    dst[4] = h4;
}
