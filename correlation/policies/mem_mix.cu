// Policies set, memory-bound with a tail: 240 CTAs x 128 threads; CTA c runs 2 + 2 (c % 4)
// iterations, each a warp-wide load of one 128-byte line at a hashed place in a 2 MB array
// (mostly L2/DRAM misses) followed by 16 dependent integer steps on it. No barriers: the
// MOTRR kind (memory warps first), and unequal CTAs for the kernel's last wave (KAWS, PRO).
#include "../programs/common.h"

#define CTAS 240
#define THREADS 128
#define LINES 16384
#define WORDS (LINES * 32)

__host__ __device__ inline unsigned mix(unsigned x) {
    for (int i = 0; i < 16; i++) x = x * 1664525u + 1013904223u;
    return x;
}

__host__ __device__ inline unsigned line_of(unsigned warp, int it) {
    return hash32(warp * 16u + (unsigned)it) % LINES;
}

extern "C" __global__ void mem_mix(const unsigned *in, unsigned *out) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned warp = tid / 32, lane = tid % 32;
    int iters = 2 + 2 * (blockIdx.x % 4);
    unsigned x = tid;
    for (int it = 0; it < iters; it++) x = mix(x ^ in[line_of(warp, it) * 32 + lane]);
    out[tid] = x;
}

int main() {
    const int n = CTAS * THREADS;
    unsigned *d_in = device_alloc<unsigned>(WORDS), *d_out = device_alloc<unsigned>(n);
    setup_words<<<120, 256>>>(d_in, WORDS, 0u, 0xffffffffu);
    CHECK_LAUNCH();
    mem_mix<<<CTAS, THREADS>>>(d_in, d_out);
    CHECK_LAUNCH();
    unsigned *out = host_copy(d_out, n);
    for (unsigned tid = 0; tid < (unsigned)n; tid++) {
        unsigned c = tid / THREADS, warp = tid / 32, lane = tid % 32, x = tid;
        int iters = 2 + 2 * (c % 4);
        for (int it = 0; it < iters; it++) x = mix(x ^ hash32(line_of(warp, it) * 32 + lane));
        expect_eq("out", tid, x, out[tid]);
    }
    return finish("mem_mix");
}
