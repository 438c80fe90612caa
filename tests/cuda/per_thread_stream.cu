// Built with --default-stream per-thread: launches use __cudaLaunchKernel_ptsz and copies
// the _ptds/_ptsz entry points, in which stream 0 is the per-thread default stream. Unlike
// the legacy default stream, that one can be captured into a graph: a memset and a launch on
// stream 0 are captured (not run), and the graph's two launches each add the sum again.
// cudaStreamGetId tells stream 0 from the legacy stream; cudaStreamGetDevice,
// cudaLaunchHostFunc_v2 on stream 0.
// NVCC-FLAGS: --default-stream per-thread
#include "check.h"

__device__ int total;

__global__ void add(const int *x, int n) {
    int i = threadIdx.x;
    if (i < n) atomicAdd(&total, x[i]);
}

int main() {
    int h[100], *d, zero = 0, got = 0;
    for (int i = 0; i < 100; i++) h[i] = i;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyToSymbol(total, &zero, sizeof zero));
    CHECK(cudaMemsetAsync(d + 50, 0, 50 * sizeof(int), 0));
    add<<<1, 128>>>(d, 100);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(0));
    CHECK(cudaMemcpyFromSymbol(&got, total, sizeof got));
    EXPECT(got == 49 * 50 / 2);

    // Stream 0 is cudaStreamPerThread here, not the legacy stream.
    unsigned long long id0 = 0, id_pt = 0, id_legacy = 0;
    CHECK(cudaStreamGetId(0, &id0));
    CHECK(cudaStreamGetId(cudaStreamPerThread, &id_pt));
    CHECK(cudaStreamGetId(cudaStreamLegacy, &id_legacy));
    EXPECT(id0 == id_pt && id0 != id_legacy);
    int dev = -1;
    CHECK(cudaStreamGetDevice(0, &dev));
    EXPECT(dev == 0);
    static int host_calls = 0;
    CHECK(cudaLaunchHostFunc_v2(0, [](void *p) { ++*(int *)p; }, &host_calls, cudaHostTaskBlocking));
    CHECK(cudaStreamSynchronize(0));
    EXPECT(host_calls == 1);

    // Capture on stream 0, i.e. cudaStreamPerThread.
    unsigned flags = 1;
    CHECK(cudaStreamGetFlags(0, &flags));
    EXPECT(flags == 0);
    CHECK(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus st;
    CHECK(cudaStreamIsCapturing(cudaStreamPerThread, &st));
    EXPECT(st == cudaStreamCaptureStatusActive);
    CHECK(cudaMemsetAsync(d, 0, 10 * sizeof(int), 0));
    add<<<1, 128>>>(d, 100);
    CHECK(cudaGetLastError());
    cudaGraph_t g;
    CHECK(cudaStreamEndCapture(0, &g));
    CHECK(cudaMemcpyFromSymbol(&got, total, sizeof got));
    EXPECT(got == 49 * 50 / 2);  // nothing ran during the capture
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaStreamSynchronize(0));
    CHECK(cudaMemcpyFromSymbol(&got, total, sizeof got));
    // Elements 0..9 are now 0: each launch adds 10..49.
    EXPECT(got == 49 * 50 / 2 + 2 * (49 * 50 / 2 - 9 * 10 / 2));
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    printf("PASS per_thread_stream\n");
    return 0;
}
