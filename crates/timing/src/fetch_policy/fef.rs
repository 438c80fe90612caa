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
        let w = v.warps;
        for _ in 0..budget {
            // One pass, the key packed into a word: entries in the top byte, age below (ages
            // stay far below 2^56).
            let mut best = (u64::MAX, usize::MAX);
            for s in 0..w.len() {
                if !eligible(v, s, true) {
                    continue;
                }
                let key = (w.ib_n[s] as u64) << 56 | w.age[s];
                if key < best.0 && !out[start..].contains(&(s as u16)) {
                    best = (key, s);
                }
            }
            if best.1 == usize::MAX {
                break;
            }
            out.push(best.1 as u16);
        }
    }
}
