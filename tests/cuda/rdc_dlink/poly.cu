// A device function another unit calls (see main.cu).
__device__ __noinline__ float poly(float x) { return (2.0f * x - 1.0f) * x + 3.0f; }
