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
//! Otherwise (`settled`) the active set changes only when a warp's occupancy, waiting flag or
//! blocking state does — each of which wakes a sleeping scheduler — so only then may the
//! scheduler sleep (`MAY_SLEEP`). Membership is re-scanned only when the SM's
//! `WarpSlots::version` (occupancy and waiting flags) moved.
//!
//! For critical-fetch-first the order goes on past the active set: the pending FIFO front to
//! back, then warps that became resident since the last cycle (slot order) — the order in which
//! they would be promoted.

use super::{rotate_after, Build, BuildCtx, Events, IssuePolicy, Issued, PolicyView};

/// A scheduler has at most as many warp slots as its SM: the sets below are fixed arrays of
/// that size and a bit set (no allocation, indices masked).
const MAX_SLOTS: usize = super::MAX_WARP_SLOTS;

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
    /// The last `order` promoted a warp already due for demotion (see `settled`).
    rotating: bool,
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
            rotating: false,
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
        (v.warps.waiting_bits >> s & 1 != 0) | v.long_dep(s)
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

    fn current_order(&self, _: &(), _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        out.clear();
        rotate_after(self.active(), self.last, v, out);
    }

    fn settled(&self, _v: &PolicyView) -> bool {
        // The warps `order` kept were checked not due; only a promoted one can be (the walk
        // that followed changed no warp's state, or something issued and nobody asks).
        !self.rotating
    }

    fn fetch_order(&mut self, sh: &(), slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        if self.seen == v.warps.version {
            // Membership is current (`order` ran since the last occupancy change): every
            // member is resident and every resident warp a member.
            out.clear();
            self.resident_round_robin(out);
            out.extend(self.pending.iter());
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

    fn order(&mut self, _: &(), slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        if self.seen != v.warps.version {
            self.seen = v.warps.version;
            self.follow_occupancy(slots, v);
        }
        // Demote in one pass, keeping the others in order. (Both counts are at most
        // `MAX_SLOTS`; saying so lets the indexing go unchecked.)
        let (n_active, n) = (self.n_active.min(MAX_SLOTS), self.n.min(MAX_SLOTS));
        let mut kept = 0;
        for i in 0..n_active {
            let s = self.active[i];
            if Tls::due_for_demotion(s, v) {
                self.pending.push_back(s);
            } else {
                self.active[kept] = s;
                kept += 1;
            }
        }
        self.rotating = false;
        while kept < n {
            let Some(s) = self.pending.pop_front() else {
                break;
            };
            self.active[kept] = s;
            kept += 1;
            self.rotating |= Tls::due_for_demotion(s, v);
        }
        self.n_active = kept;
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
