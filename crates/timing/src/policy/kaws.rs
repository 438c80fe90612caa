//! `kaws-ka`: KAWS's kernel-aware warp scheduling (paper 002, §3). Two orders, switched at
//! the *milestone*, the cycle the CTA dispatcher hands out the kernel's last CTA (to any SM;
//! [`Events::on_last_cta_dispatched`]):
//!
//! - before it: every warp by age, oldest first (GTO without the greedy warp);
//! - from it on: CTAs by progress — warp instructions issued by the CTA, the paper's 4-byte
//!   counter per CTA — least first (ties: the older CTA, lower linear grid index); inside a
//!   CTA its warps oldest first.
//!
//! Waiting warps (barrier, finished) go after the runnable ones in both orders, as in `gto`.
//! The progress ranking is SM-wide state ([`ProgressRank`]), built once at the milestone and
//! kept sorted by moving a CTA back past the CTAs it overtook whenever it issues (one or two
//! compares per issue), so no scheduler sorts anything per cycle; and a scheduler rebuilds its
//! order only when the ranking, occupancy or a warp's waiting flag changed (the state's
//! `version`), else it copies its cached one (as `pro` does). `kaws` is this policy with
//! warp sharing (`kaws-ka+ws`, see `sm/share.rs`); choices the paper leaves open are listed
//! in `docs/kaws-policies.md`.

use super::order_cache::OrderCache;
use super::{Build, BuildCtx, Events, IssuePolicy, Issued, PolicyView, SmState};

/// The SM's resident CTA slots by progress (least first), from the milestone on.
pub struct ProgressRank {
    /// The milestone has passed (the kernel's last CTA has been dispatched).
    on: bool,
    /// Resident CTA slots, least warp instructions first, ties lower linear index.
    order: Vec<u16>,
    /// `pos[c]`: CTA slot `c`'s index in `order` (`NONE` when it is not listed).
    pos: Vec<u16>,
    /// Bumped by every event that can change a scheduler's order: the milestone, a move in
    /// the ranking, a CTA launch or exit, a warp starting or ending a wait.
    version: u64,
}

const NONE: u16 = u16::MAX;

impl ProgressRank {
    /// The CTA order (CTA slots, least progress first); empty before the milestone.
    pub fn order(&self) -> &[u16] {
        &self.order
    }

    /// The milestone has passed.
    pub fn after_milestone(&self) -> bool {
        self.on
    }

    fn key(c: u16, v: &PolicyView) -> (u64, u64) {
        (v.ctas.insts[c as usize], v.ctas.linear[c as usize])
    }

    fn reindex(&mut self, from: usize) {
        for (i, &c) in self.order.iter().enumerate().skip(from) {
            self.pos[c as usize] = i as u16;
        }
    }
}

impl Build for ProgressRank {
    fn build(b: &BuildCtx) -> ProgressRank {
        ProgressRank {
            on: false,
            order: Vec::with_capacity(b.cta_slots),
            pos: vec![NONE; b.cta_slots],
            version: 0,
        }
    }
}

impl Events for ProgressRank {
    fn on_last_cta_dispatched(&mut self, v: &PolicyView) {
        self.on = true;
        self.order.clear();
        self.order
            .extend((0..v.ctas.resident.len() as u16).filter(|&c| v.ctas.resident[c as usize]));
        // Once per launch and SM, at most `sm.max_ctas` entries.
        self.order.sort_unstable_by_key(|&c| Self::key(c, v));
        self.reindex(0);
        self.version += 1;
    }

    fn on_issue(&mut self, e: &Issued, v: &PolicyView) {
        if !self.on {
            return;
        }
        let c = v.cta_of(e.slot) as u16;
        let mut i = self.pos[c as usize] as usize;
        if i == NONE as usize {
            return;
        }
        // Its progress grew by one: it moves back past the CTAs it has now overtaken.
        let k = Self::key(c, v);
        let from = i;
        while i + 1 < self.order.len() && Self::key(self.order[i + 1], v) < k {
            self.order[i] = self.order[i + 1];
            self.pos[self.order[i] as usize] = i as u16;
            i += 1;
        }
        if i != from {
            self.order[i] = c;
            self.pos[c as usize] = i as u16;
            self.version += 1;
        }
    }

    fn on_cta_launch(&mut self, c: u16, v: &PolicyView) {
        self.version += 1;
        // Only the last CTA launches at or after the milestone, and its launch hook runs
        // before the milestone's; kept general so the list can never miss a resident CTA.
        if !self.on || self.pos[c as usize] != NONE {
            return;
        }
        let k = Self::key(c, v);
        let at = self.order.partition_point(|&o| Self::key(o, v) < k);
        self.order.insert(at, c);
        self.reindex(at);
    }

    fn on_cta_exit(&mut self, c: u16, _v: &PolicyView) {
        self.version += 1;
        let i = self.pos[c as usize];
        if i == NONE {
            return;
        }
        self.order.remove(i as usize);
        self.pos[c as usize] = NONE;
        self.reindex(i as usize);
    }

    fn on_barrier_arrive(&mut self, _slot: u16, _pc: u32, _v: &PolicyView) {
        self.version += 1;
    }

    fn on_barrier_release(&mut self, _cta: u16, _pc: u32, _v: &PolicyView) {
        self.version += 1;
    }

    fn on_warp_finished(&mut self, _slot: u16, _v: &PolicyView) {
        self.version += 1;
    }
}

impl SmState for ProgressRank {}

/// One scheduler's kernel-aware order, cached until the SM state's version moves.
pub struct KernelAware {
    me: usize,
    schedulers: usize,
    cache: OrderCache,
}

impl Build for KernelAware {
    fn build(b: &BuildCtx) -> KernelAware {
        KernelAware {
            me: b.scheduler,
            schedulers: b.schedulers.max(1),
            cache: OrderCache::with_capacity(b.slots.len()),
        }
    }
}

impl Events for KernelAware {}

impl KernelAware {
    /// Appends this scheduler's warps of CTA slot `c` whose waiting flag is `waiting`,
    /// oldest first (slot order inside a CTA is age order).
    fn push_cta(&self, c: usize, waiting: bool, v: &PolicyView, out: &mut Vec<u16>) {
        let first = c * v.warps_per_cta;
        let end = first + v.ctas.warps[c] as usize;
        let start = first + (self.me + self.schedulers - first % self.schedulers) % self.schedulers;
        out.extend(
            (start..end)
                .step_by(self.schedulers)
                .map(|s| s as u16)
                .filter(|&s| v.occupied(s) && v.waiting(s) == waiting),
        );
    }

    /// Appends this scheduler's order now to `out`.
    fn build(&self, sh: &ProgressRank, v: &PolicyView, out: &mut Vec<u16>) {
        if !sh.on {
            let by_age = &v.age_order[self.me];
            out.extend(by_age.iter().copied().filter(|&s| !v.waiting(s)));
            out.extend(by_age.iter().copied().filter(|&s| v.waiting(s)));
            return;
        }
        for waiting in [false, true] {
            for &c in &sh.order {
                self.push_cta(c as usize, waiting, v, out);
            }
        }
    }
}

impl IssuePolicy for KernelAware {
    type Shared = ProgressRank;

    fn current_order(&self, sh: &ProgressRank, _: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        self.cache.peek(sh.version, out, |o| self.build(sh, v, o));
    }

    fn order(&mut self, sh: &ProgressRank, _: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        let mut cache = std::mem::replace(&mut self.cache, OrderCache::with_capacity(0));
        cache.get(sh.version, out, |o| self.build(sh, v, o));
        self.cache = cache;
    }
}
