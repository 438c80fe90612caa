// Device-side malloc/free and new/delete (issue 19, item 4): exhaustion of a small heap set
// with cudaDeviceSetLimit before any kernel uses it (malloc returns NULL) and reuse of freed
// blocks; the heap's size fixed once such a kernel has run; per-thread blocks that outlive
// their kernel (allocated in one launch, read and freed in the next), a linked list built with
// new and torn down with delete; then a write one past a block, which warpsim's memory checker
// reports as an illegal address (WARPSIM_ONLY; last: it poisons the context).
#include "check.h"

struct Node {
    int value;
    Node *next;
};

__global__ void make(int **blocks, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = (int *)malloc((t % 7 + 1) * sizeof(int));
    if (p)
        for (int i = 0; i <= t % 7; i++) p[i] = t * 10 + i;
    blocks[t] = p;
}

__global__ void consume(int **blocks, int *sums) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = blocks[t], s = 0;
    for (int i = 0; i <= t % 7; i++) s += p[i];
    sums[t] = s;
    free(p);
}

// Each thread builds a list of t % 5 + 1 nodes with new, sums it, deletes it.
__global__ void lists(int *sums) {
    int t = threadIdx.x;
    Node *head = nullptr;
    for (int i = 0; i <= t % 5; i++) head = new Node{t + i, head};
    int s = 0;
    while (head) {
        s += head->value;
        Node *next = head->next;
        delete head;
        head = next;
    }
    int *arr = new int[4];
    arr[3] = s;
    sums[t] = arr[3];
    delete[] arr;
}

// Thread t asks for 1 KiB; the count of non-null results measures the heap.
__global__ void grab(int **got, int *ok) {
    int t = threadIdx.x;
    got[t] = (int *)malloc(1024);
    atomicAdd(ok, got[t] != nullptr);
}

__global__ void release(int **got) { free(got[threadIdx.x]); }

__global__ void overrun() {
    int *p = (int *)malloc(8 * sizeof(int));
    p[8] = 1;
}

int main() {
    size_t heap = 0;
    CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    EXPECT(heap == 8u << 20);

    // The heap's size is set before the first kernel that uses malloc/free: 64 KiB.
    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 10));
    CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    EXPECT(heap == 64u << 10);
    // 128 threads ask for 1 KiB each: some get NULL. warpsim's heap keeps a 16-byte header
    // before each block (room for new[]'s cookie), so exactly 63 succeed there; a GPU's
    // allocator keeps some of the heap for itself too.
    const int grabbers = 128;
    int **got, *ok, n_ok, first = -1;
    CHECK(cudaMalloc(&got, grabbers * sizeof(int *)));
    CHECK(cudaMalloc(&ok, sizeof(int)));
    for (int round = 0; round < 2; round++) {
        CHECK(cudaMemset(ok, 0, sizeof(int)));
        grab<<<1, grabbers>>>(got, ok);
        CHECK(cudaMemcpy(&n_ok, ok, sizeof n_ok, cudaMemcpyDeviceToHost));
        EXPECT(n_ok > 0 && n_ok < grabbers);
        WARPSIM_ONLY(EXPECT(n_ok == 63));
        if (round == 0) first = n_ok;
        EXPECT(n_ok == first);  // the freed blocks serve the next round
        if (round == 0) {
            // Blocks are live: the heap cannot be resized now.
            EXPECT_ERR(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20), cudaErrorInvalidValue);
        }
        release<<<1, grabbers>>>(got);  // free(NULL) is a no-op
        CHECK(cudaDeviceSynchronize());
    }
    printf("heap %zu bytes: %d of %d one-KiB mallocs succeed, twice\n", heap, first, grabbers);
    // Every block is free again, but a kernel using the heap has run: its size stays fixed
    // (CUDA: the limit "must be performed before launching any kernel that uses the malloc()
    // or free() device system calls"; an H200, CUDA 13.0 driver, 2026-11-28, refuses it too).
    EXPECT_ERR(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 10), cudaErrorInvalidValue);
    CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    EXPECT(heap == 64u << 10);

    const int threads = 256;
    int **blocks, *sums;
    CHECK(cudaMalloc(&blocks, threads * sizeof(int *)));
    CHECK(cudaMalloc(&sums, threads * sizeof(int)));
    make<<<2, threads / 2>>>(blocks, threads);
    consume<<<4, threads / 4>>>(blocks, sums);
    CHECK(cudaDeviceSynchronize());
    int h[threads];
    CHECK(cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost));
    for (int t = 0; t < threads; t++) {
        int k = t % 7 + 1;
        EXPECT(h[t] == k * t * 10 + k * (k - 1) / 2);
    }

    lists<<<1, 64>>>(sums);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, sums, 64 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++) {
        int k = t % 5 + 1;
        EXPECT(h[t] == k * t + k * (k - 1) / 2);
    }

    // One past a block: warpsim's memory checker; a GPU does not notice.
    WARPSIM_ONLY(overrun<<<1, 1>>>());
    WARPSIM_ONLY(EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress));
    printf("PASS device_malloc\n");
    return 0;
}
