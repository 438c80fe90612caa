// A fault in a program compiled with -lineinfo: the report names the CUDA source line of the
// faulting access (from the PTX's .loc directives) beside the PTX line, the kernel and the
// device function demangled, and where the PTX those line numbers refer to can be found.
// NVCC-FLAGS: -lineinfo
// EXPECT-STDERR: warpsim: cudaErrorIllegalAddress in kernel `stamp(int*, int)`
// EXPECT-STDERR: in `put(int*, int, int)`
// EXPECT-STDERR: fault_line.cu:16)
// EXPECT-STDERR: (PTX line numbers refer to the program's embedded PTX: `warpsim exec --dump-ptx DIR` writes it)
// NATIVE: warpsim-only: a GPU does not detect this out-of-bounds access; warpsim's memory checker does
#include "check.h"

__device__ __noinline__ void put(int *x, int i, int v) {
    if (v < 0) {
        return;
    }
    x[i] = v;  // line 16: out of bounds for i >= 100
}

__global__ void stamp(int *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    put(x, i, n - i + 1000);
}

int main() {
    int *d;
    CHECK(cudaMalloc(&d, 100 * sizeof(int)));
    stamp<<<2, 64>>>(d, 100);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    printf("PASS fault_line\n");
    return 0;
}
