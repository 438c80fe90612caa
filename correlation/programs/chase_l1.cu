// Load-to-use latency, L1-sized: 64 lines = 8 KB; __ldg (ld.global.nc) is cached in L1 on
// both presets and by both simulators. L1s start every kernel cold, so the chase warms them
// itself: 64 untimed steps (every line once), then 512 timed steps (chase.h).
#include "chase.h"

CHASE_KERNEL(chase_l1, __ldg)

int main() { return run_chase("chase_l1", chase_l1, 6, false, 64, 512); }
