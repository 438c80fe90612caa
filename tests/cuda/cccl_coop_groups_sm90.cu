// cccl_coop_groups.cu built for sm_90: the PTX CCCL emits there differs (issue 40, item 3).
// NVCC-FLAGS: -arch=sm_90
#define CCCL_NAME "cccl_coop_groups_sm90"
#include "cccl_coop_groups.cu"
