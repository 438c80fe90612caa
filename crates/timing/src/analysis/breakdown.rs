//! BAWS's stall breakdown (Fig 10): warp stall cycles in the paper's six classes — control,
//! data, structural, barrier, exit, fetch — from [`StallCounts`].
//!
//! Our two extra buckets, mapped explicitly:
//! - `drain` (every warp of the CTA finished; the CTA waits for its stores before its slot
//!   frees) goes to **exit**: the warps sit at the exit point until the CTA retires, which is
//!   what the paper's exit stall measures (warp slots held by finished warps).
//! - `not_selected` (a warp that could issue, but its scheduler issued another) is **not** a
//!   stall of any of the six kinds and is not spread over them: it stays in its own field,
//!   outside [`BawsBreakdown::total`]. Folding it in (or in proportion) would charge ready
//!   warps to hazards they did not have; the paper's figure has no such bar, so its share is
//!   shown beside the six, not hidden in them.

use crate::stats::StallCounts;

/// Warp stall cycles by BAWS class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct BawsBreakdown {
    pub control: u64,
    pub data: u64,
    pub structural: u64,
    pub barrier: u64,
    /// `exit_wait + drain`.
    pub exit: u64,
    pub fetch: u64,
    /// Ready but not picked: outside the six classes.
    pub not_selected: u64,
}

impl BawsBreakdown {
    /// The six classes' names, in the order of [`BawsBreakdown::classes`].
    pub const NAMES: [&'static str; 6] =
        ["control", "data", "structural", "barrier", "exit", "fetch"];

    /// The six classes, in [`BawsBreakdown::NAMES`] order.
    pub fn classes(&self) -> [u64; 6] {
        [
            self.control,
            self.data,
            self.structural,
            self.barrier,
            self.exit,
            self.fetch,
        ]
    }

    /// Σ of the six classes (`not_selected` excluded).
    pub fn total(&self) -> u64 {
        self.classes().iter().sum()
    }

    /// Each class over `base`'s total (Fig 10 normalises every policy to LRR's total);
    /// zeros when `base` has no stall.
    pub fn normalized_to(&self, base: &BawsBreakdown) -> [f64; 6] {
        self.classes().map(|c| super::ratio(c, base.total()))
    }
}

/// The breakdown of `stalls` (one launch's `TimingStats::stalls`, or summed ones).
pub fn baws_breakdown(stalls: &StallCounts) -> BawsBreakdown {
    BawsBreakdown {
        control: stalls.control,
        data: stalls.data,
        structural: stalls.structural,
        barrier: stalls.barrier,
        exit: stalls.exit_wait + stalls.drain,
        fetch: stalls.fetch,
        not_selected: stalls.not_selected,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drain_is_exit_and_not_selected_stays_apart() {
        let s = StallCounts {
            data: 1,
            structural: 2,
            barrier: 3,
            exit_wait: 4,
            drain: 5,
            control: 6,
            fetch: 7,
            not_selected: 100,
        };
        let b = baws_breakdown(&s);
        assert_eq!(b.classes(), [6, 1, 2, 3, 9, 7]);
        assert_eq!((b.total(), b.not_selected), (28, 100));
        assert_eq!(b.total() + b.not_selected, s.total());
        // Normalised to a base with 56 stall cycles: every class halves.
        let base = BawsBreakdown {
            control: 56,
            ..Default::default()
        };
        assert_eq!(
            b.normalized_to(&base),
            [
                6.0 / 56.0,
                1.0 / 56.0,
                2.0 / 56.0,
                3.0 / 56.0,
                9.0 / 56.0,
                7.0 / 56.0
            ]
        );
        assert_eq!(b.normalized_to(&BawsBreakdown::default()), [0.0; 6]);
    }
}
