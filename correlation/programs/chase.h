// Pointer chase shared by chase_l1 / chase_l2 / chase_dram: one thread follows a single
// random cycle through `lines` 128-byte lines (one word used per line), so each load needs
// the previous one's value: cycles per step = load-to-use latency of the level the
// footprint fits in. The cycle visits perm(0), perm(1), ... where perm is a bijection on
// [0, lines) (lines a power of two): multiply by an odd constant and xor-shift, both
// invertible modulo 2^bits.
#pragma once
#include "common.h"

#define WORDS_PER_LINE 32

__host__ __device__ inline unsigned perm(unsigned k, unsigned bits) {
    unsigned mask = (bits >= 32) ? 0xffffffffu : ((1u << bits) - 1);
    k = (k * 0x9e3779b1u) & mask;
    k ^= k >> (bits / 2 + 1);
    k = (k * 0x85ebca6bu) & mask;
    k ^= k >> (bits / 2);
    return k;
}

// p[perm(k) line] = word index of perm(k + 1)'s line.
extern "C" __global__ void setup_chain(unsigned *p, unsigned bits) {
    unsigned lines = 1u << bits;
    for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < lines; k += gridDim.x * blockDim.x)
        p[perm(k, bits) * WORDS_PER_LINE] = perm((k + 1) & (lines - 1), bits) * WORDS_PER_LINE;
}

// Reads every line of the chain once, in parallel, with ld.global.cg: brings the footprint
// into L2 before the timed chase. (Both simulators allocate L2 lines on write, but GPGPU-Sim
// keeps per-byte valid masks and fetches a partly written line from DRAM on its first read,
// so setup_chain's writes alone do not warm it.) `sink` is written only in the impossible
// case of an all-ones sum, which keeps the loads.
extern "C" __global__ void setup_warm(const unsigned *p, unsigned *sink, unsigned bits) {
    unsigned lines = 1u << bits, sum = 0;
    for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < lines; k += gridDim.x * blockDim.x)
        sum += __ldcg(p + k * WORDS_PER_LINE);
    if (sum == 0xffffffffu) sink[0] = sum;
}

// Host side: builds the chain (and warms L2 with setup_warm when asked), runs warm + timed
// steps from perm(0) with the given kernel and checks the final position and the sum of the
// positions visited.
typedef void (*chase_kernel)(const unsigned *, unsigned *, int, int);

static int run_chase(const char *name, chase_kernel kernel, unsigned bits, bool warm_l2, int warm, int steps) {
    unsigned lines = 1u << bits;
    unsigned *d_p = device_alloc<unsigned>((size_t)lines * WORDS_PER_LINE);
    unsigned *d_out = device_alloc<unsigned>(4);
    int ctas = lines / 256 < 1 ? 1 : (lines / 256 > 512 ? 512 : lines / 256);
    setup_chain<<<ctas, 256>>>(d_p, bits);
    CHECK_LAUNCH();
    if (warm_l2) {
        setup_warm<<<ctas, 256>>>(d_p, d_out, bits);
        CHECK_LAUNCH();
    }
    kernel<<<1, 1>>>(d_p, d_out, warm, steps);
    CHECK_LAUNCH();
    unsigned *out = host_copy(d_out, 4);
    unsigned k = 0, sum = 0;
    for (int i = 0; i < warm + steps; i++) {
        k = (k + 1) & (lines - 1);
        sum += perm(k, bits) * WORDS_PER_LINE;
    }
    expect_eq("position", 0, perm(k, bits) * WORDS_PER_LINE, out[0]);
    expect_eq("sum", 0, sum, out[1]);
    metric(name, "cycles_per_load", (double)out[2] / steps);
    return finish(name);
}

// The chase loop with load instruction LOAD (__ldg, __ldcg, plain): out = {position, sum,
// cycles of the timed steps}.
#define CHASE_KERNEL(NAME, LOAD)                                                          \
    extern "C" __global__ void NAME(const unsigned *p, unsigned *out, int warm, int steps) { \
        unsigned j = 0, sum = 0; /* perm(0) = 0 */                                        \
        for (int i = 0; i < warm; i++) {                                                  \
            j = LOAD(p + j);                                                              \
            sum += j;                                                                     \
        }                                                                                 \
        unsigned t0 = clock32();                                                          \
        for (int i = 0; i < steps; i++) {                                                 \
            j = LOAD(p + j);                                                              \
            sum += j;                                                                     \
        }                                                                                 \
        unsigned t1 = clock32();                                                          \
        out[0] = j;                                                                       \
        out[1] = sum;                                                                     \
        out[2] = t1 - t0;                                                                 \
    }
