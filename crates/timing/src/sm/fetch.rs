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
use super::warps::WarpTiming;
use super::{Env, Sm};
use crate::classify::TimingTable;
use crate::fetch_policy::FetchPolicy;
use crate::ids::WarpSlot;
use crate::policy::{IssueOrders, IssuePolicy, PolicyView, WarpSlots};
use warpsim_core::config::{BranchRedirect, GpuConfig};
use warpsim_core::exec::warp::WarpState;

/// The SM's front end: the fetch policy, the I-cache and every warp's I-buffer. It owns them;
/// the rest of the SM reaches them through the methods below. Of the warps it reads where each
/// continues (`WarpTiming`) and writes what policies see of fetch (`WarpSlots::ib_n`,
/// `fetch_wait`); a warp whose empty I-buffer it fills is handed back
/// ([`Frontend::take_decoded`]) for the SM to re-derive its blocking state.
pub(crate) struct Frontend<F> {
    /// Which warps fetch (`fetch_policy/`).
    policy: F,
    icache: ICache,
    ib: IBuffers,
    /// Nothing became fetchable since the fetch stage last found nothing to do…
    idle: bool,
    /// …until this cycle (the earliest pending I-cache miss returns).
    wake: u64,
    /// Instructions one fetch brings (`sm.fetch_bytes / 8`, at most the I-buffer's depth).
    per_fetch: u8,
    /// Fetch slots a cycle (`sm.fetch_warps_per_cycle`).
    slots: usize,
    /// Fetch slots used so far this cycle.
    used: usize,
    /// Scratch: the warps the policy picked this cycle.
    pick: Vec<u16>,
    /// Scratch: warps whose empty I-buffer was filled in this phase (and are `Ready`), with the
    /// cycle from which the new head can issue.
    decoded: Vec<(WarpSlot, u64)>,
    /// `sm.branch_redirect = "issue"`: a jump redirects fetch when it issues.
    redirect_at_issue: bool,
}

/// Per warp slot, the I-buffer: `WarpSlots::ib_n` valid decoded entries, the first at
/// (`func`, `pc`), the rest sequential.
struct IBuffers {
    func: Vec<u32>,
    pc: Vec<u32>,
    /// The cycle from which the first entry is decoded and can issue.
    ready: Vec<u64>,
    /// Emptied by a control hazard and not refilled yet.
    flushed: Vec<bool>,
    /// `sm.branch_redirect = "scheduler"` only. Bit `s`: warp `s`'s next fetch is
    /// (`next_func`, `next_pc`), the instruction after the one it issued last (GPGPU-Sim's
    /// `m_next_pc`), not where it continues.
    sequential: u64,
    next_func: Vec<u32>,
    next_pc: Vec<u32>,
    /// Bit `s`: warp `s`'s head is not where it continues, for the scheduler to find and
    /// flush ([`Head::Stale`]).
    stale: u64,
}

/// What the front end reads and writes of the rest of the SM in a fetch phase.
pub(crate) struct FetchPorts<'a> {
    pub warps: &'a mut WarpSlots,
    pub timing: &'a WarpTiming,
    pub table: &'a TimingTable,
    /// I-buffer entries per warp.
    pub ib_depth: u8,
}

/// A warp's I-buffer head, as the issue stage needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Head {
    /// Nothing decoded: waiting on fetch, or (`flushed`) on a control hazard's refetch.
    Empty { flushed: bool },
    /// The decoded stream was not where the warp continues: it is flushed now (a control
    /// hazard). `ready`: when the flushed head would have left decode.
    Diverged { ready: u64 },
    /// The head is the warp's next instruction, decoded and issuable from `ready`.
    Decoded { ready: u64 },
    /// `sm.branch_redirect = "scheduler"`: the decoded stream is not where the warp
    /// continues, and stays until a scheduler walk reaches the warp from `ready`
    /// ([`Frontend::flush_stale`]).
    Stale { ready: u64 },
}

impl<F> Frontend<F> {
    pub fn new(cfg: &GpuConfig, slots: usize, policy: F, perfect_icache: bool) -> Self {
        let ib_depth = cfg.sm.ibuffer_entries.clamp(1, 255);
        Frontend {
            policy,
            icache: ICache::new(cfg, perfect_icache),
            ib: IBuffers {
                func: vec![0; slots],
                pc: vec![0; slots],
                ready: vec![0; slots],
                flushed: vec![false; slots],
                sequential: 0,
                next_func: vec![0; slots],
                next_pc: vec![0; slots],
                stale: 0,
            },
            redirect_at_issue: cfg.sm.branch_redirect == BranchRedirect::Issue,
            idle: false,
            wake: 0,
            per_fetch: (cfg.sm.fetch_bytes / 8).max(1).min(ib_depth) as u8,
            slots: cfg.sm.fetch_warps_per_cycle.max(1) as usize,
            used: 0,
            pick: Vec::with_capacity(slots),
            decoded: Vec::with_capacity(slots),
        }
    }

    /// Something may have become fetchable: the fetch stage looks again next cycle.
    #[inline]
    pub fn rouse(&mut self) {
        self.idle = false;
    }

    /// Warp slot `s` takes a fresh warp: an empty I-buffer, no control hazard pending.
    #[inline]
    pub fn reset_slot(&mut self, s: WarpSlot) {
        self.ib.flushed[s] = false;
        self.ib.ready[s] = 0;
        let bit = !(1u64 << (s.index() & 63));
        self.ib.sequential &= bit;
        self.ib.stale &= bit;
    }

    /// Where warp `s`'s I-buffer head is (function, PC).
    #[inline]
    pub fn head_at(&self, s: WarpSlot) -> (u32, u32) {
        (self.ib.func[s], self.ib.pc[s])
    }

    /// Warp `s`'s head is stale ([`Head::Stale`]): the next scheduler walk that reaches it
    /// flushes it instead of issuing.
    #[inline(always)]
    pub fn is_stale(&self, s: WarpSlot) -> bool {
        self.ib.stale >> (s.index() & 63) & 1 != 0
    }

    /// A scheduler walk reached warp `s` with a stale head: the I-buffer is flushed and the
    /// next fetch is from where the warp continues (GPGPU-Sim's control-hazard flush in
    /// `scheduler_unit::cycle`).
    pub fn flush_stale(&mut self, warps: &mut WarpSlots, s: WarpSlot) {
        let bit = !(1u64 << (s.index() & 63));
        self.ib.stale &= bit;
        self.ib.sequential &= bit;
        warps.set_ib_n(s, 0);
        self.ib.flushed[s] = true;
        self.rouse();
    }

    /// The fetch stage has work this cycle: something became fetchable since it last found
    /// nothing, or a pending miss's line is due.
    #[inline]
    pub fn due(&self, now: u64) -> bool {
        !self.idle || now >= self.wake
    }

    /// After cycle `now`, the next cycle the front end acts by itself: the next one when it
    /// found work last time or an I-cache miss waits to be sent; else when its earliest
    /// pending I-cache line is due (a reply wakes it earlier).
    #[inline]
    pub fn next_activity(&self, now: u64) -> u64 {
        if !self.idle || self.icache.next_request().is_some() {
            now + 1
        } else {
            self.wake
        }
    }

    /// Warp `s`'s I-buffer head, given where the warp continues (`cur`: function, PC). A
    /// decoded stream elsewhere is flushed here (`Head::Diverged`).
    #[inline(always)]
    pub fn head(&mut self, warps: &mut WarpSlots, s: WarpSlot, cur: (u32, u32)) -> Head {
        let bit = 1u64 << (s.index() & 63);
        self.ib.stale &= !bit;
        if warps.ib_n()[s] == 0 {
            return Head::Empty {
                flushed: self.ib.flushed[s],
            };
        }
        let ready = self.ib.ready[s];
        if cur != (self.ib.func[s], self.ib.pc[s]) {
            if !self.redirect_at_issue {
                self.ib.stale |= bit;
                return Head::Stale { ready };
            }
            warps.set_ib_n(s, 0);
            self.ib.flushed[s] = true;
            self.rouse();
            return Head::Diverged { ready };
        }
        Head::Decoded { ready }
    }

    /// The PC of warp `s`'s I-buffer head.
    #[cfg(test)]
    pub fn head_pc(&self, s: WarpSlot) -> u32 {
        self.ib.pc[s]
    }

    /// The cycle from which warp `s`'s I-buffer head can issue.
    #[cfg(test)]
    pub fn head_ready(&self, s: WarpSlot) -> u64 {
        self.ib.ready[s]
    }

    /// The fetch stage found nothing to do in its last cycle.
    #[cfg(test)]
    pub fn is_idle(&self) -> bool {
        self.idle
    }

    /// Warp `s` issued its head and continues at `next` (`None`: finished): pop the head when
    /// that is the next entry, else flush (a control hazard).
    #[inline(always)]
    pub fn advance(&mut self, warps: &mut WarpSlots, s: WarpSlot, next: Option<(u32, u32)>) {
        match next {
            None => warps.set_ib_n(s, 0),
            Some(_) if !self.redirect_at_issue => {
                // GPGPU-Sim: the head is popped whatever follows it, and the next fetch is
                // the next instruction; `head` finds a jump's stale entries.
                let (func, pc) = (self.ib.func[s], self.ib.pc[s]);
                self.ib.next_func[s] = func;
                self.ib.next_pc[s] = pc + 1;
                self.ib.sequential |= 1 << (s.index() & 63);
                let n = warps.ib_n()[s];
                if n > 1 {
                    self.ib.pc[s] = pc + 1;
                }
                warps.set_ib_n(s, n.saturating_sub(1));
            }
            Some((func, npc)) => {
                if func == self.ib.func[s] && npc == self.ib.pc[s] + 1 {
                    self.ib.pc[s] = npc;
                    warps.set_ib_n(s, warps.ib_n()[s] - 1);
                } else {
                    warps.set_ib_n(s, 0);
                    self.ib.flushed[s] = true;
                }
            }
        }
        self.rouse();
    }

    /// The I-cache, for its statistics.
    pub fn icache(&self) -> &ICache {
        &self.icache
    }

    /// The line address of the I-cache's next miss to send to memory, if any.
    #[inline]
    pub fn next_icache_request(&self) -> Option<u64> {
        self.icache.next_request()
    }

    /// The miss [`Frontend::next_icache_request`] named was sent.
    pub fn icache_request_sent(&mut self) {
        self.icache.request_sent();
    }

    /// Memory's reply for line `line` arrived: this cycle's fetch hands it to the warps
    /// waiting for it.
    pub fn icache_fill(&mut self, line: u64, now: u64) {
        self.icache.fill(line, now);
        self.wake = self.wake.min(now);
    }

    /// Swaps the I-cache with one kept from an earlier launch.
    pub fn swap_icache(&mut self, other: &mut ICache) {
        std::mem::swap(&mut self.icache, other);
    }

    /// The I-cache, kept for the next launch.
    pub fn into_icache(self) -> ICache {
        self.icache
    }

    /// Starts a fetch cycle: hands misses whose lines arrived back to their warps (one a fetch
    /// slot, oldest line first). Warps whose empty I-buffer this filled are in
    /// [`Frontend::take_decoded`].
    #[inline(always)]
    pub fn deliver_ready(&mut self, now: u64, p: &mut FetchPorts) {
        self.used = 0;
        self.decoded.clear();
        while self.used < self.slots {
            let Some(w) = self.icache.next_ready(now) else {
                break;
            };
            let usable = decoded_at(now, self.used, self.slots);
            self.deliver(p, w, usable);
            self.used += 1;
        }
    }

    /// Fetches for the warps the policy picked ([`Frontend::pick`]) in the slots left; then,
    /// when the whole cycle did nothing, sleeps until the I-cache hands a line back (a reply
    /// or any event wakes it earlier). Warps whose empty I-buffer this filled are in
    /// [`Frontend::take_decoded`].
    #[inline(always)]
    pub fn fill_picked(&mut self, now: u64, p: &mut FetchPorts) {
        self.decoded.clear();
        self.idle = self.used == 0 && self.pick.is_empty();
        let pick = std::mem::take(&mut self.pick);
        for &s in &pick {
            let usable = decoded_at(now, self.used, self.slots);
            self.fill(p, WarpSlot::from_raw(s), now, usable);
            self.used += 1;
        }
        self.pick = pick;
        if self.idle {
            self.wake = self.icache.next_ready_at();
        }
    }

    /// The warps whose empty I-buffer the last phase filled (and that are `Ready`), with the
    /// cycle from which each new head can issue; give the vector back with
    /// [`Frontend::return_decoded`] (it keeps its capacity: no allocation per cycle).
    #[inline]
    pub fn take_decoded(&mut self) -> Vec<(WarpSlot, u64)> {
        std::mem::take(&mut self.decoded)
    }

    #[inline]
    pub fn return_decoded(&mut self, v: Vec<(WarpSlot, u64)>) {
        self.decoded = v;
    }

    /// Warp `s`'s next fetch address: after its I-buffer's entries, or where it continues
    /// when empty.
    #[inline(always)]
    fn fetch_pc(&self, p: &FetchPorts, s: WarpSlot) -> (u32, u32) {
        if p.warps.ib_n()[s] == 0 {
            if self.ib.sequential >> (s.index() & 63) & 1 != 0 {
                return (self.ib.next_func[s], self.ib.next_pc[s]);
            }
            (p.timing.cur_func[s], p.timing.cur_pc[s])
        } else {
            (self.ib.func[s], self.ib.pc[s] + p.warps.ib_n()[s] as u32)
        }
    }

    /// Fetches for warp `s` in cycle `now`: on a hit up to a fetch block of instructions join
    /// its I-buffer, usable by issue from cycle `usable`; on a miss the warp waits for the
    /// I-cache to hand the line back; on a reservation failure nothing happens.
    #[inline(always)]
    fn fill(&mut self, p: &mut FetchPorts, s: WarpSlot, now: u64, usable: u64) {
        let (func, pc) = self.fetch_pc(p, s);
        let addr = p.table.inst_addr(func, pc);
        let w = Waiter {
            slot: s,
            age: p.warps.age[s],
            func,
            pc,
        };
        match self.icache.access(addr, now, w) {
            Lookup::Hit => self.decode(p, s, func, pc, usable),
            Lookup::Miss => p.warps.fetch_wait[s] = AWAITING_REPLY,
            Lookup::ReservationFail => {}
        }
    }

    /// An I-cache miss came back for `w`: decode its instructions if its warp still wants them
    /// (the slot holds the same warp, unfinished, fetching from the same place; a warp that
    /// took a branch meanwhile fetches again).
    #[inline(always)]
    fn deliver(&mut self, p: &mut FetchPorts, w: Waiter, usable: u64) {
        let s = w.slot;
        if !p.warps.occupied()[s] || p.warps.age[s] != w.age {
            return;
        }
        p.warps.fetch_wait[s] = 0;
        if p.warps.state()[s] == WarpState::Done
            || self.fetch_pc(p, s) != (w.func, w.pc)
            || p.warps.ib_n()[s] >= p.ib_depth
        {
            return;
        }
        self.decode(p, s, w.func, w.pc, usable);
    }

    /// Up to a fetch block of instructions from (`func`, `pc`) join warp `s`'s I-buffer (as
    /// many as it has room for), usable by issue from cycle `usable`.
    #[inline(always)]
    fn decode(&mut self, p: &mut FetchPorts, s: WarpSlot, func: u32, pc: u32, usable: u64) {
        let was_empty = p.warps.ib_n()[s] == 0;
        if was_empty {
            self.ib.func[s] = func;
            self.ib.pc[s] = pc;
            self.ib.ready[s] = usable;
            self.ib.flushed[s] = false;
        }
        let room = p.ib_depth.saturating_sub(p.warps.ib_n()[s]);
        p.warps
            .set_ib_n(s, p.warps.ib_n()[s] + self.per_fetch.min(room));
        if was_empty && p.warps.state()[s] == WarpState::Ready {
            self.decoded.push((s, usable));
        }
    }
}

impl<F: FetchPolicy> Frontend<F> {
    /// The fetch policy picks warps for the slots [`Frontend::deliver_ready`] left.
    #[inline(always)]
    pub fn pick<P: IssuePolicy>(&mut self, v: &PolicyView, orders: &mut IssueOrders<'_, P>) {
        self.pick.clear();
        if self.used < self.slots {
            self.policy
                .pick(v, orders, self.slots - self.used, &mut self.pick);
        }
    }
}

/// The SM's parts the front end reads and writes (a macro, not a method, so that the borrow
/// of `$sm.front` beside it stays separate).
macro_rules! fetch_ports {
    ($sm:expr, $env:expr) => {
        FetchPorts {
            warps: &mut $sm.warps,
            timing: &$sm.timing,
            table: $env.table,
            ib_depth: $sm.shape.ib_depth,
        }
    };
}

impl<P: IssuePolicy, F: FetchPolicy> Sm<P, F> {
    /// The fetch stage: the front end delivers arrived misses, its policy picks, it fetches;
    /// each warp whose empty I-buffer got its next instruction has its blocking state
    /// re-derived (`set_head`) after the phase that filled it, before the policy looks.
    #[inline(always)]
    pub(crate) fn fetch_stage(&mut self, env: &Env, now: u64) {
        if !self.front.due(now) {
            return; // nothing became eligible since the last fetch found nothing
        }
        self.front.deliver_ready(now, &mut fetch_ports!(self, env));
        self.head_decoded(env);
        {
            let v = view!(self, now, env.all_dispatched);
            let mut orders = self.sched.orders(&self.shape.sched_slots);
            self.front.pick(&v, &mut orders);
        }
        self.front.fill_picked(now, &mut fetch_ports!(self, env));
        self.head_decoded(env);
    }

    /// `set_head` for every warp the last fetch phase gave a decoded head.
    #[inline(always)]
    fn head_decoded(&mut self, env: &Env) {
        if self.front.decoded.is_empty() {
            return; // most phases decode nothing into an empty I-buffer
        }
        let decoded = self.front.take_decoded();
        for &(s, usable) in &decoded {
            self.set_head(env, s, usable);
        }
        self.front.return_decoded(decoded);
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
    use crate::ids::WarpSlot;
    use crate::policy::Block;

    #[test]
    fn the_last_fetch_slot_of_a_cycle_is_decoded_in_the_next() {
        assert_eq!(decoded_at(10, 0, 1), 12, "one slot: it is the last");
        assert_eq!(decoded_at(10, 0, 2), 11);
        assert_eq!(decoded_at(10, 1, 2), 12);
    }

    /// The I-buffer interface on hand-built state, without an SM, with `sm.branch_redirect =
    /// "issue"`: a head is decoded where the warp continues, popped in sequence, and flushed (a
    /// control hazard) when the warp goes elsewhere, either at issue (`advance`) or when its
    /// head is next looked at (`head`).
    #[test]
    fn the_ibuffer_pops_in_sequence_and_flushes_on_a_jump() {
        use super::{Frontend, Head};
        use crate::fetch_policy::RoundRobin;
        use crate::policy::WarpSlots;
        let cfg = warpsim_core::config::GpuConfig::load_with(
            "gtx480",
            &["sm.branch_redirect=issue".into()],
        )
        .unwrap();
        let mut front = Frontend::new(&cfg, 2, RoundRobin::default(), true);
        let mut warps = WarpSlots::new(2, 2, 2);
        assert_eq!(
            front.head(&mut warps, WarpSlot(0), (0, 0)),
            Head::Empty { flushed: false }
        );
        // Two instructions from (0, 4), issuable from cycle 7.
        front.ib.func[0] = 0;
        front.ib.pc[0] = 4;
        front.ib.ready[0] = 7;
        warps.set_ib_n(WarpSlot(0), 2);
        assert_eq!(
            front.head(&mut warps, WarpSlot(0), (0, 4)),
            Head::Decoded { ready: 7 }
        );
        front.advance(&mut warps, WarpSlot(0), Some((0, 5)));
        assert_eq!(
            (warps.ib_n()[0], front.head_pc(WarpSlot(0))),
            (1, 5),
            "popped"
        );
        assert_eq!(
            front.head(&mut warps, WarpSlot(0), (0, 5)),
            Head::Decoded { ready: 7 }
        );
        // The warp branched to 9 while 5 was its head: flushed, and refetched after a
        // control stall.
        front.idle = true;
        assert_eq!(
            front.head(&mut warps, WarpSlot(0), (0, 9)),
            Head::Diverged { ready: 7 }
        );
        assert_eq!(warps.ib_n()[0], 0);
        assert!(!front.is_idle(), "a flush makes the warp fetchable again");
        assert_eq!(
            front.head(&mut warps, WarpSlot(0), (0, 9)),
            Head::Empty { flushed: true }
        );
        // Issue of a branch: the next PC is not the next entry, so the rest is flushed.
        warps.set_ib_n(WarpSlot(1), 2);
        front.ib.pc[1] = 0;
        front.advance(&mut warps, WarpSlot(1), Some((0, 3)));
        assert_eq!(warps.ib_n()[1], 0);
        assert_eq!(
            front.head(&mut warps, WarpSlot(1), (0, 3)),
            Head::Empty { flushed: true }
        );
        front.reset_slot(WarpSlot(1));
        assert_eq!(
            front.head(&mut warps, WarpSlot(1), (0, 0)),
            Head::Empty { flushed: false }
        );
    }

    /// `sm.branch_redirect = "scheduler"`: a jump's issue pops its head and keeps the rest,
    /// which `head` then calls stale (without flushing) until the scheduler flushes it; fetch
    /// goes on sequentially after the jump until then.
    #[test]
    fn the_ibuffer_keeps_a_jumps_fall_through_until_the_scheduler_flushes_it() {
        use super::{Frontend, Head};
        use crate::fetch_policy::RoundRobin;
        use crate::policy::WarpSlots;
        let cfg = warpsim_core::config::GpuConfig::load_with(
            "gtx480",
            &["sm.branch_redirect=scheduler".into()],
        )
        .unwrap();
        let mut front = Frontend::new(&cfg, 2, RoundRobin::default(), true);
        let mut warps = WarpSlots::new(2, 2, 2);
        // A jump at 4 (to 9) with 5 behind it.
        front.ib.func[0] = 0;
        front.ib.pc[0] = 4;
        front.ib.ready[0] = 7;
        warps.set_ib_n(WarpSlot(0), 2);
        front.advance(&mut warps, WarpSlot(0), Some((0, 9)));
        assert_eq!((warps.ib_n()[0], front.head_at(WarpSlot(0))), (1, (0, 5)));
        assert_eq!(
            front.head(&mut warps, WarpSlot(0), (0, 9)),
            Head::Stale { ready: 7 }
        );
        assert!(front.is_stale(WarpSlot(0)) && warps.ib_n()[0] == 1);
        front.flush_stale(&mut warps, WarpSlot(0));
        assert!(!front.is_stale(WarpSlot(0)));
        assert_eq!(
            front.head(&mut warps, WarpSlot(0), (0, 9)),
            Head::Empty { flushed: true }
        );
        // A jump that was the last entry: the next fetch is the fall-through, 5 (what
        // `fetch_pc` reads for an empty buffer; `tests/branch_redirect.rs` times it).
        front.ib.pc[1] = 4;
        warps.set_ib_n(WarpSlot(1), 1);
        front.advance(&mut warps, WarpSlot(1), Some((0, 9)));
        assert_eq!(warps.ib_n()[1], 0);
        assert_eq!((front.ib.next_func[1], front.ib.next_pc[1]), (0, 5));
        assert_eq!(
            front.ib.sequential, 0b10,
            "warp 0's flush ended its sequential fetch"
        );
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
        assert_eq!((sm.warps.ib_n()[0], sm.warps.ib_n()[1]), (2, 0));
        assert_eq!(
            (
                sm.front.head_pc(WarpSlot(0)),
                sm.front.head_ready(WarpSlot(0))
            ),
            (0, 2)
        );
        assert_eq!((sm.warps.block[0], sm.warps.wake[0]), (Block::Ready, 2));
        assert_eq!(sm.warps.block[1], Block::Fetch);
        b.with_env(1, |env| sm.fetch_stage(env, 1));
        assert_eq!(
            (sm.warps.ib_n()[1], sm.front.head_ready(WarpSlot(1))),
            (2, 3)
        );
        // Both buffers full: nothing is eligible, the stage goes idle.
        b.with_env(1, |env| sm.fetch_stage(env, 2));
        assert!(sm.front.is_idle());
        // Waiting for its first instruction was a fetch stall: two cycles for warp 0 (credited
        // when the interval closes), three for warp 1.
        sm.settle(WarpSlot(0), 10);
        sm.settle(WarpSlot(1), 10);
        assert_eq!(sm.timing.stalls[0].fetch, 2);
        assert_eq!(sm.timing.stalls[1].fetch, 3);
    }
}
