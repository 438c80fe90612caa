// baws_ms: stable merge sort of (key, value) pairs (BAWS Table 2 "MS": 8 warps/CTA, 6 CTAs/SM).
//
// Two kernels, launched by the host in this order:
//   msSortTiles   once: each CTA sorts one tile of MS_TILE = 512 pairs in shared memory by
//                 log2(512) = 9 merge steps. In the step that merges runs of width w, every
//                 element finds its place in the merged run by a binary search for its key
//                 in the other run (lower bound for the left run, upper bound for the right
//                 run, which keeps equal keys in input order) and is written to the other
//                 shared buffer; one __syncthreads() per step.
//   msMergePass   once per doubling of the run length L = 512, 1024, ... < n: merges pairs
//                 of sorted runs of length L from `src` into `dst` (ping-pong buffers) by
//                 merge path: each CTA writes 512 consecutive outputs of its pair. Two
//                 threads find, by binary searches in global memory, where the tile's output
//                 range cuts the two runs (barrier); the CTA stages those slices of both runs
//                 in shared memory (barrier); each output then comes from a co-rank search
//                 in the staged slices (ties take the left run: stable).
// n is a multiple of MS_TILE and a power of two times MS_TILE.
//
// Occupancy on the GTX 480: 256 threads; msSortTiles double-buffers keys and values of a
// tile, 2 x 2 x 512 x 4 = 8192 bytes of shared memory, which allows exactly 49152 / 8192 = 6
// CTAs; with <= 20 registers the 1536 thread slots give 6 as well (reported: threads).

#define MS_THREADS 256
#define MS_TILE 512

__global__ void msSortTiles(unsigned *keys, unsigned *vals)
{
    __shared__ unsigned sk[2 * MS_TILE];
    __shared__ unsigned sv[2 * MS_TILE];
    const int tid = threadIdx.x;
    const int base = blockIdx.x * MS_TILE;

#pragma unroll 1
    for (int e = tid; e < MS_TILE; e += MS_THREADS) {
        sk[e] = keys[base + e];
        sv[e] = vals[base + e];
    }
    int src = 0;  // offset of the buffer holding the current runs: 0 or MS_TILE
#pragma unroll 1
    for (int w = 1; w < MS_TILE; w <<= 1) {
        __syncthreads();
#pragma unroll 1
        for (int e = tid; e < MS_TILE; e += MS_THREADS) {
            const unsigned k = sk[src + e];
            const int right = (e & w) != 0;  // 1 for the right run of the pair
            // Search the other run: [e & ~(2w-1)] + w for a left element, the pair start for
            // a right one. Left elements take the lower bound (x < k), right elements the
            // upper bound (x <= k, i.e. x < k + 1 without overflow via the `right` term).
            const int other = src + ((e & ~(2 * w - 1)) | (w & (right - 1)));
            int lo = 0, hi = w;
#pragma unroll 1
            while (lo < hi) {
                const int mid = (lo + hi) >> 1;
                const unsigned x = sk[other + mid];
                if (x < k || (right && x == k))
                    lo = mid + 1;
                else
                    hi = mid;
            }
            // Merged position: own index within the pair without the right run's offset.
            const int dst = (MS_TILE - src) + (e & ~w) + lo;
            sv[dst] = sv[src + e];
            sk[dst] = k;
        }
        src = MS_TILE - src;
    }
    __syncthreads();
#pragma unroll 1
    for (int e = tid; e < MS_TILE; e += MS_THREADS) {
        keys[base + e] = sk[src + e];
        vals[base + e] = sv[src + e];
    }
}

// Merge-path co-rank: how many of the first d outputs of the stable merge of a[0..la) and
// b[0..lb) come from a (ties take a first).
__device__ int msCoRank(const unsigned *a, int la, const unsigned *b, int lb, int d)
{
    int lo = d > lb ? d - lb : 0, hi = d < la ? d : la;
    while (lo < hi) {
        const int mid = (lo + hi) >> 1;
        if (a[mid] <= b[d - mid - 1])
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

__global__ void __maxnreg__(20) msMergePass(unsigned *dstKeys, unsigned *dstVals, const unsigned *srcKeys,
                            const unsigned *srcVals, int runLen)
{
    __shared__ unsigned sk[MS_TILE], sv[MS_TILE];
    __shared__ int bounds[2];
    const int tid = threadIdx.x;
    const int tileBase = blockIdx.x * MS_TILE;  // tiles never straddle pairs (2 runLen >= MS_TILE)
    const int pairStart = tileBase & ~(2 * runLen - 1);
    const unsigned *a = srcKeys + pairStart, *b = a + runLen;
    const int d0 = tileBase - pairStart;

    // The tile's output range [d0, d0 + MS_TILE) starts at a co-rank found by lane 0 of warp
    // 0 and ends at one found by lane 0 of warp 1 (binary searches in global memory).
    if ((tid & 31) == 0 && tid < 64)
        bounds[tid >> 5] = msCoRank(a, runLen, b, runLen, d0 + (tid >> 5) * MS_TILE);
    __syncthreads();
    const int i0 = bounds[0], i1 = bounds[1];
    const int la = i1 - i0, j0 = d0 - i0;
    // Stage the tile's slice of run a, then its slice of run b, keys and values.
    #pragma unroll 1
    for (int e = tid; e < MS_TILE; e += MS_THREADS) {
        const int src = e < la ? pairStart + i0 + e : pairStart + runLen + j0 + (e - la);
        sk[e] = srcKeys[src];
        sv[e] = srcVals[src];
    }
    __syncthreads();
    // Each output of the tile from its co-rank in the staged slices.
    #pragma unroll 1
    for (int e = tid; e < MS_TILE; e += MS_THREADS) {
        const int i = msCoRank(sk, la, sk + la, MS_TILE - la, e);
        const int j = e - i;
        const bool fromA = i < la && (j >= MS_TILE - la || sk[i] <= sk[la + j]);
        const int at = fromA ? i : la + j;
        dstKeys[tileBase + e] = sk[at];
        dstVals[tileBase + e] = sv[at];
    }
}
