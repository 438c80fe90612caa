// baws_bt: B+tree lookups, findK and findRangeK (BAWS Table 2 "BT": 8 warps/CTA, 5 CTAs/SM).
//
// The tree (built by the host) is stored as arrays indexed by node: nkeys[node] keys
// keys[node * BT_ORDER + i] in increasing order and, for an inner node, nkeys + 1 children
// ptrs[node * (BT_ORDER + 1) + i] (child i holds the keys k with keys[i-1] <= k < keys[i]);
// for a leaf, ptrs holds the record of each key and base[node] is the rank of the leaf's
// first key among all keys. All leaves are at depth levels - 1; the root is node 0.
//
// One CTA per query (grid-stride over queries). Each level is one step of the walk: every
// thread t <= nkeys tests whether the key falls in child t's interval, the one that does
// writes the child to shared memory, barrier, all threads read it, barrier (the slot is
// rewritten at the next level). At the leaf:
//   btFindK       the thread holding the key writes its record; __syncthreads_or tells
//                 thread 0 whether anyone did, else it writes -1.
//   btFindRangeK  walks the paths of lo and hi side by side (two slots), then counts the
//                 leaf keys < lo and <= hi with __syncthreads_count; the range is
//                 [base + count(<lo), base' + count(<=hi)) in key rank order, returned as
//                 (start, length).
//
// Each CTA stages the node it visits (keys and pointers) in shared memory, one buffer per
// walked path, so each key is read from global memory once per level.
//
// Occupancy on the GTX 480 (btFindRangeK, the Table 2 kernel): 256 threads; Table 2's 5
// CTAs/SM for 8-warp CTAs means 21-24 registers per thread under GPGPU-Sim's allocation
// (32768 / (24 x 256) = 5.3). ptxas would use 26 here, so the kernel is capped with
// __maxnreg__(24) (no spills): registers give 5 CTAs/SM. btFindK needs 20 and fits 6 (thread
// slots).

#define BT_THREADS 256
#define BT_ORDER 256

struct NodeStage {
    int keys[BT_ORDER];
    int ptrs[BT_ORDER + 1];
    int nkeys;
};

__device__ __forceinline__ void stageNode(NodeStage &s, const int *nkeys, const int *keys, const int *ptrs, int node)
{
    const int tid = threadIdx.x;
    const int m = nkeys[node];
    if (tid < m)
        s.keys[tid] = keys[node * BT_ORDER + tid];
    if (tid <= m)
        s.ptrs[tid] = ptrs[node * (BT_ORDER + 1) + tid];
    if (tid == 0) {
        s.nkeys = m;
        if (m == BT_ORDER)
            s.ptrs[BT_ORDER] = ptrs[node * (BT_ORDER + 1) + BT_ORDER];
    }
}

// Child of the staged node whose interval holds `key`, written to *slot by the one thread
// that finds it.
__device__ __forceinline__ void pickChild(const NodeStage &s, int key, int *slot)
{
    const int tid = threadIdx.x;
    const int m = s.nkeys;
    if (tid <= m) {
        // Both keys are read at clamped indices and combined without short-circuits (the
        // first child has no lower bound, the last no upper bound).
        const int lower = s.keys[max(tid - 1, 0)];
        const int upper = s.keys[min(tid, m - 1)];
        if ((tid == 0 | lower <= key) & (tid == m | key < upper))
            *slot = s.ptrs[tid];
    }
}

__global__ void btFindK(const int *nkeys, const int *keys, const int *ptrs, const int *queries, int *out,
                        int nq, int levels)
{
    __shared__ NodeStage stage;
    __shared__ int slot;
    const int tid = threadIdx.x;

#pragma unroll 1
    for (int q = blockIdx.x; q < nq; q += gridDim.x) {
        const int key = queries[q];
        int node = 0;
#pragma unroll 1
        for (int level = 0; level < levels - 1; ++level) {
            stageNode(stage, nkeys, keys, ptrs, node);
            __syncthreads();
            pickChild(stage, key, &slot);
            __syncthreads();
            node = slot;
        }
        stageNode(stage, nkeys, keys, ptrs, node);
        __syncthreads();
        const NodeStage &leaf = stage;
        const bool hit = tid < leaf.nkeys && leaf.keys[tid] == key;
        if (hit)
            out[q] = leaf.ptrs[tid];
        if (__syncthreads_or(hit) == 0 && tid == 0)
            out[q] = -1;
    }
}

__global__ void __maxnreg__(24) btFindRangeK(const int *nkeys, const int *keys, const int *ptrs, const int *base,
                             const int *lows, const int *highs, int *start, int *length, int nq, int levels)
{
    __shared__ NodeStage stage[2];
    __shared__ int slot[2];
    const int tid = threadIdx.x;

#pragma unroll 1
    for (int q = blockIdx.x; q < nq; q += gridDim.x) {
        const int lo = lows[q];
        const int hi = highs[q];
        int nodeLo = 0, nodeHi = 0;
#pragma unroll 1
        for (int level = 0; level < levels - 1; ++level) {
            stageNode(stage[0], nkeys, keys, ptrs, nodeLo);
            stageNode(stage[1], nkeys, keys, ptrs, nodeHi);
            __syncthreads();
            pickChild(stage[0], lo, &slot[0]);
            pickChild(stage[1], hi, &slot[1]);
            __syncthreads();
            nodeLo = slot[0];
            nodeHi = slot[1];
        }
        stageNode(stage[0], nkeys, keys, ptrs, nodeLo);
        stageNode(stage[1], nkeys, keys, ptrs, nodeHi);
        __syncthreads();
        const int below = __syncthreads_count(tid < stage[0].nkeys && stage[0].keys[tid] < lo);
        const int upTo = __syncthreads_count(tid < stage[1].nkeys && stage[1].keys[tid] <= hi);
        if (tid == 0) {
            const int first = base[nodeLo] + below;
            start[q] = first;
            length[q] = base[nodeHi] + upTo - first;
        }
    }
}
