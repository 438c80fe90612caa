// CUDA graphs. (1) Stream capture: copies, kernels, a host function and a fork/join
// across two streams are recorded, not run; the instantiated graph is launched three times
// and its accumulated result checked on the host after each launch. (2) A graph built node by
// node (memset, kernel, 1-D and 3-D-parameter memcpy, empty node, an edge added afterwards),
// launched twice. (3) CUDA's errors: synchronizing a capturing stream invalidates the capture,
// so does querying an event recorded in a capture (which is then an invalid value), an
// unjoined fork, the legacy stream, ending a capture that was never begun, a dependency cycle.
// EXPECT-STDERR: cudaGraphInstantiate: the graph's dependencies form a cycle
// EXPECT-STDERR: cudaStreamEndCapture: a stream forked into the capture was not joined back
#include "check.h"

__global__ void axpy(int *y, const int *x, int a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}

__global__ void add_index(int *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += i;
}

static int host_calls = 0;
static void CUDART_CB count_call(void *data) { host_calls += *(int *)data; }

static const int N = 1000;

static void capture_and_replay() {
    static int hx[N], hy[N], hz[N];
    for (int i = 0; i < N; i++) hx[i] = i % 17 - 8;
    int *x, *y, *z;
    CHECK(cudaMalloc(&x, N * sizeof(int)));
    CHECK(cudaMalloc(&y, N * sizeof(int)));
    CHECK(cudaMalloc(&z, N * sizeof(int)));
    CHECK(cudaMemset(y, 0, N * sizeof(int)));
    CHECK(cudaMemset(z, 0, N * sizeof(int)));

    cudaStream_t s, side;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaStreamCreate(&side));
    cudaEvent_t fork, join;
    CHECK(cudaEventCreate(&fork));
    CHECK(cudaEventCreate(&join));
    int one = 1;

    cudaStreamCaptureStatus st;
    CHECK(cudaStreamIsCapturing(s, &st));
    EXPECT(st == cudaStreamCaptureStatusNone);
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaStreamIsCapturing(s, &st));
    EXPECT(st == cudaStreamCaptureStatusActive);
    CHECK(cudaMemcpyAsync(x, hx, sizeof hx, cudaMemcpyHostToDevice, s));
    axpy<<<(N + 127) / 128, 128, 0, s>>>(y, x, 3, N);
    CHECK(cudaGetLastError());
    // Fork: `side` joins the capture after the axpy and runs z += 2x beside the host call.
    CHECK(cudaEventRecord(fork, s));
    CHECK(cudaStreamWaitEvent(side, fork, 0));
    CHECK(cudaStreamIsCapturing(side, &st));
    EXPECT(st == cudaStreamCaptureStatusActive);
    axpy<<<(N + 255) / 256, 256, 0, side>>>(z, x, 2, N);
    CHECK(cudaEventRecord(join, side));
    CHECK(cudaLaunchHostFunc(s, count_call, &one));
    CHECK(cudaStreamWaitEvent(s, join, 0));
    unsigned long long id = 0;
    const cudaGraphNode_t *deps = nullptr;
    size_t ndeps = 0;
    cudaGraph_t during = nullptr;
    CHECK(cudaStreamGetCaptureInfo(s, &st, &id, &during, &deps, nullptr, &ndeps));
    EXPECT(st == cudaStreamCaptureStatusActive && id != 0 && during != nullptr);
    EXPECT(ndeps == 2);  // the host node and the side stream's kernel
    CHECK(cudaMemcpyAsync(hy, y, sizeof hy, cudaMemcpyDeviceToHost, s));
    CHECK(cudaMemcpyAsync(hz, z, sizeof hz, cudaMemcpyDeviceToHost, s));
    // Nothing ran yet: the host buffers and the call count are untouched.
    EXPECT(host_calls == 0 && hy[5] == 0 && hz[5] == 0);
    cudaGraph_t graph;
    CHECK(cudaStreamEndCapture(s, &graph));
    EXPECT(graph == during);
    CHECK(cudaStreamIsCapturing(s, &st));
    EXPECT(st == cudaStreamCaptureStatusNone);
    CHECK(cudaStreamIsCapturing(side, &st));
    EXPECT(st == cudaStreamCaptureStatusNone);
    size_t count = 0;
    CHECK(cudaGraphGetNodes(graph, nullptr, &count));
    EXPECT(count == 6);  // 3 copies, 2 kernels, 1 host node

    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int launch = 1; launch <= 3; launch++) {
        CHECK(cudaGraphLaunch(exec, s));
        CHECK(cudaStreamSynchronize(s));
        EXPECT(host_calls == launch);
        for (int i = 0; i < N; i++) {
            int xi = i % 17 - 8;
            if (hy[i] != launch * 3 * xi || hz[i] != launch * 2 * xi) {
                fprintf(stderr, "FAIL capture launch %d: y[%d]=%d z[%d]=%d, expected %d and %d\n", launch, i,
                        hy[i], i, hz[i], launch * 3 * xi, launch * 2 * xi);
                exit(1);
            }
        }
    }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(z));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaStreamDestroy(side));
}

static void build_explicitly() {
    const int W = 40, H = 10;  // a W x H int matrix in w, rows of W ints
    static int out[N], tile[4][8];
    int *w;
    CHECK(cudaMalloc(&w, N * sizeof(int)));
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));

    cudaMemsetParams ms = {};
    ms.dst = w;
    ms.value = 7;
    ms.elementSize = 4;
    ms.width = N;
    ms.height = 1;
    cudaGraphNode_t set, inc, back, tile_copy, empty;
    CHECK(cudaGraphAddMemsetNode(&set, g, nullptr, 0, &ms));

    int n = N;
    void *args[] = {&w, &n};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)add_index;
    kp.gridDim = dim3((N + 63) / 64);
    kp.blockDim = dim3(64);
    kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&inc, g, &set, 1, &kp));
    n = 1;  // arguments were copied when the node was added

    CHECK(cudaGraphAddMemcpyNode1D(&back, g, &inc, 1, out, w, sizeof out, cudaMemcpyDeviceToHost));
    // Rows 2..5, columns 3..10 of the W x H matrix into a 4 x 8 tile.
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(w, W * sizeof(int), W, H);
    p.srcPos = make_cudaPos(3 * sizeof(int), 2, 0);
    p.dstPtr = make_cudaPitchedPtr(tile, sizeof tile[0], 8, 4);
    p.extent = make_cudaExtent(8 * sizeof(int), 4, 1);
    p.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaGraphAddMemcpyNode(&tile_copy, g, nullptr, 0, &p));
    CHECK(cudaGraphAddEmptyNode(&empty, g, &back, 1));
    // The tile copy was added without dependencies; it must wait for the kernel too.
    CHECK(cudaGraphAddDependencies(g, &inc, &tile_copy, nullptr, 1));

    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    for (int launch = 0; launch < 2; launch++) {
        memset(out, 0, sizeof out);
        memset(tile, 0, sizeof tile);
        CHECK(cudaGraphLaunch(exec, 0));
        CHECK(cudaDeviceSynchronize());
        for (int i = 0; i < N; i++) EXPECT(out[i] == 7 + i);
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 8; c++) EXPECT(tile[r][c] == 7 + (r + 2) * W + (c + 3));
    }

    // A cycle (memset waits for the copy back, which waits for it through the kernel).
    CHECK(cudaGraphAddDependencies(g, &back, &set, nullptr, 1));
    cudaGraphExec_t bad;
    EXPECT_ERR(cudaGraphInstantiate(&bad, g, 0), cudaErrorInvalidValue);
    // The executable graph instantiated before the edge still runs.
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    EXPECT_ERR(cudaGraphDestroy(g), cudaErrorInvalidValue);
    CHECK(cudaFree(w));
    (void)cudaGetLastError();
}

static void errors() {
    cudaStream_t s, t;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaStreamCreate(&t));
    cudaGraph_t g = nullptr;
    int *d;
    CHECK(cudaMalloc(&d, 64));
    CHECK(cudaMemset(d, 0x55, 64));

    // The legacy default stream cannot be captured; a capture never begun cannot end.
    EXPECT_ERR(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal), cudaErrorStreamCaptureUnsupported);
    EXPECT_ERR(cudaStreamEndCapture(s, &g), cudaErrorIllegalState);

    // Synchronizing the capturing stream invalidates the capture.
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    EXPECT_ERR(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaErrorIllegalState);
    CHECK(cudaMemsetAsync(d, 1, 64, s));
    EXPECT_ERR(cudaStreamSynchronize(s), cudaErrorStreamCaptureUnsupported);
    cudaStreamCaptureStatus st;
    CHECK(cudaStreamIsCapturing(s, &st));
    EXPECT(st == cudaStreamCaptureStatusInvalidated);
    EXPECT_ERR(cudaMemsetAsync(d, 2, 64, s), cudaErrorStreamCaptureInvalidated);
    EXPECT_ERR(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);
    EXPECT(g == nullptr);

    // So does synchronizing the device during a global-mode capture.
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorStreamCaptureUnsupported);
    EXPECT_ERR(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);

    // An event recorded in a capture cannot be queried or waited for from the host: the
    // query is refused and, an invalid operation during capture, invalidates the capture;
    // the event, recorded in an invalidated capture, is then an invalid value to wait for,
    // also after the capture ended, until recorded again (measured on an H200, CUDA 13.0
    // driver, 2026-11-28; CUDA's programming guide, "Invalidation").
    cudaEvent_t e;
    CHECK(cudaEventCreate(&e));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaEventRecord(e, s));
    EXPECT_ERR(cudaEventQuery(e), cudaErrorCapturedEvent);
    CHECK(cudaStreamIsCapturing(s, &st));
    EXPECT(st == cudaStreamCaptureStatusInvalidated);
    EXPECT_ERR(cudaEventSynchronize(e), cudaErrorInvalidValue);
    EXPECT_ERR(cudaStreamWaitEvent(t, e, 0), cudaErrorInvalidValue);  // t does not join
    CHECK(cudaStreamIsCapturing(t, &st));
    EXPECT(st == cudaStreamCaptureStatusNone);
    EXPECT_ERR(cudaEventRecord(e, s), cudaErrorStreamCaptureInvalidated);
    EXPECT_ERR(cudaStreamEndCapture(t, &g), cudaErrorIllegalState);  // t is not capturing
    EXPECT_ERR(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);
    EXPECT(g == nullptr);
    EXPECT_ERR(cudaEventQuery(e), cudaErrorInvalidValue);  // still, after the capture
    CHECK(cudaEventRecord(e, s));                          // recorded again: usable
    CHECK(cudaEventSynchronize(e));
    CHECK(cudaEventQuery(e));

    // A fork that is not joined back fails the capture; the forked stream cannot end it.
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaEventRecord(e, s));
    CHECK(cudaStreamWaitEvent(t, e, 0));  // t joins the capture
    CHECK(cudaStreamIsCapturing(t, &st));
    EXPECT(st == cudaStreamCaptureStatusActive);
    CHECK(cudaMemsetAsync(d, 3, 64, t));
    EXPECT_ERR(cudaStreamEndCapture(t, &g), cudaErrorStreamCaptureUnmatched);
    EXPECT_ERR(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureUnjoined);
    EXPECT(g == nullptr);
    CHECK(cudaStreamIsCapturing(t, &st));
    EXPECT(st == cudaStreamCaptureStatusNone);
    CHECK(cudaEventRecord(e, s));
    CHECK(cudaEventQuery(e));  // the capture is over

    // None of the captured memsets ran.
    int h[16];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 16; i++) EXPECT(h[i] == 0x55555555);
    (void)cudaGetLastError();
    CHECK(cudaFree(d));
}

int main() {
    capture_and_replay();
    build_explicitly();
    errors();
    printf("PASS graphs\n");
    return 0;
}
