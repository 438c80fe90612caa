// dnn_resnet: the forward pass of a small ResNet-style network over a batch of images (the
// KAWS paper's Table 2 "RN": 38 kernels of 64 or 256 CTAs; the paper's RN comes from Tango).
// Every layer is its own launch, one thread per output value in 256-thread CTAs, activations
// in NCHW order:
//   stem:   conv3x3 (3 -> C), biasRelu, conv3x3 (C -> C), biasRelu, maxPool2 (halves H, W);
//   blocks: conv3x3, biasRelu, conv3x3, biasAddRelu (bias, the block's input as the
//           residual, ReLU), 8 times on C x H/2 x W/2;
//   head:   fullyConnected: one CTA per (image, class) over the flattened C x H/2 x W/2
//           features: each thread a strided share by fused multiply-adds, a shared-memory
//           tree (a barrier per level), thread 0 adds the bias.
// Convolutions: 3 x 3, stride 1, zero padding 1 (taps outside the image are skipped), weights
// [cout][cin][3][3]. Every float operation is an explicit round-to-nearest intrinsic in a
// fixed order, so the host repeats the network bit for bit.

#define RN_THREADS 256

__global__ void conv3x3(const float *in, const float *w, float *out, int images, int cin, int cout, int h, int wd)
{
    const int o = blockIdx.x * RN_THREADS + threadIdx.x;
    if (o >= images * cout * h * wd)
        return;
    const int x = o % wd;
    const int y = (o / wd) % h;
    const int co = (o / (wd * h)) % cout;
    const int img = o / (wd * h * cout);
    const float *src = in + (size_t)img * cin * h * wd;
    const float *wk = w + (size_t)co * cin * 9;
    float acc = 0.0f;
    for (int ci = 0; ci < cin; ci++) {
        for (int dy = -1; dy <= 1; dy++) {
            const int yy = y + dy;
            if (yy < 0 || yy >= h)
                continue;
            for (int dx = -1; dx <= 1; dx++) {
                const int xx = x + dx;
                if (xx < 0 || xx >= wd)
                    continue;
                acc = __fmaf_rn(src[(ci * h + yy) * wd + xx], wk[ci * 9 + (dy + 1) * 3 + (dx + 1)], acc);
            }
        }
    }
    out[o] = acc;
}

// x = max(x + bias[channel], 0) in place.
__global__ void biasRelu(float *x, const float *bias, int channels, int hw, int n)
{
    const int i = blockIdx.x * RN_THREADS + threadIdx.x;
    if (i < n)
        x[i] = fmaxf(__fadd_rn(x[i], bias[(i / hw) % channels]), 0.0f);
}

// x = max((x + bias[channel]) + residual, 0) in place: the end of a residual block.
__global__ void biasAddRelu(float *x, const float *bias, const float *residual, int channels, int hw, int n)
{
    const int i = blockIdx.x * RN_THREADS + threadIdx.x;
    if (i < n)
        x[i] = fmaxf(__fadd_rn(__fadd_rn(x[i], bias[(i / hw) % channels]), residual[i]), 0.0f);
}

// 2 x 2 max pooling, stride 2, over planes of h x w (h, w even).
__global__ void maxPool2(const float *in, float *out, int planes, int h, int wd)
{
    const int o = blockIdx.x * RN_THREADS + threadIdx.x;
    const int ho = h / 2, wo = wd / 2;
    if (o >= planes * ho * wo)
        return;
    const int x = o % wo;
    const int y = (o / wo) % ho;
    const float *p = in + (size_t)(o / (wo * ho)) * h * wd + (2 * y) * wd + 2 * x;
    out[o] = fmaxf(fmaxf(p[0], p[1]), fmaxf(p[wd], p[wd + 1]));
}

// logits[img][cls] = bias[cls] + sum_f features[img][f] w[cls][f]; grid = images x classes.
__global__ void fullyConnected(const float *features, const float *w, const float *bias, float *logits, int nfeat,
                               int classes)
{
    __shared__ float part[RN_THREADS];
    const int img = blockIdx.x / classes, cls = blockIdx.x % classes;
    const float *f = features + (size_t)img * nfeat;
    const float *wr = w + (size_t)cls * nfeat;
    float acc = 0.0f;
    for (int i = threadIdx.x; i < nfeat; i += RN_THREADS)
        acc = __fmaf_rn(f[i], wr[i], acc);
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int stride = RN_THREADS / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            part[threadIdx.x] = __fadd_rn(part[threadIdx.x], part[threadIdx.x + stride]);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        logits[blockIdx.x] = __fadd_rn(part[0], bias[cls]);
}
