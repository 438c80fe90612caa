// Load-to-use latency, L2-sized: 2048 lines = 256 KB (gtx480's L2 is 768 KB, titanx-pascal's
// 3 MB; L1 at most 48 KB); __ldcg (ld.global.cg) caches in L2 only. setup_warm reads every
// line first; then 512 timed steps (chase.h).
#include "chase.h"

CHASE_KERNEL(chase_l2, __ldcg)

int main() { return run_chase("chase_l2", chase_l2, 11, true, 0, 512); }
