// Exclusive prefix sum of 32 K integers over three kernels: scan_blocks (64 CTAs x 256
// threads, a Blelloch up-sweep / down-sweep of 512 elements in shared memory, a barrier per
// level, writing each block's total), scan_sums (one CTA, the same scan over the 64 totals),
// add_offsets (each block adds its scanned total).
#include "common.h"

#define N (32 * 1024)
#define THREADS 256
#define ELEMS (2 * THREADS)
#define BLOCKS (N / ELEMS)

// Blelloch scan of s[0..2*blockDim.x) in place (exclusive); returns the total to thread 0.
__device__ unsigned blelloch(unsigned *s) {
    unsigned n = 2 * blockDim.x, t = threadIdx.x, off = 1;
    for (unsigned d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            unsigned a = off * (2 * t + 1) - 1, b = off * (2 * t + 2) - 1;
            s[b] += s[a];
        }
        off <<= 1;
    }
    __syncthreads();
    unsigned total = s[n - 1];
    __syncthreads();
    if (t == 0) s[n - 1] = 0;
    for (unsigned d = 1; d < n; d <<= 1) {
        off >>= 1;
        __syncthreads();
        if (t < d) {
            unsigned a = off * (2 * t + 1) - 1, b = off * (2 * t + 2) - 1;
            unsigned x = s[a];
            s[a] = s[b];
            s[b] += x;
        }
    }
    __syncthreads();
    return total;
}

extern "C" __global__ void scan_blocks(const unsigned *in, unsigned *out, unsigned *sums) {
    __shared__ unsigned s[ELEMS];
    unsigned base = blockIdx.x * 2 * blockDim.x, t = threadIdx.x;
    s[t] = in[base + t];
    s[t + blockDim.x] = in[base + t + blockDim.x];
    unsigned total = blelloch(s);
    out[base + t] = s[t];
    out[base + t + blockDim.x] = s[t + blockDim.x];
    if (t == 0) sums[blockIdx.x] = total;
}

extern "C" __global__ void scan_sums(unsigned *sums) {
    __shared__ unsigned s[BLOCKS];
    unsigned t = threadIdx.x;
    s[t] = sums[t];
    s[t + blockDim.x] = sums[t + blockDim.x];
    blelloch(s);
    sums[t] = s[t];
    sums[t + blockDim.x] = s[t + blockDim.x];
}

extern "C" __global__ void add_offsets(unsigned *out, const unsigned *sums) {
    unsigned base = blockIdx.x * 2 * blockDim.x, t = threadIdx.x, o = sums[blockIdx.x];
    out[base + t] += o;
    out[base + t + blockDim.x] += o;
}

int main() {
    unsigned *d_in = device_alloc<unsigned>(N), *d_out = device_alloc<unsigned>(N);
    unsigned *d_sums = device_alloc<unsigned>(BLOCKS);
    setup_words<<<BLOCKS, THREADS>>>(d_in, N, 0, 0xff);
    CHECK_LAUNCH();
    scan_blocks<<<BLOCKS, THREADS>>>(d_in, d_out, d_sums);
    CHECK_LAUNCH();
    scan_sums<<<1, BLOCKS / 2>>>(d_sums);
    CHECK_LAUNCH();
    add_offsets<<<BLOCKS, THREADS>>>(d_out, d_sums);
    CHECK_LAUNCH();
    unsigned *got = host_copy(d_out, N), acc = 0;
    for (int i = 0; i < N; i++) {
        expect_eq("out", i, acc, got[i]);
        acc += hash32(i) & 0xff;
    }
    return finish("scan_blelloch");
}
