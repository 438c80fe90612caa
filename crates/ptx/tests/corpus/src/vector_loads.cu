// Vector loads/stores (float4, int2, double2), read-only loads and a matrix transpose tile.
__global__ void vec_copy(const float4* __restrict__ in, float4* out, const int2* ii, int2* io, const double2* di, double2* dout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = __ldg(&in[i]);
        v.x += 1.0f; v.w *= 2.0f;
        out[i] = v;
        int2 w = ii[i];
        io[i] = make_int2(w.y, w.x);
        double2 d = di[i];
        dout[i] = make_double2(d.y, d.x + d.y);
    }
}

__global__ void transpose(const float* in, float* out, int w, int h) {
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
