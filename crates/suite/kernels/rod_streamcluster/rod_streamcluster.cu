// rod_streamcluster: the facility-location local search of the streamcluster benchmark, with
// Rodinia "streamcluster"'s CUDA split of the work: for each candidate centre x the host
// picks, one pgain kernel launch evaluates opening x for every point, and the host does the
// rest (sums the per-point work rows, decides whether opening x, and closing the centres that
// then pay for themselves, lowers the total cost, and reassigns the points).
//   scPgain  one thread per point (512-thread CTAs): the weighted squared distance from the
//            point to x over `dim` coordinates, stored dimension-major (coord[f * n + i], so a
//            warp's loads of one coordinate are coalesced and x's coordinate is one broadcast
//            word). A point that would gain switches: it sets its switch flag and puts
//            x_cost - cost in slot k of its own work row; otherwise it adds cost - x_cost to
//            the slot of its current centre (centerTable[assign[i]]), the amount that centre's
//            closure would cost. Work rows are k + 1 floats per point, zeroed by the host
//            before the launch (Rodinia's work_mem).
// No shared memory and no barriers. Coordinates are small integers held in floats and weights
// are 1, so every distance and difference is an exactly representable integer (< 2^24) and
// the host compares everything exactly.

#define SC_T 512

__global__ void scPgain(const float *coord, int n, int dim, int x, const float *weight, const int *assign,
                        const float *cost, const int *centerTable, int k, unsigned char *switches, float *work)
{
    const int i = SC_T * (blockIdx.x + gridDim.x * blockIdx.y) + threadIdx.x;
    if (i >= n)
        return;
    float s = 0.0f;
    // Unrolled 4 times (4 coordinate loads in flight per thread; 30 registers, 2 CTAs per SM
    // on gtx480). Left to itself nvcc unrolls further and takes 56 registers (1 CTA per SM).
#pragma unroll 4
    for (int f = 0; f < dim; f++) {
        const float d = __fsub_rn(coord[f * n + i], coord[f * n + x]);
        s = __fadd_rn(s, __fmul_rn(d, d));
    }
    const float xc = __fmul_rn(s, weight[i]);
    const float cur = cost[i];
    float *row = work + (long)i * (k + 1);
    if (xc < cur) {
        switches[i] = 1;
        row[k] = __fadd_rn(row[k], __fsub_rn(xc, cur));
    } else {
        const int slot = centerTable[assign[i]];
        row[slot] = __fadd_rn(row[slot], __fsub_rn(cur, xc));
    }
}
