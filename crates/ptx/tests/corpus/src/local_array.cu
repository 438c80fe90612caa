// Per-thread arrays indexed dynamically end up in local memory.
__global__ void local_array(const int* idx, int* out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int buf[32];
    float fb[16];
    for (int i = 0; i < 32; ++i) buf[i] = i * t;
    for (int i = 0; i < 16; ++i) fb[i] = 0.25f * i;
    int s = 0;
    for (int k = 0; k < n; ++k) {
        int j = idx[k] & 31;
        buf[j] += k;
        s += buf[(j * 7) & 31] + (int)fb[j & 15];
    }
    out[t] = s;
}
