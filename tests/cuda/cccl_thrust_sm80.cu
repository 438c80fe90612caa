// cccl_thrust.cu built for sm_80: the PTX CCCL emits there differs (issue 40, item 3).
// PTX only, host code unoptimised, as cccl_thrust.cu says why.
// NVCC-FLAGS: -arch=compute_80 -O0
#define CCCL_NAME "cccl_thrust_sm80"
#include "cccl_thrust.cu"
