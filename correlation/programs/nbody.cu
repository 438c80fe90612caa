// N-body accelerations with shared tiles: the pull of 256 source bodies on each of 1024
// bodies (float4: position, mass), 16 CTAs x 64 threads; each CTA stages 64 sources at a
// time in shared memory (two barriers per tile) and every thread accumulates 256 softened
// interactions (rsqrtf: an SFU op per pair).
#include "common.h"

#define N 1024
#define M 256 // sources: bodies 0..M-1
#define P 64
#define EPS2 0.01f

extern "C" __global__ void nbody(const float4 *pos, float4 *acc) {
    __shared__ float4 tile[P];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 p = pos[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int t = 0; t < M; t += P) {
        tile[threadIdx.x] = pos[t + threadIdx.x];
        __syncthreads();
#pragma unroll 4
        for (int j = 0; j < P; j++) {
            float4 q = tile[j];
            float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
            float r2 = dx * dx + dy * dy + dz * dz + EPS2;
            float inv = rsqrtf(r2);
            float s = q.w * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        __syncthreads();
    }
    acc[i] = make_float4(ax, ay, az, 0.0f);
}

int main() {
    float *d_pos = device_alloc<float>(4 * N), *d_acc = device_alloc<float>(4 * N);
    setup_floats<<<16, 256>>>(d_pos, 4 * N, 0);
    CHECK_LAUNCH();
    nbody<<<N / P, P>>>((const float4 *)d_pos, (float4 *)d_acc);
    CHECK_LAUNCH();
    float *got = host_copy(d_acc, 4 * N);
    for (int i = 0; i < N; i++) {
        double a[3] = {0, 0, 0}, mag[3] = {0, 0, 0};
        for (int j = 0; j < M; j++) {
            double d[3] = {(double)hval(4 * j) - hval(4 * i), (double)hval(4 * j + 1) - hval(4 * i + 1),
                           (double)hval(4 * j + 2) - hval(4 * i + 2)};
            double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + (double)EPS2;
            double s = hval(4 * j + 3) / (r2 * sqrt(r2));
            for (int k = 0; k < 3; k++) {
                a[k] += d[k] * s;
                mag[k] += fabs(d[k] * s);
            }
        }
        // Each term is good to a few units in 2^-22 (rsqrt's approximation and ~8 roundings);
        // 256 sums add at most 256 roundings of the running magnitude: well under 2^-10 of it.
        for (int k = 0; k < 3; k++) expect_near("acc", 4 * i + k, a[k], got[4 * i + k], mag[k] / 1024.0);
    }
    return finish("nbody");
}
