// rod_kmeans: k-means clustering (Rodinia "kmeans" structure). The points are stored
// feature-major (feature f of point i at features[f * n + i], Rodinia's transposed layout,
// so a warp's loads coalesce); the current centroids live in __constant__ memory, written by
// the host through the symbol `c_clusters` before each iteration. Per iteration:
//   kmAssign  one thread per point: squared Euclidean distance to every centroid (explicit
//             round-to-nearest operations in feature order), nearest one wins (ties to the
//             lower index); writes the membership and counts the points that changed
//             cluster with one atomicAdd per changed point.
//   (host)    reads the memberships back, recomputes the centroids and stops when at most
//             0.1% of the points changed or after the iteration limit, as Rodinia's host does.
// No shared memory, no barriers. Distances are bit-exact on the host, so the memberships and
// change counts are compared exactly.

#define KM_MAXK 16
#define KM_MAXF 34

__constant__ float c_clusters[KM_MAXK * KM_MAXF];

__global__ void kmAssign(const float *features, int n, int nf, int k, int *membership, int *changed)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int best = 0;
    float bestDist = 0.0f;
#pragma unroll 1
    for (int c = 0; c < k; c++) {
        float d = 0.0f;
#pragma unroll 1
        for (int f = 0; f < nf; f++) {
            const float diff = __fsub_rn(features[f * n + i], c_clusters[c * nf + f]);
            d = __fadd_rn(d, __fmul_rn(diff, diff));
        }
        if (c == 0 || d < bestDist) {
            bestDist = d;
            best = c;
        }
    }
    if (membership[i] != best) {
        membership[i] = best;
        atomicAdd(changed, 1);
    }
}
