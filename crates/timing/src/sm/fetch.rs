//! Fetch + decode, as GPGPU-Sim's `shader_core_ctx::fetch` and `decode`. The SM has
//! `sm.fetch_warps_per_cycle` fetch slots a cycle (GPGPU-Sim's `-gpgpu_inst_fetch_throughput`:
//! that many decode-then-fetch steps a cycle). Each slot either
//! - hands an I-cache miss whose line has arrived back to its warp (these go first, one a
//!   slot, oldest line first, as `access_ready()` does), or
//! - fetches for the next warp the fetch policy picks (baseline `rr`: round robin over warps
//!   whose I-buffer is empty and that wait on no miss): an I-cache hit brings `min(free
//!   entries, sm.fetch_bytes / 8)` sequential instructions from the warp's next PC (GPGPU-Sim
//!   decodes two whatever the line boundary), a miss leaves the warp waiting for its line
//!   (`fetch_wait`), and a reservation failure (no MSHR entry, merge room, miss-queue slot or
//!   free way) spends the slot.
//!
//! Fetched instructions pass through the one fetch buffer: they are decoded at the next slot's
//! decode step, which is in the same cycle unless the fetch used the cycle's last slot. Since
//! issue comes before decode in a cycle, an instruction fetched in the last slot of cycle t is
//! decoded in t+1 and can issue in t+2; one fetched in an earlier slot issues from t+1.

use super::icache::{ICache, Lookup, Waiter, AWAITING_REPLY};
use super::{Env, Sm};
use crate::fetch_policy::FetchPolicy;
use crate::policy::{IssueOrders, IssuePolicy};
use warpsim_core::config::GpuConfig;
use warpsim_core::exec::warp::WarpState;

/// The SM's front end: the fetch policy, the I-cache and every warp's I-buffer.
pub(crate) struct Frontend<F> {
    /// Which warps fetch (`fetch_policy/`).
    pub policy: F,
    pub icache: ICache,
    /// Per warp slot, the I-buffer: `WarpSlots::ib_n` valid decoded entries, the first at
    /// (`ib_func`, `ib_pc`), the rest sequential.
    pub ib_func: Vec<u32>,
    pub ib_pc: Vec<u32>,
    /// Per warp slot: cycle from which the I-buffer's first entry is decoded and can issue.
    pub ib_ready: Vec<u64>,
    /// Per warp slot: the I-buffer was emptied by a control hazard and not refilled yet.
    pub flushed: Vec<bool>,
    /// Nothing became fetchable since the fetch stage last found nothing to do…
    pub idle: bool,
    /// …until this cycle (the earliest pending I-cache miss returns).
    pub wake: u64,
    /// Scratch: the warps the policy picked this cycle.
    pub pick: Vec<u16>,
}

impl<F> Frontend<F> {
    pub fn new(cfg: &GpuConfig, slots: usize, policy: F, perfect_icache: bool) -> Self {
        Frontend {
            policy,
            icache: ICache::new(cfg, perfect_icache),
            ib_func: vec![0; slots],
            ib_pc: vec![0; slots],
            ib_ready: vec![0; slots],
            flushed: vec![false; slots],
            idle: false,
            wake: 0,
            pick: Vec::with_capacity(slots),
        }
    }

    /// Something may have become fetchable: the fetch stage looks again next cycle.
    #[inline]
    pub fn rouse(&mut self) {
        self.idle = false;
    }

    /// Warp slot `s` takes a fresh warp: an empty I-buffer, no control hazard pending.
    pub fn reset_slot(&mut self, s: usize) {
        self.flushed[s] = false;
        self.ib_ready[s] = 0;
    }
}

impl<P: IssuePolicy, F: FetchPolicy> Sm<P, F> {
    pub(crate) fn fetch_stage(&mut self, env: &Env, now: u64) {
        if self.front.idle && now < self.front.wake {
            return; // nothing became eligible since the last fetch found nothing
        }
        let per_fetch = (env.cfg.sm.fetch_bytes / 8)
            .max(1)
            .min(self.shape.ib_depth as u32) as u8;
        let slots = env.cfg.sm.fetch_warps_per_cycle.max(1) as usize;
        let mut used = 0;
        // Misses whose lines have arrived go first.
        while used < slots {
            let Some(w) = self.front.icache.next_ready(now) else {
                break;
            };
            let usable = decoded_at(now, used, slots);
            self.deliver(env, w, per_fetch, usable);
            used += 1;
        }
        let mut pick = std::mem::take(&mut self.front.pick);
        pick.clear();
        if used < slots {
            let v = view!(self, now, env.all_dispatched);
            let mut orders = IssueOrders::new(
                &mut self.sched.policies,
                &self.sched.shared,
                &self.shape.sched_slots,
            );
            self.front
                .policy
                .pick(&v, &mut orders, slots - used, &mut pick);
        }
        self.front.idle = used == 0 && pick.is_empty();
        for &s in &pick {
            let usable = decoded_at(now, used, slots);
            self.fill(env, s as usize, per_fetch, now, usable);
            used += 1;
        }
        self.front.pick = pick;
        if self.front.idle {
            // Sleep until the I-cache hands a line back (a reply wakes it earlier) or an event.
            self.front.wake = self.front.icache.next_ready_at();
        }
    }

    /// Warp `s`'s next fetch address: after its I-buffer's entries, or its PC when empty.
    fn fetch_pc(&self, s: usize) -> (u32, u32) {
        if self.warps.ib_n[s] == 0 {
            (self.timing.cur_func[s], self.timing.cur_pc[s])
        } else {
            (
                self.front.ib_func[s],
                self.front.ib_pc[s] + self.warps.ib_n[s] as u32,
            )
        }
    }

    /// Fetches for warp `s` in cycle `now`: on a hit up to `n` instructions join its I-buffer,
    /// usable by issue from cycle `usable`; on a miss the warp waits for the I-cache to hand
    /// the line back; on a reservation failure nothing happens.
    fn fill(&mut self, env: &Env, s: usize, n: u8, now: u64, usable: u64) {
        let (func, pc) = self.fetch_pc(s);
        let addr = env.table.inst_addr(func, pc);
        let w = Waiter {
            slot: s as u16,
            age: self.warps.age[s],
            func,
            pc,
        };
        match self.front.icache.access(addr, now, w) {
            Lookup::Hit => self.decode(env, s, func, pc, n, usable),
            Lookup::Miss => self.warps.fetch_wait[s] = AWAITING_REPLY,
            Lookup::ReservationFail => {}
        }
    }

    /// An I-cache miss came back for `w`: decode its instructions if its warp still wants them
    /// (the slot holds the same warp, unfinished, fetching from the same place; a warp that
    /// took a branch meanwhile fetches again).
    fn deliver(&mut self, env: &Env, w: Waiter, n: u8, usable: u64) {
        let s = w.slot as usize;
        if !self.warps.occupied[s] || self.warps.age[s] != w.age {
            return;
        }
        self.warps.fetch_wait[s] = 0;
        if self.warps.state[s] == WarpState::Done
            || self.fetch_pc(s) != (w.func, w.pc)
            || self.warps.ib_n[s] >= self.shape.ib_depth
        {
            return;
        }
        self.decode(env, s, w.func, w.pc, n, usable);
    }

    /// Up to `n` instructions from (`func`, `pc`) join warp `s`'s I-buffer (as many as it has
    /// room for), usable by issue from cycle `usable`.
    fn decode(&mut self, env: &Env, s: usize, func: u32, pc: u32, n: u8, usable: u64) {
        let was_empty = self.warps.ib_n[s] == 0;
        if was_empty {
            self.front.ib_func[s] = func;
            self.front.ib_pc[s] = pc;
            self.front.ib_ready[s] = usable;
            self.front.flushed[s] = false;
        }
        let room = self.shape.ib_depth.saturating_sub(self.warps.ib_n[s]);
        self.warps.set_ib_n(s, self.warps.ib_n[s] + n.min(room));
        if was_empty && self.warps.state[s] == WarpState::Ready {
            self.set_head(env, s, usable);
        }
    }
}

/// The cycle from which an instruction fetched in slot `slot` (of `slots`) of cycle `now` can
/// issue: decoded by the next slot's decode step, which is next cycle's first for the last slot.
#[inline]
fn decoded_at(now: u64, slot: usize, slots: usize) -> u64 {
    if slot + 1 < slots {
        now + 1
    } else {
        now + 2
    }
}

#[cfg(test)]
mod tests {
    //! The front end on gtx480's (one fetch slot a cycle, two-entry I-buffers, 16-byte fetch
    //! blocks), with a perfect I-cache: what each cycle's fetch brings, and when it can issue.
    use super::super::testbench::{kernel, Bench};
    use super::decoded_at;
    use crate::policy::Block;

    #[test]
    fn the_last_fetch_slot_of_a_cycle_is_decoded_in_the_next() {
        assert_eq!(decoded_at(10, 0, 1), 12, "one slot: it is the last");
        assert_eq!(decoded_at(10, 0, 2), 11);
        assert_eq!(decoded_at(10, 1, 2), 12);
    }

    #[test]
    fn one_warp_a_cycle_fills_its_buffer_and_issues_two_cycles_later() {
        let src = kernel("mov.u32 %r1, %tid.x;\nadd.u32 %r2, %r1, 1;\nadd.u32 %r3, %r2, 1;");
        let mut b = Bench::new(&src, 64, "gtx480", &[]);
        let mut sm = b.sm(1, true);
        b.launch(&mut sm, 1, 0, 0);
        assert_eq!(sm.warps.block[0], Block::Fetch);
        assert_eq!(sm.warps.block[1], Block::Fetch);
        b.with_env(1, |env| sm.fetch_stage(env, 0));
        // Round robin from slot 0: warp 0 gets a whole block (two instructions, the buffer's
        // depth) in cycle 0, decoded in cycle 1, issuable from cycle 2; warp 1 nothing yet.
        assert_eq!((sm.warps.ib_n[0], sm.warps.ib_n[1]), (2, 0));
        assert_eq!((sm.front.ib_pc[0], sm.front.ib_ready[0]), (0, 2));
        assert_eq!((sm.warps.block[0], sm.warps.wake[0]), (Block::Ready, 2));
        assert_eq!(sm.warps.block[1], Block::Fetch);
        b.with_env(1, |env| sm.fetch_stage(env, 1));
        assert_eq!((sm.warps.ib_n[1], sm.front.ib_ready[1]), (2, 3));
        // Both buffers full: nothing is eligible, the stage goes idle.
        b.with_env(1, |env| sm.fetch_stage(env, 2));
        assert!(sm.front.idle);
        // Waiting for its first instruction was a fetch stall: two cycles for warp 0 (credited
        // when the interval closes), three for warp 1.
        sm.settle(0, 10);
        sm.settle(1, 10);
        assert_eq!(sm.timing.stalls[0].fetch, 2);
        assert_eq!(sm.timing.stalls[1].fetch, 3);
    }
}
