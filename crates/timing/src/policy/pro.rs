//! `pro`: progress-aware warp scheduling (PRO, paper 003, Algorithm 1). One CTA order per
//! SM ([`ProState`], the policy's [`SmState`]), shared by the SM's schedulers; each scheduler
//! walks it and takes its own warps of each CTA in the CTA's warp order ([`Pro`]).
//!
//! Progress is thread instructions (instructions × active lanes, `thread_insts`) of a warp or
//! CTA. The kernel is in the *fast* phase while the dispatcher still holds CTAs, *slow* from
//! the cycle it dispatched the last one ([`Events::on_last_cta_dispatched`]). A CTA's state
//! is a function of its counters and the phase, re-evaluated at every event that touches it:
//!
//! | phase | state | when | CTA order within the state | warp order |
//! |---|---|---|---|---|
//! | fast | `finishWait` (H) | ≥ 1 warp finished | more finished warps, then more progress | less progress first |
//! | fast | `barrierWait` (M) | else ≥ 1 warp at a barrier | more warps at the barrier, then more progress | less progress first |
//! | fast | `noWait` (L) | otherwise | more progress first (re-sorted every THRESHOLD) | more progress first (re-sorted) |
//! | slow | `barrierWait1` (H) | ≥ 1 warp at a barrier | as `barrierWait` | less progress first |
//! | slow | `finishNoWait` (L) | otherwise | less progress first (re-sorted every THRESHOLD) | less progress first (re-sorted) |
//!
//! Sorting is what the algorithm does and when: the `finishWait` list on every warp-finish
//! event (`sortFinishWaitStateTBs`, line 14), the barrier list on every barrier arrival
//! (`sortBarrierWaitStateTBs`, line 32), a CTA's warps by increasing progress when its first
//! warp finishes (line 9) and when it enters a barrier state (line 22), and the
//! `noWait`/`finishNoWait` CTAs with their warps on the policy timer at every multiple of
//! `policy.pro.threshold` cycles (lines 57–61). Between those points an order does not
//! change, however progress moves; every list holds at most `sm.max_ctas` CTAs, so a sort is
//! a few dozen compares and allocates nothing. Ties: the lower linear grid index (CTAs), the
//! lower warp index (warps). The choices where the paper is ambiguous are listed in the crate
//! README ("Policies").

use super::order_cache::OrderCache;
use super::{Build, BuildCtx, Events, IssuePolicy, PolicyView, SmState};
use std::cmp::Reverse;

/// A CTA slot's state under PRO (the paper's Figure 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProCta {
    /// No CTA in the slot.
    Empty,
    NoWait,
    BarrierWait,
    FinishWait,
    BarrierWait1,
    FinishNoWait,
}

impl ProCta {
    /// Waits at a barrier (`barrierWait` or `barrierWait1`).
    fn barrier(self) -> bool {
        matches!(self, ProCta::BarrierWait | ProCta::BarrierWait1)
    }

    /// Ordered by the periodic re-sort (`noWait` or `finishNoWait`).
    fn periodic(self) -> bool {
        matches!(self, ProCta::NoWait | ProCta::FinishNoWait)
    }
}

/// PRO's SM-wide state: the CTA states, the three CTA lists, each CTA's warp order, and the
/// re-sort timer.
pub struct ProState {
    threshold: u64,
    /// The next re-sort (a multiple of `threshold`).
    next_sort: u64,
    /// The dispatcher has dispatched the kernel's last CTA.
    slow: bool,
    /// Warp slots per CTA slot.
    wpc: usize,
    state: Vec<ProCta>,
    /// Every resident CTA slot in the order of the last re-sort, later launches appended: the
    /// order of the `noWait` / `finishNoWait` section. CTAs in another state keep their place
    /// here and take it again when they return (a barrier release in the fast phase).
    periodic: Vec<u16>,
    /// `finishWait` CTAs, as of the last warp-finish sort.
    fin: Vec<u16>,
    /// `barrierWait` / `barrierWait1` CTAs, as of the last barrier-arrival sort.
    bar: Vec<u16>,
    /// CTA slot `c`'s warp slots in priority order: `warp_rank[c*wpc .. c*wpc + warps[c]]`.
    warp_rank: Vec<u16>,
    warps: Vec<u16>,
    /// The CTA order: `fin`, then `bar`, then the periodic CTAs in `periodic` order.
    order: Vec<u16>,
    /// Bumped by every event that can change a scheduler's order (CTA or warp order, a
    /// warp's waiting flag, occupancy).
    version: u64,
}

impl ProState {
    /// The CTA order now, highest priority first (CTA slots).
    pub fn order(&self) -> &[u16] {
        &self.order
    }

    /// CTA slot `c`'s state.
    pub fn state(&self, c: usize) -> ProCta {
        self.state[c]
    }

    /// The kernel is in the slow phase (its last CTA has been dispatched).
    pub fn slow(&self) -> bool {
        self.slow
    }

    /// CTA slot `c`'s warp slots, highest priority first.
    pub fn warp_order(&self, c: usize) -> &[u16] {
        &self.warp_rank[c * self.wpc..c * self.wpc + self.warps[c] as usize]
    }

    /// What CTA `c`'s counters make its state in the current phase.
    fn target(&self, c: usize, v: &PolicyView) -> ProCta {
        let (bar, fin) = (v.ctas.at_barrier[c] > 0, v.ctas.finished[c] > 0);
        match (self.slow, fin, bar) {
            (false, true, _) => ProCta::FinishWait,
            (false, false, true) => ProCta::BarrierWait,
            (false, false, false) => ProCta::NoWait,
            (true, _, true) => ProCta::BarrierWait1,
            (true, _, false) => ProCta::FinishNoWait,
        }
    }

    /// Moves CTA `c` to the state its counters give, between the lists (appended to the one
    /// it joins: the caller sorts where the algorithm does). Returns the old state.
    fn settle(&mut self, c: usize, v: &PolicyView) -> ProCta {
        let (old, new) = (self.state[c], self.target(c, v));
        if old == new {
            return old;
        }
        let cs = c as u16;
        if old == ProCta::FinishWait {
            self.fin.retain(|&x| x != cs);
        }
        if old.barrier() && !new.barrier() {
            self.bar.retain(|&x| x != cs);
        }
        if new == ProCta::FinishWait {
            self.fin.push(cs);
        }
        if new.barrier() && !old.barrier() {
            self.bar.push(cs);
        }
        self.state[c] = new;
        old
    }

    /// Sorts CTA `c`'s warps by progress, increasing or decreasing; ties lower warp first.
    fn sort_warps(&mut self, c: usize, increasing: bool, v: &PolicyView) {
        let n = self.warps[c] as usize;
        let ws = &mut self.warp_rank[c * self.wpc..c * self.wpc + n];
        let p = &v.warps.thread_insts;
        if increasing {
            ws.sort_unstable_by_key(|&s| (p[s as usize], s));
        } else {
            ws.sort_unstable_by_key(|&s| (Reverse(p[s as usize]), s));
        }
    }

    /// `sortFinishWaitStateTBs`: more finished warps, then more progress, then lower index.
    fn sort_fin(&mut self, v: &PolicyView) {
        let k = v.ctas;
        self.fin.sort_unstable_by_key(|&c| {
            let c = c as usize;
            (
                Reverse(k.finished[c]),
                Reverse(k.thread_insts[c]),
                k.linear[c],
            )
        });
    }

    /// `sortBarrierWaitStateTBs`: more warps at the barrier, then more progress, then lower
    /// index.
    fn sort_bar(&mut self, v: &PolicyView) {
        let k = v.ctas;
        self.bar.sort_unstable_by_key(|&c| {
            let c = c as usize;
            (
                Reverse(k.at_barrier[c]),
                Reverse(k.thread_insts[c]),
                k.linear[c],
            )
        });
    }

    /// Rebuilds the CTA order from the lists and marks every scheduler's order stale.
    fn rebuild(&mut self) {
        self.order.clear();
        self.order.extend_from_slice(&self.fin);
        self.order.extend_from_slice(&self.bar);
        let state = &self.state;
        self.order.extend(
            self.periodic
                .iter()
                .copied()
                .filter(|&c| state[c as usize].periodic()),
        );
        self.version += 1;
    }
}

impl Build for ProState {
    fn build(b: &BuildCtx) -> Self {
        let threshold = b.params.pro.threshold.max(1);
        ProState {
            threshold,
            next_sort: threshold,
            slow: false,
            wpc: b.warps_per_cta,
            state: vec![ProCta::Empty; b.cta_slots],
            periodic: Vec::with_capacity(b.cta_slots),
            fin: Vec::with_capacity(b.cta_slots),
            bar: Vec::with_capacity(b.cta_slots),
            warp_rank: vec![0; b.cta_slots * b.warps_per_cta],
            warps: vec![0; b.cta_slots],
            order: Vec::with_capacity(b.cta_slots),
            version: 0,
        }
    }
}

impl Events for ProState {
    fn on_barrier_arrive(&mut self, slot: u16, _pc: u32, v: &PolicyView) {
        let c = v.cta_of(slot);
        let old = self.settle(c, v);
        if !old.barrier() && self.state[c].barrier() {
            self.sort_warps(c, true, v);
        }
        self.sort_bar(v);
        self.rebuild();
    }

    fn on_barrier_release(&mut self, cta: u16, _pc: u32, v: &PolicyView) {
        self.settle(cta as usize, v);
        self.rebuild();
    }

    fn on_warp_finished(&mut self, slot: u16, v: &PolicyView) {
        let c = v.cta_of(slot);
        if v.ctas.finished[c] == 1 {
            self.sort_warps(c, true, v);
        }
        self.settle(c, v);
        self.sort_fin(v);
        self.rebuild();
    }

    fn on_cta_launch(&mut self, cta: u16, v: &PolicyView) {
        let c = cta as usize;
        self.warps[c] = v.ctas.warps[c];
        let base = c * self.wpc;
        for (i, w) in self.warp_rank[base..base + self.warps[c] as usize]
            .iter_mut()
            .enumerate()
        {
            *w = (base + i) as u16;
        }
        self.state[c] = self.target(c, v);
        self.periodic.push(cta);
        self.rebuild();
    }

    fn on_cta_exit(&mut self, cta: u16, _v: &PolicyView) {
        self.state[cta as usize] = ProCta::Empty;
        self.periodic.retain(|&x| x != cta);
        self.fin.retain(|&x| x != cta);
        self.bar.retain(|&x| x != cta);
        self.rebuild();
    }

    /// The fast-to-slow transition (lines 36–40): `finishWait` and `noWait` CTAs merge into
    /// `finishNoWait` (in their places of the last re-sort, which the next re-sort replaces),
    /// barrier-waiting CTAs become `barrierWait1` in their places of the barrier list.
    fn on_last_cta_dispatched(&mut self, v: &PolicyView) {
        self.slow = true;
        for i in 0..self.periodic.len() {
            let c = self.periodic[i] as usize;
            self.settle(c, v);
        }
        self.rebuild();
    }
}

impl SmState for ProState {
    fn wake_at(&self) -> u64 {
        self.next_sort
    }

    /// `sortTBs` + `sortWarps` (lines 57–61): every periodic CTA by progress (decreasing in
    /// the fast phase, increasing in the slow), and its warps the same way.
    fn on_timer(&mut self, v: &PolicyView) {
        let k = v.ctas;
        if self.slow {
            self.periodic.sort_unstable_by_key(|&c| {
                let c = c as usize;
                (k.thread_insts[c], k.linear[c])
            });
        } else {
            self.periodic.sort_unstable_by_key(|&c| {
                let c = c as usize;
                (Reverse(k.thread_insts[c]), k.linear[c])
            });
        }
        for i in 0..self.periodic.len() {
            let c = self.periodic[i] as usize;
            if self.state[c].periodic() {
                self.sort_warps(c, self.slow, v);
            }
        }
        self.next_sort = (v.now / self.threshold + 1) * self.threshold;
        self.rebuild();
    }

    fn cta_order(&self) -> Option<&[u16]> {
        Some(&self.order)
    }
}

/// One scheduler under PRO: the SM's CTA order, and in each CTA this scheduler's warps in
/// the CTA's warp order; warps at a barrier or finished follow all others (CTAs in the same
/// order), as in `gto` and the BAWS policies: the issue walk skips them, a fetch policy
/// reading the order sees the runnable warps first. The order is rebuilt only when the SM
/// state's version moved, else the cached one is copied.
pub struct Pro {
    me: u16,
    schedulers: u16,
    cache: OrderCache,
}

impl Pro {
    /// Appends this scheduler's order to `out`.
    fn build(&self, sh: &ProState, v: &PolicyView, out: &mut Vec<u16>) {
        let mine = |s: u16| s % self.schedulers == self.me;
        for &c in sh.order() {
            let ws = sh.warp_order(c as usize);
            out.extend(ws.iter().copied().filter(|&s| mine(s) && !v.waiting(s)));
        }
        for &c in sh.order() {
            let ws = sh.warp_order(c as usize);
            out.extend(ws.iter().copied().filter(|&s| mine(s) && v.waiting(s)));
        }
    }
}

impl Build for Pro {
    fn build(b: &BuildCtx) -> Self {
        Pro {
            me: b.scheduler as u16,
            schedulers: b.schedulers.max(1) as u16,
            cache: OrderCache::with_capacity(b.slots.len()),
        }
    }
}

impl IssuePolicy for Pro {
    type Shared = ProState;

    fn current_order(&self, sh: &ProState, _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        self.cache.peek(sh.version, out, |o| self.build(sh, v, o));
    }

    fn order(&mut self, sh: &ProState, _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        let mut cache = std::mem::replace(&mut self.cache, OrderCache::with_capacity(0));
        cache.get(sh.version, out, |o| self.build(sh, v, o));
        self.cache = cache;
    }
}

impl Events for Pro {}
