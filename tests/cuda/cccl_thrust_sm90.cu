// cccl_thrust.cu built for sm_90: the PTX CCCL emits there differs (issue 40, item 3). CUB's
// sm_90 single-tile radix sort kernel takes 256 threads × 135 registers, more than a gtx480 SM
// holds (32768), so this runs on the titanx-pascal preset (65536).
// PTX only, host code unoptimised, as cccl_thrust.cu says why.
// NVCC-FLAGS: -arch=compute_90 -O0
// ENV: WARPSIM_CONFIG=titanx-pascal
#define CCCL_NAME "cccl_thrust_sm90"
#include "cccl_thrust.cu"
