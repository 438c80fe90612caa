// Load-to-use latency, DRAM-sized: 65536 lines = 8 MB (10x gtx480's L2, 2.7x titanx-pascal's);
// __ldcg (ld.global.cg), no warm-up: 256 timed steps to lines not read before (chase.h).
// Lines setup_chain's writes left in L2 may hit in a simulator that allocates written lines
// whole (warpsim does; GPGPU-Sim fetches a partly written line from DRAM on its first read).
#include "chase.h"

CHASE_KERNEL(chase_dram, __ldcg)

int main() { return run_chase("chase_dram", chase_dram, 16, false, 0, 256); }
