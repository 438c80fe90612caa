// Unified and mapped memory (issue 19, item 6), written as a CUDA tutorial would: managed
// arrays filled on the host, a kernel, cudaDeviceSynchronize, results read on the host through
// the same pointers; a __managed__ counter and array that host and device both update; mapped
// pinned memory (cudaHostAlloc + cudaHostGetDevicePointer) that a kernel writes zero-copy;
// the hints (prefetch, advise, attach) accepted; and an out-of-bounds managed access still
// caught by warpsim's memory checker (WARPSIM_ONLY: a GPU does not notice; last: it poisons
// the context).
#include "check.h"

__managed__ int counter = 7;
__managed__ float scale[4] = {1.0f, 2.0f, 3.0f, 4.0f};

__global__ void add(int n, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i < n; i += blockDim.x * gridDim.x) y[i] = x[i] + y[i];
}

__global__ void bump(int *hits) {
    atomicAdd(&counter, 1);
    if (blockIdx.x == 0 && threadIdx.x < 4) scale[threadIdx.x] *= 10.0f;
    hits[blockIdx.x * blockDim.x + threadIdx.x] += 1;
}

__global__ void squares(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i * i;
}

__global__ void past_the_end(int *p, int n) { p[n + threadIdx.x] = 1; }

int main() {
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    EXPECT(prop.managedMemory == 1 && prop.canMapHostMemory == 1);
    int attr = 0;
    CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrManagedMemory, 0));
    EXPECT(attr == 1);

    // The tutorial: x and y in managed memory, touched by host and device alike.
    const int n = 1 << 12;
    float *x, *y;
    CHECK(cudaMallocManaged(&x, n * sizeof(float)));
    CHECK(cudaMallocManaged(&y, n * sizeof(float)));
    for (int i = 0; i < n; i++) {
        x[i] = 1.0f + i % 5;
        y[i] = 2.0f * (i % 3);
    }
    cudaMemLocation dev = {cudaMemLocationTypeDevice, 0};
    CHECK(cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetReadMostly, dev));
    CHECK(cudaMemPrefetchAsync(y, n * sizeof(float), dev, 0, 0));
    add<<<8, 128>>>(n, x, y);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++) EXPECT(y[i] == 1.0f + i % 5 + 2.0f * (i % 3));
    cudaPointerAttributes pa;
    CHECK(cudaPointerGetAttributes(&pa, y + 10));
    EXPECT(pa.type == cudaMemoryTypeManaged && pa.devicePointer == y + 10 && pa.hostPointer == y + 10);
    // Managed memory is device memory to the copy and memset calls too.
    float back[4];
    CHECK(cudaMemcpy(back, y + 4, sizeof back, cudaMemcpyDeviceToHost));
    EXPECT(back[0] == y[4] && back[3] == y[7]);
    CHECK(cudaMemset(x, 0, 16));
    EXPECT(x[0] == 0.0f && x[3] == 0.0f && x[4] == 1.0f + 4 % 5);

    // __managed__ variables: host and device see the same bytes.
    int *hits;
    CHECK(cudaMallocManaged(&hits, 32 * sizeof(int), cudaMemAttachHost));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaStreamAttachMemAsync(s, hits, 0, cudaMemAttachSingle));
    EXPECT(counter == 7 && scale[2] == 3.0f);
    counter = 100;
    hits[5] = 41;
    bump<<<2, 16, 0, s>>>(hits);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s));
    EXPECT(counter == 132);
    EXPECT(scale[0] == 10.0f && scale[3] == 40.0f);
    EXPECT(hits[5] == 42 && hits[6] == 1 && hits[21] == 1);
    CHECK(cudaStreamDestroy(s));

    // Mapped pinned memory: the kernel writes host memory directly.
    int *host, *dptr;
    const int m = 300;
    CHECK(cudaHostAlloc(&host, m * sizeof(int), cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer(&dptr, host, 0));
    squares<<<(m + 127) / 128, 128>>>(dptr, m);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < m; i++) EXPECT(host[i] == i * i);
    unsigned flags = 0;
    CHECK(cudaHostGetFlags(&flags, host));
    EXPECT(flags == cudaHostAllocMapped);
    int local_array[4];
    EXPECT_ERR(cudaHostGetDevicePointer(&dptr, local_array, 0), cudaErrorInvalidValue);
    CHECK(cudaFreeHost(host));
    EXPECT_ERR(cudaMemPrefetchAsync(local_array, sizeof local_array, dev, 0, 0), cudaErrorInvalidValue);

    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    printf("saxpy-style add on %d managed floats, counter %d\n", n, counter);

    // One past the end of a managed block is still an illegal address.
    WARPSIM_ONLY(past_the_end<<<1, 32>>>(hits, 32));
    WARPSIM_ONLY(EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress));
    printf("PASS managed\n");
    return 0;
}
