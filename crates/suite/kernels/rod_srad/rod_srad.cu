// rod_srad: speckle-reducing anisotropic diffusion, version 1 (Rodinia "srad_v1" structure:
// global-memory kernels with neighbour index arrays, and a statistics reduction that runs
// over several launches). Per iteration the host launches, in order:
//   sradPrepare  one thread per pixel: sums[i] = J[i], sums2[i] = J[i]^2.
//   sradReduce   repeatedly: each CTA sums SR_T consecutive entries of sums and sums2 with a
//                shared-memory tree (a barrier per level) and writes its pair to entry
//                blockIdx.x of the other buffer pair; the host relaunches on the CTA
//                results until one pair is left, then derives q0^2 = var / mean^2.
//   sradCoeff    one thread per pixel: directional derivatives through the neighbour index
//                arrays iN/iS/jW/jE (clamped at the edges) and the diffusion coefficient.
//   sradUpdate   one thread per pixel: the divergence and J += (lambda / 4) * div.
// The exp / log image extraction and compression kernels of Rodinia are left out: the input
// is generated directly in the diffused domain. Barriers: log2(SR_T) + 1 per sradReduce CTA;
// the three per-pixel kernels (the bulk of the work) have none. Every float operation is an
// explicit round-to-nearest intrinsic, so the host reproduces every output bit for bit.

#define SR_T 256

__global__ void sradPrepare(const float *J, float *sums, float *sums2, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float v = J[i];
    sums[i] = v;
    sums2[i] = __fmul_rn(v, v);
}

// Out of place: CTA b writes entry b, which another CTA may not have read yet, so the host
// ping-pongs between two buffer pairs.
__global__ void sradReduce(const float *sums, const float *sums2, float *out, float *out2, int n)
{
    __shared__ float s[SR_T];
    __shared__ float s2[SR_T];
    const int tid = threadIdx.x;
    const int i = blockIdx.x * SR_T + tid;
    s[tid] = i < n ? sums[i] : 0.0f;
    s2[tid] = i < n ? sums2[i] : 0.0f;
    __syncthreads();
    for (int stride = SR_T / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            s[tid] = __fadd_rn(s[tid], s[tid + stride]);
            s2[tid] = __fadd_rn(s2[tid], s2[tid + stride]);
        }
        __syncthreads();
    }
    if (tid == 0) {
        out[blockIdx.x] = s[0];
        out2[blockIdx.x] = s2[0];
    }
}

__global__ void sradCoeff(const float *J, const int *iN, const int *iS, const int *jW, const int *jE, float *dN,
                          float *dS, float *dW, float *dE, float *C, int rows, int cols, float q0sqr)
{
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= rows * cols)
        return;
    // Column-major like Rodinia: k = col * rows + row.
    const int row = k % rows, col = k / rows;
    const float jc = J[k];
    const float n = __fsub_rn(J[col * rows + iN[row]], jc);
    const float s = __fsub_rn(J[col * rows + iS[row]], jc);
    const float w = __fsub_rn(J[jW[col] * rows + row], jc);
    const float e = __fsub_rn(J[jE[col] * rows + row], jc);
    float g2 = __fmul_rn(n, n);
    g2 = __fadd_rn(g2, __fmul_rn(s, s));
    g2 = __fadd_rn(g2, __fmul_rn(w, w));
    g2 = __fadd_rn(g2, __fmul_rn(e, e));
    g2 = __fdiv_rn(g2, __fmul_rn(jc, jc));
    const float l = __fdiv_rn(__fadd_rn(__fadd_rn(__fadd_rn(n, s), w), e), jc);
    const float num = __fsub_rn(__fmul_rn(0.5f, g2), __fmul_rn(0.0625f, __fmul_rn(l, l)));
    float den = __fadd_rn(1.0f, __fmul_rn(0.25f, l));
    const float qsqr = __fdiv_rn(num, __fmul_rn(den, den));
    den = __fdiv_rn(__fsub_rn(qsqr, q0sqr), __fmul_rn(q0sqr, __fadd_rn(1.0f, q0sqr)));
    const float c = __frcp_rn(__fadd_rn(1.0f, den));
    dN[k] = n;
    dS[k] = s;
    dW[k] = w;
    dE[k] = e;
    C[k] = fminf(fmaxf(c, 0.0f), 1.0f);
}

__global__ void sradUpdate(float *J, const int *iS, const int *jE, const float *dN, const float *dS,
                           const float *dW, const float *dE, const float *C, int rows, int cols, float lambda)
{
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= rows * cols)
        return;
    const int row = k % rows, col = k / rows;
    const float cn = C[k], cw = C[k];
    const float cs = C[col * rows + iS[row]];
    const float ce = C[jE[col] * rows + row];
    float d = __fmul_rn(cn, dN[k]);
    d = __fadd_rn(d, __fmul_rn(cs, dS[k]));
    d = __fadd_rn(d, __fmul_rn(cw, dW[k]));
    d = __fadd_rn(d, __fmul_rn(ce, dE[k]));
    J[k] = __fadd_rn(J[k], __fmul_rn(__fmul_rn(0.25f, lambda), d));
}
