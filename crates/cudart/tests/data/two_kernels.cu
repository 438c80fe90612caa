// Fixture for the fatbinary unit tests (crates/cudart/src/fatbin.rs, cubin.rs).
// Regenerate with crates/cudart/tests/data/regen.sh.
__global__ void scale(float *x, int n, float a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

__global__ void reduce(const float *in, float *out, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    float v = 0;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) v += in[i];
    s[t] = v;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) atomicAdd(out, s[0]);
}
