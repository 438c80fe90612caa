//! `cff`: critical fetch first (BAWS §4.2). Fetch for the warp the issue stage will want next:
//! the most urgent warp of the issue policy's current order ([`IssuePolicy::fetch_order`])
//! that is eligible. For GTO that is the greedy warp, else the oldest; for MWF the first
//! runnable warp of the CTA with the most waiters. Works with every issue policy; for
//! two-level the order continues past the active set into the pending warps.
//!
//! CFF changes *which* eligible warp is fetched, not who is eligible: the paper's §2.2 makes a
//! warp eligible "if it does not have any valid instructions within its I-Buffer slots" and
//! says CFF "does not incur additional hardware storage cost"; GPGPU-Sim fetches only into an
//! empty I-buffer. So `policy.cff.eligibility = "empty"` is the default. `"block"` (free
//! entries for a whole fetch block) and `"partial"` (any free entry: a top-up fetch brings one
//! instruction, so the SM's one fetch port delivers less) are sensitivity options, not the
//! paper's rule.
//!
//! An SM has one fetch port and S schedulers, each with its own order; `policy.cff.merge`
//! decides how they share it:
//! - `round-robin` (default): fetch cycles serve the schedulers in turn, each taking its most
//!   urgent eligible warp (a scheduler without one passes its turn to the next);
//! - `rank`: every scheduler's first warp, then every scheduler's second, … (scheduler 0 first
//!   within a rank): the first eligible warp in that merged order.
//!
//! Orders are built lazily: with `round-robin` and one warp per fetch, usually only one
//! scheduler's order is built per fetch cycle.

use super::{eligible, eligible_now, eligible_set, BuildFetch, FetchPolicy};
use crate::policy::{slot_bits, IssueOrders, IssuePolicy, PolicyView};
use warpsim_core::config::{CffMerge, FetchEligibility, PolicyParams};

/// `sm.schedulers` is at most 16 (`config/bounds.rs`): the per-scheduler state below is
/// fixed arrays of that size, indexed modulo it.
const MAX_SCHEDULERS: usize = 16;

pub struct Cff {
    merge: CffMerge,
    /// Which warps may be fetched for.
    rule: FetchEligibility,
    /// The scheduler whose turn it is (`round-robin`).
    next: usize,
    /// The SM's schedulers (0 until the first pick sets the state up).
    n: usize,
    /// Per scheduler: its order this fetch cycle, built on first use.
    orders: Vec<Vec<u16>>,
    /// Bit `k`: scheduler `k`'s order (or first pick) this fetch cycle is built.
    built: u64,
    /// Per scheduler: how far its order has been consumed this fetch cycle.
    pos: [usize; MAX_SCHEDULERS],
    /// Per scheduler: its warps eligible this fetch cycle (bit per slot), set with its order.
    eligible: [u64; MAX_SCHEDULERS],
    /// Per scheduler: its warp slots as a bit set (an SM has at most 64).
    slot_bits: [u64; MAX_SCHEDULERS],
}

impl Cff {
    /// CFF with the default (§2.2, empty I-buffer) eligibility rule.
    pub fn new(merge: CffMerge) -> Cff {
        Cff::with_rule(merge, FetchEligibility::Empty)
    }

    /// CFF choosing among the warps `rule` makes eligible.
    pub fn with_rule(merge: CffMerge, rule: FetchEligibility) -> Cff {
        Cff {
            merge,
            rule,
            next: 0,
            n: 0,
            orders: Vec::new(),
            built: 0,
            pos: [0; MAX_SCHEDULERS],
            eligible: [0; MAX_SCHEDULERS],
            slot_bits: [0; MAX_SCHEDULERS],
        }
    }

    /// Scheduler `k`'s eligible warps now, as a bit set: usually a few, so the I-cache waits
    /// are read for those alone and a walk of the order tests one bit per warp.
    fn eligible_of(&self, k: usize, v: &PolicyView) -> u64 {
        let mut eligible = 0;
        let mut m = eligible_set(v, self.rule) & self.slot_bits[k % MAX_SCHEDULERS];
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            if v.warps.fetch_wait[s] <= v.now {
                eligible |= 1 << s;
            }
        }
        eligible
    }

    /// Scheduler `k`'s next eligible warp not picked yet this cycle.
    fn next_of<P: IssuePolicy>(
        &mut self,
        k: usize,
        v: &PolicyView,
        orders: &mut IssueOrders<'_, P>,
        picked: &[u16],
    ) -> Option<u16> {
        let k = k % MAX_SCHEDULERS;
        if self.built >> (k & 63) & 1 == 0 {
            self.built |= 1 << (k & 63);
            let eligible = self.eligible_of(k, v);
            self.eligible[k] = eligible;
            if eligible == 0 {
                // None of its warps is eligible (the usual case while they wait on memory with
                // full I-buffers): its order is not needed.
                self.orders[k].clear();
                return None;
            }
            if P::FETCH_FIRST {
                // Asked per pick (the warps before it in the order are not eligible or were
                // picked): the same warp the walk below finds.
                let among = eligible & !slot_bits(picked);
                let s = orders.first(k, v, among, &mut self.orders[k]);
                self.eligible[k] = among & !s.map_or(0, |s| 1 << s);
                return s;
            }
            orders.order(k, v, &mut self.orders[k]);
        } else if P::FETCH_FIRST {
            let among = self.eligible[k] & !slot_bits(picked);
            if among == 0 {
                return None;
            }
            let s = orders.first(k, v, among, &mut self.orders[k]);
            self.eligible[k] = among & !s.map_or(0, |s| 1 << s);
            return s;
        }
        let o = &self.orders[k];
        let eligible = self.eligible[k];
        while self.pos[k] < o.len() {
            let s = o[self.pos[k]];
            self.pos[k] += 1;
            if eligible >> (s & 63) & 1 != 0 && !picked.contains(&s) {
                debug_assert!(eligible_now(v, s as usize, self.rule));
                return Some(s);
            }
        }
        None
    }
}

impl BuildFetch for Cff {
    /// From `[policy.cff]`.
    fn build(params: &PolicyParams) -> Cff {
        Cff::with_rule(params.cff.merge, params.cff.eligibility)
    }
}

impl FetchPolicy for Cff {
    fn pick<P: IssuePolicy>(
        &mut self,
        v: &PolicyView,
        orders: &mut IssueOrders<'_, P>,
        budget: usize,
        out: &mut Vec<u16>,
    ) {
        if self.n == 0 {
            let n = orders.schedulers().min(MAX_SCHEDULERS);
            self.orders = (0..n).map(|_| Vec::with_capacity(v.warps.len())).collect();
            for k in 0..n {
                self.slot_bits[k] = slot_bits(orders.slots(k));
            }
            self.n = n;
        }
        let n = self.n;
        self.built = 0;
        if !P::FETCH_FIRST {
            // (`next_of` walks a kept order only for policies without `fetch_first`.)
            self.pos = [0; MAX_SCHEDULERS];
        }
        let start = out.len();
        match self.merge {
            CffMerge::RoundRobin => {
                // Turns go round the schedulers; a full round without a pick ends the search.
                let mut idle = 0;
                let mut k = self.next % n.max(1);
                while out.len() - start < budget && idle < n {
                    match self.next_of(k, v, orders, &out[start..]) {
                        Some(s) => {
                            out.push(s);
                            idle = 0;
                            self.next = (k + 1) % n;
                        }
                        None => idle += 1,
                    }
                    k = (k + 1) % n;
                }
            }
            CffMerge::Rank => {
                for k in 0..n {
                    // The whole orders (of the schedulers with an eligible warp).
                    self.orders[k].clear();
                    if self.eligible_of(k, v) != 0 {
                        orders.order(k, v, &mut self.orders[k]);
                    }
                }
                let longest = self.orders.iter().map(Vec::len).max().unwrap_or(0);
                'ranks: for r in 0..longest {
                    for k in 0..n {
                        let Some(&s) = self.orders[k].get(r) else {
                            continue;
                        };
                        if eligible(v, s as usize, self.rule) && !out[start..].contains(&s) {
                            out.push(s);
                            if out.len() - start == budget {
                                break 'ranks;
                            }
                        }
                    }
                }
            }
        }
    }
}
