//! `tls`: two-level scheduling (Narasiman et al. MICRO'11) as GPGPU-Sim implements it
//! (`two_level_active_scheduler`, `two_level_active:N:0:1`). Every warp slot of the scheduler
//! is a member from the start, occupied or not: the first N (`policy.tls.active`) form the
//! active set, the only set that may issue, the rest wait in the pending FIFO in slot order
//! (`done_adding_supervised_warps`). Each cycle, before ordering, every active member that is
//! due for demotion goes to the back of the FIFO and the active set is refilled from its
//! front (`order_warps`). Due: an empty slot or a finished warp (`functional_done`), a warp at
//! a barrier or with atomics in flight (`waiting`), or one whose next instruction reads the
//! result of an outstanding global/local load through an input operand (`islongop` on
//! `in[]`: not an address base, see `RegUse::in_operands`). The active set is kept in LRR
//! order: an issue rotates it so the warp after the issuing one leads
//! (`do_on_warp_issued`); the order offered to issue is the active set's occupied slots.
//!
//! Empty slots take active places too: with few resident warps they rotate through the
//! active set with the due warps, so fewer warps than N can issue, as in GPGPU-Sim.
//!
//! A demoted warp goes to the back of the FIFO, so with few pending members it can come
//! straight back: while an active member is due, every cycle rotates the sets. Otherwise the
//! active set changes only when a warp's occupancy, waiting flag or blocking state does —
//! each of which wakes a sleeping scheduler — so the scheduler may sleep (`MAY_SLEEP`,
//! `settled`). While it rotates it may sleep too when the rotation is predictable: every
//! pending member is due (so only due members cycle through the free active places), and
//! which are active makes no difference to the walk's issue-slot outcome (see `settled`). The
//! due members then stay due until a wake-up, so the next `order` (or `fetch_order`) first
//! replays the rotations of the cycles slept through from the due set saved at sleep: one
//! step, after which the due members form a cyclic sequence that each further step moves on
//! by the number of free active places, so the rest is one rotation of it. Every sleeping
//! scheduler wakes in the cycle a warp's flags change (`Sm::block`), so the saved set is
//! never stale.
//!
//! For critical-fetch-first the order goes on past the active set: the pending FIFO front to
//! back (occupied slots), the order in which they would be promoted.

use super::{Block, Build, BuildCtx, Events, IssuePolicy, Issued, PolicyView};

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
}

pub struct Tls {
    me: u16,
    n: usize,
    /// The active set in LRR order (rotated at each issue so the warp after the issuing one
    /// leads), occupied slots or not.
    active: [u16; MAX_SLOTS],
    n_active: usize,
    pending: Ring,
    /// Bit `s`: slot `s` is one of this scheduler's (in the active set or the FIFO).
    members: u64,
    /// The warps the last rotation promoted that were already due for demotion (bit per
    /// slot; non-zero: rotating, see `settled`).
    promoted_due: u64,
    /// The active set the last rotation left (bit per slot).
    active_bits: u64,
    /// The cycle of the last rotation applied (by `order`, or replayed).
    ordered_at: u64,
    /// Asleep while rotating: the members due for demotion when it fell asleep (bit per
    /// slot), whose rotations the next call replays; 0 when there is nothing to replay.
    replay_due: u64,
}

impl Tls {
    /// Scheduler `me`'s policy over its warp slots `slots` (at most `MAX_SLOTS`), with an
    /// active set of `n`: the first `n` slots, the others pending in slot order.
    pub fn new(me: usize, n: usize, slots: &[u16]) -> Tls {
        let n = n.min(MAX_SLOTS);
        let slots = &slots[..slots.len().min(MAX_SLOTS)];
        let mut t = Tls {
            me: me as u16,
            n,
            active: [0; MAX_SLOTS],
            n_active: 0,
            pending: Ring {
                buf: [0; MAX_SLOTS],
                head: 0,
                len: 0,
            },
            members: slot_set(slots),
            promoted_due: 0,
            active_bits: 0,
            ordered_at: 0,
            replay_due: 0,
        };
        for &s in slots {
            if t.n_active < n {
                t.active[t.n_active] = s;
                t.n_active += 1;
                t.active_bits |= 1 << (s & 63);
            } else {
                t.pending.push_back(s);
            }
        }
        t
    }

    /// The current active set in LRR order, empty slots included (for tests and tracing).
    pub fn active(&self) -> &[u16] {
        &self.active[..self.n_active]
    }

    /// Member `s` is demoted by the next `order` if active (and stays pending otherwise).
    #[inline]
    fn due_for_demotion(s: u16, v: &PolicyView) -> bool {
        // No branch between the tests (the bit sets are `waiting` and `occupied`; slots are
        // below 64).
        let idle = v.warps.waiting_bits() | !v.warps.occupied_bits();
        (idle >> s & 1 != 0) | v.long_dep(s)
    }

    /// Appends `slots`' occupied ones, in order.
    #[inline(always)]
    fn occupied_of(slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        let occupied = v.warps.occupied_bits();
        out.extend(slots.iter().copied().filter(|&s| occupied >> s & 1 != 0));
    }

    /// One cycle's rotation with `due` telling which members are due for demotion: the due
    /// active ones go to the back of the pending FIFO (the others keep their order), then
    /// the active set is refilled from the FIFO's front. Notes the promoted members that are
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
        // Now the active set is the members that are not due (in order) followed by `d` due
        // ones, and every pending member is due. A step moves the cyclic sequence "pending
        // FIFO, then the active due members" on by `d`: the other `skipped - 1` steps move it
        // on by `d * (skipped - 1)`.
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
        // due active members; rotated left by `shift`, and written back in the same places.
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
}

impl Build for Tls {
    fn build(b: &BuildCtx) -> Tls {
        debug_assert!(b.warp_slots <= MAX_SLOTS, "sm.max_warps is bounded by 64");
        Tls::new(b.scheduler, b.params.tls.active as usize, b.slots)
    }
}

impl IssuePolicy for Tls {
    type Shared = ();
    const FETCH_FIRST: bool = true;

    fn current_order(&self, _: &(), _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        out.clear();
        Tls::occupied_of(self.active(), v, out);
    }

    fn settled(&mut self, v: &PolicyView) -> bool {
        // The members `order` kept were checked not due; only a promoted one can be (the
        // walk that followed changed no warp's state, or something issued and nobody asks).
        if self.promoted_due == 0 {
            return true;
        }
        // Rotating. Replayable when every pending member is due (then only due members
        // rotate). The walk's outcome must not depend on which due members are active: empty
        // slots are not in the order, and due warps are never candidates (waiting, or blocked
        // on a load until their wake cycle), so they only add `Block::Data` to it — the same
        // whichever are active when all due warps agree on it, or when a non-due active warp
        // is already blocked on data.
        let (active, mut due) = (self.active_bits, self.promoted_due);
        debug_assert!(self.active().iter().all(|&s| active >> s & 1 != 0));
        debug_assert!(self
            .active()
            .iter()
            .all(|&s| Tls::due_for_demotion(s, v) == (due >> s & 1 != 0)));
        let occupied = v.warps.occupied_bits();
        let mut kept_data = false;
        let mut m = active & !due;
        while m != 0 {
            let s = m.trailing_zeros() as u16;
            m &= m - 1;
            kept_data |= v.warps.block[s as usize] == Block::Data && !v.candidate(s);
        }
        // A pending warp that is resident and not waiting must be blocked on a load.
        let pending = self.members & !active;
        let mut m = pending & occupied & !v.warps.waiting_bits();
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
            let mut m = due & occupied;
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

    fn fetch_order(&mut self, _: &(), _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        // Fetch comes after issue: asleep, this cycle's rotation is one of those to replay.
        self.catch_up(v.now + 1);
        out.clear();
        Tls::occupied_of(self.active(), v, out);
        let (front, back) = self.pending.slices();
        Tls::occupied_of(front, v, out);
        Tls::occupied_of(back, v, out);
    }

    fn fetch_first(
        &mut self,
        _: &(),
        _slots: &[u16],
        v: &PolicyView,
        among: u64,
        _scratch: &mut Vec<u16>,
    ) -> Option<u16> {
        self.catch_up(v.now + 1);
        // `fetch_order`'s order without building it (`among` holds occupied slots only).
        let is = |s: &u16| among >> (s & 63) & 1 != 0;
        if let Some(&s) = self.active().iter().find(|s| is(s)) {
            return Some(s);
        }
        if among & self.members & !self.active_bits == 0 {
            return None;
        }
        let (front, back) = self.pending.slices();
        front.iter().chain(back).copied().find(|s| is(s))
    }

    fn order(&mut self, _: &(), _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        self.catch_up(v.now);
        self.replay_due = 0;
        self.rotate(|s| Tls::due_for_demotion(s, v));
        self.ordered_at = v.now;
        out.clear();
        Tls::occupied_of(self.active(), v, out);
    }
}

impl Events for Tls {
    fn on_issue(&mut self, e: &Issued, _v: &PolicyView) {
        if e.scheduler != self.me {
            return;
        }
        // GPGPU-Sim reorders the active set LRR after each issue: the next warp leads.
        let n_active = self.n_active.min(MAX_SLOTS);
        if let Some(i) = self.active[..n_active].iter().position(|&s| s == e.slot) {
            self.active[..n_active].rotate_left(i + 1);
        }
    }
}
