// rod_heartwall: tracks sample points on the walls of a beating heart through a sequence of
// ultrasound frames by template matching (Rodinia "heartwall" structure: one CTA per tracked
// point, one launch per frame, the host loop feeding each frame's positions to the next).
// hwTrack: CTA p stages point p's template (a tsize x tsize patch cut from frame 0 at the
// point's initial position) in shared memory, then each thread scores one candidate
// displacement of a search x search window centred on the point's current position by the
// sum of absolute differences between the template and the frame patch there, and the CTA
// picks the best candidate with a shared-memory argmin tree (ties to the lower candidate
// index). The point moves to the winner.
// Barriers: one after staging the template, then one per level of the argmin tree
// (log2(search^2) = 6 at small size, 8 at paper size); each thread's SAD loop over
// tsize^2 pixels is the bulk of the work. Integer arithmetic: exact.

#define HW_MAXT 16
#define HW_MAXW 256

__global__ void hwTrack(const unsigned char *frame, const unsigned char *first, int width, int height,
                        const int *initX, const int *initY, int *curX, int *curY, int *bestSad, int tsize,
                        int search)
{
    __shared__ int tmpl[HW_MAXT * HW_MAXT];
    __shared__ int score[HW_MAXW];
    __shared__ int cand[HW_MAXW];
    const int p = blockIdx.x, tid = threadIdx.x, nthreads = blockDim.x;
    const int half = tsize / 2;
    const int x0 = initX[p], y0 = initY[p];
    for (int k = tid; k < tsize * tsize; k += nthreads) {
        const int xx = min(max(x0 - half + k % tsize, 0), width - 1);
        const int yy = min(max(y0 - half + k / tsize, 0), height - 1);
        tmpl[k] = first[yy * width + xx];
    }
    __syncthreads();
    // Candidate tid: displacement (dx, dy) in [-search/2, search/2).
    const int cx = curX[p] + tid % search - search / 2;
    const int cy = curY[p] + tid / search - search / 2;
    int sad = 0;
    for (int r = 0; r < tsize; r++) {
        const int yy = min(max(cy - half + r, 0), height - 1);
        for (int c = 0; c < tsize; c++) {
            const int xx = min(max(cx - half + c, 0), width - 1);
            sad += abs((int)frame[yy * width + xx] - tmpl[r * tsize + c]);
        }
    }
    score[tid] = sad;
    cand[tid] = tid;
    for (int stride = nthreads / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (tid < stride) {
            const int a = score[tid], b = score[tid + stride];
            // Ties keep the lower candidate index (the left operand always holds lower ones).
            if (b < a || (b == a && cand[tid + stride] < cand[tid])) {
                score[tid] = b;
                cand[tid] = cand[tid + stride];
            }
        }
    }
    if (tid == 0) {
        const int best = cand[0];
        curX[p] = min(max(curX[p] + best % search - search / 2, 0), width - 1);
        curY[p] = min(max(curY[p] + best / search - search / 2, 0), height - 1);
        bestSad[p] = score[0];
    }
}
