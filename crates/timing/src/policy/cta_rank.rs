//! CTA-first scheduling, shared by MWF and SAWS: an SM-wide ranked list of the resident CTAs
//! ([`CtaRank`], the policy's [`SmState`]) decides which CTA's warps go first; inside a CTA a
//! scheduler orders its own warps loose-round-robin or greedy-then-oldest ([`InCta`]).
//!
//! Speed: the list is re-ranked incrementally — one CTA moves (remove + binary insert over at
//! most `sm.max_ctas` entries) when an event changes its key — never sorted per cycle. A
//! scheduler's order is rebuilt (one pass over the ranked CTAs and that scheduler's warps of
//! each) only when the list's `version` moved (an arrival, release, finished warp, launch or
//! exit — the only events that change a rank, an occupancy or a waiting flag). When only this
//! scheduler's last-issued warp of some CTA changed (every issue, under loose round robin),
//! the lengths and places of the CTAs' runs in the cached order stand: just those CTAs' runs
//! are rewritten in place. Otherwise the cached order is copied.

use super::{
    bits_after, push_bits, slot_bits, Build, BuildCtx, Events, IssuePolicy, Issued, PolicyView,
    SmState,
};
use std::marker::PhantomData;

/// A CTA ranking rule: the key of CTA slot `c` now (smaller goes first). Keys are recomputed
/// only for the CTA an event concerns (barrier arrival / release, a warp finishing, launch).
pub trait CtaKey: Sized + Send {
    fn from_params(b: &BuildCtx) -> Self;
    fn key(&self, c: usize, v: &PolicyView) -> (u64, u64);
}

/// The SM-wide ranked list of resident CTA slots, smallest key first.
pub struct CtaRank<K> {
    order: Vec<u16>,
    /// Bumped by every event that can change any scheduler's order.
    version: u64,
    keys: Vec<(u64, u64)>,
    rule: K,
}

impl<K: CtaKey> CtaRank<K> {
    /// Resident CTA slots, highest priority first.
    pub fn order(&self) -> &[u16] {
        &self.order
    }

    fn remove(&mut self, c: u16) {
        if let Some(i) = self.order.iter().position(|&x| x == c) {
            self.order.remove(i);
        }
    }

    /// Recomputes CTA `c`'s key and moves it to its place.
    fn rerank(&mut self, c: usize, v: &PolicyView) {
        self.version += 1;
        self.remove(c as u16);
        let key = self.rule.key(c, v);
        self.keys[c] = key;
        let keys = &self.keys;
        let at = self.order.partition_point(|&o| keys[o as usize] <= key);
        self.order.insert(at, c as u16);
    }
}

impl<K: CtaKey> Build for CtaRank<K> {
    fn build(b: &BuildCtx) -> Self {
        CtaRank {
            order: Vec::with_capacity(b.cta_slots),
            version: 0,
            keys: vec![(0, 0); b.cta_slots],
            rule: K::from_params(b),
        }
    }
}

impl<K: CtaKey> Events for CtaRank<K> {
    fn on_barrier_arrive(&mut self, slot: u16, _pc: u32, v: &PolicyView) {
        self.rerank(v.cta_of(slot), v);
    }
    fn on_barrier_release(&mut self, cta: u16, _pc: u32, v: &PolicyView) {
        self.rerank(cta as usize, v);
    }
    fn on_warp_finished(&mut self, slot: u16, v: &PolicyView) {
        self.rerank(v.cta_of(slot), v);
    }
    fn on_cta_launch(&mut self, cta: u16, v: &PolicyView) {
        self.rerank(cta as usize, v);
    }
    fn on_cta_exit(&mut self, cta: u16, _v: &PolicyView) {
        self.version += 1;
        self.remove(cta);
    }
}

impl<K: CtaKey> SmState for CtaRank<K> {
    fn cta_order(&self) -> Option<&[u16]> {
        Some(&self.order)
    }
}

/// One scheduler's policy under a CTA ranking `K`: CTAs in rank order; inside a CTA this
/// scheduler's warps that are not waiting, loose round robin from the warp after the one it
/// last issued from that CTA (`GREEDY = false`), or greedy-then-oldest: that warp first, then
/// the others oldest first (`GREEDY = true`). Waiting warps (barrier, finished) follow all
/// others, CTAs in rank order: the issue walk skips them, but a fetch policy reading the order
/// (CFF) sees the warps that can run first.
pub struct InCta<K, const GREEDY: bool> {
    me: u16,
    /// This scheduler's warp slots as a bit set (an SM has at most 64).
    my_slots: u64,
    wpc: u16,
    /// Per CTA slot: the warp slot this scheduler issued last from that CTA.
    last: Vec<Option<u16>>,
    /// The order as last built, valid while `built_at` equals the list's version, except for
    /// the runs of the CTAs in `dirty`.
    cache: Vec<u16>,
    built_at: u64,
    /// Per CTA slot: where its runnable warps start in `cache` (valid for the CTAs ranked
    /// when it was built).
    run_at: Vec<u16>,
    /// Bit `c`: CTA slot `c`'s `last` changed since its run in `cache` was written.
    dirty: u64,
    _rule: PhantomData<K>,
}

impl<K: CtaKey, const GREEDY: bool> InCta<K, GREEDY> {
    /// Appends this scheduler's order (see the type's doc) to `out`, noting where each CTA's
    /// run starts in `run_at` (when given). Bit sets throughout: within a CTA, slot order is
    /// age order and round-robin order.
    fn build(
        &self,
        sh: &CtaRank<K>,
        v: &PolicyView,
        out: &mut Vec<u16>,
        mut run_at: Option<&mut [u16]>,
    ) {
        let waiting = v.warps.waiting_bits();
        for &c in sh.order() {
            let c = c as usize;
            if let Some(at) = run_at.as_deref_mut() {
                at[c] = out.len() as u16;
            }
            self.run(c, v, |s| out.push(s));
        }
        for &c in sh.order() {
            let c = c as usize;
            push_bits(self.mine(c, v.ctas.warps[c]) & waiting, out);
        }
    }

    /// Hands CTA slot `c`'s runnable warps of this scheduler to `put`, in this scheduler's
    /// order. Their number depends only on occupancy and waiting flags (the list's version),
    /// not on `last`.
    #[inline(always)]
    fn run(&self, c: usize, v: &PolicyView, mut put: impl FnMut(u16)) {
        let runnable = self.mine(c, v.ctas.warps[c]) & !v.warps.waiting_bits();
        let last = self.last[c];
        let mut put_bits = |mut set: u64| {
            while set != 0 {
                put(set.trailing_zeros() as u16);
                set &= set - 1;
            }
        };
        if GREEDY {
            match last.filter(|&g| runnable >> g & 1 != 0) {
                Some(g) => {
                    put_bits(1 << g);
                    put_bits(runnable & !(1 << g));
                }
                None => put_bits(runnable),
            }
        } else {
            // Rotate to start after the last issuer.
            let after = bits_after(last);
            put_bits(runnable & after);
            put_bits(runnable & !after);
        }
    }

    /// Rewrites, in `order` (built at the list's current version), the runs of the CTAs whose
    /// last-issued warp changed.
    fn rewrite_dirty(&self, v: &PolicyView, order: &mut [u16]) {
        let mut dirty = self.dirty;
        while dirty != 0 {
            let c = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            let mut i = self.run_at[c] as usize;
            self.run(c, v, |s| {
                order[i] = s;
                i += 1;
            });
        }
    }

    /// This scheduler's warp slots of CTA slot `c` (resident with `warps` warps) as a bit set.
    #[inline]
    fn mine(&self, c: usize, warps: u16) -> u64 {
        let span = 1u64.checked_shl(warps as u32).map_or(!0, |b| b - 1);
        let base = (c * self.wpc as usize) as u32;
        span.checked_shl(base).unwrap_or(0) & self.my_slots
    }
}

impl<K: CtaKey, const GREEDY: bool> Build for InCta<K, GREEDY> {
    fn build(b: &BuildCtx) -> Self {
        InCta {
            me: b.scheduler as u16,
            my_slots: slot_bits(b.slots),
            wpc: b.warps_per_cta.max(1) as u16,
            last: vec![None; b.cta_slots],
            cache: Vec::with_capacity(b.slots.len()),
            // Never equal to the list's version before the first build.
            built_at: u64::MAX,
            run_at: vec![0; b.cta_slots],
            dirty: 0,
            _rule: PhantomData,
        }
    }
}

impl<K: CtaKey, const GREEDY: bool> IssuePolicy for InCta<K, GREEDY> {
    type Shared = CtaRank<K>;

    fn current_order(&self, sh: &CtaRank<K>, _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        out.clear();
        if self.built_at == sh.version {
            out.extend_from_slice(&self.cache);
            self.rewrite_dirty(v, out);
        } else {
            self.build(sh, v, out, None);
        }
    }

    fn order(&mut self, sh: &CtaRank<K>, _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        let mut cache = std::mem::take(&mut self.cache);
        if self.built_at != sh.version {
            let mut run_at = std::mem::take(&mut self.run_at);
            cache.clear();
            self.build(sh, v, &mut cache, Some(&mut run_at));
            self.run_at = run_at;
            self.built_at = sh.version;
        } else if self.dirty != 0 {
            self.rewrite_dirty(v, &mut cache);
        }
        self.dirty = 0;
        self.cache = cache;
        debug_assert_eq!(self.cache, {
            let mut fresh = Vec::new();
            self.build(sh, v, &mut fresh, None);
            fresh
        });
        out.clear();
        out.extend_from_slice(&self.cache);
    }

    // CFF reads the order every fetch cycle, usually right after an issue made the cache
    // stale: rebuild it once for both.
    fn fetch_order(&mut self, sh: &CtaRank<K>, slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        self.order(sh, slots, v, out);
    }
}

impl<K, const GREEDY: bool> Events for InCta<K, GREEDY> {
    fn on_issue(&mut self, e: &Issued, v: &PolicyView) {
        // Only this scheduler's own issues move its pointers (not a warp it issued for another
        // scheduler under warp sharing).
        if e.scheduler == self.me && !e.shared {
            let c = v.cta_of(e.slot);
            if self.last[c] != Some(e.slot) {
                self.last[c] = Some(e.slot);
                self.dirty |= 1 << c;
            }
        }
    }
    fn on_cta_launch(&mut self, cta: u16, _v: &PolicyView) {
        self.last[cta as usize] = None;
        self.dirty |= 1 << cta;
    }
}
