// sdk_histogram: 64-bin and 256-bin histograms of a byte stream in the CUDA SDK's two-stage
// shape (the PRO paper's Table II "histogram": histogram64Kernel 4370 CTAs +
// mergeHistogram64Kernel 64, histogram256Kernel 240 + mergeHistogram256Kernel 256, on 64 MB).
//
// histogram64Kernel: 64 threads per CTA, each with its own 64 byte-wide counters in shared
// memory (4 KB per CTA). A CTA owns 64 x 60 words = 15360 bytes, thread t reading words
// t, t + 64, ... of them (coalesced), so a thread counts at most 240 bytes and a u8 counter
// cannot overflow. Bin = byte >> 2. Counters are zeroed (barrier), filled with no barrier
// (each thread owns its own), then (barrier) thread b adds the 64 counters of bin b and writes
// the CTA's partial histogram. Thread t's counters sit at byte (t % 16) * 4 + t / 16 of each
// bin's 64-byte row, so the 16 threads of a half-warp hit 16 different words (banks).
//
// histogram256Kernel: a fixed grid (240 CTAs) of 192 threads striding over the words; each
// warp has its own 256 u32 counters in shared memory (6 KB), updated with shared atomicAdd,
// zeroed before (barrier) and, after a barrier, summed over the 6 warps per bin into the CTA's
// partial histogram.
//
// merge kernels: one CTA of 256 threads per bin; thread t adds the partial histograms
// t, t + 256, ... of its bin, and a shared tree (a barrier per level, 8 levels) adds the 256
// sums.

#define H64_THREADS 64
#define H64_BINS 64
#define H64_WORDS_PER_THREAD 60
#define H256_THREADS 192
#define H256_WARPS (H256_THREADS / 32)
#define H256_BINS 256
#define MERGE_THREADS 256

__global__ void histogram64Kernel(unsigned int *partial, const unsigned int *data, int words)
{
    // Declared as words so that zeroing them word by word is aligned.
    __shared__ unsigned int counts_words[H64_BINS * H64_THREADS / 4];
    unsigned char *counts = (unsigned char *)counts_words;
    const int tid = threadIdx.x;
#pragma unroll 1
    for (int i = tid; i < H64_BINS * H64_THREADS / 4; i += H64_THREADS)
        counts_words[i] = 0;
    __syncthreads();

    const int pos = (tid & 15) * 4 + (tid >> 4);
    const int base = blockIdx.x * H64_THREADS * H64_WORDS_PER_THREAD;
    const int end = min(base + H64_THREADS * H64_WORDS_PER_THREAD, words);
#pragma unroll 1
    for (int i = base + tid; i < end; i += H64_THREADS) {
        const unsigned int w = data[i];
#pragma unroll
        for (int k = 0; k < 32; k += 8)
            counts[((w >> (k + 2)) & 63) * H64_THREADS + pos]++;
    }
    __syncthreads();

    // Thread tid adds bin tid's row, starting at a different byte per thread to spread banks.
    unsigned int sum = 0;
#pragma unroll 1
    for (int j = 0; j < H64_THREADS; j++)
        sum += counts[tid * H64_THREADS + ((j + tid) & (H64_THREADS - 1))];
    partial[blockIdx.x * H64_BINS + tid] = sum;
}

__global__ void histogram256Kernel(unsigned int *partial, const unsigned int *data, int words)
{
    __shared__ unsigned int counts[H256_WARPS * H256_BINS];
    const int tid = threadIdx.x;
#pragma unroll 1
    for (int i = tid; i < H256_WARPS * H256_BINS; i += H256_THREADS)
        counts[i] = 0;
    __syncthreads();

    unsigned int *mine = counts + (tid / 32) * H256_BINS;
#pragma unroll 1
    for (int i = blockIdx.x * H256_THREADS + tid; i < words; i += gridDim.x * H256_THREADS) {
        const unsigned int w = data[i];
        atomicAdd(&mine[w & 255], 1u);
        atomicAdd(&mine[(w >> 8) & 255], 1u);
        atomicAdd(&mine[(w >> 16) & 255], 1u);
        atomicAdd(&mine[w >> 24], 1u);
    }
    __syncthreads();

#pragma unroll 1
    for (int bin = tid; bin < H256_BINS; bin += H256_THREADS) {
        unsigned int sum = 0;
#pragma unroll
        for (int w = 0; w < H256_WARPS; w++)
            sum += counts[w * H256_BINS + bin];
        partial[blockIdx.x * H256_BINS + bin] = sum;
    }
}

// Adds, for bin blockIdx.x, the `count` partial histograms of `bins` bins each; `sums` is the
// calling kernel's shared array of MERGE_THREADS words.
__device__ void mergeBin(unsigned int *hist, const unsigned int *partial, int count, int bins, unsigned int *sums)
{
    const int tid = threadIdx.x;
    unsigned int sum = 0;
#pragma unroll 1
    for (int i = tid; i < count; i += MERGE_THREADS)
        sum += partial[i * bins + blockIdx.x];
    sums[tid] = sum;
#pragma unroll 1
    for (int stride = MERGE_THREADS / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (tid < stride)
            sums[tid] += sums[tid + stride];
    }
    if (tid == 0)
        hist[blockIdx.x] = sums[0];
}

__global__ void mergeHistogram64Kernel(unsigned int *hist, const unsigned int *partial, int count)
{
    __shared__ unsigned int sums[MERGE_THREADS];
    mergeBin(hist, partial, count, H64_BINS, sums);
}

__global__ void mergeHistogram256Kernel(unsigned int *hist, const unsigned int *partial, int count)
{
    __shared__ unsigned int sums[MERGE_THREADS];
    mergeBin(hist, partial, count, H256_BINS, sums);
}
