//! `rr`: round robin over the SM's warp slots whose I-buffer is empty, starting after the
//! last slot fetched (GPGPU-Sim's baseline).

use super::{eligible, FetchPolicy};
use crate::policy::{IssueOrders, IssuePolicy, PolicyView};

#[derive(Clone, Debug, Default)]
pub struct RoundRobin {
    next: usize,
}

impl FetchPolicy for RoundRobin {
    fn pick<P: IssuePolicy>(
        &mut self,
        v: &PolicyView,
        _orders: &IssueOrders<'_, P>,
        budget: usize,
        out: &mut Vec<u16>,
    ) {
        let n = v.warps.len();
        let (start, mut left) = (self.next, budget);
        // From `start` to the end, then from 0: the slots in round-robin order without a
        // division per slot (this runs every cycle over every slot).
        for s in (start..n).chain(0..start.min(n)) {
            if left == 0 {
                break;
            }
            if eligible(v, s, false) {
                out.push(s as u16);
                left -= 1;
                self.next = (s + 1) % n;
            }
        }
    }
}
