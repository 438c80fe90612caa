//! `fef`: fewest entries first (BAWS §6.2, the critical-warp-unaware comparison for CFF). The
//! eligible warp (partial rule: a free I-buffer entry) with the fewest valid I-buffer entries;
//! ties go to the oldest warp.
//!
//! Speed: with the partial rule some warp is eligible almost every cycle, so this runs every
//! SM-cycle over every warp slot. The scan is one branch-light pass over the slot arrays
//! (resliced to one length so the bounds checks go), the key packed into a word: entries in
//! the top byte, age below (ages stay far below 2^56), ineligible slots `u64::MAX`.

use super::{eligible, FetchPolicy};
use crate::policy::{IssueOrders, IssuePolicy, PolicyView};
use warpsim_core::exec::warp::WarpState;

#[derive(Clone, Debug, Default)]
pub struct Fef;

impl Fef {
    /// The smallest key (see the module doc) over slots not yet in `taken`, and its slot.
    #[inline]
    fn best(v: &PolicyView, taken: &[u16]) -> Option<usize> {
        let w = v.warps;
        let n = w.occupied.len();
        let (occupied, state, wait, ib_n, age) = (
            &w.occupied[..n],
            &w.state[..n],
            &w.fetch_wait[..n],
            &w.ib_n[..n],
            &w.age[..n],
        );
        let mut best = (u64::MAX, usize::MAX);
        for s in 0..n {
            let ok = occupied[s]
                & (state[s] != WarpState::Done)
                & (wait[s] <= v.now)
                & (ib_n[s] < v.ib_depth);
            let key = if ok {
                (ib_n[s] as u64) << 56 | age[s]
            } else {
                u64::MAX
            };
            if key < best.0 && !taken.contains(&(s as u16)) {
                best = (key, s);
            }
        }
        debug_assert!(best.1 == usize::MAX || eligible(v, best.1, true));
        (best.0 != u64::MAX).then_some(best.1)
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
