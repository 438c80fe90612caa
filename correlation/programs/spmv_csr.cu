// Sparse matrix-vector product, CSR, one thread per row (scalar kernel): 4096 rows of 1-15
// nonzeros (8 on average; row_ptr[r] = 8 r + (hash(r) & 7), so the lengths vary and the
// lanes of a warp run different trip counts), hashed columns gathered from a 4096-entry x;
// 32 CTAs x 128 threads.
#include "common.h"

#define ROWS 4096
#define COLS 4096
#define NNZ (8 * ROWS)
#define THREADS 128

__host__ __device__ inline unsigned row_ptr_of(unsigned r) {
    return (r == 0 || r == ROWS) ? 8 * r : 8 * r + (hash32(r ^ 0x9e3779b9u) & 7);
}
__host__ __device__ inline unsigned col_of(unsigned k) { return hash32(k + 0x1234567u) % COLS; }

extern "C" __global__ void setup_csr(unsigned *row_ptr, unsigned *col, float *val) {
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < NNZ; i += stride) {
        col[i] = col_of(i);
        val[i] = hval(i + 77777u);
        if (i <= ROWS) row_ptr[i] = row_ptr_of(i);
    }
}

extern "C" __global__ void spmv_csr(const unsigned *row_ptr, const unsigned *col, const float *val, const float *x,
                                    float *y) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= ROWS) return;
    float s = 0.0f;
    for (unsigned k = row_ptr[r]; k < row_ptr[r + 1]; k++) s += val[k] * x[col[k]];
    y[r] = s;
}

int main() {
    unsigned *d_rp = device_alloc<unsigned>(ROWS + 1), *d_col = device_alloc<unsigned>(NNZ);
    float *d_val = device_alloc<float>(NNZ), *d_x = device_alloc<float>(COLS), *d_y = device_alloc<float>(ROWS);
    setup_csr<<<64, 256>>>(d_rp, d_col, d_val);
    CHECK_LAUNCH();
    setup_floats<<<16, 256>>>(d_x, COLS, 0);
    CHECK_LAUNCH();
    spmv_csr<<<ROWS / THREADS, THREADS>>>(d_rp, d_col, d_val, d_x, d_y);
    CHECK_LAUNCH();
    float *got = host_copy(d_y, ROWS);
    for (unsigned r = 0; r < ROWS; r++) {
        double s = 0, mag = 0;
        for (unsigned k = row_ptr_of(r); k < row_ptr_of(r + 1); k++) {
            s += (double)hval(k + 77777u) * hval(col_of(k));
            mag += fabs((double)hval(k + 77777u) * hval(col_of(k)));
        }
        // At most 15 products and sums, each rounding once (a contracted fma once less).
        expect_near("y", r, s, got[r], 64 * mag / 16777216.0 + 1e-30);
    }
    return finish("spmv_csr");
}
