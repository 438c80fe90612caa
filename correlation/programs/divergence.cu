// Branch divergence: 30 CTAs x 256 threads; each thread takes one of 8 paths picked by a
// hash of its index (so a warp splits 8 ways and runs the paths one after another under
// SIMT reconvergence), each path a loop of a different length and operation.
#include "common.h"

#define CTAS 30
#define THREADS 256

__host__ __device__ inline unsigned branchy(unsigned tid) {
    unsigned x = hash32(tid), path = x & 7, r = x;
    switch (path) {
    case 0: for (int i = 0; i < 8; i++) r = r * 3u + 1u; break;
    case 1: for (int i = 0; i < 12; i++) r ^= r << 5; break;
    case 2: for (int i = 0; i < 16; i++) r += r >> 3; break;
    case 3: for (int i = 0; i < 20; i++) r = r * 5u ^ i; break;
    case 4: for (int i = 0; i < 24; i++) r -= r << 2; break;
    case 5: for (int i = 0; i < 28; i++) r = (r >> 1) | (r << 31); break;
    case 6: for (int i = 0; i < 32; i++) r += 0x9e3779b9u ^ r; break;
    default: for (int i = 0; i < 36; i++) r = r * r + 7u; break;
    }
    if (r & 1) r = hash32(r); // a second, data-dependent split
    return r;
}

extern "C" __global__ void divergence(unsigned *out) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    out[tid] = branchy(tid);
}

int main() {
    const int n = CTAS * THREADS;
    unsigned *d_out = device_alloc<unsigned>(n);
    divergence<<<CTAS, THREADS>>>(d_out);
    CHECK_LAUNCH();
    unsigned *out = host_copy(d_out, n);
    for (int t = 0; t < n; t++) expect_eq("out", t, branchy(t), out[t]);
    return finish("divergence");
}
