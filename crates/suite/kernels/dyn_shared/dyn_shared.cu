// dyn_shared: kernels whose shared memory is sized at launch (extern __shared__).
//
// blockReverse: each CTA reverses its blockDim.x-element chunk (dynamic smem: blockDim.x ints).
// blockScan: inclusive Hillis-Steele scan of each CTA's chunk with a ping-pong buffer
//   (dynamic smem: 2 * blockDim.x uints); writes the chunk total to totals[blockIdx.x] when
//   totals != nullptr. The host scans the chunks, then the totals (a second blockScan with one
//   CTA), then adds each chunk's offset with addOffsets.
// blockScan prints one line per launch from thread 0 of CTA 0.

__global__ void blockReverse(int *out, const int *in, int n)
{
    extern __shared__ int rev[];
    const int base = blockIdx.x * blockDim.x;
    const int i = base + threadIdx.x;
    const int len = min((int)blockDim.x, n - base);
    if (i < n)
        rev[threadIdx.x] = in[i];
    __syncthreads();
    if (threadIdx.x < len)
        out[base + threadIdx.x] = rev[len - 1 - threadIdx.x];
}

__global__ void blockScan(unsigned int *out, unsigned int *totals, const unsigned int *in, int n)
{
    extern __shared__ unsigned int buf[];
    if (blockIdx.x == 0 && threadIdx.x == 0)
        printf("dyn_shared n=%d\n", n);

    const unsigned int tid = threadIdx.x;
    const int i = blockIdx.x * blockDim.x + tid;
    unsigned int *src = buf;
    unsigned int *dst = buf + blockDim.x;
    src[tid] = i < n ? in[i] : 0u;
    __syncthreads();
    for (unsigned int offset = 1; offset < blockDim.x; offset <<= 1) {
        dst[tid] = tid >= offset ? src[tid] + src[tid - offset] : src[tid];
        __syncthreads();
        unsigned int *tmp = src;
        src = dst;
        dst = tmp;
    }
    if (i < n)
        out[i] = src[tid];
    if (totals != nullptr && tid == blockDim.x - 1)
        totals[blockIdx.x] = src[tid];
}

__global__ void addOffsets(unsigned int *data, const unsigned int *scanned_totals, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x > 0 && i < n)
        data[i] += scanned_totals[blockIdx.x - 1];
}
