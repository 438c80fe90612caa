//! `tls`: two-level scheduling (Narasiman et al. MICRO'11; GPGPU-Sim `two_level_active:N:0:1`).
//! An active set of N warps per scheduler (`policy.tls.active`), ordered LRR, is the only set
//! that may issue. Each cycle, before ordering: warps that left (CTA exited) are dropped, newly
//! resident warps join the back of the pending FIFO (in slot order), every active warp that is
//! waiting (barrier, finished) or whose next instruction reads/writes the result of an
//! outstanding global/local load is demoted to the back of the pending FIFO, and the active set
//! is refilled from the FIFO front.
//!
//! A demoted warp goes to the back of the FIFO, so with few pending warps it can come straight
//! back: while an active warp is waiting or blocked on a load, every cycle rotates the sets.
//! Otherwise the active set changes only when a warp's occupancy, waiting flag or blocking
//! state does — each of which wakes a sleeping scheduler — so the scheduler may sleep
//! (`MAY_SLEEP`, `settled`). While it rotates it may sleep too when the rotation is
//! predictable: every pending warp is due for demotion (so only due warps cycle through the
//! free active places), and which warps are active makes no difference to the walk's
//! issue-slot outcome (see `settled`). The due warps then stay due until a wake-up, so the
//! next `order` (or `fetch_order`) first replays the rotations of the cycles slept through
//! from the due set saved at sleep: one step, after which the due warps form a cyclic
//! sequence that each further step moves on by the number of free active places, so the rest
//! is one rotation of it. Every sleeping scheduler wakes in the cycle a warp's flags change
//! (`Sm::block`), so the saved set is never stale. Membership is re-scanned only when
//! the SM's `WarpSlots::version` (occupancy and waiting flags) moved.
//!
//! For critical-fetch-first the order goes on past the active set: the pending FIFO front to
//! back, then warps that became resident since the last cycle (slot order) — the order in which
//! they would be promoted.

use super::{rotate_after, Block, Build, BuildCtx, Events, IssuePolicy, Issued, PolicyView};

/// A scheduler has at most as many warp slots as its SM: the sets below are fixed arrays of
/// that size and a bit set (no allocation, indices masked).
const MAX_SLOTS: usize = super::MAX_WARP_SLOTS;

/// The warps of `slots` as a bit set.
#[inline]
fn slot_set(slots: &[u16]) -> u64 {
    slots.iter().fold(0, |m, &s| m | 1 << (s & 63))
}

/// The pending FIFO: a ring over `MAX_SLOTS` entries (each warp is in it at most once).
struct Ring {
    buf: [u16; MAX_SLOTS],
    head: usize,
    len: usize,
}

impl Ring {
    #[inline]
    fn push_back(&mut self, s: u16) {
        debug_assert!(self.len < MAX_SLOTS);
        self.buf[(self.head + self.len) % MAX_SLOTS] = s;
        self.len += 1;
    }

    #[inline]
    fn pop_front(&mut self) -> Option<u16> {
        if self.len == 0 {
            return None;
        }
        let s = self.buf[self.head % MAX_SLOTS];
        self.head = (self.head + 1) % MAX_SLOTS;
        self.len -= 1;
        Some(s)
    }

    /// The FIFO front to back, as the two pieces of the ring.
    fn slices(&self) -> (&[u16], &[u16]) {
        let head = self.head % MAX_SLOTS;
        let first = self.len.min(MAX_SLOTS - head);
        (&self.buf[head..head + first], &self.buf[..self.len - first])
    }

    fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        (0..self.len).map(move |i| self.buf[(self.head + i) % MAX_SLOTS])
    }

    /// Drops `s`, keeping the others in order.
    fn remove(&mut self, s: u16) {
        let mut kept = 0;
        for i in 0..self.len {
            let x = self.buf[(self.head + i) % MAX_SLOTS];
            if x != s {
                self.buf[(self.head + kept) % MAX_SLOTS] = x;
                kept += 1;
            }
        }
        self.len = kept;
    }
}

pub struct Tls {
    me: u16,
    n: usize,
    active: [u16; MAX_SLOTS],
    n_active: usize,
    pending: Ring,
    /// Bit `s`: warp slot `s` is in the active set or the pending FIFO.
    joined: u64,
    last: Option<u16>,
    /// `WarpSlots::version` when membership was last brought up to date.
    seen: u64,
    /// The warps the last rotation promoted that were already due for demotion (bit per
    /// slot; non-zero: rotating, see `settled`).
    promoted_due: u64,
    /// The active set the last rotation left (bit per slot).
    active_bits: u64,
    /// The cycle of the last rotation applied (by `order`, or replayed).
    ordered_at: u64,
    /// Asleep while rotating: the warps due for demotion when it fell asleep (bit per slot),
    /// whose rotations the next call replays; 0 when there is nothing to replay.
    replay_due: u64,
}

impl Tls {
    /// Scheduler `me`'s policy with an active set of `n` (at most `MAX_SLOTS` count).
    pub fn new(me: usize, n: usize) -> Tls {
        Tls {
            me: me as u16,
            n: n.min(MAX_SLOTS),
            active: [0; MAX_SLOTS],
            n_active: 0,
            pending: Ring {
                buf: [0; MAX_SLOTS],
                head: 0,
                len: 0,
            },
            joined: 0,
            last: None,
            seen: u64::MAX,
            promoted_due: 0,
            active_bits: 0,
            ordered_at: 0,
            replay_due: 0,
        }
    }

    /// The current active set (for tests and tracing).
    pub fn active(&self) -> &[u16] {
        &self.active[..self.n_active]
    }

    #[inline]
    fn joined(&self, s: u16) -> bool {
        self.joined >> s & 1 != 0
    }

    /// Active warp `s` is demoted by the next `order`.
    #[inline]
    fn due_for_demotion(s: u16, v: &PolicyView) -> bool {
        // Both tests, no branch between them (the bit set is `waiting`; slots are below 64).
        (v.warps.waiting_bits() >> s & 1 != 0) | v.long_dep(s)
    }

    /// Appends the active set in round-robin order after the last issued warp, when every
    /// member is known resident.
    #[inline(always)]
    fn resident_round_robin(&self, out: &mut Vec<u16>) {
        let active = self.active();
        let start = self
            .last
            .and_then(|l| active.iter().position(|&s| s == l))
            .map_or(0, |i| i + 1);
        out.extend_from_slice(&active[start..]);
        out.extend_from_slice(&active[..start]);
    }

    /// One cycle's rotation with `due` telling which warps are due for demotion: the due
    /// active warps go to the back of the pending FIFO (the others keep their order), then
    /// the active set is refilled from the FIFO's front. Notes the promoted warps that are
    /// themselves due (`promoted_due`) and the new active set (`active_bits`).
    #[inline(always)]
    fn rotate(&mut self, due: impl Fn(u16) -> bool) {
        // Both counts are at most `MAX_SLOTS`; saying so lets the indexing go unchecked.
        let (n_active, n) = (self.n_active.min(MAX_SLOTS), self.n.min(MAX_SLOTS));
        let (mut kept, mut bits) = (0, 0u64);
        for i in 0..n_active {
            let s = self.active[i];
            if due(s) {
                self.pending.push_back(s);
            } else {
                self.active[kept] = s;
                kept += 1;
                bits |= 1 << (s & 63);
            }
        }
        let mut promoted_due = 0;
        while kept < n {
            let Some(s) = self.pending.pop_front() else {
                break;
            };
            self.active[kept] = s;
            kept += 1;
            let bit = 1 << (s & 63);
            bits |= bit;
            if due(s) {
                promoted_due |= bit;
            }
        }
        self.n_active = kept;
        self.promoted_due = promoted_due;
        self.active_bits = bits;
    }

    /// Applies the rotations of the cycles before `until` that a sleep skipped (see the
    /// module doc), from the due set saved when the scheduler fell asleep.
    #[inline(always)]
    fn catch_up(&mut self, until: u64) {
        if self.replay_due != 0 && until > self.ordered_at + 1 {
            self.replay(until);
        }
    }

    #[inline(never)]
    fn replay(&mut self, until: u64) {
        let due = self.replay_due;
        let skipped = until - (self.ordered_at + 1);
        let is_due = |s: u16| due >> s & 1 != 0;
        self.rotate(is_due);
        self.ordered_at = until - 1;
        // Now the active set is the warps that are not due (in order) followed by `d` due
        // ones, and every pending warp is due. A step moves the cyclic sequence "pending
        // FIFO, then the active due warps" on by `d`: the other `skipped - 1` steps move it on
        // by `d * (skipped - 1)`.
        let n_active = self.n_active.min(MAX_SLOTS);
        let d = self.active[..n_active]
            .iter()
            .rev()
            .take_while(|&&s| is_due(s))
            .count();
        debug_assert!(self.active[..n_active - d].iter().all(|&s| !is_due(s)));
        debug_assert!(self.pending.iter().all(is_due));
        let r = self.pending.len;
        let l = r + d;
        if l == 0 {
            return;
        }
        let shift = (d as u64 * (skipped - 1) % l as u64) as usize;
        if shift == 0 {
            return;
        }
        // The sequence, contiguous: the FIFO (in at most two pieces of its ring), then the
        // due active warps; rotated left by `shift`, and written back in the same places.
        let mut cycle = [0u16; MAX_SLOTS];
        let (front, back) = self.pending.slices();
        cycle[..front.len()].copy_from_slice(front);
        cycle[front.len()..r].copy_from_slice(back);
        cycle[r..l].copy_from_slice(&self.active[n_active - d..n_active]);
        cycle[..l].rotate_left(shift);
        self.pending.head = 0;
        self.pending.buf[..r].copy_from_slice(&cycle[..r]);
        self.active[n_active - d..n_active].copy_from_slice(&cycle[r..l]);
    }

    /// Brings membership up to date with occupancy: newly resident warps join the back of the
    /// pending FIFO (slot order), warps that left are dropped.
    fn follow_occupancy(&mut self, slots: &[u16], v: &PolicyView) {
        for &s in slots {
            let (occ, joined) = (v.occupied(s), self.joined(s));
            if occ && !joined {
                self.joined |= 1 << s;
                self.pending.push_back(s);
            } else if !occ && joined {
                self.joined &= !(1 << s);
                if let Some(i) = self.active().iter().position(|&a| a == s) {
                    self.active.copy_within(i + 1..self.n_active, i);
                    self.n_active -= 1;
                }
                self.pending.remove(s);
            }
        }
    }
}

impl Build for Tls {
    fn build(b: &BuildCtx) -> Tls {
        debug_assert!(b.warp_slots <= MAX_SLOTS, "sm.max_warps is bounded by 64");
        Tls::new(b.scheduler, b.params.tls.active as usize)
    }
}

impl IssuePolicy for Tls {
    type Shared = ();
    const FETCH_FIRST: bool = true;

    fn current_order(&self, _: &(), _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        out.clear();
        rotate_after(self.active(), self.last, v, out);
    }

    fn settled(&mut self, v: &PolicyView) -> bool {
        // The warps `order` kept were checked not due; only a promoted one can be (the walk
        // that followed changed no warp's state, or something issued and nobody asks).
        if self.promoted_due == 0 {
            return true;
        }
        // Rotating. Replayable when every pending warp is due (then only due warps rotate).
        // The walk's outcome must not depend on which due warps are active: due warps are
        // never candidates (waiting, or blocked on a load until their wake cycle), so they
        // only add `Block::Data` to it — the same whichever are active when all due warps
        // agree on it, or when a non-due active warp is already blocked on data.
        let (active, mut due) = (self.active_bits, self.promoted_due);
        debug_assert!(self.active().iter().all(|&s| active >> s & 1 != 0));
        debug_assert!(self
            .active()
            .iter()
            .all(|&s| Tls::due_for_demotion(s, v) == (due >> s & 1 != 0)));
        let mut kept_data = false;
        let mut m = active & !due;
        while m != 0 {
            let s = m.trailing_zeros() as u16;
            m &= m - 1;
            kept_data |= v.warps.block[s as usize] == Block::Data && !v.candidate(s);
        }
        // The members are the active warps and the pending ones; a pending warp that is not
        // waiting must be blocked on a load.
        let pending = self.joined & !active;
        let mut m = pending & !v.warps.waiting_bits();
        while m != 0 {
            let s = m.trailing_zeros() as u16;
            m &= m - 1;
            if !v.long_dep(s) {
                return false;
            }
        }
        due |= pending;
        if !kept_data {
            let (mut data, mut other) = (false, false);
            let mut m = due;
            while m != 0 {
                let s = m.trailing_zeros() as usize;
                m &= m - 1;
                let d = v.warps.block[s] == Block::Data;
                (data, other) = (data | d, other | !d);
            }
            if data && other {
                return false;
            }
        }
        self.replay_due = due;
        true
    }

    fn fetch_order(&mut self, sh: &(), slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        // Fetch comes after issue: asleep, this cycle's rotation is one of those to replay.
        self.catch_up(v.now + 1);
        if self.seen == v.warps.version() {
            // Membership is current (`order` ran since the last occupancy change): every
            // member is resident and every resident warp a member.
            out.clear();
            self.resident_round_robin(out);
            let (front, back) = self.pending.slices();
            out.extend_from_slice(front);
            out.extend_from_slice(back);
            return;
        }
        self.current_order(sh, slots, v, out);
        out.extend(self.pending.iter().filter(|&s| v.occupied(s)));
        out.extend(
            slots
                .iter()
                .copied()
                .filter(|&s| v.occupied(s) && !self.joined(s)),
        );
    }

    fn fetch_first(
        &mut self,
        sh: &(),
        slots: &[u16],
        v: &PolicyView,
        among: u64,
        scratch: &mut Vec<u16>,
    ) -> Option<u16> {
        self.catch_up(v.now + 1);
        if self.seen != v.warps.version() {
            // Membership is behind occupancy (rare): the whole order, as `fetch_order`.
            scratch.clear();
            self.fetch_order(sh, slots, v, scratch);
            return scratch
                .iter()
                .copied()
                .find(|&s| among >> (s & 63) & 1 != 0);
        }
        // `fetch_order`'s order without building it: the active set round robin after the
        // last issued warp, then the FIFO front to back.
        let is = |s: &u16| among >> (s & 63) & 1 != 0;
        let active = self.active();
        let start = self
            .last
            .and_then(|l| active.iter().position(|&s| s == l))
            .map_or(0, |i| i + 1);
        let (before, after) = active.split_at(start);
        if let Some(&s) = after.iter().chain(before).find(|s| is(s)) {
            return Some(s);
        }
        // Every resident warp is a member: the rest of `among` is in the FIFO.
        if among & !slot_set(active) == 0 {
            return None;
        }
        let (front, back) = self.pending.slices();
        front.iter().chain(back).copied().find(|s| is(s))
    }

    fn order(&mut self, _: &(), slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        // The cycles slept through had the occupancy of before (a change wakes it).
        self.catch_up(v.now);
        self.replay_due = 0;
        if self.seen != v.warps.version() {
            self.seen = v.warps.version();
            self.follow_occupancy(slots, v);
        }
        self.rotate(|s| Tls::due_for_demotion(s, v));
        self.ordered_at = v.now;
        // Every active warp is resident now: the round robin needs no occupancy filter.
        out.clear();
        self.resident_round_robin(out);
    }
}

impl Events for Tls {
    fn on_issue(&mut self, e: &Issued, _v: &PolicyView) {
        if e.scheduler == self.me {
            self.last = Some(e.slot);
        }
    }
}
