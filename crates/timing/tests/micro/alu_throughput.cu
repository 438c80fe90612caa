// alu_throughput: issue-bound independent integer adds from many warps.
//
// Every thread advances four independent add chains ITER times (unrolled, inline PTX), so
// with several warps per scheduler no instruction waits on the scoreboard and the SM's
// instruction rate is bounded by its schedulers' issue width. out[i] keeps results live.

#define ITER 512

extern "C" __global__ void alu_throughput(int *out, int seed)
{
    int a = seed + threadIdx.x, b = a ^ 1, c = a ^ 2, d = a ^ 3;
#pragma unroll
    for (int i = 0; i < ITER; i++)
        asm volatile("add.s32 %0, %0, 1;\n\tadd.s32 %1, %1, 3;\n\tadd.s32 %2, %2, 5;\n\tadd.s32 %3, %3, 7;"
                     : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
    out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d;
}
