// Block-wide sum reduction through shared memory, then one atomicAdd per block.
#define BLOCK 256

__global__ void __launch_bounds__(BLOCK) reduce_sum(const float* __restrict__ in, float* out, int n) {
    __shared__ float tile[BLOCK];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x * 2 + tid;
    float v = 0.0f;
    if (i < n) v = in[i];
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    tile[tid] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) tile[tid] += tile[tid + s];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(out, tile[0]);
}

__global__ void reduce_max_2d(const int* in, int* out, int w, int h) {
    __shared__ int rows[16][17];
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    rows[threadIdx.y][threadIdx.x] = (x < w && y < h) ? in[y * w + x] : -2147483647;
    __syncthreads();
    if (threadIdx.y == 0) {
        int m = rows[0][threadIdx.x];
        for (int r = 1; r < 16; ++r) m = max(m, rows[r][threadIdx.x]);
        atomicMax(out, m);
    }
}
