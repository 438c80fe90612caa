// rod_particlefilter: tracks a bright disk through a synthetic video with a particle filter
// (Rodinia "particlefilter" structure). Per frame the host launches, in order:
//   pfLikelihood  one thread per particle: random-walk move (a per-particle LCG state), the
//                 likelihood of the frame's pixels on a disk of offsets around the particle,
//                 the weight update, and the CTA's sum of the new weights (warp shuffles,
//                 then one barrier to combine the warps' totals).
//   pfSum         one thread adds the per-CTA sums (serially, as Rodinia's sum kernel).
//   pfNormalize   w /= total, then the CTA-local inclusive prefix sum of the normalised
//                 weights (warp shuffle scan + one barrier) and the CTA's total.
//   pfOffsets     one thread: exclusive scan of the CTA totals.
//   pfGlobalCdf   adds each CTA's offset to its local prefix sums: the global CDF.
//   pfFindIndex   each particle draws u = u1 + i / N (u1 drawn by the host per frame),
//                 binary-searches the CDF for the first entry >= u, copies that particle's
//                 position and resets its weight to 1 / N.
// Barriers: one in pfLikelihood and one in pfNormalize; the rest have none. The likelihood
// is Rodinia's ((I - 100)^2 - (I - 228)^2) / 50 summed over the disk; the weight factor is
// the rational (1 + max(L, 0) / 512)^2 instead of exp(L), so that every float operation is an
// explicit correctly-rounded one and the host reproduces every weight, CDF entry and
// resampled index bit for bit (a single differing CDF bit could change an index).

#define PF_T 128
#define PF_WARPS (PF_T / 32)

// Inclusive warp scan in the Hillis-Steele order the host mirrors.
__device__ float warpScan(float v, int lane)
{
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const float up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v = __fadd_rn(v, up);
    }
    return v;
}

// Inclusive CTA scan: warp scans, then each warp adds the earlier warps' totals in order.
// Returns the thread's inclusive prefix; *total gets the CTA's sum.
__device__ float blockScan(float v, float *warpTot, float *total)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warpScan(v, lane);
    if (lane == 31)
        warpTot[warp] = v;
    __syncthreads();
    float off = 0.0f;
    for (int w = 0; w < warp; w++)
        off = __fadd_rn(off, warpTot[w]);
    if (warp > 0)
        v = __fadd_rn(off, v);
    if (threadIdx.x == PF_T - 1)
        *total = v;
    return v;
}

__global__ void pfLikelihood(const unsigned char *frame, int width, int height, int *px, int *py,
                             unsigned int *seed, float *weight, const int *disk, int diskLen, float *ctaSum, int n)
{
    __shared__ float warpTot[PF_WARPS];
    const int i = blockIdx.x * PF_T + threadIdx.x;
    float w = 0.0f;
    if (i < n) {
        // Move: the LCG's top byte gives a (nearly uniform) step in [-2, 2] on each axis;
        // positions stay inside the frame.
        unsigned int s = seed[i];
        s = s * 1664525u + 1013904223u;
        const int dx = (int)(s >> 24) % 5 - 2;
        s = s * 1664525u + 1013904223u;
        const int dy = (int)(s >> 24) % 5 - 2;
        seed[i] = s;
        const int x = min(max(px[i] + dx, 0), width - 1);
        const int y = min(max(py[i] + dy, 0), height - 1);
        px[i] = x;
        py[i] = y;
        int l = 0;
        for (int k = 0; k < diskLen; k++) {
            const int xx = min(max(x + disk[2 * k], 0), width - 1);
            const int yy = min(max(y + disk[2 * k + 1], 0), height - 1);
            const int v = frame[yy * width + xx];
            l += (v - 100) * (v - 100) - (v - 228) * (v - 228);
        }
        const float like = __fdiv_rn((float)l, 50.0f);
        const float f = __fadd_rn(1.0f, __fdiv_rn(fmaxf(like, 0.0f), 512.0f));
        w = __fmul_rn(weight[i], __fmul_rn(f, f));
        weight[i] = w;
    }
    float total;
    blockScan(w, warpTot, &total);
    __syncthreads();
    if (threadIdx.x == PF_T - 1)
        ctaSum[blockIdx.x] = total;
}

__global__ void pfSum(const float *ctaSum, int ctas, float *total)
{
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int b = 0; b < ctas; b++)
            s = __fadd_rn(s, ctaSum[b]);
        *total = s;
    }
}

__global__ void pfNormalize(float *weight, const float *total, float *cdf, float *ctaTot, int n)
{
    __shared__ float warpTot[PF_WARPS];
    const int i = blockIdx.x * PF_T + threadIdx.x;
    float w = 0.0f;
    if (i < n) {
        w = __fdiv_rn(weight[i], *total);
        weight[i] = w;
    }
    float t;
    const float c = blockScan(w, warpTot, &t);
    if (i < n)
        cdf[i] = c;
    if (threadIdx.x == PF_T - 1)
        ctaTot[blockIdx.x] = t;
}

__global__ void pfOffsets(const float *ctaTot, float *ctaOff, int ctas)
{
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int b = 0; b < ctas; b++) {
            ctaOff[b] = s;
            s = __fadd_rn(s, ctaTot[b]);
        }
    }
}

__global__ void pfGlobalCdf(float *cdf, const float *ctaOff, int n)
{
    const int i = blockIdx.x * PF_T + threadIdx.x;
    if (i < n && blockIdx.x > 0)
        cdf[i] = __fadd_rn(ctaOff[blockIdx.x], cdf[i]);
}

__global__ void pfFindIndex(const float *cdf, const int *px, const int *py, int *nx, int *ny, int *index,
                            float *weight, float u1, int n)
{
    const int i = blockIdx.x * PF_T + threadIdx.x;
    if (i >= n)
        return;
    const float u = __fadd_rn(u1, __fdiv_rn((float)i, (float)n));
    // First j with cdf[j] >= u; n - 1 when none (u beyond the rounded total).
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        const int mid = (lo + hi) >> 1;
        if (cdf[mid] >= u)
            hi = mid;
        else
            lo = mid + 1;
    }
    index[i] = lo;
    nx[i] = px[lo];
    ny[i] = py[lo];
    weight[i] = __fdiv_rn(1.0f, (float)n);
}
