// cccl_libcuxx.cu built for sm_90: the PTX CCCL emits there differs (issue 40, item 3).
// PTX only, host code unoptimised, as cccl_libcuxx.cu says why.
// NVCC-FLAGS: -arch=compute_90 -O0
#define CCCL_NAME "cccl_libcuxx_sm90"
#include "cccl_libcuxx.cu"
