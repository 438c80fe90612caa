// Irregular gather: out[i] = table[idx[i]] for 32 K indices into a 512 KB table (128 K
// floats), 60 CTAs x 256 threads grid-stride; the indices (hashed, so every lane of a warp
// touches its own line) are loaded coalesced, the table through them.
#include "common.h"

#define N (32 * 1024)
#define TABLE (128 * 1024)
#define CTAS 60
#define THREADS 256

__host__ __device__ inline unsigned index_of(unsigned i) { return hash32(i ^ 0x5bd1e995u) % TABLE; }

extern "C" __global__ void setup_index(unsigned *idx, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) idx[i] = index_of(i);
}

extern "C" __global__ void gather(const float *table, const unsigned *idx, float *out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = table[idx[i]];
}

int main() {
    float *d_table = device_alloc<float>(TABLE), *d_out = device_alloc<float>(N);
    unsigned *d_idx = device_alloc<unsigned>(N);
    setup_floats<<<CTAS, THREADS>>>(d_table, TABLE, 0);
    CHECK_LAUNCH();
    setup_index<<<CTAS, THREADS>>>(d_idx, N);
    CHECK_LAUNCH();
    gather<<<CTAS, THREADS>>>(d_table, d_idx, d_out, N);
    CHECK_LAUNCH();
    float *got = host_copy(d_out, N);
    for (int i = 0; i < N; i++) expect_eq("out", i, hval(index_of(i)), got[i]);
    return finish("gather");
}
