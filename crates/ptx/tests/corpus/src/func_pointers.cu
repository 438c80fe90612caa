// Indirect calls through device function pointers (call with a prototype).
typedef float (*binop)(float, float);

__device__ float opAdd(float a, float b) { return a + b; }
__device__ float opMul(float a, float b) { return a * b; }
__device__ float opMin(float a, float b) { return fminf(a, b); }

__device__ binop ops[3] = {opAdd, opMul, opMin};

typedef void (*sink_fn)(int*, int);
__device__ void store_one(int* p, int v) { p[0] = v; }
__device__ void store_two(int* p, int v) { p[0] = v; p[1] = v; }

__global__ void apply(const float* a, const float* b, float* c, const int* sel, int* s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = ops[sel[i] % 3](a[i], b[i]);
        sink_fn f = (i & 1) ? store_one : store_two;
        f(s + 2 * i, i);
    }
}
