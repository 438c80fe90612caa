// Shared helpers of the correlation set (correlation/README.md). Every program:
//  - generates its inputs on the device with a `setup_*` kernel from hash32(index), so no
//    host-to-device copy is needed (the simulators model copies differently) and the
//    nvcc-free regression test can replay it from a launch manifest with zeroed buffers;
//  - names its kernels extern "C" (unmangled: the same name in both simulators' output);
//  - checks every output on the host against a CPU reference and prints
//    "PASS <name>" last (exit 0), or "FAIL <name>: ..." (exit 1);
//  - prints "METRIC <name> <key> <value>" lines for figures it measures with clock().
// Only what GPGPU-Sim 4.2 runs: %clock through clock32() (not clock()/clock64()), no warp shuffles, no device printf.
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                     \
    do {                                                                                \
        cudaError_t e_ = (call);                                                        \
        if (e_ != cudaSuccess) {                                                        \
            fprintf(stderr, "FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call,          \
                    cudaGetErrorString(e_));                                            \
            exit(2);                                                                    \
        }                                                                               \
    } while (0)

// After a launch: launch errors, then execution errors.
#define CHECK_LAUNCH()                        \
    do {                                      \
        CHECK(cudaGetLastError());            \
        CHECK(cudaDeviceSynchronize());       \
    } while (0)

// The SM cycle counter as %clock. clock() compiles to %clock64 (nvcc 11.8 and 13.5), which
// GPGPU-Sim 4.2 aborts on; its %clock is the core cycle count.
__device__ inline unsigned clock32() {
    unsigned t;
    asm volatile("mov.u32 %0, %%clock;" : "=r"(t));
    return t;
}

// A bijective 32-bit mix (every input gives a distinct output): the source of all inputs.
__host__ __device__ inline unsigned hash32(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// A float in [-0.5, 0.5) with 16 significant bits, exactly representable.
__host__ __device__ inline float hval(unsigned i) {
    return (float)(hash32(i) & 0xffffu) / 65536.0f - 0.5f;
}

// Fills x[0..n) with hval(i + salt).
extern "C" __global__ void setup_floats(float *x, int n, unsigned salt) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] = hval((unsigned)i + salt);
}

// Fills x[0..n) with hash32(i + salt) & mask.
extern "C" __global__ void setup_words(unsigned *x, int n, unsigned salt, unsigned mask) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] = hash32((unsigned)i + salt) & mask;
}

template <typename T> static T *device_alloc(size_t n) {
    T *p = nullptr;
    CHECK(cudaMalloc((void **)&p, n * sizeof(T)));
    return p;
}

template <typename T> static T *host_copy(const T *d, size_t n) {
    T *h = (T *)malloc(n * sizeof(T));
    if (!h) { fprintf(stderr, "FAIL: out of host memory\n"); exit(2); }
    CHECK(cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

static void metric(const char *prog, const char *key, double value) {
    printf("METRIC %s %s %.3f\n", prog, key, value);
}

// Counts one mismatch, printing the first few.
static long g_bad = 0;
static void mismatch(const char *what, long index, double expected, double got) {
    if (g_bad < 5)
        fprintf(stderr, "mismatch %s[%ld]: expected %.9g, got %.9g\n", what, index, expected, got);
    g_bad++;
}

static void expect_eq(const char *what, long index, double expected, double got) {
    if (expected != got) mismatch(what, index, expected, got);
}

static void expect_near(const char *what, long index, double expected, double got, double bound) {
    if (!(fabs(expected - got) <= bound)) mismatch(what, index, expected, got);
}

static int finish(const char *prog) {
    if (g_bad) {
        printf("FAIL %s: %ld mismatches\n", prog, g_bad);
        return 1;
    }
    printf("PASS %s\n", prog);
    return 0;
}
