//! `fef`: fewest entries first (BAWS §6.2, the critical-warp-unaware comparison for CFF). The
//! eligible warp with the fewest valid I-buffer entries; ties go to the oldest warp. "Fewest
//! entries" only means something when partly full I-buffers may be fetched for, so FEF always
//! uses the `partial` eligibility rule (any free entry), not the §2.2 empty-buffer rule that
//! `rr` and `cff` use by default; its reports say so.
//!
//! Speed: with the partial rule some warp is eligible almost every cycle, so this runs every
//! SM-cycle. It visits only the slots whose `fetch_room` bit is set (see `WarpSlots`), the
//! key packed into a word: entries in the top byte, age below (ages stay far below 2^56).

use super::{eligible, BuildFetch, FetchPolicy};
use crate::policy::{IssueOrders, IssuePolicy, PolicyView, MAX_WARP_SLOTS};
use warpsim_core::config::{FetchEligibility, PolicyParams};

#[derive(Clone, Debug, Default)]
pub struct Fef;

impl Fef {
    /// The smallest key (see the module doc) over slots not yet in `taken`, and its slot.
    /// Visits only the slots of `WarpSlots::fetch_room` (resident, running, a free entry):
    /// while warps wait on memory with full I-buffers, few of them.
    #[inline]
    fn best(v: &PolicyView, taken: &[u16]) -> Option<usize> {
        let w = v.warps;
        let mut best = (u64::MAX, usize::MAX);
        let mut set = w.fetch_room();
        while set != 0 {
            let s = set.trailing_zeros() as usize;
            set &= set - 1;
            if w.fetch_wait[s] > v.now {
                continue;
            }
            let key = (w.ib_n()[s] as u64) << 56 | w.age[s];
            if key < best.0 && !taken.contains(&(s as u16)) {
                best = (key, s);
            }
        }
        let best = (best.0 != u64::MAX).then_some(best.1);
        debug_assert_eq!(
            best,
            Fef::best_by_definition(v, taken),
            "fetch bit sets out of date"
        );
        best
    }

    /// [`Fef::best`] by the definition: every slot, its eligibility from the slot arrays.
    fn best_by_definition(v: &PolicyView, taken: &[u16]) -> Option<usize> {
        (0..v.warps.len().min(MAX_WARP_SLOTS))
            .filter(|&s| eligible(v, s, FetchEligibility::Partial) && !taken.contains(&(s as u16)))
            .min_by_key(|&s| (v.warps.ib_n()[s] as u64) << 56 | v.warps.age[s])
    }
}

impl BuildFetch for Fef {
    fn build(_: &PolicyParams) -> Fef {
        Fef
    }
}

impl FetchPolicy for Fef {
    fn pick<P: IssuePolicy>(
        &mut self,
        v: &PolicyView,
        _orders: &mut IssueOrders<'_, P>,
        budget: usize,
        out: &mut Vec<u16>,
    ) {
        let start = out.len();
        for _ in 0..budget {
            match Fef::best(v, &out[start..]) {
                Some(s) => out.push(s as u16),
                None => break,
            }
        }
    }
}
