// Libraries loaded at run time. (1) PTX text from memory: its one kernel is found by name,
// enumerated, launched through cudaLaunchKernel and from a graph kernel node; its __device__
// variable is found with cudaLibraryGetGlobal; parameter count and layout, attributes.
// (2) The same PTX from a file. (3) A fatbinary file (the unit tests' fixture: two kernels,
// sm_75 cubin + compressed PTX) with cudaLibraryLoadFromFile, and the same bytes from memory.
// (4) Errors: an unknown kernel name, a cubin alone and bytes that are no code.
// The program runs from the repository root (scripts/test-cudart.sh, scripts/native-check.sh).
// EXPECT-STDERR: cudaLibraryGetKernel: no kernel `no_such_kernel` in the library (it has: add_const)
#include "check.h"
#include <cstring>
#include <unistd.h>
#include <vector>

static const char *ptx = R"(
.version 7.5
.target sm_75
.address_size 64

.visible .global .align 4 .u32 counter;

.visible .entry add_const(
    .param .u64 add_const_param_0,
    .param .u32 add_const_param_1,
    .param .u32 add_const_param_2
)
{
    .reg .pred %p<2>;
    .reg .b32 %r<9>;
    .reg .b64 %rd<6>;

    ld.param.u64 %rd1, [add_const_param_0];
    ld.param.u32 %r1, [add_const_param_1];
    ld.param.u32 %r2, [add_const_param_2];
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r5, %tid.x;
    mad.lo.s32 %r6, %r3, %r4, %r5;
    setp.ge.s32 %p1, %r6, %r2;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.s32 %rd3, %r6, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.u32 %r7, [%rd4];
    add.s32 %r7, %r7, %r1;
    st.global.u32 [%rd4], %r7;
    mov.u64 %rd5, counter;
    atom.global.add.u32 %r8, [%rd5], 1;
DONE:
    ret;
}
)";

static const int N = 300;
static const char *fatbin_path = "crates/cudart/tests/data/two_kernels.nv_fatbin";

static void launch_add(cudaKernel_t k, int *y, int c) {
    int n = N;
    void *args[] = {&y, &c, &n};
    CHECK(cudaLaunchKernel((const void *)k, dim3((N + 127) / 128), dim3(128), args, 0, 0));
}

static void check_all(const int *d, int want) {
    static int h[N];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) EXPECT(h[i] == want);
}

static void from_ptx(int *y) {
    cudaLibrary_t lib;
    CHECK(cudaLibraryLoadData(&lib, ptx, nullptr, nullptr, 0, nullptr, nullptr, 0));
    unsigned count = 0;
    CHECK(cudaLibraryGetKernelCount(&count, lib));
    EXPECT(count == 1);
    cudaKernel_t k, listed = nullptr;
    CHECK(cudaLibraryGetKernel(&k, lib, "add_const"));
    CHECK(cudaLibraryEnumerateKernels(&listed, 1, lib));
    EXPECT(listed == k);
    EXPECT_ERR(cudaLibraryGetKernel(&k, lib, "no_such_kernel"), cudaErrorSymbolNotFound);
    (void)cudaGetLastError();
    CHECK(cudaLibraryGetKernel(&k, lib, "add_const"));

    size_t params = 0, offset = 0, size = 0;
    CHECK(cudaFuncGetParamCount((const void *)k, &params));
    EXPECT(params == 3);
    CHECK(cudaFuncGetParamInfo((const void *)k, 1, &offset, &size));
    EXPECT(offset == 8 && size == 4);
    CHECK(cudaFuncGetParamInfo((const void *)k, 2, &offset, &size));
    EXPECT(offset == 12 && size == 4);
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, (const void *)k));
    EXPECT(attr.maxThreadsPerBlock >= 128);
    CHECK(cudaKernelSetAttributeForDevice(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, 0));

    unsigned *counter = nullptr;
    size_t bytes = 0;
    CHECK(cudaLibraryGetGlobal((void **)&counter, &bytes, lib, "counter"));
    EXPECT(counter != nullptr && bytes == 4);
    CHECK(cudaMemset(counter, 0, 4));

    CHECK(cudaMemset(y, 0, N * sizeof(int)));
    launch_add(k, y, 5);
    CHECK(cudaDeviceSynchronize());
    check_all(y, 5);

    // The same kernel as a graph node.
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    int c = 7, n = N;
    void *args[] = {&y, &c, &n};
    cudaKernelNodeParams p = {};
    p.func = (void *)k;
    p.gridDim = dim3((N + 127) / 128);
    p.blockDim = dim3(128);
    p.kernelParams = args;
    cudaGraphNode_t node;
    CHECK(cudaGraphAddKernelNode(&node, g, nullptr, 0, &p));
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaDeviceSynchronize());
    check_all(y, 12);
    unsigned hits = 0;
    CHECK(cudaMemcpy(&hits, counter, 4, cudaMemcpyDeviceToHost));
    EXPECT(hits == 2 * N);
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaLibraryUnload(lib));
    // Unloaded, the library is gone (launching its kernel now is undefined in CUDA).
    EXPECT_ERR(cudaLibraryGetKernelCount(&count, lib), cudaErrorInvalidResourceHandle);
    (void)cudaGetLastError();
}

static void ptx_from_file(int *y) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/library_%d.ptx", (int)getpid());
    FILE *f = fopen(path, "w");
    EXPECT(f != nullptr);
    if (!f) return;
    fputs(ptx, f);  // no terminating NUL in the file
    fclose(f);
    cudaLibrary_t lib;
    CHECK(cudaLibraryLoadFromFile(&lib, path, nullptr, nullptr, 0, nullptr, nullptr, 0));
    unlink(path);
    cudaKernel_t k;
    CHECK(cudaLibraryGetKernel(&k, lib, "add_const"));
    CHECK(cudaMemset(y, 0, N * sizeof(int)));
    launch_add(k, y, 3);
    CHECK(cudaDeviceSynchronize());
    check_all(y, 3);
    CHECK(cudaLibraryUnload(lib));
}

// `scale(float *x, int n, float a)` from the fixture: x[i] *= a.
static void run_scale(cudaLibrary_t lib) {
    unsigned count = 0;
    CHECK(cudaLibraryGetKernelCount(&count, lib));
    EXPECT(count == 2);
    cudaKernel_t all[2] = {}, scale;
    CHECK(cudaLibraryEnumerateKernels(all, 2, lib));
    CHECK(cudaLibraryGetKernel(&scale, lib, "_Z5scalePfif"));
    EXPECT(all[0] == scale || all[1] == scale);
    static float h[N];
    for (int i = 0; i < N; i++) h[i] = (float)i;
    float *x;
    CHECK(cudaMalloc(&x, sizeof h));
    CHECK(cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice));
    int n = N;
    float a = 0.5f;
    void *args[] = {&x, &n, &a};
    CHECK(cudaLaunchKernel((const void *)scale, dim3((N + 127) / 128), dim3(128), args, 0, 0));
    CHECK(cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) EXPECT(h[i] == 0.5f * (float)i);
    CHECK(cudaFree(x));
}

static void fatbinary() {
    cudaLibrary_t lib;
    CHECK(cudaLibraryLoadFromFile(&lib, fatbin_path, nullptr, nullptr, 0, nullptr, nullptr, 0));
    run_scale(lib);
    CHECK(cudaLibraryUnload(lib));

    // The same bytes from memory.
    FILE *f = fopen(fatbin_path, "rb");
    EXPECT(f != nullptr);
    if (!f) return;
    std::vector<unsigned char> bytes(1 << 16);
    size_t len = fread(bytes.data(), 1, bytes.size(), f);
    fclose(f);
    EXPECT(len > 64 && len < bytes.size());
    CHECK(cudaLibraryLoadData(&lib, bytes.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    run_scale(lib);
    CHECK(cudaLibraryUnload(lib));
}

static void errors() {
    cudaLibrary_t lib;
    // A cubin alone: a GPU would run it, warpsim cannot (no PTX).
    static const unsigned char elf[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    WARPSIM_ONLY(EXPECT_ERR(cudaLibraryLoadData(&lib, elf, nullptr, nullptr, 0, nullptr, nullptr, 0),
                            cudaErrorNoKernelImageForDevice));
    static const char junk[] = "this is not PTX";
    EXPECT(cudaLibraryLoadData(&lib, junk, nullptr, nullptr, 0, nullptr, nullptr, 0) != cudaSuccess);
    EXPECT(cudaLibraryLoadFromFile(&lib, "/nonexistent/library.ptx", nullptr, nullptr, 0, nullptr,
                                   nullptr, 0) != cudaSuccess);
    EXPECT_ERR(cudaLibraryLoadData(nullptr, ptx, nullptr, nullptr, 0, nullptr, nullptr, 0),
               cudaErrorInvalidValue);
    (void)cudaGetLastError();
}

int main() {
    int *y;
    CHECK(cudaMalloc(&y, N * sizeof(int)));
    from_ptx(y);
    ptx_from_file(y);
    fatbinary();
    errors();
    CHECK(cudaFree(y));
    printf("PASS library\n");
    return 0;
}
