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

#include "inverse_cnd.cuh"

#define MC_THREADS 256

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
