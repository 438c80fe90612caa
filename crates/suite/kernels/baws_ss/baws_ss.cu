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
//   ssNorm   squared norms: SS_DOCS_PER_CTA = 8 documents per CTA, one warp per document,
//            one feature per thread; the squares are summed by a shared-memory tree, a
//            barrier per level.
//   ssScore  map + combine: CTA (q, s) scores query document q (its features staged in
//            shared memory) against the slice of 256 candidates s * 256 + tid, one per thread,
//            from the feature-major copy of the documents (docsT[f * ndocs + c], so a warp's 32
//            candidates load coalesced); it writes the dot products, and the slice's best
//            candidate is found by a shared-memory tree over the 256 threads (a barrier per
//            level, half as many threads at each; from the level of 32 on a single warp
//            works); thread 0 writes it to part[q][s].
//   ssBest   reduce: one thread per query picks the best of its slices' candidates.
//   ssSim    reduce: one thread per pair turns the dot product into the cosine similarity
//            (kept out of ssScore, whose registers are at the limit of 6 CTAs/SM).
// ndocs is a multiple of 8.
//
// Sizes (driver): small 256 documents (ssScore: 256 CTAs of one slice, 2.8 fills of 15 SMs x
// 6), paper 2048 (2048 x 8 CTAs).
//
// Occupancy on the GTX 480 (ssScore): 256 threads, 3.2 KB of shared memory, 20 registers:
// the 1536 thread slots give 6 CTAs/SM (21 registers would give 5).

#define SS_THREADS 256
#define SS_F 32
#define SS_DOCS_PER_CTA 8

__global__ void ssNorm(const int *docs, int *norms, int ndocs)
{
    __shared__ int sq[SS_THREADS];
    const int tid = threadIdx.x;
    const int doc = blockIdx.x * SS_DOCS_PER_CTA + tid / SS_F;
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
__global__ void ssScore(const int *docsT, const int *norms, int *dots, int *part, int ndocs)
{
    __shared__ int qv[SS_F];
    __shared__ int bIdx[SS_THREADS];
    __shared__ unsigned bDot[SS_THREADS];
    __shared__ unsigned bNorm[SS_THREADS];
    const int tid = threadIdx.x;
    const int q = blockIdx.x;
    const int c = blockIdx.y * SS_THREADS + tid;

    if (tid < SS_F)
        qv[tid] = docsT[tid * ndocs + q];
    bIdx[tid] = -1;
    bDot[tid] = 0;
    bNorm[tid] = 1;
    __syncthreads();
    if (c < ndocs) {
        int dot = 0;
#pragma unroll 1
        for (int f = 0; f < SS_F; ++f)
            dot += qv[f] * docsT[f * ndocs + c];
        dots[q * ndocs + c] = dot;
        if (c != q) {
            bIdx[tid] = c;
            bDot[tid] = dot;
            bNorm[tid] = norms[c];
        }
    }
    __syncthreads();
#pragma unroll 1
    for (int s = SS_THREADS / 2; s > 0; s >>= 1) {
        if (tid < s && better(bDot[tid + s], bNorm[tid + s], bIdx[tid + s], bDot[tid], bNorm[tid], bIdx[tid])) {
            bIdx[tid] = bIdx[tid + s];
            bDot[tid] = bDot[tid + s];
            bNorm[tid] = bNorm[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0)
        part[q * gridDim.y + blockIdx.y] = bIdx[0];
}

__global__ void ssBest(const int *dots, const int *norms, const int *part, int *best, int ndocs)
{
    const int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= ndocs)
        return;
    const int slices = (ndocs + SS_THREADS - 1) / SS_THREADS;
    int b = -1;
    unsigned bd = 0, bn = 1;
#pragma unroll 1
    for (int s = 0; s < slices; ++s) {
        const int a = part[q * slices + s];
        if (a < 0)
            continue;
        const unsigned ad = dots[q * ndocs + a], an = norms[a];
        if (better(ad, an, a, bd, bn, b)) {
            b = a;
            bd = ad;
            bn = an;
        }
    }
    best[q] = b;
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
