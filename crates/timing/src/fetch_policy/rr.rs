//! `rr`: round robin over the SM's warp slots whose I-buffer is empty, starting after the
//! last slot fetched (GPGPU-Sim's baseline).

use super::{eligible_now, BuildFetch, FetchPolicy};
use crate::policy::{bits_from, IssueOrders, IssuePolicy, PolicyView};
use warpsim_core::config::{FetchEligibility, PolicyParams};

#[derive(Clone, Debug, Default)]
pub struct RoundRobin {
    next: usize,
}

impl BuildFetch for RoundRobin {
    fn build(_: &PolicyParams) -> RoundRobin {
        RoundRobin::default()
    }
}

impl FetchPolicy for RoundRobin {
    fn pick<P: IssuePolicy>(
        &mut self,
        v: &PolicyView,
        _orders: &mut IssueOrders<'_, P>,
        budget: usize,
        out: &mut Vec<u16>,
    ) {
        let n = v.warps.len();
        let (start, mut left) = (self.next, budget);
        // This runs every cycle: only the slots whose bit says "resident, running, empty
        // I-buffer" are visited, from `start` to the end, then from 0 (bit order is slot
        // order; an SM has at most 64 slots).
        let empty = v.warps.fetch_empty();
        let from_start = bits_from(start);
        for mut set in [empty & from_start, empty & !from_start] {
            while set != 0 && left > 0 {
                let s = set.trailing_zeros() as usize;
                set &= set - 1;
                if eligible_now(v, s, FetchEligibility::Empty) {
                    out.push(s as u16);
                    left -= 1;
                    self.next = (s + 1) % n;
                }
            }
        }
    }
}
