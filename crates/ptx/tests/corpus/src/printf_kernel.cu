#include <cstdio>
// Device printf pulls in the vprintf extern declaration and string constants.
__global__ void hello(int n, float f, double d) {
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    if (t < n) printf("thread %d of %d: f=%f d=%g\n", t, n, f, d);
    if (t == 0) printf("done \"quoted\"\t%s\n", "ok");
}
