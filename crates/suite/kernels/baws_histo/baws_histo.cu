// baws_histo: 4096-bin histogram with per-CTA sub-histograms (BAWS Table 2 "HISTO":
// 16 warps/CTA, 3 CTAs/SM).
//
// Two kernels:
//   histoLocal  each CTA zeroes a 4096-bin sub-histogram in shared memory (barrier), adds its
//               contiguous slice of the input (ceil(n / gridDim.x) values; the last pass over
//               the slice leaves some warps without work) with shared-memory atomicAdd
//               (barrier), then writes the sub-histogram to its row of `partial` (ctas x 4096).
//   histoMerge  each CTA merges 8 bins, like the CUDA SDK's histogram merge (which takes one
//               bin per CTA): its 512 threads are 64 row groups x 8 bins; group g sums its bins
//               over rows g, g + 64, ... (32-byte loads), and the 64 group sums are added by a
//               shared-memory tree (a barrier per level; half as many warps work at each level,
//               one from the level of 4 groups on), then the first 8 threads write the exact
//               counts and the counts saturated at 255 as a byte image (as Parboil's histo
//               output).
// Input values are bin indices (< 4096).
//
// Sizes (driver): paper 4M values; small 144 000 values (1600 per CTA = 3 passes of 512 and
// 64 values), so the 90 x 4096 partial counts are more data than the input and the merge is
// most of the small run's warp cycles.
//
// Occupancy on the GTX 480: 512 threads; the 4096 x 4 = 16384-byte sub-histogram allows
// 49152 / 16384 = 3 CTAs, as do the 1536 thread slots (reported: threads).

#define HISTO_THREADS 512
#define HISTO_BINS 4096
#define HISTO_MERGE_BINS 8
#define HISTO_MERGE_GROUPS (HISTO_THREADS / HISTO_MERGE_BINS)

__global__ void histoLocal(const unsigned *in, unsigned *partial, int n)
{
    __shared__ unsigned hist[HISTO_BINS];
    const int tid = threadIdx.x;
    #pragma unroll 1
    for (int b = tid; b < HISTO_BINS; b += HISTO_THREADS)
        hist[b] = 0;
    __syncthreads();
    const int per = (n + gridDim.x - 1) / gridDim.x;
    const int end = min(n, (blockIdx.x + 1) * per);
    #pragma unroll 1
    for (int i = blockIdx.x * per + tid; i < end; i += HISTO_THREADS)
        atomicAdd(&hist[in[i] & (HISTO_BINS - 1)], 1u);
    __syncthreads();
    unsigned *row = partial + blockIdx.x * HISTO_BINS;
    #pragma unroll 1
    for (int b = tid; b < HISTO_BINS; b += HISTO_THREADS)
        row[b] = hist[b];
}

__global__ void histoMerge(unsigned *hist, unsigned char *image, const unsigned *partial, int rows)
{
    __shared__ unsigned part[HISTO_MERGE_GROUPS][HISTO_MERGE_BINS];
    const int lane = threadIdx.x % HISTO_MERGE_BINS;
    const int g = threadIdx.x / HISTO_MERGE_BINS;  // row group = warp
    const int b = blockIdx.x * HISTO_MERGE_BINS + lane;
    unsigned sum = 0;
    #pragma unroll 1
    for (int r = g; r < rows; r += HISTO_MERGE_GROUPS)
        sum += partial[r * HISTO_BINS + b];
    part[g][lane] = sum;
    #pragma unroll 1
    for (int s = HISTO_MERGE_GROUPS / 2; s > 0; s >>= 1) {
        __syncthreads();
        if (g < s)
            part[g][lane] += part[g + s][lane];
    }
    if (g == 0) {
        sum = part[0][lane];
        hist[b] = sum;
        image[b] = sum > 255u ? 255 : (unsigned char)sum;
    }
}
