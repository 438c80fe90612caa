// scalar_prod: dot products of many vector pairs.
//
// One CTA per pair (blockDim.x == SP_THREADS). Each thread accumulates a strided partial
// sum, then the CTA reduces the partials in shared memory with a tree, one __syncthreads()
// per level.

#define SP_THREADS 256

__global__ void scalarProd(float *out, const float *a, const float *b, int pairs, int len)
{
    __shared__ float partial[SP_THREADS];

    const int pair = blockIdx.x;
    if (pair >= pairs) return;  // uniform per CTA: no thread of this CTA reaches a barrier

    const float *va = a + (size_t)pair * len;
    const float *vb = b + (size_t)pair * len;

    float sum = 0.0f;
    for (int i = threadIdx.x; i < len; i += blockDim.x)
        sum += va[i] * vb[i];
    partial[threadIdx.x] = sum;

    for (int stride = SP_THREADS / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (threadIdx.x < stride)
            partial[threadIdx.x] += partial[threadIdx.x + stride];
    }

    if (threadIdx.x == 0)
        out[pair] = partial[0];
}
