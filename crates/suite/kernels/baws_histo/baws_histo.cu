// baws_histo: 4096-bin histogram with per-CTA sub-histograms (BAWS Table 2 "HISTO":
// 16 warps/CTA, 3 CTAs/SM).
//
// Two kernels:
//   histoLocal  each CTA zeroes a 4096-bin sub-histogram in shared memory (barrier), adds its
//               grid-stride share of the input with shared-memory atomicAdd (barrier), then
//               writes the sub-histogram to its row of `partial` (ctas x 4096).
//   histoMerge  one thread per bin sums the bin over the CTAs' rows, writes the exact count
//               and the count saturated at 255 as a byte image (as Parboil's histo output).
// Input values are bin indices (< 4096).
//
// Occupancy on the GTX 480: 512 threads; the 4096 x 4 = 16384-byte sub-histogram allows
// 49152 / 16384 = 3 CTAs, as do the 1536 thread slots (reported: threads).

#define HISTO_THREADS 512
#define HISTO_BINS 4096

__global__ void histoLocal(const unsigned *in, unsigned *partial, int n)
{
    __shared__ unsigned hist[HISTO_BINS];
    const int tid = threadIdx.x;
    #pragma unroll 1
    for (int b = tid; b < HISTO_BINS; b += HISTO_THREADS)
        hist[b] = 0;
    __syncthreads();
    #pragma unroll 1
    for (int i = blockIdx.x * HISTO_THREADS + tid; i < n; i += gridDim.x * HISTO_THREADS)
        atomicAdd(&hist[in[i] & (HISTO_BINS - 1)], 1u);
    __syncthreads();
    unsigned *row = partial + blockIdx.x * HISTO_BINS;
    #pragma unroll 1
    for (int b = tid; b < HISTO_BINS; b += HISTO_THREADS)
        row[b] = hist[b];
}

__global__ void histoMerge(unsigned *hist, unsigned char *image, const unsigned *partial, int rows)
{
    const int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= HISTO_BINS)
        return;
    unsigned sum = 0;
    #pragma unroll 1
    for (int r = 0; r < rows; ++r)
        sum += partial[r * HISTO_BINS + b];
    hist[b] = sum;
    image[b] = sum > 255u ? 255 : (unsigned char)sum;
}
