// cccl_cub.cu built for sm_90: the PTX CCCL emits there differs (issue 40, item 3); CUB's
// sm_90 dispatch launches through cudaLaunchKernelExC with programmatic dependent launch.
// PTX only, host code unoptimised, as cccl_cub.cu says why.
// NVCC-FLAGS: -arch=compute_90 -O0
#define CCCL_NAME "cccl_cub_sm90"
#include "cccl_cub.cu"
