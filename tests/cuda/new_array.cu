// Device new[]/delete[] of class types (issue 40, item 4). nvcc 13.5 compiles `new T[n]` of a
// class with a destructor into malloc(n * sizeof(T) + 8) with the element count in the first 8
// bytes (delete[] reads it to run the destructors), and of a class with a constructor but no
// destructor into malloc(n * sizeof(T)) followed by a store of the count 8 bytes *before* the
// block malloc returned (`st.u64 [%rd+-8]`). Both must work; so must plain types and
// per-thread arrays of different sizes, freed and reused.
// EXPECT-PTX: +-8], %rd
#include "check.h"

__device__ int destroyed = 0;

struct WithDtor {
    int v;
    __device__ WithDtor() : v(7) {}
    __device__ ~WithDtor() { atomicAdd(&destroyed, 1); }
};

struct CtorOnly {
    int v;
    short s;
    __device__ CtorOnly() : v(3), s(-1) {}
};

struct Plain {
    long long a, b;
};

__global__ void arrays(int *out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int n = t % 9 + 1;
    WithDtor *d = new WithDtor[n];
    CtorOnly *c = new CtorOnly[n];
    Plain *p = new Plain[n];
    int s = 0;
    for (int i = 0; i < n; i++) {
        d[i].v += i;
        c[i].v += 2 * i;
        p[i].a = i;
        p[i].b = t;
    }
    for (int i = 0; i < n; i++) s += d[i].v + c[i].v + c[i].s + (int)(p[i].a + p[i].b);
    out[t] = s;
    delete[] d;
    delete[] c;
    delete[] p;
}

int main() {
    const int blocks = 2, threads = 64, n = blocks * threads;
    int *out;
    CHECK(cudaMalloc(&out, n * sizeof(int)));
    for (int round = 0; round < 2; round++) {  // the second round reuses the freed blocks
        arrays<<<blocks, threads>>>(out);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
    }
    int h[n], gone = 0;
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpyFromSymbol(&gone, destroyed, sizeof gone));
    int want_destroyed = 0;
    for (int t = 0; t < n; t++) {
        int k = t % 9 + 1, s = 0;
        for (int i = 0; i < k; i++) s += (7 + i) + (3 + 2 * i) - 1 + (i + t);
        EXPECT(h[t] == s);
        want_destroyed += 2 * k;
    }
    EXPECT(gone == want_destroyed);
    printf("PASS new_array\n");
    return 0;
}
