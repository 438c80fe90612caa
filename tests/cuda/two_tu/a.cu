// Two translation units, each with its own fatbinary, kernels and variables; main() in this
// one launches kernels of both. A __device__ variable of the same name lives in each (static
// linkage in CUDA whole-program mode keeps them apart).
#include "../check.h"

static __device__ int which = 1;
__constant__ int a_scale;

__global__ void a_kernel(int *x) { x[threadIdx.x] = threadIdx.x * a_scale + which; }

void run_b(int *x, int n);     // b.cu
int read_b_counter();          // b.cu

int main() {
    int *d, h[64];
    CHECK(cudaMalloc(&d, sizeof h));
    int s = 3;
    CHECK(cudaMemcpyToSymbol(a_scale, &s, sizeof s));
    a_kernel<<<1, 64>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++) EXPECT(h[i] == 3 * i + 1);
    run_b(d, 64);
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++) EXPECT(h[i] == (3 * i + 1) * 2 + 2);
    EXPECT(read_b_counter() == 64);
    int w;
    CHECK(cudaMemcpyFromSymbol(&w, which, sizeof w));
    EXPECT(w == 1);
    printf("PASS two_tu\n");
    return 0;
}
