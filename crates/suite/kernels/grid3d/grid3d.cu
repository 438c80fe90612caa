// grid3d: 3-D grids of 3-D blocks over an nx x ny x nz volume (x fastest).
//
// volumeAxpby: out = alpha * a + beta * b at every voxel.
// volumeTag: writes, at every voxel, the CTA's linear index times the CTA size plus the
//   thread's linear index in its CTA, so the host can check every component of blockIdx,
//   threadIdx, blockDim and gridDim.

__global__ void volumeAxpby(float *out, const float *a, const float *b, float alpha, float beta,
                            int nx, int ny, int nz)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    const size_t i = ((size_t)z * ny + y) * nx + x;
    out[i] = alpha * a[i] + beta * b[i];
}

__global__ void volumeTag(unsigned int *tag, int nx, int ny, int nz)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    const unsigned int block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    const unsigned int thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    const unsigned int per_block = blockDim.x * blockDim.y * blockDim.z;
    tag[((size_t)z * ny + y) * nx + x] = block * per_block + thread;
}
