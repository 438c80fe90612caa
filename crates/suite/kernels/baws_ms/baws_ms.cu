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
//                 of sorted runs of length L from `src` into `dst` (ping-pong buffers). Each
//                 CTA stages 512 keys of one run in shared memory (barrier), then each
//                 element's rank in the other run comes from a binary search in global
//                 memory, with the same lower/upper-bound rule.
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

__global__ void msMergePass(unsigned *dstKeys, unsigned *dstVals, const unsigned *srcKeys,
                            const unsigned *srcVals, int runLen)
{
    __shared__ unsigned sk[MS_TILE];
    const int tid = threadIdx.x;
    const int tileBase = blockIdx.x * MS_TILE;  // tiles never straddle runs (runLen >= MS_TILE)

    #pragma unroll 1
    for (int e = tid; e < MS_TILE; e += MS_THREADS)
        sk[e] = srcKeys[tileBase + e];
    __syncthreads();

    const int pairStart = tileBase & ~(2 * runLen - 1);
    const bool right = (tileBase & runLen) != 0;
    const int other = pairStart + (right ? 0 : runLen);
    #pragma unroll 1
    for (int e = tid; e < MS_TILE; e += MS_THREADS) {
        const unsigned k = sk[e];
        const int pos = tileBase + e - pairStart - (right ? runLen : 0);
        int lo = 0, hi = runLen;
        while (lo < hi) {
            const int mid = (lo + hi) >> 1;
            const unsigned x = srcKeys[other + mid];
            if (x < k || (right && x == k))
                lo = mid + 1;
            else
                hi = mid;
        }
        dstKeys[pairStart + pos + lo] = k;
        dstVals[pairStart + pos + lo] = srcVals[tileBase + e];
    }
}
