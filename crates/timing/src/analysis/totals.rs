//! Sums over launches run back to back: the one implementation behind
//! [`report::totals`](crate::report::totals) (the `total` CSV row) and the CLI's totals (the
//! text summary, `--stats` JSON `total`, `warpsim intensity`).
//!
//! Counts and cycles add; ratios are recomputed from the sums, never averaged: IPC = Σ warp
//! instructions / Σ cycles, the barrier fractions = Σ stall cycles / Σ resident warp cycles,
//! where each launch's resident warp cycles are computed on that launch alone (CTA indices
//! restart in every launch, so they cannot be computed on concatenated records).

use crate::mem::MemStats;
use crate::report::resident_warp_cycles;
use crate::stats::{ICacheStats, IssueSlots, SharedIssues, StallCounts, TimingStats};

#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Totals {
    pub launches: u64,
    pub cycles: u64,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    /// The largest of the launches' CTA slots per SM.
    pub ctas_per_sm: u32,
    pub issue: IssueSlots,
    pub stalls: StallCounts,
    pub memory: MemStats,
    pub issued_lanes: Vec<u64>,
    /// Serialised inline, as `icache_hits`, `icache_misses`, `icache_reservation_fails`.
    #[serde(flatten)]
    pub icache: ICacheStats,
    pub shared_issues: SharedIssues,
    pub dual_issues: u64,
    pub bank_conflict_cycles: u64,
    /// Σ over launches of [`resident_warp_cycles`].
    pub resident_warp_cycles: u64,
}

impl Totals {
    pub fn of<'a>(stats: impl IntoIterator<Item = &'a TimingStats>) -> Totals {
        let mut t = Totals::default();
        for s in stats {
            t.add(s);
        }
        t
    }

    /// Adds one launch.
    pub fn add(&mut self, s: &TimingStats) {
        self.launches += 1;
        self.cycles += s.cycles;
        self.warp_instructions += s.warp_instructions;
        self.thread_instructions += s.thread_instructions;
        self.ctas_per_sm = self.ctas_per_sm.max(s.ctas_per_sm);
        self.issue.add(&s.issue);
        self.stalls.add(&s.stalls);
        self.memory.add(&s.memory);
        if self.issued_lanes.len() < s.issued_lanes.len() {
            self.issued_lanes.resize(s.issued_lanes.len(), 0);
        }
        for (a, b) in self.issued_lanes.iter_mut().zip(&s.issued_lanes) {
            *a += b;
        }
        self.icache.add(&s.icache);
        self.shared_issues.add(&s.shared_issues);
        self.dual_issues += s.dual_issues;
        self.bank_conflict_cycles += s.bank_conflict_cycles;
        self.resident_warp_cycles += resident_warp_cycles(s);
    }

    /// Warp instructions per cycle (over at least one cycle).
    pub fn ipc(&self) -> f64 {
        self.warp_instructions as f64 / self.cycles.max(1) as f64
    }

    /// Barrier stall cycles / resident warp cycles (over at least one).
    pub fn barrier_stall_fraction(&self) -> f64 {
        stall_fraction(self.stalls.barrier, self.resident_warp_cycles)
    }

    /// BAWS's barrier intensity: [`barrier_exit_fraction`] of the sums.
    pub fn barrier_exit_fraction(&self) -> Option<f64> {
        barrier_exit_fraction(&self.stalls, self.resident_warp_cycles)
    }
}

/// Stall warp cycles (barrier, exit wait) / resident warp cycles, over at least one: the
/// one definition of the experiment records' `fraction.*` and of `barrier_stall_fraction`
/// over launches.
pub fn stall_fraction(stall_cycles: u64, resident_warp_cycles: u64) -> f64 {
    stall_cycles as f64 / resident_warp_cycles.max(1) as f64
}

/// (barrier + exit-wait warp cycles) / resident warp cycles, `None` with nothing resident.
/// Drain cycles are in the denominator only (the CTA's warps all finished; none waits for
/// another).
pub fn barrier_exit_fraction(stalls: &StallCounts, resident_warp_cycles: u64) -> Option<f64> {
    (resident_warp_cycles > 0)
        .then(|| (stalls.barrier + stalls.exit_wait) as f64 / resident_warp_cycles as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_util::*;

    #[test]
    fn sums_add_and_ratios_are_recomputed() {
        // Launch a: 100 cycles, 50 instructions, one CTA of 2 warps resident 100 cycles, 40
        // barrier cycles. Launch b: 300 cycles, 250 instructions, one CTA (also linear 0) of
        // 1 warp resident 200, 10 barrier + 30 exit-wait cycles.
        let mut a = empty();
        (a.cycles, a.warp_instructions, a.ctas_per_sm) = (100, 50, 3);
        a.ctas = vec![cta(0, 0, 0, 100)];
        a.warps = vec![
            warp(0, 0, 0, 0, Default::default()),
            warp(0, 1, 0, 1, Default::default()),
        ];
        a.stalls.barrier = 40;
        a.issued_lanes = vec![1, 2];
        let mut b = empty();
        (b.cycles, b.warp_instructions, b.ctas_per_sm) = (300, 250, 2);
        b.ctas = vec![cta(0, 0, 50, 250)];
        b.warps = vec![warp(0, 0, 0, 0, Default::default())];
        (b.stalls.barrier, b.stalls.exit_wait) = (10, 30);
        b.issued_lanes = vec![0, 1, 5];
        let t = Totals::of([&a, &b]);
        assert_eq!(
            (t.launches, t.cycles, t.warp_instructions, t.ctas_per_sm),
            (2, 400, 300, 3)
        );
        // 2·100 + 1·200 resident warp cycles.
        assert_eq!(t.resident_warp_cycles, 400);
        assert_eq!(t.ipc(), 0.75);
        assert_eq!(t.barrier_stall_fraction(), 50.0 / 400.0);
        assert_eq!(t.barrier_exit_fraction(), Some(80.0 / 400.0));
        assert_eq!(t.issued_lanes, vec![1, 3, 5]);
        let none = Totals::of([]);
        assert_eq!(
            (
                none.ipc(),
                none.barrier_stall_fraction(),
                none.barrier_exit_fraction()
            ),
            (0.0, 0.0, None)
        );
    }
}
