//! `mto`, `motrr`, `motrr-recency`: memory-first warp scheduling (MOTRR, paper 004 §III,
//! Algorithm 1). A warp's class is the unit of its next (I-buffer head) instruction: *memory*
//! when it is a `ld` / `st` / `atom` / `red` of any state space (global, local, shared, const,
//! param; `Unit::Ldst`), *compute* otherwise. Each scheduler's order is its memory-class warps
//! oldest first (the paper's "GTO ordering logic": sorted by the time the warp was assigned to
//! the SM), then its compute-class warps:
//!
//! | policy | compute-class warps |
//! |---|---|
//! | `mto` | oldest first |
//! | `motrr` | round robin from the warp after the one this scheduler issued last |
//! | `motrr-recency` | round robin as `motrr`, warps with the recency bit first (Algorithm 1's `LRR_prior` vs `LRR_prior − MAX_NUM_WARP`) |
//!
//! Warps with an empty I-buffer or waiting at a barrier / exit cannot issue; they sit in the
//! compute section, where the issue walk skips them. A memory warp whose unit is busy is
//! skipped too, so a compute warp issues instead ("when no memory instruction can issue, or
//! the memory pipeline stalls, a compute warp is chosen").
//!
//! **Recency** ([`Recency`], kept once per SM as the paper's one recency register): a per-warp
//! counter of `policy.motrr.recency_bits` bits (default 6), reset to 0 when one of the warp's
//! memory instructions completes and incremented (saturating) for every other resident warp.
//! A completing live warp joins the recent group (R bit = 1); while the group holds more than
//! W_active / 2 warps (W_active = resident warps that have not finished, counted when it
//! changes), the member with the largest counter leaves — among equal (saturated) counters the
//! higher warp slot. A warp that finishes leaves the group. So the group is the up to
//! W_active / 2 live warps whose memory instructions completed most recently; a new warp
//! starts saturated and outside it. Every update is one pass over the SM's warp slots at a
//! memory completion, a warp finish or a CTA launch — never per cycle.

use super::{Build, BuildCtx, Events, IssuePolicy, Issued, PolicyView, SmState};
use crate::classify::Unit;
use warpsim_core::exec::warp::WarpState;

/// The warp's next instruction goes to the load/store unit.
#[inline]
fn memory_class(s: u16, v: &PolicyView) -> bool {
    let i = s as usize;
    v.warps.ib_n[i] > 0 && v.warps.head_unit[i] == Unit::Ldst && !v.warps.waiting[i]
}

/// Appends scheduler `me`'s memory-class warps, oldest first.
#[inline]
fn memory_oldest(me: u16, v: &PolicyView, out: &mut Vec<u16>) {
    out.extend(
        v.age_order[me as usize]
            .iter()
            .copied()
            .filter(|&s| memory_class(s, v)),
    );
}

/// Appends scheduler `me`'s compute-class warps that pass `keep`, in slot order rotated to
/// start after `last` (loose round robin).
#[inline]
fn compute_round_robin(
    me: u16,
    last: Option<u16>,
    v: &PolicyView,
    keep: impl Fn(u16) -> bool,
    out: &mut Vec<u16>,
) {
    let o = &v.slot_order[me as usize];
    let start = last.map_or(0, |l| o.partition_point(|&s| s <= l));
    let (before, after) = o.split_at(start);
    out.extend(
        after
            .iter()
            .chain(before)
            .copied()
            .filter(|&s| !memory_class(s, v) && keep(s)),
    );
}

/// The warp this scheduler issued last (its own warps only, as GPGPU-Sim's LRR pointer).
#[derive(Clone, Copy, Default)]
struct LastIssued {
    me: u16,
    last: Option<u16>,
}

impl LastIssued {
    fn new(me: usize) -> LastIssued {
        LastIssued {
            me: me as u16,
            last: None,
        }
    }

    fn on_issue(&mut self, e: &Issued) {
        if e.scheduler == self.me && !e.shared {
            self.last = Some(e.slot);
        }
    }
}

/// `mto`: memory then oldest.
pub struct Mto {
    me: u16,
}

impl Build for Mto {
    fn build(b: &BuildCtx) -> Mto {
        Mto {
            me: b.scheduler as u16,
        }
    }
}

impl IssuePolicy for Mto {
    type Shared = ();

    fn current_order(&self, _: &(), _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        out.clear();
        memory_oldest(self.me, v, out);
        out.extend(
            v.age_order[self.me as usize]
                .iter()
                .copied()
                .filter(|&s| !memory_class(s, v)),
        );
    }
}

impl Events for Mto {}

/// `motrr`: memory oldest, then round robin.
pub struct Motrr {
    last: LastIssued,
}

impl Build for Motrr {
    fn build(b: &BuildCtx) -> Motrr {
        Motrr {
            last: LastIssued::new(b.scheduler),
        }
    }
}

impl IssuePolicy for Motrr {
    type Shared = ();

    fn current_order(&self, _: &(), _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        out.clear();
        let me = self.last.me;
        memory_oldest(me, v, out);
        compute_round_robin(me, self.last.last, v, |_| true, out);
    }
}

impl Events for Motrr {
    fn on_issue(&mut self, e: &Issued, _v: &PolicyView) {
        self.last.on_issue(e);
    }
}

/// `motrr-recency`: `motrr` with recently-completed compute warps first.
pub struct MotrrRecency {
    last: LastIssued,
}

impl Build for MotrrRecency {
    fn build(b: &BuildCtx) -> MotrrRecency {
        MotrrRecency {
            last: LastIssued::new(b.scheduler),
        }
    }
}

impl IssuePolicy for MotrrRecency {
    type Shared = Recency;
    const WANTS_MEM_EVENTS: bool = true;

    fn current_order(&self, r: &Recency, _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        out.clear();
        let (me, last) = (self.last.me, self.last.last);
        memory_oldest(me, v, out);
        compute_round_robin(me, last, v, |s| r.recent(s), out);
        compute_round_robin(me, last, v, |s| !r.recent(s), out);
    }
}

impl Events for MotrrRecency {
    fn on_issue(&mut self, e: &Issued, _v: &PolicyView) {
        self.last.on_issue(e);
    }
}

/// MOTRR's recency register: per warp slot a saturating counter and the R bit.
pub struct Recency {
    max: u16,
    counter: Vec<u16>,
    recent: Vec<bool>,
    members: usize,
}

impl Recency {
    /// Warp slot `s` has the recency bit set.
    #[inline]
    pub fn recent(&self, s: u16) -> bool {
        self.recent[s as usize]
    }

    /// Warp slot `s`'s counter.
    pub fn counter(&self, s: u16) -> u16 {
        self.counter[s as usize]
    }

    /// Warps in the recent group.
    pub fn members(&self) -> usize {
        self.members
    }

    /// Resident warps that have not finished (W_active).
    fn active(v: &PolicyView) -> usize {
        (0..v.warps.len())
            .filter(|&s| v.warps.occupied[s] && v.warps.state[s] != WarpState::Done)
            .count()
    }

    /// Removes the largest-counter members until at most W_active / 2 remain.
    fn trim(&mut self, v: &PolicyView) {
        let limit = Recency::active(v) / 2;
        while self.members > limit {
            // `max_by_key` keeps the last maximum: among equal counters the higher slot leaves.
            let Some(out) = (0..self.recent.len())
                .filter(|&s| self.recent[s])
                .max_by_key(|&s| self.counter[s])
            else {
                break;
            };
            self.recent[out] = false;
            self.members -= 1;
        }
    }

    fn leave(&mut self, s: usize) {
        if self.recent[s] {
            self.recent[s] = false;
            self.members -= 1;
        }
    }
}

impl Build for Recency {
    fn build(b: &BuildCtx) -> Recency {
        // Bounds keep recency_bits in 1..=16.
        let max = ((1u32 << b.params.motrr.recency_bits.clamp(1, 16)) - 1) as u16;
        Recency {
            max,
            counter: vec![max; b.warp_slots],
            recent: vec![false; b.warp_slots],
            members: 0,
        }
    }
}

impl Events for Recency {
    fn on_mem_complete(&mut self, slot: u16, v: &PolicyView) {
        for (s, c) in self.counter.iter_mut().enumerate() {
            if v.warps.occupied[s] {
                *c = (*c + 1).min(self.max);
            }
        }
        let s = slot as usize;
        self.counter[s] = 0;
        // A finished warp whose stores drain still resets its counter but cannot issue again:
        // it does not take a place in the group.
        if v.warps.state[s] != WarpState::Done && !self.recent[s] {
            self.recent[s] = true;
            self.members += 1;
        }
        self.trim(v);
    }

    fn on_warp_finished(&mut self, slot: u16, v: &PolicyView) {
        self.leave(slot as usize);
        self.trim(v);
    }

    fn on_cta_launch(&mut self, cta: u16, v: &PolicyView) {
        let base = cta as usize * v.warps_per_cta;
        for s in base..base + v.ctas.warps[cta as usize] as usize {
            self.counter[s] = self.max;
            self.leave(s);
        }
    }

    fn on_cta_exit(&mut self, cta: u16, v: &PolicyView) {
        let base = cta as usize * v.warps_per_cta;
        for s in base..base + v.ctas.warps[cta as usize] as usize {
            self.leave(s);
        }
    }
}

impl SmState for Recency {}
