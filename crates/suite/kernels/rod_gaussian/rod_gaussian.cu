// rod_gaussian: solves A x = b by Gaussian elimination without pivoting (Rodinia "gaussian"
// structure). For each pivot t = 0 .. n-2 the host launches
//   gaussFan1  one thread per row i > t: the multiplier m[i][t] = a[i][t] / a[t][t].
//   gaussFan2  a 2-D grid of 16 x 16 CTAs over rows i > t and columns j >= t:
//              a[i][j] -= m[i][t] * a[t][j]; the threads of column t also update b[i].
// and back-substitutes on the host, as Rodinia does. No shared memory and no barriers; the
// kernels shrink with t, so late launches use few CTAs. Every float operation is an explicit
// round-to-nearest intrinsic, so the host reproduces the reduced system bit for bit.

__global__ void gaussFan1(const float *a, float *m, int n, int t)
{
    const int i = t + 1 + blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    m[i * n + t] = __fdiv_rn(a[i * n + t], a[t * n + t]);
}

__global__ void gaussFan2(float *a, float *b, const float *m, int n, int t)
{
    const int i = t + 1 + blockIdx.y * blockDim.y + threadIdx.y;
    const int j = t + blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || j >= n)
        return;
    const float mult = m[i * n + t];
    a[i * n + j] = __fsub_rn(a[i * n + j], __fmul_rn(mult, a[t * n + j]));
    if (j == t)
        b[i] = __fsub_rn(b[i], __fmul_rn(mult, b[t]));
}
