//! CTA spans (PRO Fig 2: each CTA's start and end on its SM) and the execution time of the
//! last-issued CTA (KAWS Table 2), from the per-CTA records (no event log needed).
//!
//! The last-issued CTA is the one with the largest dispatch (start) cycle; CTAs dispatched in
//! the same cycle go out in linear order (README, "Dispatcher"), so a tie goes to the larger
//! linear index. Its time is `end − start`. Over several launches (KAWS averages per kernel)
//! take the mean of the launches' values.

use crate::stats::TimingStats;

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CtaSpan {
    pub linear: u64,
    pub sm: u32,
    pub start: u64,
    pub end: u64,
}

impl CtaSpan {
    pub fn cycles(&self) -> u64 {
        self.end.saturating_sub(self.start)
    }
}

/// Every CTA's span, in dispatch order (start cycle, then linear index).
pub fn cta_spans(s: &TimingStats) -> Vec<CtaSpan> {
    let mut v: Vec<CtaSpan> = s
        .ctas
        .iter()
        .map(|c| CtaSpan {
            linear: c.linear,
            sm: c.sm,
            start: c.start,
            end: c.end,
        })
        .collect();
    v.sort_by_key(|c| (c.start, c.linear));
    v
}

/// The last-dispatched CTA's execution time; `None` for a launch without CTA records.
pub fn last_cta_time(s: &TimingStats) -> Option<u64> {
    cta_spans(s).last().map(CtaSpan::cycles)
}

/// The last-dispatched CTA's time of each launch, averaged over the launches (the KAWS
/// paper's Table 2 metric: per kernel, then the mean); `None` without a timed CTA.
pub fn mean_last_cta_time(launches: &[&TimingStats]) -> Option<f64> {
    let times: Vec<u64> = launches.iter().filter_map(|s| last_cta_time(s)).collect();
    (!times.is_empty()).then(|| times.iter().sum::<u64>() as f64 / times.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_util::*;

    #[test]
    fn dispatch_order_and_the_last_issued() {
        // Records come in exit order. CTAs 2 and 3 are both dispatched in cycle 40; 3 goes
        // out last (larger linear index): 95 − 40 = 55 cycles, although CTA 2 ends later.
        let mut s = empty();
        s.ctas = vec![
            cta(1, 1, 0, 30),
            cta(0, 0, 0, 38),
            cta(3, 1, 40, 95),
            cta(2, 0, 40, 120),
        ];
        let order: Vec<u64> = cta_spans(&s).iter().map(|c| c.linear).collect();
        assert_eq!(order, [0, 1, 2, 3]);
        assert_eq!(last_cta_time(&s), Some(55));
        assert_eq!(last_cta_time(&empty()), None);
    }

    /// A launch whose CTAs ran (dispatch, exit) as given, listed in exit order.
    fn launch(ctas: &[(u64, u64)]) -> TimingStats {
        let mut s = empty();
        s.ctas = ctas
            .iter()
            .enumerate()
            .map(|(i, &(start, end))| cta(i as u64, 0, start, end))
            .collect();
        s.cycles = ctas.iter().map(|c| c.1).max().unwrap_or(0);
        s
    }

    /// Per launch the last-dispatched CTA (not the last to exit), then the mean over launches.
    #[test]
    fn last_cta_time_is_averaged_over_launches() {
        let a = launch(&[(0, 50), (10, 30)]); // last dispatched: CTA 1, 20 cycles
        let b = launch(&[(0, 100), (5, 65)]); // CTA 1, 60 cycles
        assert_eq!(mean_last_cta_time(&[&a, &b]), Some(40.0));
        assert_eq!(mean_last_cta_time(&[&a]), Some(20.0));
        assert_eq!(mean_last_cta_time(&[&launch(&[])]), None);
        assert_eq!(mean_last_cta_time(&[]), None);
    }
}
