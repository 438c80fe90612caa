// The graph API beyond building and launching. (1) cudaGraphClone and
// cudaGraphNodeFindInClone, node types, ids, root nodes, edges and dependencies, removing an
// edge and a node. (2) Node parameters: kernel, memset, memcpy (1-D, to and from a symbol)
// and host nodes read back and changed in the graph; kernel and memset nodes changed in an
// executable graph only; a kernel node disabled. (3) cudaGraphExecUpdate: a graph of the same
// shape with other parameters updates the executable graph; another node count, a node of
// another type and a 2-D memset's new width are refused with CUDA's results. (4) Child graphs:
// the same child twice in a graph, its copy read back, replaced in the executable graph.
// (5) Event record and wait nodes. (6) cudaStreamBeginCaptureToGraph after an existing node,
// cudaStreamUpdateCaptureDependencies. (7) User objects: the destructor runs once the program,
// the graph and the executable graph have all dropped their references.
// (8) cudaGraphDebugDotPrint. Every result is checked on the host.
// EXPECT-STDERR: cudaGraphExecUpdate: not updated: the graph has 3 nodes, the executable graph 2
#include "check.h"
#include <cstring>
#include <unistd.h>

__global__ void axpb(int *y, int a, int b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * y[i] + b;
}

__device__ int dev_sum;

__global__ void sum_into(const int *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&dev_sum, x[i]);
}

static const int N = 256;
static int host_value = 0;
static void CUDART_CB set_value(void *v) { host_value = *(int *)v; }

static cudaGraphNode_t add_kernel(cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, int *y,
                                  int a, int b) {
    int count = N;
    void *args[] = {&y, &a, &b, &count};
    cudaKernelNodeParams p = {};
    p.func = (void *)axpb;
    p.gridDim = dim3(N / 64);
    p.blockDim = dim3(64);
    p.kernelParams = args;
    cudaGraphNode_t node;
    CHECK(cudaGraphAddKernelNode(&node, g, deps, n, &p));
    return node;
}

static cudaGraphNode_t add_memset(cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, int *y,
                                  int value, size_t width, size_t height) {
    cudaMemsetParams m = {};
    m.dst = y;
    m.value = value;
    m.elementSize = 4;
    m.width = width;
    m.height = height;
    m.pitch = width * 4;
    cudaGraphNode_t node;
    CHECK(cudaGraphAddMemsetNode(&node, g, deps, n, &m));
    return node;
}

static void run(cudaGraph_t g, cudaStream_t s) {
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaGraphExecDestroy(x));
}

static bool all_equal(const int *d, int want) {
    static int h[N];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        if (h[i] != want) return false;
    return true;
}

static bool contains(const cudaGraphNode_t *v, size_t n, cudaGraphNode_t x) {
    for (size_t i = 0; i < n; i++)
        if (v[i] == x) return true;
    return false;
}

static void structure(int *y, cudaStream_t s) {
    // memset(3) -> y = 2y + 1 -> y = 3y + 0, and an empty node after the memset.
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t ms = add_memset(g, nullptr, 0, y, 3, N, 1);
    cudaGraphNode_t k1 = add_kernel(g, &ms, 1, y, 2, 1);
    cudaGraphNode_t k2 = add_kernel(g, &k1, 1, y, 3, 0);
    cudaGraphNode_t e;
    CHECK(cudaGraphAddEmptyNode(&e, g, &ms, 1));

    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(ms, &t));
    EXPECT(t == cudaGraphNodeTypeMemset);
    CHECK(cudaGraphNodeGetType(k2, &t));
    EXPECT(t == cudaGraphNodeTypeKernel);
    CHECK(cudaGraphNodeGetType(e, &t));
    EXPECT(t == cudaGraphNodeTypeEmpty);
    cudaGraph_t owner;
    CHECK(cudaGraphNodeGetContainingGraph(k1, &owner));
    EXPECT(owner == g);
    unsigned id1, id2, gid;
    CHECK(cudaGraphNodeGetLocalId(k1, &id1));
    CHECK(cudaGraphNodeGetLocalId(k2, &id2));
    EXPECT(id1 != id2);
    CHECK(cudaGraphGetId(g, &gid));

    size_t n = 0;
    CHECK(cudaGraphGetRootNodes(g, nullptr, &n));
    EXPECT(n == 1);
    cudaGraphNode_t from[8], to[8];
    n = 0;
    CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &n));
    EXPECT(n == 3);
    n = 8;
    CHECK(cudaGraphGetEdges(g, from, to, nullptr, &n));
    EXPECT(n == 3);
    bool ms_k1 = false, k1_k2 = false, ms_e = false;
    for (size_t i = 0; i < n; i++) {
        ms_k1 |= from[i] == ms && to[i] == k1;
        k1_k2 |= from[i] == k1 && to[i] == k2;
        ms_e |= from[i] == ms && to[i] == e;
    }
    EXPECT(ms_k1 && k1_k2 && ms_e);
    n = 8;
    CHECK(cudaGraphNodeGetDependentNodes(ms, to, nullptr, &n));
    EXPECT(n == 2 && contains(to, n, k1) && contains(to, n, e));
    n = 8;
    CHECK(cudaGraphNodeGetDependencies(k2, from, nullptr, &n));
    EXPECT(n == 1 && from[0] == k1);
    // A lone `from` array is an invalid value; so is removing an edge that is not there.
    n = 8;
    EXPECT_ERR(cudaGraphGetEdges(g, from, nullptr, nullptr, &n), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGraphRemoveDependencies(g, &k2, &k1, nullptr, 1), cudaErrorInvalidValue);

    // The clone runs alike: (2·3 + 1)·3 = 21.
    cudaGraph_t c;
    CHECK(cudaGraphClone(&c, g));
    cudaGraphNode_t k2c;
    CHECK(cudaGraphNodeFindInClone(&k2c, k2, c));
    EXPECT(k2c != k2);
    CHECK(cudaGraphNodeGetType(k2c, &t));
    EXPECT(t == cudaGraphNodeTypeKernel);
    run(c, s);
    EXPECT(all_equal(y, 21));

    // Without the edge k1 -> k2 the kernels still run in the order added; without k1: 3·3.
    CHECK(cudaGraphRemoveDependencies(g, &k1, &k2, nullptr, 1));
    n = 0;
    CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &n));
    EXPECT(n == 2);
    CHECK(cudaGraphDestroyNode(k1));
    n = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &n));
    EXPECT(n == 3);
    n = 0;
    CHECK(cudaGraphNodeGetDependentNodes(ms, nullptr, nullptr, &n));
    EXPECT(n == 1);
    CHECK(cudaGraphAddDependencies(g, &ms, &k2, nullptr, 1));
    run(g, s);
    EXPECT(all_equal(y, 9));
    // The clone kept its own nodes.
    run(c, s);
    EXPECT(all_equal(y, 21));
    CHECK(cudaGraphDestroy(c));
    CHECK(cudaGraphDestroy(g));
}

static void parameters(int *y, cudaStream_t s) {
    static int host[N];
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t ms = add_memset(g, nullptr, 0, y, 1, N, 1);
    cudaGraphNode_t k = add_kernel(g, &ms, 1, y, 5, 2);
    cudaGraphNode_t cp;
    CHECK(cudaGraphAddMemcpyNode1D(&cp, g, &k, 1, host, y, sizeof host, cudaMemcpyDeviceToHost));
    int v = 7;
    cudaHostNodeParams hp = {set_value, &v};
    cudaGraphNode_t h;
    CHECK(cudaGraphAddHostNode(&h, g, &cp, 1, &hp));

    // Read back what was set.
    cudaKernelNodeParams kp;
    CHECK(cudaGraphKernelNodeGetParams(k, &kp));
    EXPECT(kp.func == (void *)axpb && kp.gridDim.x == N / 64 && kp.blockDim.x == 64);
    EXPECT(*(int **)kp.kernelParams[0] == y && *(int *)kp.kernelParams[1] == 5 &&
           *(int *)kp.kernelParams[2] == 2 && *(int *)kp.kernelParams[3] == N);
    cudaMemsetParams mp;
    CHECK(cudaGraphMemsetNodeGetParams(ms, &mp));
    EXPECT(mp.dst == y && mp.value == 1 && mp.elementSize == 4 && mp.width == N);
    cudaMemcpy3DParms cpp;
    CHECK(cudaGraphMemcpyNodeGetParams(cp, &cpp));
    EXPECT(cpp.dstPtr.ptr == host && cpp.srcPtr.ptr == y && cpp.extent.width == sizeof host &&
           cpp.kind == cudaMemcpyDeviceToHost);
    cudaHostNodeParams hp2;
    CHECK(cudaGraphHostNodeGetParams(h, &hp2));
    EXPECT(hp2.fn == set_value && hp2.userData == &v);
    // A getter of another node type refuses.
    EXPECT_ERR(cudaGraphKernelNodeGetParams(ms, &kp), cudaErrorInvalidValue);
    run(g, s);
    EXPECT(host[0] == 7 && host[N - 1] == 7 && host_value == 7);

    // Change every node in the graph: memset 2, y = 10y + 2 (from the getter's parameters,
    // arguments changed in place), copy half, host value 8.
    mp.value = 2;
    CHECK(cudaGraphMemsetNodeSetParams(ms, &mp));
    int *yy = y, a = 10, b2 = 2, cnt = N;
    void *args2[] = {&yy, &a, &b2, &cnt};
    kp.kernelParams = args2;
    CHECK(cudaGraphKernelNodeSetParams(k, &kp));
    memset(host, 0, sizeof host);
    CHECK(cudaGraphMemcpyNodeSetParams1D(cp, host, y, sizeof host / 2, cudaMemcpyDeviceToHost));
    int v8 = 8;
    hp.userData = &v8;
    CHECK(cudaGraphHostNodeSetParams(h, &hp));
    EXPECT_ERR(cudaGraphMemsetNodeSetParams(k, &mp), cudaErrorInvalidValue);
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(host[0] == 22 && host[N / 2 - 1] == 22 && host[N / 2] == 0 && host_value == 8);

    // In the executable graph only: y = 1y + 100 from memset 4, and the graph is unchanged.
    int one = 1, b = 100;
    void *args3[] = {&yy, &one, &b, &cnt};
    kp.kernelParams = args3;
    CHECK(cudaGraphExecKernelNodeSetParams(x, k, &kp));
    mp.value = 4;
    CHECK(cudaGraphExecMemsetNodeSetParams(x, ms, &mp));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(host[0] == 104);
    cudaKernelNodeParams again;
    CHECK(cudaGraphKernelNodeGetParams(k, &again));
    EXPECT(*(int *)again.kernelParams[1] == 10 && *(int *)again.kernelParams[2] == 2);
    // A 2-D memset cannot replace a 1-D one in an executable graph (cudaGraphExecUpdate's
    // rule; the error code of this call is not measured).
    cudaMemsetParams two_d = mp;
    two_d.height = 2;
    two_d.width = N / 2;
    two_d.pitch = N / 2 * 4;
    WARPSIM_ONLY(EXPECT_ERR(cudaGraphExecMemsetNodeSetParams(x, ms, &two_d), cudaErrorInvalidValue));

    // Disabled, the kernel is skipped: the copy sees the memset's 4.
    unsigned enabled = 0;
    CHECK(cudaGraphNodeGetEnabled(x, k, &enabled));
    EXPECT(enabled == 1);
    CHECK(cudaGraphNodeSetEnabled(x, k, 0));
    CHECK(cudaGraphNodeGetEnabled(x, k, &enabled));
    EXPECT(enabled == 0);
    EXPECT_ERR(cudaGraphNodeSetEnabled(x, h, 0), cudaErrorInvalidValue);  // host nodes cannot be
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(host[0] == 4);
    CHECK(cudaGraphNodeSetEnabled(x, k, 1));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(host[0] == 104);

    // Memcpy nodes to and from a __device__ symbol: dev_sum = 0, sum y (all 2·10 + 2 = 22).
    CHECK(cudaGraphExecDestroy(x));
    cudaGraph_t sg;
    CHECK(cudaGraphCreate(&sg, 0));
    static int zero = 0, sum = -1;
    cudaGraphNode_t to, sk, from;
    CHECK(cudaGraphAddMemcpyNodeToSymbol(&to, sg, nullptr, 0, dev_sum, &zero, sizeof zero, 0,
                                         cudaMemcpyHostToDevice));
    int count = N;
    void *args[] = {&y, &count};
    cudaKernelNodeParams sp = {};
    sp.func = (void *)sum_into;
    sp.gridDim = dim3(1);
    sp.blockDim = dim3(N);
    sp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&sk, sg, &to, 1, &sp));
    CHECK(cudaGraphAddMemcpyNodeFromSymbol(&from, sg, &sk, 1, &sum, dev_sum, sizeof sum, 0,
                                           cudaMemcpyDeviceToHost));
    run(g, s);  // y = 22 again
    run(sg, s);
    EXPECT(sum == 22 * N);
    // Past the end of the variable: refused.
    EXPECT_ERR(cudaGraphMemcpyNodeSetParamsFromSymbol(from, &sum, dev_sum, sizeof sum, 4,
                                                     cudaMemcpyDeviceToHost),
               cudaErrorInvalidValue);
    CHECK(cudaGraphDestroy(sg));
    CHECK(cudaGraphDestroy(g));
}

static void update(int *y, cudaStream_t s) {
    // g: memset(1) -> y = 2y + 3. Same shape, other values: memset(2) -> y = 4y + 0.
    cudaGraph_t g, same, bigger, other_type;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t ms = add_memset(g, nullptr, 0, y, 1, N, 1);
    add_kernel(g, &ms, 1, y, 2, 3);
    CHECK(cudaGraphCreate(&same, 0));
    ms = add_memset(same, nullptr, 0, y, 2, N, 1);
    add_kernel(same, &ms, 1, y, 4, 0);
    CHECK(cudaGraphClone(&bigger, same));
    cudaGraphNode_t extra;
    CHECK(cudaGraphAddEmptyNode(&extra, bigger, nullptr, 0));
    CHECK(cudaGraphCreate(&other_type, 0));
    ms = add_memset(other_type, nullptr, 0, y, 2, N, 1);
    cudaGraphNode_t empty;
    CHECK(cudaGraphAddEmptyNode(&empty, other_type, &ms, 1));

    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(all_equal(y, 5));

    cudaGraphExecUpdateResultInfo info;
    CHECK(cudaGraphExecUpdate(x, same, &info));
    EXPECT(info.result == cudaGraphExecUpdateSuccess);
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(all_equal(y, 8));

    EXPECT_ERR(cudaGraphExecUpdate(x, bigger, &info), cudaErrorGraphExecUpdateFailure);
    EXPECT(info.result == cudaGraphExecUpdateErrorTopologyChanged && info.errorNode == nullptr);
    EXPECT_ERR(cudaGraphExecUpdate(x, other_type, &info), cudaErrorGraphExecUpdateFailure);
    EXPECT(info.result == cudaGraphExecUpdateErrorNodeTypeChanged && info.errorNode == empty);
    (void)cudaGetLastError();
    // The refused updates changed nothing.
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(all_equal(y, 8));

    // A 2-D memset may change its address and value only.
    cudaGraph_t m1, m2;
    CHECK(cudaGraphCreate(&m1, 0));
    add_memset(m1, nullptr, 0, y, 1, N / 4, 4);
    CHECK(cudaGraphCreate(&m2, 0));
    cudaGraphNode_t wide = add_memset(m2, nullptr, 0, y, 1, N / 2, 2);
    cudaGraphExec_t mx;
    CHECK(cudaGraphInstantiate(&mx, m1, 0));
    EXPECT_ERR(cudaGraphExecUpdate(mx, m2, &info), cudaErrorGraphExecUpdateFailure);
    EXPECT(info.result == cudaGraphExecUpdateErrorParametersChanged && info.errorNode == wide);
    (void)cudaGetLastError();
    CHECK(cudaGraphExecDestroy(mx));
    for (cudaGraph_t d : {g, same, bigger, other_type, m1, m2}) CHECK(cudaGraphDestroy(d));
    CHECK(cudaGraphExecDestroy(x));
}

static void children(int *y, cudaStream_t s) {
    // child: y = 2y + 1. parent: memset(0) -> child -> child: 3.
    cudaGraph_t child, parent;
    CHECK(cudaGraphCreate(&child, 0));
    add_kernel(child, nullptr, 0, y, 2, 1);
    CHECK(cudaGraphCreate(&parent, 0));
    cudaGraphNode_t ms = add_memset(parent, nullptr, 0, y, 0, N, 1);
    cudaGraphNode_t c1, c2;
    CHECK(cudaGraphAddChildGraphNode(&c1, parent, &ms, 1, child));
    CHECK(cudaGraphAddChildGraphNode(&c2, parent, &c1, 1, child));
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(c1, &t));
    EXPECT(t == cudaGraphNodeTypeGraph);
    // The node holds a copy: changing the original afterwards does not reach it.
    add_kernel(child, nullptr, 0, y, 100, 0);
    cudaGraph_t inside;
    CHECK(cudaGraphChildGraphNodeGetGraph(c1, &inside));
    EXPECT(inside != child);
    size_t n = 0;
    CHECK(cudaGraphGetNodes(inside, nullptr, &n));
    EXPECT(n == 1);
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, parent, 0));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(all_equal(y, 3));
    // Replace the second child in the executable graph by one of the same shape: y = 5y + 5.
    cudaGraph_t other;
    CHECK(cudaGraphCreate(&other, 0));
    add_kernel(other, nullptr, 0, y, 5, 5);
    CHECK(cudaGraphExecChildGraphNodeSetParams(x, c2, other));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(all_equal(y, 10));
    // A child of another shape is refused.
    EXPECT_ERR(cudaGraphExecChildGraphNodeSetParams(x, c2, child), cudaErrorInvalidValue);
    CHECK(cudaGraphExecDestroy(x));
    // A clone of the parent holds its own copies of the children.
    cudaGraph_t pc;
    CHECK(cudaGraphClone(&pc, parent));
    CHECK(cudaGraphDestroy(parent));
    run(pc, s);
    EXPECT(all_equal(y, 3));
    for (cudaGraph_t d : {pc, child, other}) CHECK(cudaGraphDestroy(d));
}

static void events(int *y, cudaStream_t s) {
    cudaEvent_t e1, e2;
    CHECK(cudaEventCreate(&e1));
    CHECK(cudaEventCreate(&e2));
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t rec, wait;
    CHECK(cudaGraphAddEventRecordNode(&rec, g, nullptr, 0, e1));
    CHECK(cudaGraphAddEventWaitNode(&wait, g, &rec, 1, e1));
    add_kernel(g, &wait, 1, y, 1, 1);
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(wait, &t));
    EXPECT(t == cudaGraphNodeTypeWaitEvent);
    cudaEvent_t got;
    CHECK(cudaGraphEventRecordNodeGetEvent(rec, &got));
    EXPECT(got == e1);
    CHECK(cudaGraphEventWaitNodeSetEvent(wait, e2));
    CHECK(cudaGraphEventWaitNodeGetEvent(wait, &got));
    EXPECT(got == e2);
    EXPECT_ERR(cudaGraphEventWaitNodeGetEvent(rec, &got), cudaErrorInvalidValue);
    (void)cudaGetLastError();  // the refusal's last error
    CHECK(cudaMemset(y, 0, N * sizeof(int)));
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphExecEventRecordNodeSetEvent(x, rec, e2));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaEventSynchronize(e2));
    CHECK(cudaEventQuery(e2));
    EXPECT(all_equal(y, 1));
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaEventDestroy(e1));
    CHECK(cudaEventDestroy(e2));
}

static void capture_to_graph(int *y, int *z, cudaStream_t s) {
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t ms = add_memset(g, nullptr, 0, y, 2, N, 1);
    CHECK(cudaStreamBeginCaptureToGraph(s, g, &ms, nullptr, 1, cudaStreamCaptureModeGlobal));
    axpb<<<N / 64, 64, 0, s>>>(y, 3, 1, N);  // after the memset: 7
    CHECK(cudaGetLastError());
    // The next operation waits for the memset only (set, not add), not for the kernel.
    CHECK(cudaStreamUpdateCaptureDependencies(s, &ms, nullptr, 1,
                                              cudaStreamSetCaptureDependencies));
    CHECK(cudaMemsetAsync(z, 0, N * sizeof(int), s));
    cudaGraph_t out;
    CHECK(cudaStreamEndCapture(s, &out));
    EXPECT(out == g);
    size_t n = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &n));
    EXPECT(n == 3);
    n = 0;
    CHECK(cudaGraphNodeGetDependentNodes(ms, nullptr, nullptr, &n));
    EXPECT(n == 2);  // the kernel and the memset of z, which does not wait for the kernel
    CHECK(cudaMemset(z, 1, N * sizeof(int)));
    run(g, s);
    EXPECT(all_equal(y, 7) && all_equal(z, 0));
    CHECK(cudaGraphDestroy(g));
}

static int destroyed = 0;
static void CUDART_CB destroy(void *p) { destroyed += *(int *)p; }

static void user_objects(cudaStream_t s) {
    static int weight = 1;
    cudaUserObject_t obj;
    CHECK(cudaUserObjectCreate(&obj, &weight, destroy, 2, cudaUserObjectNoDestructorSync));
    CHECK(cudaUserObjectRetain(obj, 1));  // the program holds 3
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t e;
    CHECK(cudaGraphAddEmptyNode(&e, g, nullptr, 0));
    CHECK(cudaGraphRetainUserObject(g, obj, 2, cudaGraphUserObjectMove));  // program 1, graph 2
    CHECK(cudaGraphRetainUserObject(g, obj, 1, 0));                         // graph 3
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaUserObjectRelease(obj, 1));
    CHECK(cudaGraphReleaseUserObject(g, obj, 1));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaDeviceSynchronize());
    EXPECT(destroyed == 0);  // the executable graph still holds references
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaDeviceSynchronize());
    // CUDA runs the destructor asynchronously, at the latest by the next synchronisation
    // the driver makes; warpsim at the end of the call that dropped the last reference.
    WARPSIM_ONLY(EXPECT(destroyed == 1));
}

static void dot_print() {
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t a, b;
    CHECK(cudaGraphAddEmptyNode(&a, g, nullptr, 0));
    CHECK(cudaGraphAddEmptyNode(&b, g, &a, 1));
    char path[64];
    snprintf(path, sizeof path, "/tmp/graph_api_%d.dot", (int)getpid());
    CHECK(cudaGraphDebugDotPrint(g, path, 0));
    FILE *f = fopen(path, "r");
    EXPECT(f != nullptr);
    if (f) {
        char text[4096] = {};
        size_t len = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        EXPECT(len > 0 && strstr(text, "digraph") != nullptr && strstr(text, "->") != nullptr);
    }
    unlink(path);
    CHECK(cudaGraphDestroy(g));
}

int main() {
    int *y, *z;
    CHECK(cudaMalloc(&y, N * sizeof(int)));
    CHECK(cudaMalloc(&z, N * sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    structure(y, s);
    parameters(y, s);
    update(y, s);
    children(y, s);
    events(y, s);
    capture_to_graph(y, z, s);
    user_objects(s);
    dot_print();
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(y));
    CHECK(cudaFree(z));
    printf("PASS graph_api\n");
    return 0;
}
