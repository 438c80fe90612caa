// baws_mg: MRI Cartesian gridding (BAWS Table 2 "MG": 16 warps/CTA, 3 CTAs/SM).
//
// Non-uniform k-space samples (position (x, y) in grid units, complex value (re, im)) are
// spread onto a G x G Cartesian grid: every grid point p within distance MG_R of a sample s
// gets w * value and w, with the weight w = (1 - |p - s|^2 / R^2)^2 (a smooth kernel that
// vanishes at the cutoff, standing in for Kaiser-Bessel). The pipeline, one launch each:
//   mgBinCount    one thread per sample: atomicAdd on the count of its bin (MG_B x MG_B grid
//                 cells; bins are numbered row by row).
//   mgBinScan     one CTA: exclusive scan of the bin counts in shared memory (Hillis-Steele,
//                 a barrier per step, chunks of 512 with a carry); also the scatter cursors.
//   mgBinScatter  one thread per sample: atomicAdd on its bin's cursor gives its slot in the
//                 binned sample array (the order within a bin depends on the schedule).
//   mgGrid        one CTA per 32 x 16 tile of grid points, one point per thread, one row of
//                 the tile per warp. The samples that can reach the tile lie in the bins of
//                 the tile grown by one bin (MG_R <= MG_B); per bin row those bins are one
//                 contiguous range of the binned array. The ranges' samples are staged in
//                 shared memory in chunks of 512 (barrier); each warp skips the samples farther
//                 than R from its row (a warp-uniform test) and each thread accumulates the
//                 ones within the cutoff of its point; a barrier before the next chunk.
//                 The work is data-dependent per warp and per CTA: the trajectory is dense
//                 near the k-space centre.
//
// Occupancy on the GTX 480 (mgGrid): 512 threads, an 8 KB sample chunk in shared memory,
// <= 20 registers: the 1536 thread slots give 3 CTAs/SM.

#define MG_THREADS 512
#define MG_TX 32
#define MG_TY 16
#define MG_B 4
#define MG_R 2.0f
#define MG_ROWS (MG_TY / MG_B + 2)  // bin rows a tile's samples can come from

struct Sample {
    float x, y, re, im;
};

__device__ __forceinline__ int mgBin(float x, float y, int binsX)
{
    return ((int)y / MG_B) * binsX + (int)x / MG_B;
}

__global__ void mgBinCount(const Sample *samples, int *binCount, int n, int binsX)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&binCount[mgBin(samples[i].x, samples[i].y, binsX)], 1);
}

__global__ void mgBinScan(const int *binCount, int *binStart, int *cursor, int bins)
{
    __shared__ int buf[2][MG_THREADS];
    __shared__ int carry;
    const int tid = threadIdx.x;
    if (tid == 0)
        carry = 0;
#pragma unroll 1
    for (int c0 = 0; c0 < bins; c0 += MG_THREADS) {
        const int v = c0 + tid < bins ? binCount[c0 + tid] : 0;
        int cur = 0;
        buf[0][tid] = v;
        __syncthreads();
#pragma unroll 1
        for (int d = 1; d < MG_THREADS; d <<= 1) {
            buf[cur ^ 1][tid] = buf[cur][tid] + (tid >= d ? buf[cur][tid - d] : 0);
            cur ^= 1;
            __syncthreads();
        }
        const int excl = carry + buf[cur][tid] - v;
        if (c0 + tid < bins) {
            binStart[c0 + tid] = excl;
            cursor[c0 + tid] = excl;
        }
        __syncthreads();
        if (tid == MG_THREADS - 1)
            carry = excl + v;
        __syncthreads();
    }
    if (tid == 0)
        binStart[bins] = carry;
}

__global__ void mgBinScatter(const Sample *samples, Sample *binned, int *cursor, int n, int binsX)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const Sample s = samples[i];
        binned[atomicAdd(&cursor[mgBin(s.x, s.y, binsX)], 1)] = s;
    }
}

__global__ void mgGrid(const Sample *binned, const int *binStart, float *gridRe, float *gridIm, float *gridW,
                       int g, int binsX, int binsY, float invR2)
{
    __shared__ float2 spos[MG_THREADS];
    __shared__ float2 sval[MG_THREADS];
    __shared__ int rangeStart[MG_ROWS], rangeEnd[MG_ROWS];
    const int tid = threadIdx.x;
    const float fx = (float)(blockIdx.x * MG_TX + tid % MG_TX);
    const float fy = (float)(blockIdx.y * MG_TY + tid / MG_TX);
    float re = 0.0f, im = 0.0f, wsum = 0.0f;

    if (tid < MG_ROWS) {
        const int by = (int)blockIdx.y * (MG_TY / MG_B) - 1 + tid;
        const int b0 = by * binsX + max((int)blockIdx.x * (MG_TX / MG_B) - 1, 0);
        const int b1 = by * binsX + min(((int)blockIdx.x + 1) * (MG_TX / MG_B), binsX - 1);
        const bool inside = by >= 0 && by < binsY;
        rangeStart[tid] = inside ? binStart[b0] : 0;
        rangeEnd[tid] = inside ? binStart[b1 + 1] : 0;
    }
    __syncthreads();
#pragma unroll 1
    for (int r = 0; r < MG_ROWS; ++r) {
        const int end = rangeEnd[r];
#pragma unroll 1
        for (int c0 = rangeStart[r]; c0 < end; c0 += MG_THREADS) {
            if (c0 + tid < end) {
                const Sample smp = binned[c0 + tid];
                spos[tid] = make_float2(smp.x, smp.y);
                sval[tid] = make_float2(smp.re, smp.im);
            }
            __syncthreads();
            const int n = min(MG_THREADS, end - c0);
#pragma unroll 1
            for (int j = 0; j < n; ++j) {
                const float2 p = spos[j];
                const float dy = fy - p.y;
                if (fabsf(dy) >= MG_R)
                    continue;  // the same for the whole warp (one tile row)
                const float dx = fx - p.x;
                const float d2 = dx * dx + dy * dy;
                if (d2 < MG_R * MG_R) {
                    const float t = 1.0f - d2 * invR2;
                    const float w = t * t;
                    const float2 v = sval[j];
                    re += w * v.x;
                    im += w * v.y;
                    wsum += w;
                }
            }
            __syncthreads();
        }
    }
    const int at = (int)fy * g + (int)fx;
    gridRe[at] = re;
    gridIm[at] = im;
    gridW[at] = wsum;
}
