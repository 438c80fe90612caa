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
//! starts saturated and outside it. A completion costs one pass over the group (≤ W_active /
//! 2 slots), never one over every warp slot, and nothing is done per cycle.

use super::{
    bits_after, slot_bits, Build, BuildCtx, Events, IssuePolicy, Issued, PolicyView, SmState,
    MAX_WARP_SLOTS,
};
use warpsim_core::exec::warp::WarpState;

/// Scheduler `me`'s occupied slots and, of those, its memory-class warps (next instruction
/// for the load/store unit, not waiting), as bit sets over the SM's warp slots. The classes
/// come from `WarpSlots::memory_heads`, kept by the SM as I-buffer heads change. The orders
/// get both from their one pass over the age order; debug builds check them against this
/// (and this against the per-warp definition).
#[inline]
fn masks(me: u16, v: &PolicyView) -> (u64, u64) {
    let occupied = slot_bits(&v.slot_order[me as usize]);
    let memory = v.warps.memory_heads() & occupied;
    debug_assert_eq!(
        memory,
        v.slot_order[me as usize]
            .iter()
            .filter(|&&s| v.warps.memory_head(s as usize))
            .fold(0, |m, &s| m | 1 << s),
        "memory_heads is out of date"
    );
    (occupied, memory)
}

/// Scheduler `me`'s order: its memory-class warps oldest first, then its compute-class warps
/// in loose round-robin order starting after `last`, those in `first` (the recency group; all
/// for plain `motrr`) before the others, each group in that order. Slot order is bit order, so
/// the round robin is the bits above `last`, then the rest.
#[inline]
fn memory_then_round_robin(
    me: u16,
    last: Option<u16>,
    v: &PolicyView,
    first: u64,
    out: &mut Vec<u16>,
) {
    // One pass over the age order (this scheduler's occupied slots) gives the memory warps
    // in age order and the occupied set; the order is built in a fixed array and copied out
    // once (pushes check the capacity each time).
    let heads = v.warps.memory_heads();
    let mut order = [0u16; MAX_WARP_SLOTS];
    let (mut n, mut occupied) = (0, 0u64);
    for &s in &v.age_order[me as usize] {
        let bit = 1u64 << (s as usize % MAX_WARP_SLOTS);
        occupied |= bit;
        if heads & bit != 0 {
            order[n % MAX_WARP_SLOTS] = s;
            n += 1;
        }
    }
    debug_assert_eq!((occupied, occupied & heads), masks(me, v));
    let compute = occupied & !heads;
    let after = bits_after(last);
    for group in [compute & first, compute & !first] {
        for mut set in [group & after, group & !after] {
            while set != 0 {
                order[n % MAX_WARP_SLOTS] = set.trailing_zeros() as u16;
                n += 1;
                set &= set - 1;
            }
        }
    }
    out.extend_from_slice(&order[..n.min(MAX_WARP_SLOTS)]);
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
        // One pass over the age order: memory warps straight out, the others kept aside and
        // appended. (The age order holds only this scheduler's occupied slots, so the SM's
        // memory-class bits need no mask of them.)
        out.clear();
        let ages = &v.age_order[self.me as usize];
        debug_assert_eq!(
            masks(self.me, v).1,
            slot_bits(ages) & v.warps.memory_heads()
        );
        let heads = v.warps.memory_heads();
        let mut compute = [0u16; MAX_WARP_SLOTS];
        let mut n = 0;
        out.reserve(ages.len());
        for &s in ages {
            if heads >> (s as usize % MAX_WARP_SLOTS) & 1 != 0 {
                out.push(s);
            } else {
                compute[n % MAX_WARP_SLOTS] = s;
                n += 1;
            }
        }
        out.extend_from_slice(&compute[..n.min(MAX_WARP_SLOTS)]);
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
        memory_then_round_robin(self.last.me, self.last.last, v, !0, out);
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
        memory_then_round_robin(self.last.me, self.last.last, v, r.recent_mask, out);
    }
}

impl Events for MotrrRecency {
    fn on_issue(&mut self, e: &Issued, _v: &PolicyView) {
        self.last.on_issue(e);
    }
}

/// MOTRR's recency register: per warp slot a saturating counter and the R bit.
///
/// The counters are kept implicitly so that a completion costs O(group) instead of O(warp
/// slots): the SM counts memory completions (`tick`), and a warp's counter is the number of
/// completions since its own last one, `tick − last[s]`, saturated — exactly "reset on its own
/// completion, incremented on every other". The group is a list of at most W_active / 2
/// slots; W_active is kept up to date on launch and finish.
pub struct Recency {
    max: u16,
    /// Memory completions on the SM so far.
    tick: u64,
    /// `tick` at warp slot `s`'s last completion; `NEVER` before its first (saturated).
    last: Vec<u64>,
    /// The R bits, one per warp slot (at most 64: `MAX_WARP_SLOTS`).
    recent_mask: u64,
    /// The slots with the R bit, in the order they joined.
    group: Vec<u16>,
    /// Resident warps that have not finished.
    active: usize,
}

const NEVER: u64 = u64::MAX;

impl Recency {
    /// Warp slot `s` has the recency bit set.
    #[inline]
    pub fn recent(&self, s: u16) -> bool {
        self.recent_mask >> s & 1 != 0
    }

    /// Warp slot `s`'s counter.
    pub fn counter(&self, s: u16) -> u16 {
        match self.last[s as usize] {
            NEVER => self.max,
            l => (self.tick - l).min(self.max as u64) as u16,
        }
    }

    /// Warps in the recent group.
    pub fn members(&self) -> usize {
        self.group.len()
    }

    /// Removes the largest-counter members until at most W_active / 2 remain.
    fn trim(&mut self) {
        while self.group.len() > self.active / 2 {
            // The largest counter; among equal (saturated) counters the higher slot leaves.
            let Some(i) =
                (0..self.group.len()).max_by_key(|&i| (self.counter(self.group[i]), self.group[i]))
            else {
                break;
            };
            let out = self.group.swap_remove(i);
            self.recent_mask &= !(1 << out);
        }
    }

    fn leave(&mut self, s: usize) {
        if self.recent(s as u16) {
            self.recent_mask &= !(1 << s);
            let i = self
                .group
                .iter()
                .position(|&g| g as usize == s)
                .expect("a recent warp is in the group");
            self.group.swap_remove(i);
        }
    }
}

impl Build for Recency {
    fn build(b: &BuildCtx) -> Recency {
        // Bounds keep recency_bits in 1..=16.
        let max = ((1u32 << b.params.motrr.recency_bits.clamp(1, 16)) - 1) as u16;
        debug_assert!(
            b.warp_slots <= MAX_WARP_SLOTS,
            "sm.max_warps is bounded by 64"
        );
        Recency {
            max,
            tick: 0,
            last: vec![NEVER; b.warp_slots],
            recent_mask: 0,
            group: Vec::with_capacity(b.warp_slots),
            active: 0,
        }
    }
}

impl Events for Recency {
    fn on_mem_complete(&mut self, slot: u16, v: &PolicyView) {
        self.tick += 1;
        let s = slot as usize;
        self.last[s] = self.tick;
        // A finished warp whose stores drain still resets its counter but cannot issue again:
        // it does not take a place in the group.
        if v.warps.state()[s] != WarpState::Done && !self.recent(slot) {
            self.recent_mask |= 1 << s;
            self.group.push(slot);
        }
        self.trim();
    }

    fn on_warp_finished(&mut self, slot: u16, _v: &PolicyView) {
        self.active = self.active.saturating_sub(1);
        self.leave(slot as usize);
        self.trim();
    }

    fn on_cta_launch(&mut self, cta: u16, v: &PolicyView) {
        let base = cta as usize * v.warps_per_cta;
        let n = v.ctas.warps[cta as usize] as usize;
        for s in base..base + n {
            self.last[s] = NEVER;
            self.leave(s);
        }
        self.active += n;
    }

    fn on_cta_exit(&mut self, cta: u16, v: &PolicyView) {
        let base = cta as usize * v.warps_per_cta;
        for s in base..base + v.ctas.warps[cta as usize] as usize {
            self.leave(s);
        }
    }
}

impl SmState for Recency {}
