// Double-precision transcendental functions (libdevice slow paths with carry chains).
__global__ void dmath(const double* x, double* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double v = x[i];
        y[i] = sin(v) + cos(v) * exp(v) - log(fabs(v) + 1.0) + pow(v, 1.5) + sqrt(fabs(v)) + tan(v) + atan2(v, 2.0);
    }
}

__global__ void fmath(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = sinf(v) + cosf(v) * expf(v) - logf(fabsf(v) + 1.0f) + powf(v, 1.5f) + rsqrtf(fabsf(v) + 1e-3f) + v / (v + 2.5f);
    }
}
