//! Warps in flight per interval (MOTRR Fig 2): the mean number of resident, unfinished warps
//! over each interval of `I` cycles, GPU-wide and per SM.
//!
//! A warp is in flight from its CTA's start to one past the cycle of its last instruction
//! (`WarpFinish`), i.e. over its phases' span ([`WarpTimeline`]); a warp with no finish in a
//! log cut short stays in flight to the launch's end. Each interval's value is the exact
//! integral of the warp count over it divided by its length, so it does not depend on which
//! cycles fast-forward skipped. Interval k covers `[k·I, min((k+1)·I, cycles))`: the last one
//! may be shorter and is divided by its own length. Warps that never issued (no events) are
//! not counted.

use super::{PhaseEnd, WarpTimeline};
use crate::TimingStats;

#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct WarpsInFlight {
    pub interval: u64,
    /// Mean warps in flight on the whole GPU, per interval.
    pub gpu: Vec<f64>,
    /// `[sm][interval]`, for SMs 0 ..= the largest SM with a warp.
    pub per_sm: Vec<Vec<f64>>,
}

/// Warps in flight over a launch of `cycles` cycles; empty for `interval == 0` or no cycles.
pub fn warps_in_flight(timelines: &[WarpTimeline], cycles: u64, interval: u64) -> WarpsInFlight {
    if interval == 0 || cycles == 0 {
        return WarpsInFlight {
            interval,
            ..Default::default()
        };
    }
    let n = cycles.div_ceil(interval) as usize;
    let sms = timelines
        .iter()
        .map(|t| t.sm as usize + 1)
        .max()
        .unwrap_or(0);
    // Warp-cycles per interval, summed exactly.
    let mut per_sm = vec![vec![0u64; n]; sms];
    for t in timelines {
        let finished = t
            .phases
            .last()
            .filter(|p| p.ends_at == PhaseEnd::Exit)
            .map(|p| p.end);
        let (from, to) = (
            t.cta_start.min(cycles),
            finished.unwrap_or(cycles).min(cycles),
        );
        let mut c = from;
        while c < to {
            let k = (c / interval) as usize;
            let upto = to.min((k as u64 + 1) * interval);
            per_sm[t.sm as usize][k] += upto - c;
            c = upto;
        }
    }
    let len = |k: usize| (cycles.min((k as u64 + 1) * interval) - k as u64 * interval) as f64;
    let mean = |v: &[u64]| {
        v.iter()
            .enumerate()
            .map(|(k, &w)| w as f64 / len(k))
            .collect::<Vec<f64>>()
    };
    let gpu: Vec<u64> = (0..n).map(|k| per_sm.iter().map(|s| s[k]).sum()).collect();
    WarpsInFlight {
        interval,
        gpu: mean(&gpu),
        per_sm: per_sm.iter().map(|s| mean(s)).collect(),
    }
}

/// A launch's warps-in-flight integral from its warp records alone (no event log needed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InFlightTotals {
    /// Σ over warps of (last issue + 1 − start): the integral of [`warps_in_flight`]'s GPU
    /// series.
    pub warp_cycles: u64,
    /// The launch's cycles × the SMs that ran a warp.
    pub sm_cycles: u64,
    /// Σ over warps of the cycles with an issued, not yet completed instruction (the MOTRR
    /// paper's definition of a warp in flight: from issue until completion).
    pub issued_warp_cycles: u64,
}

impl InFlightTotals {
    /// Of one launch.
    pub fn of(s: &TimingStats) -> InFlightTotals {
        let mut sms: Vec<u32> = s.warps.iter().map(|w| w.sm).collect();
        sms.sort_unstable();
        sms.dedup();
        InFlightTotals {
            warp_cycles: s
                .warps
                .iter()
                .map(|w| (w.done + 1).saturating_sub(w.start))
                .sum(),
            sm_cycles: s.cycles * sms.len() as u64,
            issued_warp_cycles: s.warps.iter().map(|w| w.issued_cycles).sum(),
        }
    }

    pub fn add(&mut self, o: &InFlightTotals) {
        self.warp_cycles += o.warp_cycles;
        self.sm_cycles += o.sm_cycles;
        self.issued_warp_cycles += o.issued_warp_cycles;
    }

    /// Mean warps with an instruction in flight (issued, not completed) per SM (over the SMs
    /// that ran warps) and cycle: MOTRR Fig. 2's measure; `None` without cycles.
    pub fn issued_per_sm(&self) -> Option<f64> {
        (self.sm_cycles > 0).then(|| self.issued_warp_cycles as f64 / self.sm_cycles as f64)
    }

    /// Mean resident, unfinished warps per SM (over the SMs that ran warps) and cycle; `None`
    /// without cycles.
    pub fn per_sm(&self) -> Option<f64> {
        (self.sm_cycles > 0).then(|| self.warp_cycles as f64 / self.sm_cycles as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::WarpPhase;

    fn warp(sm: u32, start: u64, finish_end: Option<u64>) -> WarpTimeline {
        let phases = match finish_end {
            Some(end) => vec![WarpPhase {
                index: 0,
                start,
                end,
                wait_end: end,
                ends_at: PhaseEnd::Exit,
            }],
            // Still waiting at a barrier when the log ends.
            None => vec![WarpPhase {
                index: 0,
                start,
                end: start + 1,
                wait_end: start + 1,
                ends_at: PhaseEnd::Barrier { pc: 0 },
            }],
        };
        WarpTimeline {
            cta: 0,
            warp: 0,
            sm,
            slot: None,
            cta_start: start,
            cta_end: None,
            phases,
        }
    }

    #[test]
    fn exact_integral_per_interval() {
        // 25 cycles, I = 10: intervals [0,10), [10,20), [20,25).
        // SM 0: a warp over [0, 15) and one over [5, 25) (never finished: to the end).
        // SM 1: a warp over [12, 18).
        // SM 0 warp-cycles: [10+5, 5+10, 0+5] = [15, 15, 5] → means [1.5, 1.5, 1.0].
        // SM 1: [0, 6, 0] → [0, 0.6, 0]. GPU: [1.5, 2.1, 1.0].
        let t = vec![
            warp(0, 0, Some(15)),
            warp(0, 5, None),
            warp(1, 12, Some(18)),
        ];
        let w = warps_in_flight(&t, 25, 10);
        assert_eq!(w.per_sm, vec![vec![1.5, 1.5, 1.0], vec![0.0, 0.6, 0.0]]);
        assert_eq!(w.gpu, vec![1.5, 2.1, 1.0]);
    }

    #[test]
    fn degenerate_inputs() {
        assert_eq!(warps_in_flight(&[], 100, 0).gpu, Vec::<f64>::new());
        assert_eq!(warps_in_flight(&[], 0, 10).gpu, Vec::<f64>::new());
        let w = warps_in_flight(&[], 20, 10);
        assert_eq!((w.gpu, w.per_sm.len()), (vec![0.0, 0.0], 0));
    }
}
