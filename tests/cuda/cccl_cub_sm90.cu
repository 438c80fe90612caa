// cccl_cub.cu built for sm_90: the PTX CCCL emits there differs (issue 40, item 3); CUB's
// sm_90 dispatch launches through cudaLaunchKernelExC with programmatic dependent launch.
// NVCC-FLAGS: -arch=sm_90
#define CCCL_NAME "cccl_cub_sm90"
#include "cccl_cub.cu"
