// baws_octp: octree partitioning of a particle set (BAWS Table 2 "OCTP": 8 warps/CTA,
// 4 CTAs/SM).
//
// The host builds the tree level by level. A node is the cube of side 2^-level at integer
// coordinates (ix, iy, iz) (packed in `cell`) holding the particles idx[start, start+count).
// One launch of octSplit per level: `nodes` is the level, `splitList` the nodes of it that
// hold too many particles, and CTAs take the split list grid-stride. Per node k of the list:
//   1. threads 0-7 zero the shared octant counters, threads 0-2 compute the cube's midpoint
//      (an exact dyadic float) per axis; barrier
//   2. count: per chunk, the node's particles are staged in shared memory with their octants
//      (which half of the cube in x, y and z) (barrier), and each bumps its octant's shared
//      counter with atomicAdd (barrier)
//   3. thread 0 turns the counts into exclusive offsets, the octants' cursors; barrier
//   4. scatter: per chunk, staged again (barrier), each particle takes a slot with atomicAdd
//      on its octant's cursor and is written to scratch[start + slot] (barrier); the order
//      inside an octant depends on the schedule, the host compares leaves as sets
//   5. the node's range is copied back from scratch to idx and threads 0-7 write the 8
//      children to children[8k + octant] (the next level's node array); barrier.
//
// Occupancy on the GTX 480: 256 threads. ptxas would use 37 registers (40 as allocated:
// 32768 / (40 x 256) = 3 CTAs/SM); Table 2's 4 CTAs/SM means 25-32 registers, so the kernel
// is capped with __maxnreg__(32) (no spills) and registers give 32768 / (32 x 256) = 4. The
// chunk buffers (512 x 16 + 512 x 4 bytes) and the counters, 10316 bytes of shared memory,
// allow 4 as well.

#define OCT_THREADS 256
#define OCT_CHUNK 512

struct Node {
    int start;
    int count;
    int level;
    int cell;  // ix | iy << 10 | iz << 20, each < 2^level
};

// Stages particles [c0, c0 + n) of the node: (x, y, z, index) records and their octants.
__device__ __forceinline__ void stageChunk(float4 *chunk, int *code, const float *mid, const float4 *pos,
                                           const int *idx, int first, int n)
{
#pragma unroll 1
    for (int e = threadIdx.x; e < n; e += OCT_THREADS) {
        const int p = idx[first + e];
        float4 v = pos[p];
        code[e] = (v.x >= mid[0] ? 1 : 0) | (v.y >= mid[1] ? 2 : 0) | (v.z >= mid[2] ? 4 : 0);
        v.w = __int_as_float(p);
        chunk[e] = v;
    }
}

__global__ void __maxnreg__(32) octSplit(const Node *nodes, Node *children, const int *splitList, const float4 *pos,
                                         int *idx, int *scratch, int nsplit)
{
    __shared__ float4 chunk[OCT_CHUNK];
    __shared__ int code[OCT_CHUNK];
    __shared__ int counts[8];
    __shared__ int cursor[8];
    __shared__ float mid[3];
    const int tid = threadIdx.x;

#pragma unroll 1
    for (int k = blockIdx.x; k < nsplit; k += gridDim.x) {
        const Node nd = nodes[splitList[k]];
        if (tid < 8)
            counts[tid] = 0;
        if (tid < 3) {
            // Midpoint of the cube along axis tid: (2 * i + 1) * 2^-(level + 1), exact in float.
            const int i = (nd.cell >> (10 * tid)) & 1023;
            mid[tid] = (float)(2 * i + 1) * __int_as_float((127 - nd.level - 1) << 23);
        }
        __syncthreads();
#pragma unroll 1
        for (int c0 = 0; c0 < nd.count; c0 += OCT_CHUNK) {
            const int n = min(OCT_CHUNK, nd.count - c0);
            stageChunk(chunk, code, mid, pos, idx, nd.start + c0, n);
            __syncthreads();
#pragma unroll 1
            for (int e = tid; e < n; e += OCT_THREADS)
                atomicAdd(&counts[code[e]], 1);
            __syncthreads();
        }
        if (tid == 0) {
            int sum = 0;
#pragma unroll 1
            for (int o = 0; o < 8; ++o) {
                cursor[o] = sum;
                sum += counts[o];
            }
        }
        __syncthreads();
#pragma unroll 1
        for (int c0 = 0; c0 < nd.count; c0 += OCT_CHUNK) {
            const int n = min(OCT_CHUNK, nd.count - c0);
            stageChunk(chunk, code, mid, pos, idx, nd.start + c0, n);
            __syncthreads();
#pragma unroll 1
            for (int e = tid; e < n; e += OCT_THREADS) {
                const int slot = atomicAdd(&cursor[code[e]], 1);
                scratch[nd.start + slot] = __float_as_int(chunk[e].w);
            }
            __syncthreads();
        }
#pragma unroll 1
        for (int e = tid; e < nd.count; e += OCT_THREADS)
            idx[nd.start + e] = scratch[nd.start + e];
        if (tid < 8) {
            Node ch;
            ch.start = nd.start + cursor[tid] - counts[tid];
            ch.count = counts[tid];
            ch.level = nd.level + 1;
            const int ix = 2 * (nd.cell & 1023) + (tid & 1);
            const int iy = 2 * ((nd.cell >> 10) & 1023) + ((tid >> 1) & 1);
            const int iz = 2 * ((nd.cell >> 20) & 1023) + ((tid >> 2) & 1);
            ch.cell = ix | (iy << 10) | (iz << 20);
            children[8 * k + tid] = ch;
        }
        __syncthreads();
    }
}
