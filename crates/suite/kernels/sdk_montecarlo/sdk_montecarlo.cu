// sdk_montecarlo: Monte Carlo pricing of European call options (the PRO paper's Table II
// "MonteCarlo": inverseCNDKernel, 128 CTAs, then MonteCarloOneBlockPerOption, 256 CTAs, at
// paper size).
//
// inverseCNDKernel turns uniform samples in (0, 1) into standard normal ones with Moro's
// inverse cumulative normal (a rational function in the centre, a Chebyshev series in
// log(-log(u)) in the tails); 128 threads per CTA, grid-stride over the samples.
// MonteCarloOneBlockPerOption prices one option per CTA of 256 threads from the same normal
// samples: thread t simulates the paths t, t + 256, ... (the terminal price
// S exp((r - v^2/2) T + v sqrt(T) z), payoff max(price - X, 0)), accumulating the payoff and
// its square; two shared arrays are summed by a tree (a barrier per level, 8 levels), and
// thread 0 writes the discounted mean and the 95% confidence half-width.

#define MC_CND_THREADS 128
#define MC_THREADS 256

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

/// One option: spot S, strike X, years T, riskless rate R, volatility V.
struct McOption {
    float s, x, t, r, v;
};

__global__ void MonteCarloOneBlockPerOption(float *expected, float *confidence, const McOption *options,
                                            const float *normal, int paths)
{
    __shared__ float sum[MC_THREADS];
    __shared__ float sum2[MC_THREADS];
    const int tid = threadIdx.x;
    const McOption o = options[blockIdx.x];
    const float mu_t = (o.r - 0.5f * o.v * o.v) * o.t;
    const float v_sqrt_t = o.v * sqrtf(o.t);
    float s = 0.0f, s2 = 0.0f;
#pragma unroll 1
    for (int p = tid; p < paths; p += MC_THREADS) {
        const float price = o.s * expf(fmaf(v_sqrt_t, normal[p], mu_t));
        const float payoff = fmaxf(price - o.x, 0.0f);
        s += payoff;
        s2 = fmaf(payoff, payoff, s2);
    }
    sum[tid] = s;
    sum2[tid] = s2;
    __syncthreads();
#pragma unroll 1
    for (int stride = MC_THREADS / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            sum[tid] += sum[tid + stride];
            sum2[tid] += sum2[tid + stride];
        }
        __syncthreads();
    }
    if (tid == 0) {
        const float discount = expf(-o.r * o.t);
        const float mean = sum[0] / paths;
        const float var = fmaxf(sum2[0] / paths - mean * mean, 0.0f);
        expected[blockIdx.x] = discount * mean;
        confidence[blockIdx.x] = discount * 1.96f * sqrtf(var / paths);
    }
}
