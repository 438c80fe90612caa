// rod_nn: k nearest neighbours of a query location among n hurricane records (latitude,
// longitude) (Rodinia "nn" structure: the device computes the distances, the selection
// happens in rounds). The host launches
//   nnDistance  one thread per record: Euclidean distance to the query (sqrtf is correctly
//               rounded at the default -prec-sqrt=true, so the host reproduces it exactly).
// then, for each of the k rounds,
//   nnWarpMin   each warp finds the minimum (distance, index) of its 32 records by a
//               shuffle reduction; the host takes the best of the warp winners and marks the
//               chosen record by writing +inf into its distance. (Rodinia's host scans all
//               the distances itself; here the device narrows them 32-fold first.)
// No shared memory and no barriers. Ties go to the lower index.

#define NN_T 256

__global__ void nnDistance(const float2 *loc, float lat, float lng, float *dist, int n)
{
    const int i = blockIdx.x * NN_T + threadIdx.x;
    if (i >= n)
        return;
    const float2 p = loc[i];
    const float dx = __fsub_rn(lat, p.x), dy = __fsub_rn(lng, p.y);
    dist[i] = sqrtf(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)));
}

// Lexicographic (distance, index) minimum across a warp, by shuffles.
__device__ void warpArgmin(float &d, int &i)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        const float od = __shfl_down_sync(0xffffffffu, d, off);
        const int oi = __shfl_down_sync(0xffffffffu, i, off);
        if (od < d || (od == d && oi < i)) {
            d = od;
            i = oi;
        }
    }
}

// Each warp writes the minimum of its 32 records to entry g / 32; no shared memory.
__global__ void nnWarpMin(const float *dist, int n, float *warpDist, int *warpIdx)
{
    const int g = blockIdx.x * NN_T + threadIdx.x;
    float d = g < n ? dist[g] : __int_as_float(0x7f800000);  // +inf pads the last warp
    int i = g < n ? g : 0x7fffffff;
    warpArgmin(d, i);
    if ((threadIdx.x & 31) == 0 && g < n) {
        warpDist[g / 32] = d;
        warpIdx[g / 32] = i;
    }
}
