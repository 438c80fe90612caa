// Recursive device functions that must not be inlined; uses the call stack.
__device__ __noinline__ unsigned fib(unsigned n) {
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ int ackermann_small(int m, int n) {
    if (m == 0) return n + 1;
    if (n == 0) return ackermann_small(m - 1, 1);
    return ackermann_small(m - 1, ackermann_small(m, n - 1));
}

__device__ __noinline__ void fill(int* a, int depth) {
    int local[8];
    for (int i = 0; i < 8; ++i) local[i] = depth * i;
    if (depth > 0) fill(a, depth - 1);
    a[depth] = local[depth & 7];
}

__global__ void recursion(unsigned* out, int* buf) {
    out[threadIdx.x] = fib(threadIdx.x % 12) + ackermann_small(1, threadIdx.x & 3);
    if (threadIdx.x == 0) fill(buf, 6);
}
