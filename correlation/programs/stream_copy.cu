// DRAM bandwidth, read + write: out[i] = in[i] over 1 MB each way, coalesced, grid-stride
// over 120 CTAs x 256 threads.
#include "common.h"

#define N (256 * 1024)
#define CTAS 120

extern "C" __global__ void stream_copy(const float *in, float *out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = in[i];
}

int main() {
    float *d_in = device_alloc<float>(N), *d_out = device_alloc<float>(N);
    setup_floats<<<CTAS, 256>>>(d_in, N, 0);
    CHECK_LAUNCH();
    stream_copy<<<CTAS, 256>>>(d_in, d_out, N);
    CHECK_LAUNCH();
    float *out = host_copy(d_out, N);
    for (int i = 0; i < N; i++) expect_eq("out", i, hval(i), out[i]);
    return finish("stream_copy");
}
