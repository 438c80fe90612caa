// rod_streamcluster: facility-location local search of the streamcluster benchmark (Rodinia
// "streamcluster" structure: the pgain kernel evaluates opening one candidate centre, the
// per-CTA gains are reduced on the host, and a second step applies an accepted move).
// For each candidate x chosen by the host:
//   scPgain  one thread per point: the cost of serving the point from x. A point that would
//            gain switches (its saving goes to slot K of the CTA's work row); otherwise the
//            (negative) difference is charged to its current centre's slot, the amount the
//            centre's closure would cost. The K + 1 slots are shared-memory accumulators
//            (shared atomics), zeroed and written out around two barriers; the host adds the
//            CTA rows (Rodinia's work_mem) and decides whether opening x (and closing the
//            centres whose closure then pays) lowers the total cost.
//   scApply  if accepted: points that switch or whose centre closes move to x.
// Coordinates are small integers held in floats, so every distance and partial sum is an
// exactly representable integer (< 2^24): the shared atomics' order cannot change a result
// and the host compares everything exactly.
// Barriers: two per scPgain CTA (after zeroing, before writing out); scApply has none.

#define SC_T 256
#define SC_MAXK 64

__device__ float scDist(const float *pts, int dim, int a, int b)
{
    float s = 0.0f;
#pragma unroll 1
    for (int f = 0; f < dim; f++) {
        const float d = __fsub_rn(pts[a * dim + f], pts[b * dim + f]);
        s = __fadd_rn(s, __fmul_rn(d, d));
    }
    return s;
}

// center: the centre slot (0..K-1) of each point; cost: its current cost; candidate: a point
// index; k: number of centre slots (the candidate would take slot k).
__global__ void scPgain(const float *pts, int dim, int n, const int *center, const float *cost, int candidate,
                        int k, unsigned char *switches, float *work)
{
    __shared__ float acc[SC_MAXK + 1];
    const int tid = threadIdx.x;
    const int i = blockIdx.x * SC_T + tid;
    for (int c = tid; c <= k; c += SC_T)
        acc[c] = 0.0f;
    __syncthreads();
    if (i < n) {
        const float xc = scDist(pts, dim, i, candidate);
        const float cur = cost[i];
        if (xc < cur) {
            switches[i] = 1;
            atomicAdd(&acc[k], __fsub_rn(cur, xc));
        } else {
            switches[i] = 0;
            atomicAdd(&acc[center[i]], __fsub_rn(cur, xc));
        }
    }
    __syncthreads();
    for (int c = tid; c <= k; c += SC_T)
        work[blockIdx.x * (k + 1) + c] = acc[c];
}

// closed[c] != 0: centre slot c closes; its points move to slot `slot` (the candidate's).
__global__ void scApply(const float *pts, int dim, int n, int *center, float *cost, const unsigned char *switches,
                        const unsigned char *closed, int candidate, int slot)
{
    const int i = blockIdx.x * SC_T + threadIdx.x;
    if (i >= n)
        return;
    if (switches[i] || closed[center[i]]) {
        center[i] = slot;
        cost[i] = scDist(pts, dim, i, candidate);
    }
}
