//! Barrier and exit stall fractions (BAWS Fig 1): warp-cycles waiting at barriers, and
//! finished warps waiting for their CTA's other warps (the exit point), each over the resident
//! warp cycles, the denominator of `barrier_stall_fraction`
//! ([`resident_warp_cycles`](crate::report::resident_warp_cycles): every warp counts its
//! CTA's residency). `barrier + exit` equals
//! [`TimingStats::barrier_exit_fraction`](crate::TimingStats::barrier_exit_fraction).
//! `drain` (the whole CTA finished, waiting for its stores) is reported apart and is in
//! neither, as in that fraction: no warp waits for another warp then.

use super::ratio;
use crate::report::resident_warp_cycles;
use crate::stats::TimingStats;

#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct WaitFractions {
    /// Barrier stall warp-cycles / resident warp cycles.
    pub barrier: f64,
    /// Exit-wait warp-cycles / resident warp cycles.
    pub exit: f64,
    /// Drain warp-cycles / resident warp cycles.
    pub drain: f64,
    pub resident_warp_cycles: u64,
}

/// The fractions of one launch, from its per-warp records (all 0 without records).
pub fn wait_fractions(s: &TimingStats) -> WaitFractions {
    let resident = resident_warp_cycles(s);
    let sum = |f: fn(&crate::stats::StallCounts) -> u64| {
        s.warps.iter().map(|w| f(&w.stalls)).sum::<u64>()
    };
    WaitFractions {
        barrier: ratio(sum(|c| c.barrier), resident),
        exit: ratio(sum(|c| c.exit_wait), resident),
        drain: ratio(sum(|c| c.drain), resident),
        resident_warp_cycles: resident,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_util::*;
    use crate::stats::StallCounts;

    #[test]
    fn over_resident_warp_cycles() {
        // Two CTAs: CTA 0 resident 100 cycles with 2 warps, CTA 1 resident 50 with 1 warp:
        // 250 resident warp cycles. Barrier 30 + 20 = 50 → 0.2; exit 25 → 0.1; drain 5 → 0.02.
        let mut s = empty();
        s.ctas = vec![cta(0, 0, 0, 100), cta(1, 0, 100, 150)];
        let st = |barrier, exit_wait, drain| StallCounts {
            barrier,
            exit_wait,
            drain,
            ..Default::default()
        };
        s.warps = vec![
            warp(0, 0, 0, 0, st(30, 0, 5)),
            warp(0, 1, 0, 1, st(20, 25, 0)),
            warp(1, 0, 0, 0, st(0, 0, 0)),
        ];
        let f = wait_fractions(&s);
        assert_eq!(f.resident_warp_cycles, 250);
        assert_eq!((f.barrier, f.exit, f.drain), (0.2, 0.1, 0.02));
        assert!((f.barrier + f.exit - s.barrier_exit_fraction()).abs() < 1e-15);
    }

    #[test]
    fn nothing_resident_is_zero() {
        assert_eq!(wait_fractions(&empty()), WaitFractions::default());
    }
}
