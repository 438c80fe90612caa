// ld.global.cg at an L1-sized footprint: chase_l1's 64 lines = 8 KB and in-kernel warm-up
// (64 untimed steps, 512 timed), but with __ldcg, which caches in L2 only: every step should
// cost an L2 round trip, as in chase_l2, not an L1 hit as in chase_l1 (chase.h).
#include "chase.h"

CHASE_KERNEL(chase_cg, __ldcg)

int main() { return run_chase("chase_cg", chase_cg, 6, false, 64, 512); }
