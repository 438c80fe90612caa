// rod_nn: k nearest neighbours of a query location among n hurricane records (latitude,
// longitude), with Rodinia "nn"'s split of the work: the device computes every record's
// distance to the query in one launch, the host copies the distances back and selects the k
// nearest itself (k passes of a minimum scan, as Rodinia's findLowest does).
//   nnDistance  one thread per record: Euclidean distance to the query (sqrtf is correctly
//               rounded at the default -prec-sqrt=true, so the host reproduces it exactly).
//               The grid may be two-dimensional when the records need more CTAs than one
//               grid row holds; a CTA's linear index is gridDim.x * blockIdx.y + blockIdx.x.
// No shared memory and no barriers.

#define NN_T 256

__global__ void nnDistance(const float2 *loc, float lat, float lng, float *dist, int n)
{
    const int i = NN_T * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
    if (i >= n)
        return;
    const float2 p = loc[i];
    const float dx = __fsub_rn(lat, p.x), dy = __fsub_rn(lng, p.y);
    dist[i] = sqrtf(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)));
}
