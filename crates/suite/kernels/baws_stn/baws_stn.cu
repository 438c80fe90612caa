// baws_stn: iterative 2-D Jacobi stencil in one persistent kernel with a grid-wide barrier
// between sweeps (BAWS Table 2 "STN": 16 warps/CTA, 2 CTAs/SM).
//
// The domain is `rows` x STN_W floats; boundary cells keep their value, interior cells become
// 0.2 * (centre + north + south + west + east), summed in that order with __fadd_rn so the
// host reference can reproduce every result bit for bit. Sweeps ping-pong between `a` and
// `b`: sweep k reads (k even ? a : b) and writes the other.
//
// Each CTA owns bands of STN_ROWS rows (band = blockIdx.x, blockIdx.x + gridDim.x, ...). Per
// band it stages rows band*16 - 1 .. band*16 + 16 in a shared tile (barrier), computes its
// 16 x 256 outputs (8 per thread), and a barrier guards the tile before the next band. After
// all its bands the CTA enters the grid barrier: thread 0 arrives with atomicAdd on a global
// counter; the last CTA to arrive resets the counter and bumps a generation word the others
// spin on (volatile loads). __threadfence() orders the sweep's stores before the arrival.
// When the bands do not divide evenly among the CTAs (the host's power-of-two heights: 64
// bands at the small size, 256 at the paper size, over 30 CTAs), the CTAs with one band
// fewer wait at the grid barrier for the others.
//
// A grid barrier only works when every CTA of the grid is resident at once: on the GTX 480
// that means at most 2 x 15 = 30 CTAs, which is the grid the host launches (warpsim's
// functional executor keeps up to 120 CTAs resident, so 30 also makes progress there).
//
// Occupancy on the GTX 480: 512 threads; the (16 + 2) x 256-float tile is 18432 bytes of
// shared memory, and 49152 / 18432 = 2 CTAs/SM. The 22 registers (24 as allocated) give
// 32768 / (24 x 512) = 2 as well (reported: registers, the first of the tied limits).

#define STN_THREADS 512
#define STN_W 256
#define STN_ROWS 16

__device__ void gridBarrier(unsigned *count, volatile unsigned *generation, unsigned ctas)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned gen = *generation;
        __threadfence();
        if (atomicAdd(count, 1u) == ctas - 1) {
            atomicExch(count, 0u);
            __threadfence();
            atomicAdd((unsigned *)generation, 1u);
        } else {
            while (*generation == gen) {
            }
        }
        __threadfence();
    }
    __syncthreads();
}

__global__ void stnPersistent(float *a, float *b, unsigned *barrier, int rows, int sweeps)
{
    __shared__ float tile[STN_ROWS + 2][STN_W];
    const int tid = threadIdx.x;
    const int bands = rows / STN_ROWS;

#pragma unroll 1
    for (int sweep = 0; sweep < sweeps; ++sweep) {
        const float *src = (sweep & 1) ? b : a;
        float *dst = (sweep & 1) ? a : b;
#pragma unroll 1
        for (int band = blockIdx.x; band < bands; band += gridDim.x) {
            const int row0 = band * STN_ROWS - 1;  // global row of tile row 0
#pragma unroll 1
            for (int e = tid; e < (STN_ROWS + 2) * STN_W; e += STN_THREADS) {
                const int r = row0 + e / STN_W;
                if (r >= 0 && r < rows)
                    tile[e / STN_W][e % STN_W] = src[r * STN_W + e % STN_W];
            }
            __syncthreads();
#pragma unroll 1
            for (int e = tid; e < STN_ROWS * STN_W; e += STN_THREADS) {
                const int tr = e / STN_W + 1;
                const int c = e % STN_W;
                const int r = row0 + tr;
                float out = tile[tr][c];
                if (r > 0 && r < rows - 1 && c > 0 && c < STN_W - 1) {
                    float s = __fadd_rn(out, tile[tr - 1][c]);
                    s = __fadd_rn(s, tile[tr + 1][c]);
                    s = __fadd_rn(s, tile[tr][c - 1]);
                    s = __fadd_rn(s, tile[tr][c + 1]);
                    out = __fmul_rn(0.2f, s);
                }
                dst[r * STN_W + c] = out;
            }
            __syncthreads();
        }
        gridBarrier(barrier, barrier + 1, gridDim.x);
    }
}
