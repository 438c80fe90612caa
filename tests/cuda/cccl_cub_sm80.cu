// cccl_cub.cu built for sm_80: the PTX CCCL emits there differs (issue 40, item 3).
// PTX only, host code unoptimised, as cccl_cub.cu says why.
// NVCC-FLAGS: -arch=compute_80 -O0
#define CCCL_NAME "cccl_cub_sm80"
#include "cccl_cub.cu"
