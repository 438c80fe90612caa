//! Warp phases (BAWS §3, Figures 3, 4 and 6): the stretches of a warp's life between
//! barriers, rebuilt from the event log.
//!
//! All intervals are half-open, in cycles. A warp issues its `bar.sync` in cycle `A` (logged
//! as `BarrierArrive`) and waits from `A + 1`; a release logged in cycle `R` lets its warps
//! issue from `R + 1` (README, "Barriers"). So, with `S` the CTA's start and `E` its end:
//!
//! - phase 0 runs over `[S, A₀ + 1)`; phase k > 0 over `[R₍ₖ₋₁₎ + 1, Aₖ + 1)`;
//! - its barrier wait is `[Aₖ + 1, Rₖ + 1)`: exactly the cycles the stall accounting charges
//!   as `barrier` (through the release cycle), and empty for the warp whose arrival releases
//!   the barrier;
//! - the last phase ends at the warp's `WarpFinish` `F` (the implicit exit barrier):
//!   `[start, F + 1)`, and its exit wait is `[F + 1, E)` (`exit_wait` + `drain` cycles).
//!
//! Phases and waits therefore tile the warp's residency `[S, E)` with no gap, which the tests
//! check against the per-warp stall counters of real launches.
//!
//! Limits of the log: a `BarrierRelease` names the CTA and a PC, not the warps, so a release
//! ends the wait of every warp of the CTA waiting at that moment. That is exact for
//! `__syncthreads` (one barrier in flight per CTA); two named barriers in flight at once
//! would be merged. A warp that never issued (no valid lanes) has no events and no timeline.
//! A log cut short leaves waits without their end: such a wait is empty (ends where it
//! starts). Events of a CTA whose `CtaStart` is missing are ignored.

use crate::stats::{LogKind, TimingStats};
use std::collections::BTreeMap;

/// How a phase ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PhaseEnd {
    /// At the barrier instruction at `pc`.
    Barrier { pc: u32 },
    /// At the warp's exit (the CTA's implicit exit barrier).
    Exit,
}

/// One phase of one warp and the wait that followed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct WarpPhase {
    /// 0 for the first phase, counting per warp.
    pub index: u32,
    /// First cycle of the phase (the CTA's start, or the cycle after the previous release).
    pub start: u64,
    /// One past the cycle the warp issued its barrier (or its last) instruction.
    pub end: u64,
    /// End of the wait that follows: one past the release cycle, or the CTA's end for the exit.
    pub wait_end: u64,
    pub ends_at: PhaseEnd,
}

impl WarpPhase {
    /// Cycles from the phase's start to the warp's arrival: BAWS's `Tᵢ`.
    pub fn duration(&self) -> u64 {
        self.end - self.start
    }

    /// Cycles waited after it (at the barrier, or for the CTA to end).
    pub fn wait(&self) -> u64 {
        self.wait_end - self.end
    }
}

/// One warp's phases, in order.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct WarpTimeline {
    /// Linear CTA index.
    pub cta: u64,
    /// Warp index within the CTA.
    pub warp: u32,
    pub sm: u32,
    /// Warp slot on the SM, from the warp's [`WarpRecord`](crate::stats::WarpRecord); `None`
    /// when the launch has no record of it.
    pub slot: Option<u32>,
    pub cta_start: u64,
    /// The CTA's end (`CtaEnd`), when logged.
    pub cta_end: Option<u64>,
    pub phases: Vec<WarpPhase>,
}

/// A warp being rebuilt: where its current phase started, and whether its last phase waits
/// for a release.
struct Open {
    timeline: WarpTimeline,
    phase_start: u64,
    at_barrier: bool,
}

/// Every warp's phases, ordered by (CTA, warp). Empty without an event log.
pub fn warp_phases(s: &TimingStats) -> Vec<WarpTimeline> {
    let slots: BTreeMap<(u64, u32), u32> =
        s.warps.iter().map(|w| ((w.cta, w.warp), w.slot)).collect();
    let mut cta_start: BTreeMap<u64, u64> = BTreeMap::new();
    let mut warps: BTreeMap<(u64, u32), Open> = BTreeMap::new();
    for e in &s.events {
        match e.kind {
            LogKind::CtaStart { cta } => {
                cta_start.insert(cta, e.cycle);
            }
            LogKind::BarrierArrive { cta, warp, pc } => {
                if let Some(o) = open(&mut warps, &cta_start, &slots, cta, warp, e.sm) {
                    push(o, e.cycle, PhaseEnd::Barrier { pc });
                    o.at_barrier = true;
                }
            }
            LogKind::WarpFinish { cta, warp } => {
                if let Some(o) = open(&mut warps, &cta_start, &slots, cta, warp, e.sm) {
                    push(o, e.cycle, PhaseEnd::Exit);
                }
            }
            LogKind::BarrierRelease { cta, .. } => {
                for o in warps.range_mut((cta, 0)..=(cta, u32::MAX)).map(|(_, o)| o) {
                    if o.at_barrier {
                        o.at_barrier = false;
                        o.phase_start = e.cycle + 1;
                        if let Some(p) = o.timeline.phases.last_mut() {
                            p.wait_end = o.phase_start.max(p.end);
                        }
                    }
                }
            }
            LogKind::CtaEnd { cta } => {
                for o in warps.range_mut((cta, 0)..=(cta, u32::MAX)).map(|(_, o)| o) {
                    o.timeline.cta_end = Some(e.cycle);
                    if let Some(p) = o
                        .timeline
                        .phases
                        .last_mut()
                        .filter(|p| p.ends_at == PhaseEnd::Exit)
                    {
                        p.wait_end = e.cycle.max(p.end);
                    }
                }
            }
            LogKind::CtaOrder { .. } | LogKind::CtaRank { .. } => {}
        }
    }
    warps.into_values().map(|o| o.timeline).collect()
}

/// The warp's entry, created at its first event; `None` for a CTA never seen starting.
fn open<'a>(
    warps: &'a mut BTreeMap<(u64, u32), Open>,
    cta_start: &BTreeMap<u64, u64>,
    slots: &BTreeMap<(u64, u32), u32>,
    cta: u64,
    warp: u32,
    sm: u32,
) -> Option<&'a mut Open> {
    let start = *cta_start.get(&cta)?;
    Some(warps.entry((cta, warp)).or_insert_with(|| Open {
        timeline: WarpTimeline {
            cta,
            warp,
            sm,
            slot: slots.get(&(cta, warp)).copied(),
            cta_start: start,
            cta_end: None,
            phases: Vec::new(),
        },
        phase_start: start,
        at_barrier: false,
    }))
}

/// Closes the warp's current phase at its arrival (or finish) in cycle `cycle`.
fn push(o: &mut Open, cycle: u64, ends_at: PhaseEnd) {
    let end = (cycle + 1).max(o.phase_start);
    o.timeline.phases.push(WarpPhase {
        index: o.timeline.phases.len() as u32,
        start: o.phase_start,
        end,
        wait_end: end,
        ends_at,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_util::*;
    use crate::stats::StallCounts;
    use LogKind::*;

    /// CTA 0 on SM 1 from cycle 10 to 60, two warps (slots 4, 5), one barrier at PC 7:
    /// warp 0 arrives in 19, warp 1 in 29 and releases it; both run again from 30; warp 1
    /// finishes in 39, warp 0 in 49; the CTA ends in 60.
    fn two_warps() -> TimingStats {
        let mut s = empty();
        s.events = vec![
            ev(10, 1, CtaStart { cta: 0 }),
            ev(
                19,
                1,
                BarrierArrive {
                    cta: 0,
                    warp: 0,
                    pc: 7,
                },
            ),
            ev(
                29,
                1,
                BarrierArrive {
                    cta: 0,
                    warp: 1,
                    pc: 7,
                },
            ),
            ev(29, 1, BarrierRelease { cta: 0, pc: 7 }),
            ev(39, 1, WarpFinish { cta: 0, warp: 1 }),
            ev(49, 1, WarpFinish { cta: 0, warp: 0 }),
            ev(60, 1, CtaEnd { cta: 0 }),
        ];
        s.warps = vec![
            warp(0, 1, 1, 5, StallCounts::default()),
            warp(0, 0, 1, 4, StallCounts::default()),
        ];
        s
    }

    #[test]
    fn phases_tile_the_residency() {
        let t = warp_phases(&two_warps());
        assert_eq!(t.len(), 2);
        let bar = PhaseEnd::Barrier { pc: 7 };
        // Warp 0: phase 0 = [10, 20) (10 cycles), waits [20, 30) = 10 cycles (through the
        // release cycle 29); phase 1 = [30, 50); exit wait [50, 60).
        assert_eq!(
            (t[0].warp, t[0].slot, t[0].sm, t[0].cta_end),
            (0, Some(4), 1, Some(60))
        );
        assert_eq!(
            t[0].phases,
            vec![
                WarpPhase {
                    index: 0,
                    start: 10,
                    end: 20,
                    wait_end: 30,
                    ends_at: bar
                },
                WarpPhase {
                    index: 1,
                    start: 30,
                    end: 50,
                    wait_end: 60,
                    ends_at: PhaseEnd::Exit
                },
            ]
        );
        // Warp 1 releases the barrier itself: no wait; phase 1 = [30, 40), exit wait 20.
        assert_eq!(
            t[1].phases,
            vec![
                WarpPhase {
                    index: 0,
                    start: 10,
                    end: 30,
                    wait_end: 30,
                    ends_at: bar
                },
                WarpPhase {
                    index: 1,
                    start: 30,
                    end: 40,
                    wait_end: 60,
                    ends_at: PhaseEnd::Exit
                },
            ]
        );
        for w in &t {
            let covered: u64 = w.phases.iter().map(|p| p.duration() + p.wait()).sum();
            assert_eq!(covered, 60 - 10);
        }
    }

    #[test]
    fn no_events_or_unknown_ctas_give_nothing() {
        assert!(warp_phases(&empty()).is_empty());
        let mut s = empty();
        // No CtaStart for CTA 3: ignored, not a panic.
        s.events = vec![
            ev(5, 0, WarpFinish { cta: 3, warp: 0 }),
            ev(6, 0, BarrierRelease { cta: 3, pc: 0 }),
        ];
        assert!(warp_phases(&s).is_empty());
    }

    #[test]
    fn a_log_cut_short_leaves_empty_waits() {
        let mut s = two_warps();
        s.events.truncate(2); // start, warp 0 arrives in 19; never released
        let t = warp_phases(&s);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].cta_end, None);
        assert_eq!(t[0].phases[0].wait(), 0);
        assert_eq!(t[0].phases[0].duration(), 10);
    }

    #[test]
    fn an_exit_can_release_a_barrier() {
        // Warp 1 exits in 14 without reaching the barrier warp 0 waits at since 11; the exit
        // releases it in the same cycle.
        let mut s = empty();
        s.events = vec![
            ev(0, 0, CtaStart { cta: 2 }),
            ev(
                11,
                0,
                BarrierArrive {
                    cta: 2,
                    warp: 0,
                    pc: 3,
                },
            ),
            ev(14, 0, WarpFinish { cta: 2, warp: 1 }),
            ev(14, 0, BarrierRelease { cta: 2, pc: 3 }),
            ev(20, 0, WarpFinish { cta: 2, warp: 0 }),
            ev(25, 0, CtaEnd { cta: 2 }),
        ];
        let t = warp_phases(&s);
        assert_eq!(t[0].phases.len(), 2);
        assert_eq!((t[0].phases[0].end, t[0].phases[0].wait_end), (12, 15));
        assert_eq!(
            (
                t[0].phases[1].start,
                t[0].phases[1].end,
                t[0].phases[1].wait_end
            ),
            (15, 21, 25)
        );
        // Warp 1's only phase is its exit phase: [0, 15), exit wait [15, 25); no slot known.
        assert_eq!(t[1].slot, None);
        assert_eq!(
            t[1].phases,
            vec![WarpPhase {
                index: 0,
                start: 0,
                end: 15,
                wait_end: 25,
                ends_at: PhaseEnd::Exit
            }]
        );
    }
}
