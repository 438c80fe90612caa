// alu_chain: latency of dependent ALU chains, timed with clock64 by one warp.
//
// Each region is CHAIN instructions of one class, every one reading the previous result
// (inline PTX, so the compiler can neither fold nor reorder them). In-order issue makes each
// region take about CHAIN x the class's result latency. out[0..3] = cycles of the int add,
// fp32 fma and SFU (sqrt.approx) regions; out[4] keeps the results live; out[5] = cycles of a
// logic (xor) region, a class outside the latency tables' arithmetic ones.

#define CHAIN 256

extern "C" __global__ void alu_chain(long long *out, int seed)
{
    int x = seed + threadIdx.x;
    long long t0 = clock64();
#pragma unroll
    for (int i = 0; i < CHAIN; i++)
        asm volatile("add.s32 %0, %0, 1;" : "+r"(x));
    long long t1 = clock64();
    float f = (float)x;
#pragma unroll
    for (int i = 0; i < CHAIN; i++)
        asm volatile("fma.rn.f32 %0, %0, 0f3F7FFFFF, 0f3F800000;" : "+f"(f));
    long long t2 = clock64();
    float g = f;
#pragma unroll
    for (int i = 0; i < CHAIN; i++)
        asm volatile("sqrt.approx.f32 %0, %0;" : "+f"(g));
    long long t3 = clock64();
    int y = x;
#pragma unroll
    for (int i = 0; i < CHAIN; i++)
        asm volatile("xor.b32 %0, %0, 0x5bd1e995;" : "+r"(y));
    long long t4 = clock64();
    if (threadIdx.x == 0) {
        out[0] = t1 - t0;
        out[1] = t2 - t1;
        out[2] = t3 - t2;
        out[3] = CHAIN;
        out[4] = x + (long long)f + (long long)g + y;
        out[5] = t4 - t3;
    }
}
