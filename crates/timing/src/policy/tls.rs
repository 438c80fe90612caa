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
//! pending member is due, so only due members cycle through the free active places. The due
//! members then stay due until a wake-up, so the next `order` (or `fetch_order`) first
//! replays the rotations of the cycles slept through from the due set saved at sleep: the due
//! members form a cyclic sequence in which each step moves the active window on by the number
//! of free active places (`due_cycle`), so any number of steps is one rotation of it. Every
//! sleeping scheduler wakes in the cycle a warp's flags change (`Sm::block`), so the saved set
//! is never stale. Which due warps are active changes only whether the walk meets a warp
//! blocked on data (due warps are never candidates, and empty slots are not in the order):
//! the scoreboard against the idle outcome. Unless an active warp that stays is blocked on
//! data anyway, `settled` works out that outcome for each cycle of the sleep from the same
//! cyclic sequence, a pattern with a period of at most 64 cycles that the SM charges
//! ([`super::Settled::DataWhen`]).
//!
//! For critical-fetch-first the order goes on past the active set: the pending FIFO front to
//! back (occupied slots), the order in which they would be promoted.

use super::settled::low_bits;
use super::{
    Block, Build, BuildCtx, DataPattern, Events, IssuePolicy, Issued, PolicyView, Settled,
};

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
    /// The FIFO front to back, as the two pieces of the ring.
    fn slices(&self) -> (&[u16], &[u16]) {
        let head = self.head % MAX_SLOTS;
        let first = self.len.min(MAX_SLOTS - head);
        (&self.buf[head..head + first], &self.buf[..self.len - first])
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
                t.pending.buf[t.pending.len] = s;
                t.pending.len += 1;
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
        Tls::due_test(v)(1 << (s & 63)) != 0
    }

    /// [`Tls::due_for_demotion`] at `v` for a set of members at once (bit per slot; slots are
    /// below 64): the bit sets answer for empty slots and waiting warps, and only the others'
    /// long-latency dependence is looked up.
    #[inline(always)]
    fn due_test<'a>(v: &'a PolicyView) -> impl Fn(u64) -> u64 + 'a {
        let idle = v.warps.waiting_bits() | !v.warps.occupied_bits();
        let (long_until, now) = (&v.warps.long_until[..], v.now);
        move |set| {
            let mut due = set & idle;
            let mut m = set & !idle;
            while m != 0 {
                let s = m.trailing_zeros() as usize;
                m &= m - 1;
                due |= ((long_until[s] > now) as u64) << s;
            }
            due
        }
    }

    /// Appends `slots`' occupied ones, in order (`bits`: `slots` as a bit set).
    #[inline(always)]
    fn occupied_of(slots: &[u16], bits: u64, v: &PolicyView, out: &mut Vec<u16>) {
        let occupied = v.warps.occupied_bits();
        if bits & !occupied == 0 {
            out.extend_from_slice(slots);
        } else {
            out.extend(slots.iter().copied().filter(|&s| occupied >> s & 1 != 0));
        }
    }

    /// One cycle's rotation with `due` telling which of a set of members (bit per slot) are
    /// due for demotion: the due active ones go to the back of the pending FIFO (the others
    /// keep their order), then the active set is refilled from the FIFO's front. Notes the
    /// promoted members that are themselves due (`promoted_due`) and the new active set
    /// (`active_bits`).
    #[inline(always)]
    fn rotate(&mut self, due: impl Fn(u64) -> u64) {
        let demoted = due(self.active_bits);
        if demoted == 0 {
            // Nothing demoted, so nothing promoted: the active set is full or the FIFO empty
            // (each rotation leaves one of the two so, and only rotations change them).
            debug_assert!(self.n_active >= self.n || self.pending.len == 0);
            self.promoted_due = 0;
            return;
        }
        // Both counts are at most `MAX_SLOTS`; saying so lets the indexing go unchecked.
        let (n_active, n) = (self.n_active.min(MAX_SLOTS), self.n.min(MAX_SLOTS));
        let ring = &mut self.pending;
        let mut kept = 0;
        let mut back = (ring.head + ring.len) % MAX_SLOTS;
        for i in 0..n_active {
            let s = self.active[i];
            if demoted >> (s & 63) & 1 != 0 {
                ring.buf[back] = s;
                back = (back + 1) % MAX_SLOTS;
            } else {
                self.active[kept] = s;
                kept += 1;
            }
        }
        ring.len += n_active - kept;
        let take = n.saturating_sub(kept).min(ring.len);
        let (mut front, mut promoted) = (ring.head % MAX_SLOTS, 0u64);
        for _ in 0..take {
            let s = ring.buf[front];
            front = (front + 1) % MAX_SLOTS;
            self.active[kept % MAX_SLOTS] = s;
            kept += 1;
            promoted |= 1 << (s & 63);
        }
        (ring.head, ring.len) = (front, ring.len - take);
        self.n_active = kept;
        self.promoted_due = due(promoted);
        self.active_bits = self.active_bits & !demoted | promoted;
    }

    /// Applies the rotations of the cycles before `until` that a sleep skipped (see the
    /// module doc), from the due set saved when the scheduler fell asleep.
    #[inline(always)]
    fn catch_up(&mut self, until: u64) {
        if self.replay_due != 0 && until > self.ordered_at + 1 {
            self.replay(until);
        }
    }

    /// Asleep while rotating, with `due` the members due for demotion: the sequence the
    /// rotations walk (`T`: the FIFO front to back, then the due active members in order), its
    /// length `l`, and `d`, the active places due members take (those the members that are
    /// not due leave). The first rotation demotes the due active members to the FIFO's back
    /// and fills the `d` places from its front: `T[0..d]`; each later one moves that window on
    /// by `d` around `T`, the FIFO being the rest of `T` after the window.
    ///
    /// `T` built as a sequence: the definition that debug builds check the mechanism against
    /// (`replayed_by_copy`, `data_pattern`'s assertion). The mechanism itself never builds it:
    /// `replay` rotates the ring in place and `data_pattern` reads `T` as bit positions.
    #[inline(always)]
    fn due_cycle(&self, due: u64) -> ([u16; MAX_SLOTS], usize, usize) {
        let mut t = [0u16; MAX_SLOTS];
        let (front, back) = self.pending.slices();
        let r = front.len() + back.len();
        t[..front.len()].copy_from_slice(front);
        t[front.len()..r].copy_from_slice(back);
        let (mut l, mut kept) = (r, 0);
        for &s in &self.active[..self.n_active.min(MAX_SLOTS)] {
            if due >> (s & 63) & 1 != 0 {
                t[l % MAX_SLOTS] = s;
                l += 1;
            } else {
                kept += 1;
            }
        }
        (t, l, window(self.n, kept, l, 1).0)
    }

    /// Applies the `until - 1 - ordered_at` rotations a sleep skipped at once (see
    /// [`Tls::due_cycle`]), in place: the due active members join the FIFO's back, so the
    /// ring holds `T`; the window `T[at..at + d]` becomes the active places after the members
    /// that stay, and the FIFO is the rest of `T` from `at + d` around, which the ring already
    /// holds in one piece when the window wraps past `T`'s end, and otherwise after moving the
    /// shorter of `T[..at]` (behind `T`'s end) and `T[at + d..]` (before its start).
    #[inline(never)]
    fn replay(&mut self, until: u64) {
        let due = self.replay_due;
        let steps = until - 1 - self.ordered_at;
        self.ordered_at = until - 1;
        if steps <= 2 {
            // Cheaper step by step.
            for _ in 0..steps {
                self.rotate(|set| set & due);
            }
            return;
        }
        #[cfg(debug_assertions)]
        let want = self.replayed_by_copy(due, steps);
        let n_active = self.n_active.min(MAX_SLOTS);
        let ring = &mut self.pending;
        let (mut kept, mut kept_bits) = (0, 0u64);
        let mut back = ring.head + ring.len;
        for i in 0..n_active {
            let s = self.active[i];
            if due >> (s & 63) & 1 != 0 {
                ring.buf[back % MAX_SLOTS] = s;
                back += 1;
            } else {
                self.active[kept] = s;
                kept += 1;
                kept_bits |= 1 << (s & 63);
            }
        }
        let l = back - ring.head;
        let (d, at) = window(self.n, kept, l, steps);
        // A no-op (`d <= n - kept`, `n <= MAX_SLOTS`): it only tells the compiler that
        // `active[kept + j]` below is in bounds.
        let d = d.min(MAX_SLOTS - kept);
        let mut promoted = 0u64;
        for j in 0..d {
            let i = if at + j >= l { at + j - l } else { at + j };
            let s = ring.buf[(ring.head + i) % MAX_SLOTS];
            self.active[kept + j] = s;
            promoted |= 1 << (s & 63);
        }
        let rest = l.saturating_sub(at + d);
        if at + d > l {
            // The FIFO is `T[at + d - l..at]`, in place.
            ring.head = (ring.head + at + d - l) % MAX_SLOTS;
        } else if at <= rest {
            // `T[..at]` moves behind `T[l - 1]`. Positions past the ring's end wrap onto
            // `T[..at]`'s own, each read before it is written (`l` is at most the ring's size).
            for j in 0..at {
                ring.buf[(ring.head + l + j) % MAX_SLOTS] = ring.buf[(ring.head + j) % MAX_SLOTS];
            }
            ring.head = (ring.head + at + d) % MAX_SLOTS;
        } else {
            // `T[at + d..]` moves before `T[0]`, last first: positions before the ring's
            // start wrap onto `T`'s end, each read before it is written.
            let to = ring.head + MAX_SLOTS - rest;
            for j in (0..rest).rev() {
                ring.buf[(to + j) % MAX_SLOTS] = ring.buf[(ring.head + at + d + j) % MAX_SLOTS];
            }
            ring.head = to % MAX_SLOTS;
        }
        ring.len = l - d;
        self.n_active = kept + d;
        self.promoted_due = promoted;
        self.active_bits = kept_bits | promoted;
        #[cfg(debug_assertions)]
        {
            let (front, back) = self.pending.slices();
            let pending = [front, back].concat();
            assert_eq!((self.active().to_vec(), pending), want, "tls replay");
        }
    }

    /// What [`Tls::replay`] leaves (the active set, the FIFO front to back), built from
    /// [`Tls::due_cycle`]'s sequence: the reference it is checked against in debug builds.
    #[cfg(debug_assertions)]
    fn replayed_by_copy(&self, due: u64, steps: u64) -> (Vec<u16>, Vec<u16>) {
        let (t, l, _) = self.due_cycle(due);
        let mut active: Vec<u16> = self
            .active()
            .iter()
            .copied()
            .filter(|&s| due >> (s & 63) & 1 == 0)
            .collect();
        let (d, at) = window(self.n, active.len(), l, steps);
        let cyclic = |from: usize, n: usize| (0..n).map(move |j| t[(from + j) % l.max(1)]);
        active.extend(cyclic(at, d));
        (active, cyclic(at + d, l - d).collect())
    }
}

impl Tls {
    /// Asleep while rotating (`replay_due` set): in which of the cycles after this one the
    /// active set holds a resident due warp blocked on data, or `None` when that is the same
    /// in every cycle as in this one. The first rotation makes the FIFO all due members
    /// (pending then demoted, `T`) and takes the `d` free active places from its front; each
    /// later one moves that window on by `d` around `T`, so the cycles repeat
    /// with period `l / gcd(d, l)`, `l = |T|` at most 64 (see [`Tls::due_cycle`]).
    #[inline(never)]
    fn data_pattern(&self, v: &PolicyView) -> Option<DataPattern> {
        let due = self.replay_due;
        let data_warps = {
            let (block, wake, now) = (&v.warps.block[..], &v.warps.wake[..], v.now);
            let mut bits = 0u64;
            let mut m = due & v.warps.occupied_bits();
            while m != 0 {
                let s = m.trailing_zeros() as usize;
                m &= m - 1;
                bits |= ((block[s] == Block::Data && wake[s] > now) as u64) << s;
            }
            bits
        };
        if data_warps == 0 {
            // No due warp adds data blocking, whichever are active (and none did now).
            return None;
        }
        // `T` as positions: bit i set when its i-th member is blocked on data. `T` itself is
        // not built: the data warps are few, so each one's position is looked up (a pending
        // one in the FIFO, an active one after the FIFO among the due active members), and
        // the counts come from the bit sets.
        let (front, back) = self.pending.slices();
        let r = front.len() + back.len();
        let due_active = self.active_bits & due;
        let (l, kept) = (
            r + due_active.count_ones() as usize,
            (self.active_bits & !due).count_ones() as usize,
        );
        let mut t_bits = 0u64;
        let mut m = data_warps;
        while m != 0 {
            let s = m.trailing_zeros() as u16;
            m &= m - 1;
            let at = if self.active_bits >> s & 1 == 0 {
                // Pending: every member is in the FIFO or active.
                match front.iter().position(|&x| x == s) {
                    Some(i) => i,
                    None => front.len() + back.iter().position(|&x| x == s).unwrap_or(0),
                }
            } else {
                let before = self.active().iter().position(|&x| x == s).unwrap_or(0);
                r + self.active()[..before]
                    .iter()
                    .filter(|&&x| due >> (x & 63) & 1 != 0)
                    .count()
            };
            t_bits |= 1 << (at & 63);
        }
        let (d, _) = window(self.n, kept, l, 1);
        debug_assert_eq!((l, d, t_bits), {
            let (t, l, d) = self.due_cycle(due);
            let t_bits = (0..l).fold(0u64, |b, i| b | (data_warps >> t[i] & 1) << i);
            (l, d, t_bits)
        });
        debug_assert_eq!(kept + due_active.count_ones() as usize, self.active().len());
        // At most 64 (`T` holds each member once).
        let (l, d) = (l as u32, d as u32);
        let now_data = self.active_bits & data_warps != 0;
        if d == 0 || d == l {
            // Nothing rotates, or every due member is active in every cycle.
            return (now_data != (d == l)).then_some(DataPattern {
                first: v.now + 1,
                bits: (d == l) as u64,
                period: 1,
            });
        }
        let period = l / gcd(d, l);
        // Bit `x`: positions `x .. x + d` of `T` (around its end) hold a warp blocked on data,
        // that is, `x` is one of the `d` positions up to a data warp's: a run of `d` bits
        // from `q`, around `T`'s end (`0 < d < l`).
        let mut windows = 0u64;
        let mut m = t_bits;
        while m != 0 {
            let p = m.trailing_zeros();
            m &= m - 1;
            let q = (p + l + 1 - d) % l;
            windows |= match l {
                64 => low_bits(d).rotate_left(q),
                _ => (low_bits(d) << q | low_bits(d) >> (l - q)) & low_bits(l),
            };
        }
        debug_assert_eq!(
            windows,
            (1..d).fold(t_bits, |w, k| w
                | (t_bits >> k | t_bits << (l - k)) & low_bits(l))
        );
        // Cycle `j` of the sleep has the window from `d * j`.
        let (mut bits, mut start) = (0u64, 0);
        for j in 0..period {
            bits |= (windows >> start & 1) << j;
            start += d;
            if start >= l {
                start -= l;
            }
        }
        if bits == if now_data { low_bits(period) } else { 0 } {
            return None;
        }
        Some(DataPattern {
            first: v.now + 1,
            bits,
            period,
        })
    }
}

/// The rotation's window while only due members rotate (see [`Tls::due_cycle`]): with
/// `kept` active members not due, of an active set of `n`, and `l` due members in the cyclic
/// sequence `T`, the `d` active places due members take and where in `T` the window of those
/// places starts after `steps` rotations (at least 1; the first starts it at 0, each later one
/// moves it on by `d`). `(d, start)`.
#[inline(always)]
fn window(n: usize, kept: usize, l: usize, steps: u64) -> (usize, usize) {
    let d = n.saturating_sub(kept).min(l);
    let start = match l {
        0 => 0,
        _ => (d as u64 * (steps - 1) % l as u64) as usize,
    };
    (d, start)
}

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
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
    const READS_LONG_DEP: bool = true;

    fn current_order(&self, _: &(), _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        out.clear();
        Tls::occupied_of(self.active(), self.active_bits, v, out);
    }

    // Inlined into the issue stage like `order` (`data_pattern`, needed in a third of the
    // calls, is not).
    #[inline(always)]
    fn settled(&mut self, v: &PolicyView) -> Settled {
        // The members `order` kept were checked not due; only a promoted one can be (the
        // walk that followed changed no warp's state, or something issued and nobody asks).
        if self.promoted_due == 0 {
            return Settled::Same;
        }
        // Rotating. Replayable when every pending member is due (then only due members
        // rotate). Due warps are never candidates (waiting, or blocked on a load until their
        // wake cycle), and empty slots are not in the order, so which due members are active
        // decides only whether the walk meets a warp blocked on data: not at all when a kept
        // active warp already is, else as `data_pattern` works out.
        let (active, mut due) = (self.active_bits, self.promoted_due);
        debug_assert!(self.active().iter().all(|&s| active >> s & 1 != 0));
        debug_assert!(self
            .active()
            .iter()
            .all(|&s| Tls::due_for_demotion(s, v) == (due >> s & 1 != 0)));
        // The slices once, so the loops below keep their bounds in registers.
        let (block, wake, long_until, now) = (
            &v.warps.block[..],
            &v.warps.wake[..],
            &v.warps.long_until[..],
            v.now,
        );
        // Members not due are occupied (empty slots are due): not a candidate is a wake
        // cycle still ahead.
        let mut kept_data = false;
        let mut m = active & !due;
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            debug_assert_eq!(wake[s] > now, !v.candidate(s as u16));
            kept_data |= block[s] == Block::Data && wake[s] > now;
        }
        // A pending warp that is resident and not waiting must be long dependent. With
        // sticky long marks (`policy.tls.long_marks`) a due warp may be a candidate as well
        // (its load's data back, the register still marked): whether it issues then depends
        // on the cycle that promotes it, which the replay does not follow.
        let pending = self.members & !active;
        let mut m = (pending & !v.warps.waiting_bits() | due) & v.warps.occupied_bits();
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            // (`s` is occupied: `long_dep` and `candidate` read from the slices.)
            debug_assert_eq!(long_until[s] > now, v.long_dep(s as u16));
            debug_assert_eq!(wake[s] <= now, v.candidate(s as u16));
            if long_until[s] <= now && due >> s & 1 == 0 || wake[s] <= now {
                return Settled::No;
            }
        }
        due |= pending;
        self.replay_due = due;
        if kept_data {
            return Settled::Same;
        }
        match self.data_pattern(v) {
            Some(p) => Settled::DataWhen(p),
            None => Settled::Same,
        }
    }

    fn fetch_order(&mut self, _: &(), _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        // Fetch comes after issue: asleep, this cycle's rotation is one of those to replay.
        self.catch_up(v.now + 1);
        out.clear();
        Tls::occupied_of(self.active(), self.active_bits, v, out);
        let (front, back) = self.pending.slices();
        let pending = self.members & !self.active_bits;
        Tls::occupied_of(front, pending, v, out);
        Tls::occupied_of(back, pending, v, out);
    }

    #[inline(always)]
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

    // Inlined into the issue stage: called for 3-4 schedulers a cycle while they rotate, the
    // call's own cost (saving and restoring registers) is a tenth of the rotation's.
    #[inline(always)]
    fn order(&mut self, _: &(), _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        self.catch_up(v.now);
        self.replay_due = 0;
        self.rotate(Tls::due_test(v));
        self.ordered_at = v.now;
        out.clear();
        Tls::occupied_of(self.active(), self.active_bits, v, out);
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
