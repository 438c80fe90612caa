// poly_3dconv: a 3-D convolution, PolyBench-GPU's "3DCONV" shape (the KAWS paper's Table 2:
// 254 kernels of 256 CTAs at 256^3): the host launches one kernel per interior i-plane
// (i = 1 .. ni-2), each over the whole j x k plane in 32 x 8 thread blocks, one thread per
// output point; the faces of the volume are not written (they stay zero).
//
// Each interior point is an 11-tap weighted sum (our taps: the point and its four in-plane
// neighbours, and the point and two opposite diagonal corners in the planes above and below).
// The sum is one explicit round-to-nearest multiply and then fused multiply-adds in a fixed
// order, so the host repeats it bit for bit.

#define C3D_TX 32
#define C3D_TY 8

__global__ void conv3dPlane(const float *A, float *B, int nj, int nk, int i)
{
    const int k = blockIdx.x * C3D_TX + threadIdx.x;
    const int j = blockIdx.y * C3D_TY + threadIdx.y;
    if (j < 1 || j >= nj - 1 || k < 1 || k >= nk - 1)
        return;
    const size_t plane = (size_t)nj * nk;
    const float *lo = A + (size_t)(i - 1) * plane;
    const float *mid = A + (size_t)i * plane;
    const float *hi = A + (size_t)(i + 1) * plane;
    const int c = j * nk + k;
    float acc = __fmul_rn(0.5f, mid[c]);
    acc = __fmaf_rn(-0.125f, mid[c - nk], acc);
    acc = __fmaf_rn(0.25f, mid[c + nk], acc);
    acc = __fmaf_rn(-0.375f, mid[c - 1], acc);
    acc = __fmaf_rn(0.3f, mid[c + 1], acc);
    acc = __fmaf_rn(0.2f, lo[c], acc);
    acc = __fmaf_rn(-0.6f, lo[c - nk - 1], acc);
    acc = __fmaf_rn(0.7f, lo[c + nk + 1], acc);
    acc = __fmaf_rn(0.4f, hi[c], acc);
    acc = __fmaf_rn(-0.9f, hi[c - nk - 1], acc);
    acc = __fmaf_rn(0.1f, hi[c + nk + 1], acc);
    B[(size_t)i * plane + c] = acc;
}
