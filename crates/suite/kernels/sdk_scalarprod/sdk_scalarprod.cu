// sdk_scalarprod: dot products of many vector pairs in the CUDA SDK's scalarProd shape (the
// PRO paper's Table II "scalarProd": scalarProdGPU, 128 CTAs of 256 threads at paper size).
//
// CTA b handles the pairs b, b + gridDim.x, ... For one pair, the 1024 shared accumulators
// each take the strided partial sum of the elements i, i + 1024, ... that fall on them (thread
// t fills accumulators t, t + 256, t + 512, t + 768), and the CTA adds the 1024 accumulators
// with a tree of 10 levels, a barrier before each level, so each level reads the previous
// level's sums; thread 0 writes the result. A barrier at the top of the pair loop keeps the
// next pair's stores from overtaking thread 0's reads of the last level (the SDK relies on
// warp lockstep there).
//
// The difference from the suite's other dot products: baws_sp has one partial per thread
// (512-thread CTAs), scalar_prod one CTA per pair; here 256 threads own 4 accumulators each.

#define SP_THREADS 256
#define SP_ACCUM 1024

__global__ void scalarProdGPU(float *c, const float *a, const float *b, int pairs, int len)
{
    __shared__ float accum[SP_ACCUM];
    const int tid = threadIdx.x;

#pragma unroll 1
    for (int p = blockIdx.x; p < pairs; p += gridDim.x) {
        const float *va = a + (size_t)p * len;
        const float *vb = b + (size_t)p * len;
        __syncthreads();
#pragma unroll 1
        for (int acc = tid; acc < SP_ACCUM; acc += SP_THREADS) {
            float sum = 0.0f;
#pragma unroll 1
            for (int i = acc; i < len; i += SP_ACCUM)
                sum = fmaf(va[i], vb[i], sum);
            accum[acc] = sum;
        }
#pragma unroll 1
        for (int stride = SP_ACCUM / 2; stride > 0; stride >>= 1) {
            __syncthreads();
#pragma unroll 1
            for (int acc = tid; acc < stride; acc += SP_THREADS)
                accum[acc] += accum[acc + stride];
        }
        if (tid == 0)
            c[p] = accum[0];
    }
}
