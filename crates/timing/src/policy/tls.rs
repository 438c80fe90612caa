//! `tls`: two-level scheduling (Narasiman et al. MICRO'11; GPGPU-Sim `two_level_active:N:0:1`).
//! An active set of N warps per scheduler (`policy.tls.active`), ordered LRR, is the only set
//! that may issue. Each cycle, before ordering: warps that left (CTA exited) are dropped, newly
//! resident warps join the back of the pending FIFO (in slot order), every active warp that is
//! waiting (barrier, finished) or whose next instruction reads/writes the result of an
//! outstanding global/local load is demoted to the back of the pending FIFO, and the active set
//! is refilled from the FIFO front.
//!
//! For critical-fetch-first the order goes on past the active set: the pending FIFO front to
//! back, then warps that became resident since the last cycle (slot order) — the order in which
//! they would be promoted.

use super::{rotate_after, Build, BuildCtx, Events, IssuePolicy, Issued, PolicyView};
use std::collections::VecDeque;

const NONE: u8 = 0;
const ACTIVE: u8 = 1;
const PENDING: u8 = 2;

pub struct Tls {
    me: u16,
    n: usize,
    active: Vec<u16>,
    pending: VecDeque<u16>,
    member: Vec<u8>,
    last: Option<u16>,
}

impl Tls {
    /// Scheduler `me`'s policy with an active set of `n`, owning `my_slots` of `sm_slots`.
    pub fn new(me: usize, n: usize, my_slots: usize, sm_slots: usize) -> Tls {
        Tls {
            me: me as u16,
            n,
            active: Vec::with_capacity(my_slots),
            pending: VecDeque::with_capacity(my_slots + 1),
            member: vec![NONE; sm_slots],
            last: None,
        }
    }

    /// The current active set (for tests and tracing).
    pub fn active(&self) -> &[u16] {
        &self.active
    }
}

impl Build for Tls {
    fn build(b: &BuildCtx) -> Tls {
        let n = b.params.tls.active as usize;
        Tls::new(b.scheduler, n, b.slots.len(), b.warp_slots)
    }
}

impl IssuePolicy for Tls {
    type Shared = ();
    // Demotion and promotion happen every cycle in `order`.
    const PURE_ORDER: bool = false;

    fn current_order(&self, _: &(), _slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        out.clear();
        rotate_after(&self.active, self.last, v, out);
    }

    fn fetch_order(&self, sh: &(), slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        self.current_order(sh, slots, v, out);
        out.extend(self.pending.iter().copied().filter(|&s| v.occupied(s)));
        out.extend(
            slots
                .iter()
                .copied()
                .filter(|&s| v.occupied(s) && self.member[s as usize] == NONE),
        );
    }

    fn order(&mut self, sh: &(), slots: &[u16], v: &PolicyView, out: &mut Vec<u16>) {
        for &s in slots {
            let (occ, m) = (v.occupied(s), self.member[s as usize]);
            if occ && m == NONE {
                self.member[s as usize] = PENDING;
                self.pending.push_back(s);
            } else if !occ && m != NONE {
                self.member[s as usize] = NONE;
                self.active.retain(|&a| a != s);
                self.pending.retain(|&p| p != s);
            }
        }
        let mut i = 0;
        while i < self.active.len() {
            let s = self.active[i];
            if v.waiting(s) || v.long_dep(s) {
                self.active.remove(i);
                self.member[s as usize] = PENDING;
                self.pending.push_back(s);
            } else {
                i += 1;
            }
        }
        while self.active.len() < self.n {
            let Some(s) = self.pending.pop_front() else {
                break;
            };
            self.member[s as usize] = ACTIVE;
            self.active.push(s);
        }
        self.current_order(sh, slots, v, out);
    }
}

impl Events for Tls {
    fn on_issue(&mut self, e: &Issued, _v: &PolicyView) {
        if e.scheduler == self.me {
            self.last = Some(e.slot);
        }
    }
}
