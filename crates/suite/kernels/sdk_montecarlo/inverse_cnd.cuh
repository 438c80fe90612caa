// Moro's inverse cumulative normal and the SDK's inverseCNDKernel (128-thread CTAs,
// grid-stride over the samples), written once for the two CUDA SDK programs that launch it:
// sdk_montecarlo (normal samples for the option paths) and sdk_quasirandom (normals from the
// quasirandom points). The hosts check it with sdk_montecarlo's f64 reference and bound.

#ifndef WARPSIM_INVERSE_CND_CUH
#define WARPSIM_INVERSE_CND_CUH

#define MC_CND_THREADS 128

__device__ float moroInvCND(float u)
{
    const float a0 = 2.50662823884f, a1 = -18.61500062529f, a2 = 41.39119773534f, a3 = -25.44106049637f;
    const float b0 = -8.47351093090f, b1 = 23.08336743743f, b2 = -21.06224101826f, b3 = 3.13082909833f;
    const float c0 = 0.3374754822726147f, c1 = 0.9761690190917186f, c2 = 0.1607979714918209f,
                c3 = 0.0276438810333863f, c4 = 0.0038405729373609f, c5 = 0.0003951896511919f,
                c6 = 0.0000321767881768f, c7 = 0.0000002888167364f, c8 = 0.0000003960315187f;
    const float y = u - 0.5f;
    if (fabsf(y) < 0.42f) {
        const float r = y * y;
        const float num = y * (((a3 * r + a2) * r + a1) * r + a0);
        const float den = (((b3 * r + b2) * r + b1) * r + b0) * r + 1.0f;
        return num / den;
    }
    float r = y < 0.0f ? u : 1.0f - u;
    r = logf(-logf(r));
    const float x = c0 + r * (c1 + r * (c2 + r * (c3 + r * (c4 + r * (c5 + r * (c6 + r * (c7 + r * c8)))))));
    return y < 0.0f ? -x : x;
}

__global__ void inverseCNDKernel(float *normal, const float *uniform, int n)
{
#pragma unroll 1
    for (int i = blockIdx.x * MC_CND_THREADS + threadIdx.x; i < n; i += gridDim.x * MC_CND_THREADS)
        normal[i] = moroInvCND(uniform[i]);
}

#endif
