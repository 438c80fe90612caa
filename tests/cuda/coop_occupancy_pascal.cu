// coop_occupancy.cu on titanx-pascal: 3 CTAs of 544 threads × 30 registers per SM (64 warp slots
// / 17, also 65536 / 17408 registers), 84 co-resident CTAs, the 85th refused.
// ENV: WARPSIM_CONFIG=titanx-pascal
// ENV: WARPSIM_REGISTERS=normVecByDotProduct=30,bigBlock=44
// EXPECT-STDERR: cudaErrorCooperativeLaunchTooLarge: cooperative launch of `normVecByDotProduct` too large: 85 CTAs, but at most 84 can be resident at once (3 per SM, limited by warp slots, × 28 SMs)
#define PROGRAM "coop_occupancy_pascal"
#include "coop_occupancy.cu"
