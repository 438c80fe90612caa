// Census program (issue 40, item 3): libcu++'s cuda::std::atomic_ref, cuda::barrier,
// cuda::pipeline and cuda::memcpy_async, checked against the CPU.
// PTX only, host code unoptimised: warpsim reads the PTX, not the SASS ptxas would add, and
// neither changes it while both take a third of this program's build (scripts/test-cudart.sh).
// NVCC-FLAGS: -arch=compute_75 -O0
#include "check.h"
#ifndef CCCL_NAME
#define CCCL_NAME "cccl_libcuxx"
#endif
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/std/atomic>
#include <cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;
constexpr int BLOCK = 128;

// Every thread adds its value to a global counter and bumps a maximum through atomic_ref.
__global__ void atomics(const int *in, int *sum, int *maxv) {
    int x = in[blockIdx.x * BLOCK + threadIdx.x];
    cuda::atomic_ref<int, cuda::thread_scope_device> s(*sum), m(*maxv);
    s.fetch_add(x, cuda::std::memory_order_relaxed);
    int cur = m.load(cuda::std::memory_order_acquire);
    while (x > cur && !m.compare_exchange_weak(cur, x, cuda::std::memory_order_acq_rel)) {
    }
}

// Block-wide copy into shared memory with memcpy_async and a cuda::barrier, then each thread
// writes its neighbour's value doubled.
__global__ void barrier_copy(const int *in, int *out) {
    __shared__ int buf[BLOCK];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, buf, in + blockIdx.x * BLOCK, sizeof(buf), bar);
    bar.arrive_and_wait();
    out[blockIdx.x * BLOCK + threadIdx.x] = 2 * buf[(threadIdx.x + 1) % BLOCK];
}

// Two-stage pipeline over chunks of the input: the block sums its chunks.
__global__ void pipelined(const int *in, int chunks, int *out) {
    __shared__ int buf[2][BLOCK];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    int acc = 0;
    for (int c = 0, fetch = 0; c < chunks; c++) {
        for (; fetch < chunks && fetch < c + 2; fetch++) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[fetch % 2], in + fetch * BLOCK, sizeof(int) * BLOCK, pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        acc += buf[c % 2][threadIdx.x];
        pipe.consumer_release();
    }
    out[threadIdx.x] = acc;
}

int main() {
    const int blocks = 8, n = blocks * BLOCK;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++) h[i] = (i * 7919) % 1001 - 500;
    int *in, *out, *sm;
    CHECK(cudaMalloc(&in, n * 4));
    CHECK(cudaMalloc(&out, n * 4));
    CHECK(cudaMalloc(&sm, 8));
    CHECK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
    int init[2] = {0, -1000};
    CHECK(cudaMemcpy(sm, init, 8, cudaMemcpyHostToDevice));
    atomics<<<blocks, BLOCK>>>(in, sm, sm + 1);
    CHECK(cudaGetLastError());
    int got[2];
    CHECK(cudaMemcpy(got, sm, 8, cudaMemcpyDeviceToHost));
    int sum = 0, mx = -1000;
    for (int x : h) sum += x, mx = x > mx ? x : mx;
    EXPECT(got[0] == sum && got[1] == mx);

    barrier_copy<<<blocks, BLOCK>>>(in, out);
    CHECK(cudaGetLastError());
    std::vector<int> g(n);
    CHECK(cudaMemcpy(g.data(), out, n * 4, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < BLOCK; t++) EXPECT(g[b * BLOCK + t] == 2 * h[b * BLOCK + (t + 1) % BLOCK]);

    pipelined<<<1, BLOCK>>>(in, blocks, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(g.data(), out, BLOCK * 4, cudaMemcpyDeviceToHost));
    for (int t = 0; t < BLOCK; t++) {
        int a = 0;
        for (int c = 0; c < blocks; c++) a += h[c * BLOCK + t];
        EXPECT(g[t] == a);
    }
    printf("PASS %s\n", CCCL_NAME);
    return 0;
}
