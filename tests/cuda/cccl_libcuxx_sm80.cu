// cccl_libcuxx.cu built for sm_80: the PTX CCCL emits there differs (issue 40, item 3).
// NVCC-FLAGS: -arch=sm_80
#define CCCL_NAME "cccl_libcuxx_sm80"
#include "cccl_libcuxx.cu"
