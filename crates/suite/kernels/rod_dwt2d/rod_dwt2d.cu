// rod_dwt2d: multi-level 2-D forward discrete wavelet transform with the reversible CDF 5/3
// (LeGall) integer lifting scheme, as JPEG 2000 uses it (Rodinia "dwt2d" computes the same
// transform). Per level the host launches, on the current w x h low-pass band (level 0: the
// whole image; then the LL quarter):
//   dwtRows  one CTA per row: the row is staged in shared memory (barrier), the predict step
//            writes the odd (high-pass) coefficients d[k] = x[2k+1] - floor((x[2k] +
//            x[2k+2]) / 2) (barrier), the update step the even (low-pass) ones s[k] = x[2k] +
//            floor((d[k-1] + d[k] + 2) / 4); the row is written back de-interleaved: s | d.
//   dwtCols  one thread per (column, output pair): s[k] and d[k] of the column computed
//            straight from the five input samples they depend on; no shared memory.
// Symmetric extension at the edges: x[-1] = x[1], x[w] = x[w - 2], d[-1] = d[0]. w and h
// are even at every level. Barriers: two per dwtRows CTA; none in dwtCols. Integer: exact.

#define DWT_T 128
#define DWT_MAXW 1024

__device__ __forceinline__ int floorDiv2(int v) { return v >> 1; }  // arithmetic shift = floor
__device__ __forceinline__ int floorDiv4(int v) { return v >> 2; }

// src/dst: stride `pitch` ints per row; the band is the top-left w x h corner.
__global__ void dwtRows(const int *src, int *dst, int pitch, int w)
{
    __shared__ int x[DWT_MAXW];
    __shared__ int d[DWT_MAXW / 2];
    const int row = blockIdx.x, half = w / 2;
    const int *in = src + row * pitch;
#pragma unroll 1
    for (int i = threadIdx.x; i < w; i += DWT_T)
        x[i] = in[i];
    __syncthreads();
#pragma unroll 1
    for (int k = threadIdx.x; k < half; k += DWT_T) {
        const int right = 2 * k + 2 < w ? x[2 * k + 2] : x[w - 2];
        d[k] = x[2 * k + 1] - floorDiv2(x[2 * k] + right);
    }
    __syncthreads();
    int *out = dst + row * pitch;
#pragma unroll 1
    for (int k = threadIdx.x; k < half; k += DWT_T) {
        const int left = k > 0 ? d[k - 1] : d[0];
        out[k] = x[2 * k] + floorDiv4(left + d[k] + 2);
        out[half + k] = d[k];
    }
}

__global__ void dwtCols(const int *src, int *dst, int pitch, int w, int h)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int k = blockIdx.y * blockDim.y + threadIdx.y;
    const int half = h / 2;
    if (col >= w || k >= half)
        return;
#define AT(r) src[(r) * pitch + col]
    const int x0 = AT(2 * k), x1 = AT(2 * k + 1);
    const int x2 = 2 * k + 2 < h ? AT(2 * k + 2) : AT(h - 2);
    const int dk = x1 - floorDiv2(x0 + x2);
    int dprev = dk;
    if (k > 0) {
        const int xm1 = AT(2 * k - 1), xm2 = AT(2 * k - 2);
        dprev = xm1 - floorDiv2(xm2 + x0);
    }
#undef AT
    dst[k * pitch + col] = x0 + floorDiv4(dprev + dk + 2);
    dst[(half + k) * pitch + col] = dk;
}
