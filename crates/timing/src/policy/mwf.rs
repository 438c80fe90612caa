//! `mwf-lrr`, `mwf-gto`: most-waiting-first (BAWS, paper 000 §4.1). The SM keeps one warp
//! priority table (WPT): per CTA the number of its warps waiting at a barrier, plus — with
//! `policy.mwf.count_exited_warps` (default true) — its finished warps, which wait at the
//! CTA's implicit exit barrier. CTAs with more waiting warps go first; ties go to the older
//! CTA (smaller linear grid index, the paper's "smallest TB-id"). Inside a CTA: LRR from the
//! warp after the one this scheduler last issued from that CTA (`mwf-lrr`), or that warp first
//! and then oldest (`mwf-gto`). With no warp waiting anywhere every count is 0 and MWF is
//! "oldest CTA first" with LRR/GTO inside it, as the paper says.
//!
//! The WPT is [`PolicyView`]'s per-CTA `at_barrier` (+ `finished`) counters; the paper's
//! counter "reset when all warps have reached the barrier" is `at_barrier` returning to 0 at
//! the release. One ranked CTA list per SM serves all schedulers (§4.1.1: "one shared list of
//! TB priorities").

use super::cta_rank::{CtaKey, InCta};
use super::{BuildCtx, PolicyView};

/// The MWF ranking: more waiting warps first, then older.
pub struct WaitingFirst {
    count_exited: bool,
}

impl CtaKey for WaitingFirst {
    fn from_params(b: &BuildCtx) -> Self {
        WaitingFirst {
            count_exited: b.params.mwf.count_exited_warps,
        }
    }

    #[inline]
    fn key(&self, c: usize, v: &PolicyView) -> (u64, u64) {
        let mut waiting = v.ctas.at_barrier[c] as u64;
        if self.count_exited {
            waiting += v.ctas.finished[c] as u64;
        }
        (u64::MAX - waiting, v.ctas.linear[c])
    }
}

/// MWF with loose round robin inside a CTA.
pub type MwfLrr = InCta<WaitingFirst, false>;
/// MWF with greedy-then-oldest inside a CTA.
pub type MwfGto = InCta<WaitingFirst, true>;
