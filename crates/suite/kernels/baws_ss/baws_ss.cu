// baws_ss: pairwise document similarity, MapReduce style (BAWS Table 2 "SS": 8 warps/CTA,
// 6 CTAs/SM).
//
// Documents are term-frequency vectors of SS_F = 32 small non-negative integers (<= 7, at
// least one non-zero). For every ordered pair (q, c): dot = <q, c> and the cosine similarity
// sim = dot / sqrt(|q|^2 |c|^2) in IEEE f32 (the product of the squared norms is exact, sqrt
// and division are correctly rounded); for every q the most similar other document (ties:
// the smaller index), compared exactly in integers: dot_a^2 |b|^2 > dot_b^2 |a|^2 (all
// < 2^32 for entries <= 7).
//
//   ssNorm   squared norms: 8 documents per CTA, one warp per document, one feature per
//            thread; the squares are summed by a shared-memory tree, a barrier per level.
//   ssScore  map + group: each CTA takes 8 query documents (one per warp) staged in shared
//            memory; candidate documents stream through shared memory in tiles of 32
//            (barrier after the load, barrier before the next). Lane l of warp w scores
//            query w against candidate l of the tile, writes the dot product and keeps its
//            best candidate in shared memory. Finally the 32 lane-bests of each query are
//            reduced by a shared tree, a barrier per level.
//   ssSim    reduce: one thread per pair turns the dot product into the cosine similarity
//            (kept out of ssScore: IEEE division and square root take many registers).
// ndocs is a multiple of 32.
//
// Occupancy on the GTX 480 (ssScore): 256 threads, 7.3 KB of shared memory, <= 20 registers:
// the 1536 thread slots give 6 CTAs/SM.

#define SS_THREADS 256
#define SS_F 32
#define SS_QUERIES 8
#define SS_TILE 32

__global__ void ssNorm(const int *docs, int *norms, int ndocs)
{
    __shared__ int sq[SS_THREADS];
    const int tid = threadIdx.x;
    const int doc = blockIdx.x * SS_QUERIES + tid / SS_F;
    const int f = tid % SS_F;
    const int v = doc < ndocs ? docs[doc * SS_F + f] : 0;
    sq[tid] = v * v;
    __syncthreads();
#pragma unroll 1
    for (int s = SS_F / 2; s > 0; s >>= 1) {
        if (f < s)
            sq[tid] += sq[tid + s];
        __syncthreads();
    }
    if (f == 0 && doc < ndocs)
        norms[doc] = sq[tid];
}

// Whether candidate a (dot product dotA, squared norm normA) beats candidate b for the same
// query; -1 is "no candidate".
__device__ __forceinline__ bool better(unsigned dotA, unsigned normA, int a, unsigned dotB, unsigned normB, int b)
{
    if (b < 0) return a >= 0;
    if (a < 0) return false;
    const unsigned lhs = dotA * dotA * normB;
    const unsigned rhs = dotB * dotB * normA;
    return lhs > rhs || (lhs == rhs && a < b);
}
__global__ void ssScore(const int *docs, const int *norms, int *dots, int *best, int ndocs)
{
    __shared__ int qv[SS_QUERIES][SS_F];
    __shared__ int cv[SS_TILE][SS_F + 1];
    __shared__ int cn[SS_TILE];
    __shared__ int bIdx[SS_THREADS];
    __shared__ unsigned bDot[SS_THREADS];
    const int tid = threadIdx.x;
    const int w = tid / 32;
    const int lane = tid % 32;
    const int q = blockIdx.x * SS_QUERIES + w;

    qv[w][lane] = docs[q * SS_F + lane];
    bIdx[tid] = -1;
    bDot[tid] = 0;
#pragma unroll 1
    for (int t0 = 0; t0 < ndocs; t0 += SS_TILE) {
#pragma unroll 1
        for (int e = tid; e < SS_TILE * SS_F; e += SS_THREADS)
            cv[e / SS_F][e % SS_F] = docs[t0 * SS_F + e];
        if (tid < SS_TILE)
            cn[tid] = norms[t0 + tid];
        __syncthreads();
        const int c = t0 + lane;
        int dot = 0;
#pragma unroll 1
        for (int f = 0; f < SS_F; ++f)
            dot += qv[w][f] * cv[lane][f];
        const int cnorm = cn[lane];
        const int at = q * ndocs + c;
        dots[at] = dot;
        const int b = bIdx[tid];
        if (c != q && better(dot, cnorm, c, bDot[tid], b < 0 ? 1 : norms[b], b)) {
            bIdx[tid] = c;
            bDot[tid] = dot;
        }
        __syncthreads();
    }
#pragma unroll 1
    for (int s = 16; s > 0; s >>= 1) {
        if (lane < s) {
            const int a = bIdx[tid + s], b = bIdx[tid];
            if (better(bDot[tid + s], a < 0 ? 1 : norms[a], a, bDot[tid], b < 0 ? 1 : norms[b], b)) {
                bIdx[tid] = a;
                bDot[tid] = bDot[tid + s];
            }
        }
        __syncthreads();
    }
    if (lane == 0)
        best[q] = bIdx[tid];
}

__global__ void ssSim(const int *dots, const int *norms, float *sims, int ndocs)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ndocs * ndocs)
        return;
    const int nq = norms[i / ndocs];
    const int nc = norms[i % ndocs];
    sims[i] = __fdiv_rn((float)dots[i], __fsqrt_rn((float)(nq * nc)));
}
