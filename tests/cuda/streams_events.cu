// Streams and events: creation with and without flags, async copies and launches on a
// stream, synchronize/query, host callbacks, stream waits, elapsed time from the simulated
// clock (positive across a kernel, zero across nothing in warpsim; on a GPU two events recorded
// back to back are a few microseconds apart), and handle errors (destroyed handles are
// WARPSIM_ONLY: a GPU's driver does not check them; the H200 run crashed, rc 139).
#include "check.h"

__global__ void busy(float *x, int n, int rounds) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        for (int r = 0; r < rounds; r++) v = v * 0.5f + 1.0f;
        x[i] = v;
    }
}

static int callbacks = 0;
static void CUDART_CB on_host(void *data) { callbacks += *(int *)data; }
static void CUDART_CB on_stream(cudaStream_t, cudaError_t status, void *data) {
    if (status == cudaSuccess) callbacks += *(int *)data;
}

int main() {
    const int n = 4096;
    static float h[n];
    for (int i = 0; i < n; i++) h[i] = i;
    float *d;
    CHECK(cudaMalloc(&d, sizeof h));

    cudaStream_t s1, s2;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    EXPECT(s1 != s2 && s1 != 0);

    cudaEvent_t start, stop, mid, untimed;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventCreateWithFlags(&mid, cudaEventDefault));
    CHECK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));

    CHECK(cudaEventRecord(start, s1));
    CHECK(cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, s1));
    busy<<<n / 256, 256, 0, s1>>>(d, n, 50);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop, s1));
    CHECK(cudaEventRecord(mid, s1));
    CHECK(cudaStreamWaitEvent(s2, stop, 0));
    CHECK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s2));
    CHECK(cudaStreamSynchronize(s2));
    CHECK(cudaStreamQuery(s1));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaEventQuery(stop));

    float v = 0;
    for (int r = 0; r < 50; r++) v = v * 0.5f + 1.0f;
    EXPECT(h[0] == v);

    float ms = -1, none = -1;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaEventElapsedTime(&none, stop, mid));
    printf("kernel took %g simulated ms\n", ms);
    EXPECT(ms > 0);
    EXPECT(none >= 0);
    WARPSIM_ONLY(EXPECT(none == 0));
    EXPECT_ERR(cudaEventElapsedTime(&ms, start, untimed), cudaErrorInvalidResourceHandle);

    // Host work in stream order: runs before the call returns here.
    int one = 1, ten = 10;
    CHECK(cudaLaunchHostFunc(s1, on_host, &one));
    CHECK(cudaStreamAddCallback(s2, on_stream, &ten, 0));
    CHECK(cudaStreamSynchronize(s1));
    CHECK(cudaStreamSynchronize(s2));
    EXPECT(callbacks == 11);

    // The special handles and the default stream are always valid.
    CHECK(cudaStreamSynchronize(0));
    CHECK(cudaStreamSynchronize(cudaStreamLegacy));
    CHECK(cudaStreamSynchronize(cudaStreamPerThread));

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaEventDestroy(mid));
    CHECK(cudaEventDestroy(untimed));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    // Destroyed handles are invalid (warpsim checks them; a driver uses them).
    WARPSIM_ONLY(EXPECT_ERR(cudaStreamDestroy(s1), cudaErrorInvalidResourceHandle));
    WARPSIM_ONLY(EXPECT_ERR(cudaEventRecord(start, 0), cudaErrorInvalidResourceHandle));
    WARPSIM_ONLY(EXPECT_ERR(cudaMemcpyAsync(d, h, 16, cudaMemcpyHostToDevice, s2), cudaErrorInvalidResourceHandle));
    CHECK(cudaFree(d));
    printf("PASS streams_events\n");
    return 0;
}
