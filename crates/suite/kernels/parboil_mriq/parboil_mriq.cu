// parboil_mriq: MRI-Q, Parboil's non-Cartesian MRI reconstruction matrix Q (the KAWS paper's
// Table 2: 4 kernels of 128 CTAs). Parboil's pipeline:
//   computePhiMag: |phi|^2 of every k-space sample, one thread each, 512-thread CTAs;
//   computeQ:      the host packs (kx, ky, kz, |phi|^2) of up to MRIQ_K_CHUNK samples into
//                  the __constant__ array c_k and launches computeQ once per chunk, so k-space
//                  is covered in ceil(numK / chunk) launches; every launch has one thread per
//                  voxel (256-thread CTAs) that adds the chunk's terms
//                  |phi|^2 cos(2 pi k.x), |phi|^2 sin(2 pi k.x) to Qr, Qi in global memory.
// Every thread of a warp reads the same c_k entry per step (a constant-cache broadcast).
// computePhiMag is exact (explicit round-to-nearest); computeQ uses the accurate sinf/cosf,
// checked against an f64 reference within a bound derived from the argument's rounding.

#define MRIQ_PHI_THREADS 512
#define MRIQ_Q_THREADS 256
#define MRIQ_K_CHUNK 1024
#define MRIQ_TWO_PI 6.2831853071795864769f

struct KSample {
    float kx, ky, kz, phiMag;
};

__constant__ KSample c_k[MRIQ_K_CHUNK];

__global__ void computePhiMag(const float *phiR, const float *phiI, float *phiMag, int numK)
{
    const int k = blockIdx.x * MRIQ_PHI_THREADS + threadIdx.x;
    if (k < numK)
        phiMag[k] = __fmaf_rn(phiR[k], phiR[k], __fmul_rn(phiI[k], phiI[k]));
}

__global__ void computeQ(const float *x, const float *y, const float *z, float *Qr, float *Qi, int numX, int kCount)
{
    const int t = blockIdx.x * MRIQ_Q_THREADS + threadIdx.x;
    if (t >= numX)
        return;
    const float sx = x[t], sy = y[t], sz = z[t];
    float qr = Qr[t], qi = Qi[t];
    for (int k = 0; k < kCount; k++) {
        const KSample s = c_k[k];
        const float arg = __fmul_rn(MRIQ_TWO_PI, __fmaf_rn(s.kz, sz, __fmaf_rn(s.ky, sy, __fmul_rn(s.kx, sx))));
        float sn, cs;
        sincosf(arg, &sn, &cs);
        qr = __fmaf_rn(s.phiMag, cs, qr);
        qi = __fmaf_rn(s.phiMag, sn, qi);
    }
    Qr[t] = qr;
    Qi[t] = qi;
}
