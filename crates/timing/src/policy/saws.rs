//! `saws`: synchronization-aware warp scheduling as the BAWS paper describes it for
//! comparison (§7, Figures 12–14). CTAs with at least one warp waiting at a barrier go first,
//! ordered by the cycle at which the *first* of their warps reached the barrier they wait at
//! now (earliest first; the place holds until that barrier releases); then the other CTAs by
//! age. Inside a CTA: greedy-then-oldest. One list per SM, shared by its schedulers.
//!
//! Choice: finished warps (the implicit exit barrier) do not make a CTA "waiting" here — the
//! paper describes SAWS in terms of explicit barriers only. Ties in the arrival cycle (two
//! CTAs whose first warps arrive in the same cycle) go to the older CTA.

use super::cta_rank::{CtaKey, InCta};
use super::{BuildCtx, PolicyView};

/// The SAWS ranking: earliest first barrier arrival, then CTAs without a waiting warp, by age.
pub struct FirstArrival;

impl CtaKey for FirstArrival {
    fn from_params(_: &BuildCtx) -> Self {
        FirstArrival
    }

    #[inline]
    fn key(&self, c: usize, v: &PolicyView) -> (u64, u64) {
        let arrival = match v.ctas.first_arrival[c] {
            Some(t) if v.ctas.at_barrier[c] > 0 => t,
            _ => u64::MAX,
        };
        (arrival, v.ctas.linear[c])
    }
}

/// SAWS: first-arrival CTA order, greedy-then-oldest inside a CTA.
pub type Saws = InCta<FirstArrival, true>;
