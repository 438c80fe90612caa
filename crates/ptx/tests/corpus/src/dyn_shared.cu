// Dynamic extern __shared__ memory and __syncthreads_count/_and/_or.
extern __shared__ float dyn[];

__global__ void dyn_shared(const float* in, float* out, int* counts, int n) {
    float* a = dyn;
    int* flags = (int*)&dyn[blockDim.x];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    a[t] = g < n ? in[g] : 0.0f;
    flags[t] = a[t] > 0.0f;
    int c = __syncthreads_count(a[t] > 0.5f);
    int all = __syncthreads_and(flags[t]);
    int any = __syncthreads_or(a[t] < -1.0f);
    out[g < n ? g : 0] = a[(t + 1) % blockDim.x] + c;
    if (t == 0) { counts[3 * blockIdx.x] = c; counts[3 * blockIdx.x + 1] = all; counts[3 * blockIdx.x + 2] = any; }
}
