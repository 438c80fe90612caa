//! `fef`: fewest entries first (BAWS §6.2, the critical-warp-unaware comparison for CFF). The
//! eligible warp (partial rule: a free I-buffer entry) with the fewest valid I-buffer entries;
//! ties go to the oldest warp.

use super::{eligible, FetchPolicy};
use crate::policy::{IssueOrders, IssuePolicy, PolicyView};

#[derive(Clone, Debug, Default)]
pub struct Fef;

impl FetchPolicy for Fef {
    fn pick<P: IssuePolicy>(
        &mut self,
        v: &PolicyView,
        _orders: &IssueOrders<'_, P>,
        budget: usize,
        out: &mut Vec<u16>,
    ) {
        let start = out.len();
        for _ in 0..budget {
            let best = (0..v.warps.len())
                .filter(|&s| eligible(v, s, true) && !out[start..].contains(&(s as u16)))
                .min_by_key(|&s| (v.warps.ib_n[s], v.warps.age[s]));
            match best {
                Some(s) => out.push(s as u16),
                None => break,
            }
        }
    }
}
