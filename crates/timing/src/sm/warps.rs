//! Per-warp blocking state and interval stall accounting.
//!
//! A resident warp is, at any cycle, either a *candidate* (its I-buffer head may issue if its
//! unit is free) or *blocked* for a reason ([`Block`]) until its `wake` cycle (`u64::MAX`:
//! until an event — barrier release, fetch, CTA exit — changes it). The state is recomputed
//! only when it can change: after the warp issues, when fetch fills its I-buffer, when its
//! barrier releases, and (with an asynchronous memory system) when a result is released
//! ([`Sm::recheck`]). Stall cycles of a blocked interval `[since, min(wake, next change))` are
//! credited to its reason when the interval closes; `structural` is counted per cycle by the
//! issue walk; `not_selected` is the remainder (resident cycles − issued − all other reasons),
//! so every resident, non-issuing warp-cycle still counts exactly one reason.

use super::fetch::Head;
use super::scoreboard::Scoreboard;
use super::{Env, Sm};
use crate::fetch_policy::FetchPolicy;
use crate::ids::WarpSlot;
use crate::policy::Events as _;
use crate::policy::{Block, IssuePolicy};
use crate::sm::scoreboard::Hazard;
use crate::stats::StallCounts;
use warpsim_core::exec::warp::{WarpState, WARP_SIZE};
use warpsim_core::ir::{Inst, Op, Opnd};

/// `N` of `cp.async.wait_group N` (an immediate, as PTX requires; a register waits for all).
fn cp_wait_count(inst: &Inst) -> u32 {
    match inst.src[0] {
        Opnd::Imm(n) => n.min(u32::MAX as u64) as u32,
        _ => 0,
    }
}

/// Per warp slot, the timing state only the pipeline sees (policies see `WarpSlots`).
pub(crate) struct WarpTiming {
    /// Cached current function and PC of the functional warp (refreshed whenever they can
    /// change: issue, barrier release, exit), so the stages need not chase the warp's heap data.
    pub cur_func: Vec<u32>,
    pub cur_pc: Vec<u32>,
    /// Register / predicate base of the warp's current frame (for the scoreboard).
    pub reg_base: Vec<u32>,
    pub pred_base: Vec<u32>,
    /// Start of the current blocked interval.
    pub since: Vec<u64>,
    pub sb: Vec<Scoreboard>,
    /// Cycle the warp's last in-flight result completes.
    pub last_complete: Vec<u64>,
    /// With `sm.atomics_block_warp` the warp issues nothing before `atomics_until` (its last
    /// atomic's completion; `u64::MAX` while `atomics_out` of them are in the memory system).
    pub atomics_until: Vec<u64>,
    pub atomics_out: Vec<u16>,
    /// Start of the warp's current run of cycles with an instruction in flight (issued, not
    /// completed: up to `last_complete`, or later while memory accesses are outstanding),
    /// and the cycles of its earlier runs (`issue.rs`, `WarpRecord::issued_cycles`).
    pub busy_from: Vec<u64>,
    pub busy_cycles: Vec<u64>,
    /// Cycle the warp became resident, and the cycle it finished.
    pub start: Vec<u64>,
    pub done_at: Vec<u64>,
    pub stalls: Vec<StallCounts>,
    /// PC of the barrier the warp waits at.
    pub bar_pc: Vec<u32>,
    /// Cycles in which it issued two instructions.
    pub dual: Vec<u64>,
}

impl WarpTiming {
    pub fn new(n: usize) -> Self {
        WarpTiming {
            cur_func: vec![0; n],
            cur_pc: vec![0; n],
            reg_base: vec![0; n],
            pred_base: vec![0; n],
            since: vec![0; n],
            sb: vec![Scoreboard::default(); n],
            last_complete: vec![0; n],
            atomics_until: vec![0; n],
            atomics_out: vec![0; n],
            busy_from: vec![0; n],
            busy_cycles: vec![0; n],
            start: vec![0; n],
            done_at: vec![0; n],
            stalls: vec![StallCounts::default(); n],
            bar_pc: vec![0; n],
            dual: vec![0; n],
        }
    }

    /// Slot `s` takes a fresh warp at cycle `now` with `regs` registers and `preds` predicates
    /// (per lane): nothing in flight, no statistics from the slot's previous occupant.
    pub fn reset_slot(&mut self, s: WarpSlot, regs: usize, preds: usize, now: u64) {
        self.sb[s].clear();
        self.sb[s].fit(regs, preds);
        self.last_complete[s] = now;
        self.atomics_until[s] = 0;
        self.atomics_out[s] = 0;
        self.busy_from[s] = now;
        self.busy_cycles[s] = 0;
        self.start[s] = now;
        self.done_at[s] = now;
        self.stalls[s] = StallCounts::default();
        self.dual[s] = 0;
        self.since[s] = now;
    }
}

impl<P: IssuePolicy, F: FetchPolicy> Sm<P, F> {
    /// Closes warp `s`'s current blocked interval at cycle `t` and opens `[from, until)` with
    /// reason `why` (`Block::Ready` with `until == from`: a candidate from `from`).
    #[inline]
    pub(crate) fn block(&mut self, s: WarpSlot, why: Block, from: u64, until: u64) {
        self.settle(s, from);
        self.warps.block[s] = why;
        self.warps.wake[s] = until;
        self.warps.long_until[s] = 0;
        self.timing.since[s] = from;
        // Every change of the I-buffer head is followed by a new interval.
        self.warps.refresh_memory_head(s);
        let k = self.shape.place[s].scheduler;
        // The scheduler must walk again in the first cycle that can see the flags above: they
        // changed now, and `from` is at most two cycles on (decode after this cycle's issue
        // opens an interval from the cycle after next), so one cycle before `from`. A
        // scheduler woken at `from` would charge its old outcome for a cycle in which a
        // walking one already reads the new flags (and two-level's replay must stop there).
        self.sched.wake_by(k, from.saturating_sub(1));
    }

    /// Credits the blocked part of the current interval up to cycle `t`.
    #[inline]
    pub(crate) fn settle(&mut self, s: WarpSlot, t: u64) {
        let end = self.warps.wake[s].min(t);
        let since = self.timing.since[s];
        if end <= since {
            return;
        }
        let n = end - since;
        let c = &mut self.timing.stalls[s];
        match self.warps.block[s] {
            Block::Ready => {}
            // Waiting on its atomics' results is waiting on data (StallCounts::data).
            Block::Data | Block::Atomic => c.data += n,
            Block::Barrier => c.barrier += n,
            Block::Exit => c.exit_wait += n,
            Block::Drain => c.drain += n,
            Block::Control => c.control += n,
            Block::Fetch => c.fetch += n,
        }
        self.timing.since[s] = end;
    }

    /// Re-derives warp `s`'s blocking state from cycle `t` from its I-buffer head and
    /// scoreboard (the warp is `Ready`). Call after anything that can unblock it.
    pub(crate) fn set_head(&mut self, env: &Env, s: WarpSlot, t: u64) {
        let (func, pc) = (self.timing.cur_func[s], self.timing.cur_pc[s]);
        let t = match self.front.head(&mut self.warps, s, (func, pc)) {
            Head::Empty { flushed } => {
                let why = if flushed {
                    Block::Control
                } else {
                    Block::Fetch
                };
                self.block(s, why, t, u64::MAX);
                return;
            }
            // The decoded stream is not where the warp continues: a control hazard (from when
            // the stale head would have left decode).
            Head::Diverged { ready } => {
                self.block(s, Block::Control, t.max(ready), u64::MAX);
                return;
            }
            // A head still in decode cannot issue before it leaves decode.
            Head::Decoded { ready } => t.max(ready),
            // `sm.branch_redirect = "scheduler"`: the stale head waits for a scheduler walk
            // to find it (`Sm::flush_stale`) from when it leaves decode, scoreboard unseen;
            // GPGPU-Sim's scheduler does not look at a warp with atomics in flight.
            Head::Stale { ready } => {
                let from = t.max(ready);
                let (hf, hpc) = self.front.head_at(s);
                self.warps.head_unit[s] = env.table.get(hf, hpc).unit;
                let atomics = self.timing.atomics_until[s];
                if atomics > from {
                    self.block(s, Block::Atomic, t, atomics);
                    self.warps.long_until[s] = atomics;
                } else {
                    self.block(s, Block::Ready, from, from);
                }
                return;
            }
        };
        let atomics = self.timing.atomics_until[s];
        if atomics > t {
            self.wait_for_atomics(env, s, t, atomics);
            return;
        }
        self.warps.head_unit[s] = env.table.get(func, pc).unit;
        // `policy.tls.long_marks = "sticky"`: the head is long-latency dependent while an
        // input operand carries GPGPU-Sim's long-operation mark (`scoreboard.rs`), whether or
        // not the load is still out. (A mark a pending result erases ends before the head's
        // wait may: a scheduler going to sleep wakes for it, `issue_stage`.)
        let (waits, marked) = if P::READS_LONG_DEP && self.shape.sticky_long_marks {
            self.head_waits::<true>(env, s, t)
        } else {
            self.head_waits::<false>(env, s, t)
        };
        match waits {
            Some((until, long)) => {
                self.block(s, Block::Data, t, until);
                if long {
                    self.warps.long_until[s] = until;
                }
            }
            None => self.block(s, Block::Ready, t, t),
        }
        if marked != 0 {
            self.warps.long_until[s] = self.warps.long_until[s].max(marked);
        }
    }

    /// `sm.branch_redirect = "scheduler"`: a scheduler walk reached warp `s` at `now` with
    /// a stale head ([`Head::Stale`]); it flushes the I-buffer, fetch goes where the warp
    /// continues, and the warp waits on that refetch (a control hazard).
    pub(crate) fn flush_stale(&mut self, env: &Env, s: WarpSlot, now: u64) {
        self.front.flush_stale(&mut self.warps, s);
        self.set_head(env, s, now);
    }

    /// `set_head` for a warp whose atomics are in flight, or done but not yet written back
    /// (at `atomics` > `t`). GPGPU-Sim's `shd_warp_t::waiting`: it issues nothing until then,
    /// a long wait as for a load (two-level scheduling demotes it). While they fly the memory
    /// stage re-derives the state when the last completes (`finish`); once they have, the
    /// head is checked as of their writeback, so that the walk then finds its own unit and
    /// waits for whatever else it still needs.
    #[cold]
    fn wait_for_atomics(&mut self, env: &Env, s: WarpSlot, t: u64, atomics: u64) {
        let mut until = atomics;
        if atomics != u64::MAX {
            let (func, pc) = (self.timing.cur_func[s], self.timing.cur_pc[s]);
            self.warps.head_unit[s] = env.table.get(func, pc).unit;
            if let (Some((after, _)), _) = self.head_waits::<false>(env, s, atomics) {
                until = after;
            }
        }
        self.block(s, Block::Atomic, t, until);
        self.warps.long_until[s] = until;
    }

    /// What the head of warp `s` still waits for at cycle `t`: `None` when it could issue
    /// then; else the cycle it can (`u64::MAX`: until an event re-derives it) and whether
    /// that is a long wait (a load's result, copies in flight). With `MARKS`, also until
    /// when an input operand carries a long-operation mark ([`Scoreboard::marked_until`]).
    #[inline(always)]
    fn head_waits<const MARKS: bool>(
        &self,
        env: &Env,
        s: WarpSlot,
        t: u64,
    ) -> (Option<(u64, bool)>, u64) {
        let (func, pc) = (self.timing.cur_func[s], self.timing.cur_pc[s]);
        let Some(inst) = env.k.module.functions[func as usize].insts.get(pc as usize) else {
            return (None, 0);
        };
        // `cp.async.wait_group`/`wait_all` wait for copies in flight, like a load's result.
        let copies_landed = match inst.op {
            Op::CpAsyncWait => self.cp.ready(s, cp_wait_count(inst)),
            Op::CpAsyncWaitAll => self.cp.all_landed(s),
            _ => true,
        };
        let (h, marked) = self.timing.sb[s].check_marked::<MARKS>(
            env.table.regs.get(func, pc),
            self.timing.reg_base[s] as usize,
            self.timing.pred_base[s] as usize,
            t,
        );
        if !copies_landed {
            return (Some((u64::MAX, true)), marked);
        }
        match h {
            Hazard::Blocked { until, long } => (Some((until, long)), marked),
            Hazard::None => (None, marked),
        }
    }

    /// Warp `s`'s scoreboard changed outside its own issue (an asynchronous result release):
    /// re-derive its blocking state from cycle `t`.
    pub fn recheck(&mut self, env: &Env, s: WarpSlot, t: u64) {
        if self.warps.occupied()[s] && self.warps.state()[s] == WarpState::Ready {
            self.set_head(env, s, t);
        }
    }

    /// Copies the functional warp's state, PC and frame into the slot's cached fields.
    #[inline]
    pub(crate) fn snapshot(&mut self, s: WarpSlot) {
        let (c, wi) = self.cta_and_warp(s);
        let Some(rc) = &self.residency.ctas[c] else {
            return;
        };
        let w = &rc.cta.warps[wi];
        let mut state = w.state;
        match (w.pc(), w.frames.last()) {
            (Some(pc), Some(f)) => {
                self.timing.cur_pc[s] = pc;
                self.timing.cur_func[s] = f.func;
                self.timing.reg_base[s] = (f.reg_base / WARP_SIZE) as u32;
                self.timing.pred_base[s] = f.pred_base as u32;
            }
            _ => state = WarpState::Done,
        }
        self.warps.set_state(s, state);
    }

    /// Makes `cta` resident in a free CTA slot at cycle `now`; its warps get dynamic ids
    /// `age_base + index`. Returns the CTA slot.
    pub fn launch(
        &mut self,
        env: &mut Env,
        cta: warpsim_core::exec::cta::Cta,
        linear: u64,
        now: u64,
        age_base: u64,
    ) -> usize {
        let c = self
            .residency
            .ctas
            .iter()
            .position(|x| x.is_none())
            .expect("launch only with room");
        let nw = cta.warps.len();
        for (wi, w) in cta.warps.iter().enumerate() {
            let s = WarpSlot::new(c * self.shape.wpc + wi);
            self.warps.set_occupied(s, true);
            self.warps.age[s] = age_base + wi as u64;
            self.warps.set_waiting(s, false);
            self.warps.set_ib_n(s, 0);
            self.warps.insts[s] = 0;
            self.warps.thread_insts[s] = 0;
            self.front.reset_slot(s);
            self.timing
                .reset_slot(s, w.regs.len() / WARP_SIZE, w.preds.len(), now);
            self.cp.reset(s);
            self.warps.fetch_wait[s] = 0;
            // A fresh interval: nothing to credit from the slot's previous occupant.
            self.warps.block[s] = Block::Ready;
            self.warps.wake[s] = now;
            self.warps.long_until[s] = 0;
        }
        self.residency.ctas[c] = Some(super::ResidentCta {
            cta,
            linear,
            start: now,
        });
        self.cta_slots.resident[c] = true;
        self.cta_slots.linear[c] = linear;
        self.cta_slots.start[c] = now;
        self.cta_slots.warps[c] = nw as u16;
        self.cta_slots.at_barrier[c] = 0;
        self.cta_slots.finished[c] = 0;
        self.cta_slots.first_arrival[c] = None;
        self.cta_slots.insts[c] = 0;
        self.cta_slots.thread_insts[c] = 0;
        for wi in 0..nw {
            let s = WarpSlot::new(c * self.shape.wpc + wi);
            self.snapshot(s);
            if self.warps.state()[s] == WarpState::Done {
                // A warp with no valid lanes is finished from the start.
                self.warps.set_waiting(s, true);
                self.cta_slots.finished[c] += 1;
                let why = if self.cta_slots.finished[c] as usize == nw {
                    Block::Drain
                } else {
                    Block::Exit
                };
                self.block(s, why, now, u64::MAX);
            } else {
                self.block(s, Block::Fetch, now, u64::MAX);
            }
        }
        self.rebuild_age_order();
        self.residency.count += 1;
        self.front.rouse();
        self.residency.pending_exit = true; // a CTA of warps with no valid lanes finishes at once
        self.log(env, now, crate::stats::LogKind::CtaStart { cta: linear });
        notify!(self, now, env.all_dispatched, |p, v| p
            .on_cta_launch(c as u16, &v));
        c
    }
}

#[cfg(test)]
mod tests {
    //! Per-warp blocking state on gtx480 (two schedulers, two-entry I-buffers, one fetch slot a
    //! cycle) with a perfect I-cache: what a warp is blocked on after launch, fetch, issue and
    //! hand-made scoreboard changes, which stall class each blocked interval is credited to,
    //! and when its scheduler is told to walk again.
    use super::super::scoreboard::{Write, PENDING};
    use super::super::testbench::{kernel, Bench, TestSm};
    use crate::classify::Unit;
    use crate::ids::{SchedId, WarpSlot};
    use crate::policy::Block;
    use crate::stats::StallCounts;
    use warpsim_core::exec::warp::Frame;

    /// One CTA of `threads` threads of `kernel(body)` made resident at cycle `at`.
    fn launched(body: &str, threads: u32, at: u64) -> (Bench, TestSm) {
        launched_with(body, threads, at, &[])
    }

    fn launched_with(body: &str, threads: u32, at: u64, overrides: &[&str]) -> (Bench, TestSm) {
        let mut b = Bench::new(&kernel(body), threads, "gtx480", overrides);
        let mut sm = b.sm(1, true);
        b.launch(&mut sm, 1, 0, at);
        (b, sm)
    }

    /// The kernel frame (register slot 0, predicate 0).
    fn frame0() -> Frame {
        Frame {
            func: 0,
            reg_base: 0,
            pred_base: 0,
            local_base: 0,
            call_site: 0,
        }
    }

    /// A CTA launched at cycle 5 has every warp blocked on fetch until an event (`wake` =
    /// `u64::MAX`), its interval opened at 5, not long, nothing credited yet; settling credits
    /// exactly the cycles since 5 to `fetch`, once.
    #[test]
    fn after_launch_every_warp_waits_for_fetch_from_the_launch_cycle() {
        let (_b, mut sm) = launched("mov.u32 %r1, %tid.x;", 64, 5);
        for s in 0..2 {
            assert_eq!(sm.warps.block[s], Block::Fetch);
            assert_eq!(sm.warps.wake[s], u64::MAX);
            assert_eq!(sm.warps.long_until[s], 0);
            assert_eq!(sm.timing.since[s], 5);
            assert_eq!(sm.timing.stalls[s], StallCounts::default());
            sm.settle(WarpSlot::new(s), 9);
            sm.settle(WarpSlot::new(s), 9);
            assert_eq!(sm.timing.stalls[s].fetch, 4, "cycles 5..9, credited once");
            sm.settle(WarpSlot::new(s), 12);
            assert_eq!(sm.timing.stalls[s].fetch, 7);
        }
    }

    /// Every blocked interval `[from, min(wake, close))` is credited, when it closes, to its
    /// reason's class only: `Atomic` to `data`; a `Ready` interval to nothing; an interval
    /// with a wake cycle stops counting at its wake even when it closes later.
    #[test]
    fn each_blocked_interval_is_credited_to_its_class() {
        let (_b, mut sm) = launched("mov.u32 %r1, %tid.x;", 32, 0);
        sm.block(WarpSlot(0), Block::Control, 4, u64::MAX); // fetch 0..4
        sm.block(WarpSlot(0), Block::Data, 10, 16); // control 4..10
        sm.settle(WarpSlot(0), 13); // data 10..13
        assert_eq!(sm.timing.stalls[0].data, 3);
        sm.settle(WarpSlot(0), 20); // data 13..16: the wake cut it
        assert_eq!(sm.timing.stalls[0].data, 6);
        sm.block(WarpSlot(0), Block::Ready, 20, 20);
        sm.block(WarpSlot(0), Block::Atomic, 22, 25); // ready 20..22: nothing
        sm.block(WarpSlot(0), Block::Barrier, 30, u64::MAX); // atomic 22..25, as data
        sm.block(WarpSlot(0), Block::Exit, 33, u64::MAX); // barrier 30..33
        sm.block(WarpSlot(0), Block::Drain, 34, u64::MAX); // exit 33..34
        sm.settle(WarpSlot(0), 40); // drain 34..40
        let want = StallCounts {
            fetch: 4,
            control: 6,
            data: 9,
            barrier: 3,
            exit_wait: 1,
            drain: 6,
            ..StallCounts::default()
        };
        assert_eq!(sm.timing.stalls[0], want);
    }

    /// A new interval tells the warp's scheduler to walk one cycle before the interval starts
    /// (never later than it already would): both schedulers asleep for good (`u64::MAX`) after
    /// walking with nothing to issue, a fetch in cycle 0 making warp 0's head issuable from 2
    /// brings scheduler 0's next walk to cycle 1; a later interval does not postpone it.
    #[test]
    fn a_new_interval_wakes_the_warps_scheduler_a_cycle_early() {
        let (mut b, mut sm) = launched("mov.u32 %r1, %tid.x;", 32, 0);
        b.with_env(1, |env| {
            sm.issue_stage(env, SchedId(0), 0).unwrap();
            sm.issue_stage(env, SchedId(1), 0).unwrap();
        });
        assert_eq!(sm.sched.next_activity(0), u64::MAX, "both asleep");
        b.with_env(1, |env| sm.fetch_stage(env, 0));
        assert_eq!((sm.warps.block[0], sm.warps.wake[0]), (Block::Ready, 2));
        assert_eq!(sm.sched.next_activity(0), 1);
        // The walk in cycle 1 finds the head not yet decoded: asleep until 2.
        b.with_env(1, |env| sm.issue_stage(env, SchedId(0), 1).unwrap());
        assert_eq!(sm.sched.next_activity(1), 2);
        sm.block(WarpSlot(0), Block::Data, 6, 9);
        assert_eq!(sm.sched.next_activity(1), 2, "not postponed to 5");
        sm.block(WarpSlot(0), Block::Ready, 0, 0);
        assert_eq!(sm.sched.next_activity(0), 0, "from 0: at once");
    }

    /// A head reading a register reserved by a load still in the memory system (`PENDING`,
    /// long) is a data stall until an event, long all the while; once the load's release at 20
    /// is rechecked at 15 it is a short data stall until exactly 20, then a candidate. The
    /// data stall is 2..20: 13 cycles credited at the recheck, 5 more when settled past 20.
    #[test]
    fn a_head_waiting_on_a_released_load_wakes_at_its_ready_cycle() {
        let (mut b, mut sm) = launched("add.u32 %r2, %r1, 1;\nmov.u32 %r1, %tid.x;", 32, 0);
        b.with_env(1, |env| {
            sm.fetch_stage(env, 0);
            // The head (`add`, issuable from 2) reads `%r1`, which a load still owns (reserved
            // here through the `mov` that writes it).
            let mov = &env.k.module.functions[0].insts[1];
            sm.timing.sb[0].reserve(mov, &frame0(), PENDING, Write::LONG, 0);
            sm.set_head(env, WarpSlot(0), 2);
        });
        assert_eq!(sm.warps.block[0], Block::Data);
        assert_eq!(sm.warps.wake[0], PENDING);
        assert_eq!(sm.warps.long_until[0], PENDING);
        b.with_env(1, |env| {
            let mov = &env.k.module.functions[0].insts[1];
            sm.timing.sb[0].release_at(mov, 0, 0, 20, false);
            sm.recheck(env, WarpSlot(0), 15);
        });
        assert_eq!((sm.warps.block[0], sm.warps.wake[0]), (Block::Data, 20));
        assert_eq!(sm.warps.long_until[0], 0, "a released result is short");
        assert_eq!(sm.timing.stalls[0].data, 13);
        assert_eq!(sm.timing.stalls[0].fetch, 2);
        sm.settle(WarpSlot(0), 30);
        assert_eq!(sm.timing.stalls[0].data, 18);
        b.with_env(1, |env| sm.recheck(env, WarpSlot(0), 20));
        assert_eq!((sm.warps.block[0], sm.warps.wake[0]), (Block::Ready, 20));
    }

    /// With `sm.branch_redirect = "issue"` a taken branch flushes the I-buffer: issued in
    /// cycle 2, `bra` leaves the warp blocked on control from 3; the fetch stage of the same
    /// cycle refetches at the target, issuable from 4 (fetched in the cycle's last slot): one
    /// control stall cycle, after two of fetch.
    #[test]
    fn a_taken_branch_is_a_control_stall_until_the_target_is_decoded() {
        let body = "bra SKIP;\nmov.u32 %r1, 1;\nSKIP:\nmov.u32 %r2, 2;";
        let (mut b, mut sm) = launched_with(body, 32, 0, &["sm.branch_redirect=issue"]);
        b.with_env(1, |env| {
            sm.fetch_stage(env, 0);
            sm.fetch_stage(env, 1);
            sm.issue_stage(env, SchedId(0), 2).unwrap();
        });
        assert_eq!(sm.warps.insts[0], 1, "the branch issued");
        assert_eq!(sm.timing.cur_pc[0], 2, "taken");
        assert_eq!(
            (sm.warps.block[0], sm.warps.wake[0]),
            (Block::Control, u64::MAX)
        );
        assert_eq!(sm.timing.since[0], 3);
        b.with_env(1, |env| sm.fetch_stage(env, 2));
        assert_eq!(sm.front.head_pc(WarpSlot(0)), 2);
        assert_eq!((sm.warps.block[0], sm.warps.wake[0]), (Block::Ready, 4));
        assert_eq!(sm.timing.stalls[0].control, 1);
        assert_eq!(sm.timing.stalls[0].fetch, 2);
    }

    /// With `sm.branch_redirect = "issue"`, a decoded head that is not where the warp continues
    /// (here: the warp moved on to PC 1 while PC 0 is decoded) is flushed and is a control
    /// stall from when it would have left decode (2), even when looked at earlier (1).
    #[test]
    fn a_stale_head_is_a_control_stall_from_its_decode() {
        let body = "mov.u32 %r1, %tid.x;\nadd.u32 %r2, %r1, 1;";
        let (mut b, mut sm) = launched_with(body, 32, 0, &["sm.branch_redirect=issue"]);
        b.with_env(1, |env| {
            sm.fetch_stage(env, 0);
            sm.timing.cur_pc[0] = 1;
            sm.set_head(env, WarpSlot(0), 1);
        });
        assert_eq!(sm.warps.ib_n()[0], 0, "flushed");
        assert_eq!(
            (sm.warps.block[0], sm.warps.wake[0]),
            (Block::Control, u64::MAX)
        );
        assert_eq!(sm.timing.since[0], 2);
        sm.settle(WarpSlot(0), 7);
        assert_eq!(sm.timing.stalls[0].control, 5);
        assert_eq!(sm.timing.stalls[0].fetch, 2);
    }

    /// With atomics in flight until 30 (`sm.atomics_block_warp`) the warp is blocked on them
    /// from its head's decode (2) until exactly 30, a long wait, credited as data; from 30 on
    /// the head is a candidate again.
    #[test]
    fn atomics_in_flight_block_the_warp_until_they_complete() {
        let (mut b, mut sm) = launched("mov.u32 %r1, %tid.x;", 32, 0);
        b.with_env(1, |env| {
            sm.fetch_stage(env, 0);
            sm.timing.atomics_until[0] = 30;
            sm.set_head(env, WarpSlot(0), 1);
        });
        assert_eq!((sm.warps.block[0], sm.warps.wake[0]), (Block::Atomic, 30));
        assert_eq!(sm.warps.long_until[0], 30);
        assert_eq!(sm.timing.since[0], 2);
        b.with_env(1, |env| sm.set_head(env, WarpSlot(0), 30));
        assert_eq!((sm.warps.block[0], sm.warps.wake[0]), (Block::Ready, 30));
        assert_eq!(sm.timing.stalls[0].data, 28);
    }

    /// Once its atomics have completed (their results written back at 30) the head is checked
    /// as of 30: the walk then finds the head's own unit (here SP, not the LD/ST unit of the
    /// atomic it issued last), and a register still owned by an earlier instruction past 30
    /// keeps the warp waiting until it is written (40).
    #[test]
    fn after_its_atomics_the_head_is_checked_as_of_their_writeback() {
        let (mut b, mut sm) = launched("mov.u32 %r1, %tid.x;", 32, 0);
        sm.warps.head_unit[0] = Unit::Ldst; // the atomic's
        b.with_env(1, |env| {
            sm.fetch_stage(env, 0);
            sm.timing.atomics_until[0] = 30;
            sm.set_head(env, WarpSlot(0), 1);
        });
        assert_eq!(sm.warps.head_unit[0], Unit::Sp);
        assert_eq!((sm.warps.block[0], sm.warps.wake[0]), (Block::Atomic, 30));
        b.with_env(1, |env| {
            let mov = &env.k.module.functions[0].insts[0];
            sm.timing.sb[0].reserve(mov, &frame0(), 40, Write::CLEARS, 0);
            sm.set_head(env, WarpSlot(0), 5);
        });
        assert_eq!((sm.warps.block[0], sm.warps.wake[0]), (Block::Atomic, 40));
        assert_eq!(sm.warps.long_until[0], 40);
        b.with_env(1, |env| sm.set_head(env, WarpSlot(0), 40));
        assert_eq!((sm.warps.block[0], sm.warps.wake[0]), (Block::Ready, 40));
        assert_eq!(sm.timing.stalls[0].data, 38, "2..40, all of it waiting");
    }
}
