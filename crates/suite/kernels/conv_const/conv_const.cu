// conv_const: separable 2-D convolution with the filter in constant memory.
//
// The host writes the 2 * radius + 1 taps into c_filter through the module's symbol, then
// launches convRows (horizontal pass) and convCols (vertical pass) on a w x h image.
// Out-of-range neighbours are clamped to the edge.

#define MAX_TAPS 33

__constant__ float c_filter[MAX_TAPS];

__global__ void convRows(float *out, const float *in, int w, int h, int radius)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;

    const float *row = in + y * w;
    float acc = 0.0f;
    for (int k = -radius; k <= radius; ++k) {
        const int xx = min(max(x + k, 0), w - 1);
        acc += c_filter[radius + k] * row[xx];
    }
    out[y * w + x] = acc;
}

__global__ void convCols(float *out, const float *in, int w, int h, int radius)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;

    float acc = 0.0f;
    for (int k = -radius; k <= radius; ++k) {
        const int yy = min(max(y + k, 0), h - 1);
        acc += c_filter[radius + k] * in[yy * w + x];
    }
    out[y * w + x] = acc;
}
