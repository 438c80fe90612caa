// PTX: nvcc -arch=compute_75 -ptx -O3 hello.cu -o hello.ptx (CUDA 13.5)
#include <cstdio>

// Each thread prints its coordinates and a scalar argument.
__global__ void hello(int tag)
{
    printf("tag %d: block %d thread %d\n", tag, blockIdx.x, threadIdx.x);
}
