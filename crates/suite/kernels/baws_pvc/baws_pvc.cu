// baws_pvc: page view count, MapReduce style (BAWS Table 2 "PVC": 8 warps/CTA, 6 CTAs/SM).
//
// Input: a web log of n entries, each a 32-bit view key (url << 16 | client). Output: every
// distinct view key with the number of times it occurs.
//
//   pvcMap      map + combine + partial reduce. Grid-stride over chunks of PVC_CHUNK entries;
//               per chunk: clear a 1024-slot hash table in shared memory (barrier); map: each
//               thread inserts its entries (linear probing with atomicCAS on the key slot,
//               atomicAdd on the count slot) (barrier); reduce: the non-empty slots are
//               merged into the global hash table the same way (barrier before the next
//               chunk clears the table).
//   pvcCompact  compacts the global table into (key, count) lists: one slot per thread, a
//               block-wide exclusive scan of the occupied flags in shared memory (Hillis-
//               Steele, one barrier per step), one atomicAdd per CTA reserves its output range.
// Keys never equal PVC_EMPTY (the host keeps url < 65535). The order of the compact list and
// of the table depends on the schedule; the host compares them as sets.
//
// Occupancy on the GTX 480 (pvcMap): 256 threads; the shared table (1024 keys + 1024 counts)
// is 8192 bytes, so 49152 / 8192 = 6 CTAs/SM, equal to the thread-slot limit (reported:
// threads).

#define PVC_THREADS 256
#define PVC_SLOTS 1024
#define PVC_CHUNK 512
#define PVC_EMPTY 0xffffffffu

__device__ __forceinline__ unsigned pvcHash(unsigned key)
{
    return key * 2654435761u;
}

__global__ void pvcMap(const unsigned *log, unsigned *tableKeys, unsigned *tableCounts, int n, int tableBits)
{
    __shared__ unsigned skey[PVC_SLOTS];
    __shared__ unsigned scount[PVC_SLOTS];
    const int tid = threadIdx.x;
    const unsigned tableMask = (1u << tableBits) - 1;

#pragma unroll 1
    for (int base = blockIdx.x * PVC_CHUNK; base < n; base += gridDim.x * PVC_CHUNK) {
#pragma unroll 1
        for (int s = tid; s < PVC_SLOTS; s += PVC_THREADS) {
            skey[s] = PVC_EMPTY;
            scount[s] = 0;
        }
        __syncthreads();
#pragma unroll 1
        for (int e = base + tid; e < min(base + PVC_CHUNK, n); e += PVC_THREADS) {
            const unsigned key = log[e];
            unsigned h = pvcHash(key) >> 22;  // 10 bits
            for (;;) {
                const unsigned prev = atomicCAS(&skey[h], PVC_EMPTY, key);
                if (prev == PVC_EMPTY || prev == key)
                    break;
                h = (h + 1) & (PVC_SLOTS - 1);
            }
            atomicAdd(&scount[h], 1u);
        }
        __syncthreads();
#pragma unroll 1
        for (int s = tid; s < PVC_SLOTS; s += PVC_THREADS) {
            const unsigned key = skey[s];
            if (key == PVC_EMPTY)
                continue;
            unsigned h = (pvcHash(key) >> (32 - tableBits)) & tableMask;
            for (;;) {
                const unsigned prev = atomicCAS(&tableKeys[h], PVC_EMPTY, key);
                if (prev == PVC_EMPTY || prev == key)
                    break;
                h = (h + 1) & tableMask;
            }
            atomicAdd(&tableCounts[h], scount[s]);
        }
        __syncthreads();
    }
}

__global__ void pvcCompact(const unsigned *tableKeys, const unsigned *tableCounts, unsigned *outKeys,
                           unsigned *outCounts, unsigned *outLen, int slots)
{
    __shared__ unsigned scan[2][PVC_THREADS];
    __shared__ unsigned outBase;
    const int tid = threadIdx.x;
    const int s = blockIdx.x * PVC_THREADS + tid;
    const unsigned key = s < slots ? tableKeys[s] : PVC_EMPTY;
    const unsigned flag = key != PVC_EMPTY;

    int cur = 0;
    scan[0][tid] = flag;
    __syncthreads();
#pragma unroll 1
    for (int d = 1; d < PVC_THREADS; d <<= 1) {
        const unsigned v = scan[cur][tid] + (tid >= d ? scan[cur][tid - d] : 0u);
        scan[cur ^ 1][tid] = v;
        cur ^= 1;
        __syncthreads();
    }
    if (tid == PVC_THREADS - 1)
        outBase = atomicAdd(outLen, scan[cur][tid]);
    __syncthreads();
    if (flag) {
        const unsigned at = outBase + scan[cur][tid] - 1;  // inclusive scan - 1
        outKeys[at] = key;
        outCounts[at] = tableCounts[s];
    }
}
