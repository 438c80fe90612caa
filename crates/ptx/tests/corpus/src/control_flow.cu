// Divergent control flow: switch (jump table), nested loops, early exit, select.
__device__ __forceinline__ int classify(int v) {
    switch (v & 15) {
        case 0: return 3;
        case 1: return v * 7;
        case 2: return v ^ 0x55;
        case 3: return -v;
        case 4: return v << 2;
        case 5: return v >> 1;
        case 6: return v + 100;
        case 7: return v % 13;
        case 8: return v / 3;
        default: return 0;
    }
}

__global__ void control_flow(const int* in, int* out, int n, int iters) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    int v = in[t], acc = 0;
    for (int i = 0; i < iters; ++i) {
        if (v & 1) {
            for (int j = 0; j < (v & 7); ++j) acc += classify(v + j);
        } else if (v & 2) {
            while (v > 1000) v /= 3;
            acc -= v;
        } else {
            acc ^= v;
            if (acc == 12345) break;
        }
        v = (v * 1103515245 + 12345) & 0x7fffffff;
    }
    out[t] = acc > 0 ? acc : -acc;
}
