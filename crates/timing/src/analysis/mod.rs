//! Derived metrics of timed launches: pure functions over [`TimingStats`](crate::TimingStats)
//! (its counters, per-CTA / per-warp records and, where named, the event log that
//! `TimingOptions::event_log` records). Nothing here touches the simulation; every function
//! accepts empty or partial input (a launch without events gives empty results, never a
//! panic). One file per job; the formulas and the choices the papers leave open are in each
//! file's doc comment and in the crate README ("Analysis").
//!
//! | file | job | papers |
//! |---|---|---|
//! | `phases.rs` | [`warp_phases`]: each warp's phases between barriers and its waits (timelines) | BAWS Fig 3, 4, 6 |
//! | `rtru.rs` | [`rtru`] per (CTA, phase) and [`rtru_summary`] over a launch (eq. 1) | BAWS Fig 5 |
//! | `waits.rs` | [`wait_fractions`]: barrier and exit-wait warp cycles / resident warp cycles | BAWS Fig 1 |
//! | `breakdown.rs` | [`baws_breakdown`]: stall cycles in BAWS's six classes | BAWS Fig 10 |
//! | `issue_ratios.rs` | [`issue_ratios`]: idle / scoreboard / pipeline / issued over all issue slots | PRO Fig 5, KAWS Fig 6 |
//! | `l1d.rs` | [`l1d_load_miss_rate`]: misses of loads that look the L1 D-cache up | MOTRR Fig 5 |
//! | `cta_order.rs` | [`cta_order_table`]: a policy's CTA order on one SM every N cycles (needs `cta_order_log`) | PRO Table IV |
//! | `ctas.rs` | [`cta_spans`] and [`last_cta_time`]: CTA start/end, the last-dispatched CTA's time | PRO Fig 2, KAWS Table 2 |
//! | `in_flight.rs` | [`warps_in_flight`]: mean resident unfinished warps per interval; [`InFlightTotals`]: its whole-launch mean from the warp records | MOTRR Fig 2 |
//! | `totals.rs` | [`Totals`]: sums over launches run back to back (the one implementation) | |

mod breakdown;
mod cta_order;
mod ctas;
mod in_flight;
mod issue_ratios;
mod l1d;
mod phases;
mod rtru;
mod totals;
mod waits;

pub use breakdown::{baws_breakdown, BawsBreakdown};
pub use cta_order::{cta_order_table, cta_order_text, CtaOrderRow};
pub use ctas::{cta_spans, last_cta_time, mean_last_cta_time, CtaSpan};
pub use in_flight::{warps_in_flight, InFlightTotals, WarpsInFlight};
pub use issue_ratios::{issue_ratios, IssueRatios};
pub use l1d::{l1d_load_miss_rate, L1dLoads};
pub use phases::{warp_phases, PhaseEnd, WarpPhase, WarpTimeline};
pub use rtru::{rtru, rtru_summary, PhaseRtru, RtruSummary};
pub use totals::{barrier_exit_fraction, stall_fraction, Totals};
pub use waits::{wait_fractions, WaitFractions};

/// `part / whole`, 0 when `whole` is 0 (every ratio here guards its denominator this way).
pub(crate) fn ratio(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

#[cfg(test)]
pub(crate) mod test_util {
    //! Hand-made statistics for the analysis tests.
    use crate::stats::{CtaRecord, LogEvent, LogKind, StallCounts, TimingStats, WarpRecord};

    /// Empty statistics (no launch).
    pub fn empty() -> TimingStats {
        crate::report::totals(&[])
    }

    pub fn ev(cycle: u64, sm: u32, kind: LogKind) -> LogEvent {
        LogEvent { cycle, sm, kind }
    }

    pub fn cta(linear: u64, sm: u32, start: u64, end: u64) -> CtaRecord {
        CtaRecord {
            linear,
            id: [linear as u32, 0, 0],
            sm,
            start,
            end,
        }
    }

    pub fn warp(cta: u64, warp: u32, sm: u32, slot: u32, stalls: StallCounts) -> WarpRecord {
        WarpRecord {
            cta,
            warp,
            sm,
            slot,
            age: 0,
            instructions: 0,
            thread_instructions: 0,
            dual_issue_cycles: 0,
            start: 0,
            done: 0,
            issued_cycles: 0,
            stalls,
            barrier_fraction: 0.0,
        }
    }
}
