// PTX: nvcc -arch=compute_75 -ptx -O3 saxpy.cu -o saxpy.ptx (CUDA 13.5)
__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
