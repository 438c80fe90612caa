// baws_pvr: page view rank, MapReduce style (BAWS Table 2 "PVR": 8 warps/CTA, 6 CTAs/SM).
//
// Input: the distinct page views (as page view count produces them), one url id per view.
// Output: per url its number of distinct views and its rank (0 = most viewed; ties broken by
// the smaller url id), and the urls in rank order.
//
//   pvrCount  map + combine: grid-stride over chunks of PVR_CHUNK views; per chunk a
//             1024-slot shared hash table (url -> count) is cleared (barrier), filled with
//             atomicCAS/atomicAdd (barrier), and flushed with one global atomicAdd per
//             distinct url of the chunk (barrier before the next clear).
//   pvrRank   reduce/sort: each CTA ranks PVR_RANK_URLS = 2 urls. Thread t compares the
//             counts of urls t, t + 256, ... with each of the CTA's urls and counts those that
//             beat it (more views, or as many and a smaller id); the 256 per-thread counts of
//             each url are added by a shared-memory tree (a barrier per level, half as many
//             threads at each; from the level of 32 on a single warp works). rank[u] = the
//             sum and order[rank[u]] = u.
//
// Sizes (driver): small 1024 urls (pvrRank: 512 CTAs, 5.7 fills of 15 SMs x 6; pvrCount: 90
// CTAs), paper 8192 urls. Ranking is quadratic in the urls, so pvrRank is most of the small
// run's warp cycles.
//
// Occupancy on the GTX 480 (pvrCount): 256 threads; the shared table is 8192 bytes, so
// 49152 / 8192 = 6 CTAs/SM, equal to the thread-slot limit (reported: threads). pvrRank
// (256 threads, 2 KB, 14 registers) also gets 6.

#define PVR_THREADS 256
#define PVR_SLOTS 1024
#define PVR_CHUNK 512
#define PVR_EMPTY 0xffffffffu
#define PVR_RANK_URLS 2

__global__ void pvrCount(const unsigned *views, unsigned *urlCounts, int n)
{
    __shared__ unsigned skey[PVR_SLOTS];
    __shared__ unsigned scount[PVR_SLOTS];
    const int tid = threadIdx.x;

#pragma unroll 1
    for (int base = blockIdx.x * PVR_CHUNK; base < n; base += gridDim.x * PVR_CHUNK) {
#pragma unroll 1
        for (int s = tid; s < PVR_SLOTS; s += PVR_THREADS) {
            skey[s] = PVR_EMPTY;
            scount[s] = 0;
        }
        __syncthreads();
#pragma unroll 1
        for (int e = base + tid; e < min(base + PVR_CHUNK, n); e += PVR_THREADS) {
            const unsigned url = views[e];
            unsigned h = (url * 2654435761u) >> 22;
            for (;;) {
                const unsigned prev = atomicCAS(&skey[h], PVR_EMPTY, url);
                if (prev == PVR_EMPTY || prev == url)
                    break;
                h = (h + 1) & (PVR_SLOTS - 1);
            }
            atomicAdd(&scount[h], 1u);
        }
        __syncthreads();
#pragma unroll 1
        for (int s = tid; s < PVR_SLOTS; s += PVR_THREADS) {
            const unsigned url = skey[s];
            if (url != PVR_EMPTY)
                atomicAdd(&urlCounts[url], scount[s]);
        }
        __syncthreads();
    }
}

__global__ void pvrRank(const unsigned *urlCounts, unsigned *rank, unsigned *order, int urls)
{
    __shared__ unsigned part[PVR_RANK_URLS][PVR_THREADS];
    const int tid = threadIdx.x;
    const int u0 = blockIdx.x * PVR_RANK_URLS;
    unsigned mine[PVR_RANK_URLS], beaten[PVR_RANK_URLS];
#pragma unroll
    for (int k = 0; k < PVR_RANK_URLS; ++k) {
        mine[k] = u0 + k < urls ? urlCounts[u0 + k] : 0u;
        beaten[k] = 0;
    }
#pragma unroll 1
    for (int v = tid; v < urls; v += PVR_THREADS) {
        const unsigned c = urlCounts[v];
#pragma unroll
        for (int k = 0; k < PVR_RANK_URLS; ++k)
            beaten[k] += (c > mine[k] || (c == mine[k] && v < u0 + k)) ? 1u : 0u;
    }
#pragma unroll
    for (int k = 0; k < PVR_RANK_URLS; ++k)
        part[k][tid] = beaten[k];
    __syncthreads();
#pragma unroll 1
    for (int s = PVR_THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) {
#pragma unroll
            for (int k = 0; k < PVR_RANK_URLS; ++k)
                part[k][tid] += part[k][tid + s];
        }
        __syncthreads();
    }
    if (tid < PVR_RANK_URLS && u0 + tid < urls) {
        const unsigned r = part[tid][0];
        rank[u0 + tid] = r;
        order[r] = u0 + tid;
    }
}
