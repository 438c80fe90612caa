// PTX: nvcc -arch=compute_75 -ptx -O3 faults.cu -o faults.ptx (CUDA 13.5)
// Kernels that fail on purpose, for warpsim's CLI tests.

// Thread t writes p[t * 1024]: every thread but 0 lands far outside a 32-element buffer.
__global__ void oob_store(int *p)
{
    p[threadIdx.x * 1024] = 1;
}

// Only the first warp of a 64-thread block reaches the barrier. warpsim, like the hardware,
// does not expect exited threads at a barrier, so this completes once the second warp exits.
__global__ void half_barrier(int *p)
{
    if (threadIdx.x < 32) __syncthreads();
    p[threadIdx.x] = 1;
}

// The two warps of a 64-thread block wait at different named barriers, each expecting all 64
// threads: a true deadlock.
__global__ void split_barrier(int *p)
{
    if (threadIdx.x < 32)
        asm volatile("bar.sync 1;" ::: "memory");
    else
        asm volatile("bar.sync 2;" ::: "memory");
    p[threadIdx.x] = 1;
}

// Never terminates.
__global__ void spin(volatile int *p)
{
    while (1) p[0] += 1;
}
