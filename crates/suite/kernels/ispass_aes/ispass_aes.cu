// ispass_aes: AES-128 encryption of a buffer in ECB mode with T-tables (the PRO paper's
// Table II "AES", kernel aesEncrypt128: 257 CTAs of 256 threads at paper size).
//
// Each CTA encrypts 256 consecutive 16-byte blocks, one per thread. The four 256-entry
// T-tables (SubBytes, ShiftRows and MixColumns of one column folded into one 32-bit word per
// input byte) and the 44 words of the expanded key are computed on the host and staged into
// shared memory by the whole CTA; one barrier separates the staging from the rounds. A round
// is then 16 shared-memory table reads and 16 XORs per block; the last round (no MixColumns)
// masks one S-box byte out of the T-tables.
//
// Words are big-endian columns (byte 0 of the column in bits 31..24), as in FIPS-197; the
// input is loaded as little-endian words and byte-swapped with __byte_perm.
//
// Occupancy on the GTX 480: 256 threads per CTA and 4.2 KB of shared memory. The paper's
// Table IV shows 6 TBs in SM 0's first batch (thread slots: 1536 / 256); ours gets 5, because
// ptxas for sm_75 will not allocate fewer than 24 registers per thread (6 CTAs would need at
// most 21): registers are capped at that floor with __maxnreg__(24), 24 x 256 x 5 <= 32768.

#define AES_THREADS 256

__device__ __forceinline__ unsigned bswap(unsigned w)
{
    return __byte_perm(w, 0, 0x0123);
}

__global__ void __maxnreg__(24) aesEncrypt128(unsigned *out, const unsigned *in, const unsigned *ttables,
                                              const unsigned *round_keys, int nblocks)
{
    __shared__ unsigned t0[256], t1[256], t2[256], t3[256];
    __shared__ unsigned rk[44];
    const int tid = threadIdx.x;
    // 256 threads, 1024 table words: four each; the first 44 threads also stage a key word.
    t0[tid] = ttables[tid];
    t1[tid] = ttables[256 + tid];
    t2[tid] = ttables[512 + tid];
    t3[tid] = ttables[768 + tid];
    if (tid < 44)
        rk[tid] = round_keys[tid];
    __syncthreads();

    const int b = blockIdx.x * AES_THREADS + tid;
    if (b >= nblocks)
        return;
    const unsigned *src = in + 4 * b;
    unsigned s0 = bswap(src[0]) ^ rk[0];
    unsigned s1 = bswap(src[1]) ^ rk[1];
    unsigned s2 = bswap(src[2]) ^ rk[2];
    unsigned s3 = bswap(src[3]) ^ rk[3];
#pragma unroll 1
    for (int r = 1; r < 10; r++) {
        const unsigned u0 = t0[s0 >> 24] ^ t1[(s1 >> 16) & 0xff] ^ t2[(s2 >> 8) & 0xff] ^ t3[s3 & 0xff] ^ rk[4 * r];
        const unsigned u1 = t0[s1 >> 24] ^ t1[(s2 >> 16) & 0xff] ^ t2[(s3 >> 8) & 0xff] ^ t3[s0 & 0xff] ^ rk[4 * r + 1];
        const unsigned u2 = t0[s2 >> 24] ^ t1[(s3 >> 16) & 0xff] ^ t2[(s0 >> 8) & 0xff] ^ t3[s1 & 0xff] ^ rk[4 * r + 2];
        const unsigned u3 = t0[s3 >> 24] ^ t1[(s0 >> 16) & 0xff] ^ t2[(s1 >> 8) & 0xff] ^ t3[s2 & 0xff] ^ rk[4 * r + 3];
        s0 = u0;
        s1 = u1;
        s2 = u2;
        s3 = u3;
    }
    // Last round: SubBytes and ShiftRows only. S[x] is a byte of each T-table word: bits
    // 31..24 of T2[x], 23..16 of T3[x], 15..8 of T0[x] and 7..0 of T1[x].
    unsigned *dst = out + 4 * b;
    dst[0] = bswap(((t2[s0 >> 24] & 0xff000000u) | (t3[(s1 >> 16) & 0xff] & 0x00ff0000u) |
                    (t0[(s2 >> 8) & 0xff] & 0x0000ff00u) | (t1[s3 & 0xff] & 0x000000ffu)) ^ rk[40]);
    dst[1] = bswap(((t2[s1 >> 24] & 0xff000000u) | (t3[(s2 >> 16) & 0xff] & 0x00ff0000u) |
                    (t0[(s3 >> 8) & 0xff] & 0x0000ff00u) | (t1[s0 & 0xff] & 0x000000ffu)) ^ rk[41]);
    dst[2] = bswap(((t2[s2 >> 24] & 0xff000000u) | (t3[(s3 >> 16) & 0xff] & 0x00ff0000u) |
                    (t0[(s0 >> 8) & 0xff] & 0x0000ff00u) | (t1[s1 & 0xff] & 0x000000ffu)) ^ rk[42]);
    dst[3] = bswap(((t2[s3 >> 24] & 0xff000000u) | (t3[(s0 >> 16) & 0xff] & 0x00ff0000u) |
                    (t0[(s1 >> 8) & 0xff] & 0x0000ff00u) | (t1[s2 & 0xff] & 0x000000ffu)) ^ rk[43]);
}
