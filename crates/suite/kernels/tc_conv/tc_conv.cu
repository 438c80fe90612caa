// tc_conv: a 2-D convolution (stride 1, zero padding) as an implicit GEMM on the tensor cores,
// with inline-PTX mma.sync.m16n8k8 (f16 inputs, f32 accumulators). The input is one H×W image
// of C channels (HWC, f16), the filter K×R×S×C (f16), the output P×Q×K (f32). GEMM view: rows
// are the P·Q output pixels, columns the K output channels, and the reduction runs over
// (r, s, c), 8 channels per step (C is a multiple of 8). Each warp computes a 16-pixel × 8-
// channel tile: every lane gathers its fragment elements straight from the image (im2col on
// the fly, zero outside it), as the PTX ISA lays them out for m16n8k8: A's a0,a1 at row
// groupID, columns 2·tig, +1, a2,a3 eight rows down; B's b0,b1 at rows 2·tig, +1, column
// groupID; C's c0,c1 at row groupID, columns 2·tig, +1, c2,c3 eight rows down.
#include <cuda_fp16.h>

__device__ __forceinline__ unsigned pack(__half lo, __half hi) {
    return (unsigned)__half_as_ushort(lo) | ((unsigned)__half_as_ushort(hi) << 16);
}

__global__ void convMma(float* out, const __half* in, const __half* filt, int H, int W, int C,
                        int K, int R, int S, int pad, int P, int Q) {
    const int lane = threadIdx.x % 32;
    const int g = lane / 4, t = lane % 4;
    const int mtile = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int ktile = blockIdx.y;
    const int npix = P * Q;
    // The two output pixels whose A rows this lane holds, and its B column (a channel).
    int pix[2] = {mtile * 16 + g, mtile * 16 + g + 8};
    const int kout = ktile * 8 + g;
    const __half zero = __float2half(0.0f);
    float d0 = 0.0f, d1 = 0.0f, d2 = 0.0f, d3 = 0.0f;
    for (int r = 0; r < R; r++) {
        for (int s = 0; s < S; s++) {
            for (int c0 = 0; c0 < C; c0 += 8) {
                unsigned a[2];
                for (int h = 0; h < 2; h++) {
                    const int p = pix[h] / Q, q = pix[h] % Q;
                    const int y = p + r - pad, x = q + s - pad;
                    __half lo = zero, hi = zero;
                    if (pix[h] < npix && y >= 0 && y < H && x >= 0 && x < W) {
                        const __half* src = in + ((size_t)y * W + x) * C + c0 + 2 * t;
                        lo = src[0];
                        hi = src[1];
                    }
                    a[h] = pack(lo, hi);
                }
                __half lo = zero, hi = zero;
                if (kout < K) {
                    const __half* src = filt + (((size_t)kout * R + r) * S + s) * C + c0 + 2 * t;
                    lo = src[0];
                    hi = src[1];
                }
                const unsigned b = pack(lo, hi);
                asm volatile(
                    "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
                    "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
                    : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                    : "r"(a[0]), "r"(a[1]), "r"(b));
            }
        }
    }
    const int col = ktile * 8 + 2 * t;
    float d[4] = {d0, d1, d2, d3};
    for (int h = 0; h < 2; h++) {
        if (pix[h] >= npix) continue;
        for (int j = 0; j < 2; j++) {
            if (col + j < K) out[(size_t)pix[h] * K + col + j] = d[2 * h + j];
        }
    }
}
