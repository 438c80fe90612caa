// Memory-allocation and memory-free graph nodes. (1) alloc → memset → kernel → copy out →
// free in one graph, launched twice; the nodes' parameters; the graph memory attributes.
// (2) An allocation not freed in its graph outlives the launch: a later copy reads it, a
// relaunch is refused until cudaFree frees it, and cudaGraphInstantiateFlagAutoFreeOnLaunch
// frees it on relaunch. (3) A free node in another graph. (4) CUDA's refusals: a free node for
// an address no allocation node returned, a second free node for one allocation, cloning, a
// second executable graph at once.
// EXPECT-STDERR: cudaGraphLaunch: the allocation
// EXPECT-STDERR: cudaGraphInstantiate: the graph has memory nodes and an executable graph already
#include "check.h"

__global__ void axpb(int *y, int a, int b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * y[i] + b;
}

static const int N = 128;

static cudaMemAllocNodeParams alloc_params(size_t bytes) {
    cudaMemAllocNodeParams p = {};
    p.poolProps.allocType = cudaMemAllocationTypePinned;
    p.poolProps.location.type = cudaMemLocationTypeDevice;
    p.poolProps.location.id = 0;
    p.bytesize = bytes;
    return p;
}

static cudaGraphNode_t add_kernel(cudaGraph_t g, cudaGraphNode_t dep, int *y, int a, int b) {
    int n = N;
    void *args[] = {&y, &a, &b, &n};
    cudaKernelNodeParams k = {};
    k.func = (void *)axpb;
    k.gridDim = dim3(1);
    k.blockDim = dim3(N);
    k.kernelParams = args;
    cudaGraphNode_t node;
    CHECK(cudaGraphAddKernelNode(&node, g, &dep, 1, &k));
    return node;
}

static void in_one_graph(cudaStream_t s) {
    static int host[N];
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams p = alloc_params(N * sizeof(int));
    cudaGraphNode_t alloc, set, k, out, free_node;
    CHECK(cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &p));
    int *y = (int *)p.dptr;
    EXPECT(y != nullptr);
    cudaMemsetParams m = {};
    m.dst = y;
    m.value = 3;
    m.elementSize = 4;
    m.width = N;
    m.height = 1;
    CHECK(cudaGraphAddMemsetNode(&set, g, &alloc, 1, &m));
    k = add_kernel(g, set, y, 2, 1);
    CHECK(cudaGraphAddMemcpyNode1D(&out, g, &k, 1, host, y, sizeof host, cudaMemcpyDeviceToHost));
    CHECK(cudaGraphAddMemFreeNode(&free_node, g, &out, 1, y));

    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(alloc, &t));
    EXPECT(t == cudaGraphNodeTypeMemAlloc);
    CHECK(cudaGraphNodeGetType(free_node, &t));
    EXPECT(t == cudaGraphNodeTypeMemFree);
    cudaMemAllocNodeParams back;
    CHECK(cudaGraphMemAllocNodeGetParams(alloc, &back));
    EXPECT(back.dptr == y && back.bytesize == N * sizeof(int) &&
           back.poolProps.allocType == cudaMemAllocationTypePinned);
    void *freed = nullptr;
    CHECK(cudaGraphMemFreeNodeGetParams(free_node, &freed));
    EXPECT(freed == y);

    // CUDA's refusals: freeing twice in one graph, an address no allocation node returned.
    cudaGraphNode_t again;
    EXPECT_ERR(cudaGraphAddMemFreeNode(&again, g, &free_node, 1, y), cudaErrorInvalidValue);
    int *plain;
    CHECK(cudaMalloc(&plain, 16));
    EXPECT_ERR(cudaGraphAddMemFreeNode(&again, g, &free_node, 1, plain), cudaErrorInvalidValue);
    CHECK(cudaFree(plain));
    cudaGraph_t copy;
    EXPECT(cudaGraphClone(&copy, g) != cudaSuccess);  // graphs with memory nodes are not cloned
    (void)cudaGetLastError();

    cudaGraphExec_t x, second;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    EXPECT(cudaGraphInstantiate(&second, g, 0) != cudaSuccess);  // one at a time
    (void)cudaGetLastError();
    for (int launch = 0; launch < 2; launch++) {
        memset(host, 0, sizeof host);
        CHECK(cudaGraphLaunch(x, s));
        CHECK(cudaStreamSynchronize(s));
        for (int i = 0; i < N; i++) EXPECT(host[i] == 7);
    }
    unsigned long long used = 1, reserved = 0;
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved));
    EXPECT(used == 0 && reserved >= N * sizeof(int));
    unsigned long long zero = 0;
    CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaDeviceGraphMemTrim(0));
}

static void outliving_the_launch(cudaStream_t s) {
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams p = alloc_params(N * sizeof(int));
    cudaGraphNode_t alloc, set;
    CHECK(cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &p));
    int *y = (int *)p.dptr;
    cudaMemsetParams m = {};
    m.dst = y;
    m.value = 5;
    m.elementSize = 4;
    m.width = N;
    m.height = 1;
    CHECK(cudaGraphAddMemsetNode(&set, g, &alloc, 1, &m));
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    // Still allocated after the launch: stream work reads it.
    static int host[N];
    CHECK(cudaMemcpy(host, y, sizeof host, cudaMemcpyDeviceToHost));
    EXPECT(host[0] == 5 && host[N - 1] == 5);
    unsigned long long used = 0;
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
    EXPECT(used >= N * sizeof(int));
    // Relaunching while it is allocated is refused; after cudaFree it works again.
    EXPECT_ERR(cudaGraphLaunch(x, s), cudaErrorInvalidValue);
    (void)cudaGetLastError();
    CHECK(cudaFree(y));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaFree(y));
    WARPSIM_ONLY(EXPECT_ERR(cudaFree(y), cudaErrorInvalidValue));  // not allocated now
    (void)cudaGetLastError();
    CHECK(cudaGraphExecDestroy(x));

    // Freed on each relaunch.
    CHECK(cudaGraphInstantiate(&x, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(host, y, sizeof host, cudaMemcpyDeviceToHost));
    EXPECT(host[0] == 5);

    // Freed by another graph's free node.
    cudaGraph_t f;
    CHECK(cudaGraphCreate(&f, 0));
    cudaGraphNode_t free_node;
    CHECK(cudaGraphAddMemFreeNode(&free_node, f, nullptr, 0, y));
    cudaGraphExec_t fx;
    CHECK(cudaGraphInstantiate(&fx, f, 0));
    CHECK(cudaGraphLaunch(fx, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
    EXPECT(used == 0);
    CHECK(cudaGraphExecDestroy(fx));
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(f));
    CHECK(cudaGraphDestroy(g));
}

int main() {
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    in_one_graph(s);
    outliving_the_launch(s);
    CHECK(cudaStreamDestroy(s));
    printf("PASS graph_mem\n");
    return 0;
}
