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
//   pvrRank   reduce/sort: one thread per url u; the counts are streamed through shared
//             memory in tiles of 256 (barrier after the load, barrier before the next load)
//             and each thread counts the urls that beat u. rank[u] = that count and
//             order[rank[u]] = u.
//
// Occupancy on the GTX 480 (pvrCount): 256 threads; the shared table is 8192 bytes, so
// 49152 / 8192 = 6 CTAs/SM, equal to the thread-slot limit (reported: threads).

#define PVR_THREADS 256
#define PVR_SLOTS 1024
#define PVR_CHUNK 512
#define PVR_EMPTY 0xffffffffu

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
    __shared__ unsigned tile[PVR_THREADS];
    const int tid = threadIdx.x;
    const int u = blockIdx.x * PVR_THREADS + tid;
    const unsigned mine = u < urls ? urlCounts[u] : 0u;
    unsigned beaten = 0;

#pragma unroll 1
    for (int t0 = 0; t0 < urls; t0 += PVR_THREADS) {
        tile[tid] = t0 + tid < urls ? urlCounts[t0 + tid] : 0u;
        __syncthreads();
        const int m = min(PVR_THREADS, urls - t0);
#pragma unroll 1
        for (int j = 0; j < m; ++j) {
            const unsigned c = tile[j];
            beaten += (c > mine || (c == mine && t0 + j < u)) ? 1u : 0u;
        }
        __syncthreads();
    }
    if (u < urls) {
        rank[u] = beaten;
        order[beaten] = u;
    }
}
