// baws_sp: scalar products of many vector pairs (BAWS Table 2 "SP": 16 warps/CTA, 3 CTAs/SM).
//
// Grid-stride over pairs: CTA b handles pairs b, b + gridDim.x, ... Per pair every thread
// accumulates a strided partial sum with fmaf, stores it to shared memory, and the CTA sums
// the 512 partials with a tree: one __syncthreads() per level (9 levels), then thread 0
// writes the result. The barrier after the last level also orders thread 0's read of part[0]
// before the next pair's stores, so no extra barrier is needed between pairs.
//
// Occupancy on the GTX 480 (crates/suite/src/occupancy.rs): 512 threads per CTA, 2 KB of
// shared memory and few registers, so thread slots set the count: 1536 / 512 = 3 CTAs/SM.

#define SP_THREADS 512

__global__ void spDot(float *out, const float *a, const float *b, int pairs, int len)
{
    __shared__ float part[SP_THREADS];
    const int tid = threadIdx.x;

    #pragma unroll 1
    for (int p = blockIdx.x; p < pairs; p += gridDim.x) {
        const float *va = a + p * len;
        const float *vb = b + p * len;
        float sum = 0.0f;
        #pragma unroll 1
        for (int i = tid; i < len; i += SP_THREADS)
            sum = fmaf(va[i], vb[i], sum);
        part[tid] = sum;
        __syncthreads();
        #pragma unroll 1
        for (int stride = SP_THREADS / 2; stride > 0; stride >>= 1) {
            if (tid < stride)
                part[tid] += part[tid + stride];
            __syncthreads();
        }
        if (tid == 0)
            out[p] = part[0];
    }
}
