// fp64_math: double-precision libdevice functions plus two fp32 intrinsics.
//
// Each thread evaluates every function on its own inputs and stores each result separately
// (out[f * n + i]) so the host can hold each one to that function's documented accuracy.
// The sin/cos inputs include huge arguments, which take libdevice's Payne-Hanek reduction
// slow path (64-bit multiply / carry chains); pow uses the double-double log/exp path.
// Every argument expression is exact in double, so the host computes the same arguments.

#define NF64 8

__global__ void fp64Funcs(double *out, float *outf, const double *x, const double *y,
                          const float *xf, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;

    const double a = x[i];        // any magnitude, any sign (trig arguments)
    const double b = y[i];        // positive
    out[0 * n + i] = sin(a);
    out[1 * n + i] = cos(a);
    out[2 * n + i] = exp(b * 0.125 - 20.0);
    out[3 * n + i] = log(b);
    out[4 * n + i] = sqrt(b);
    out[5 * n + i] = pow(b, 0.25 + 0.03125 * (double)(i & 63));  // exact exponent
    out[6 * n + i] = 1.0 / b;
    out[7 * n + i] = fma(a, b, -1.5);

    const float f = xf[i];        // in [-8, 8]
    outf[0 * n + i] = __expf(f);
    outf[1 * n + i] = rsqrtf(fabsf(f) + 0.25f);
}
