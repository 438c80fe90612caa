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
    pub fn reset_slot(&mut self, s: usize, regs: usize, preds: usize, now: u64) {
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
    pub(crate) fn block(&mut self, s: usize, why: Block, from: u64, until: u64) {
        self.settle(s, from);
        self.warps.block[s] = why;
        self.warps.wake[s] = until;
        self.warps.long_until[s] = 0;
        self.timing.since[s] = from;
        // Every change of the I-buffer head is followed by a new interval.
        self.warps.refresh_memory_head(s);
        let k = self.shape.place[s].scheduler as usize;
        // The scheduler must walk again in the first cycle that can see the flags above: they
        // changed now, and `from` is at most two cycles on (decode after this cycle's issue
        // opens an interval from the cycle after next), so one cycle before `from`. A
        // scheduler woken at `from` would charge its old outcome for a cycle in which a
        // walking one already reads the new flags (and two-level's replay must stop there).
        self.sched.wake_by(k, from.saturating_sub(1));
    }

    /// Credits the blocked part of the current interval up to cycle `t`.
    #[inline]
    pub(crate) fn settle(&mut self, s: usize, t: u64) {
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
    pub(crate) fn set_head(&mut self, env: &Env, s: usize, t: u64) {
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
        };
        if self.timing.atomics_until[s] > t {
            // GPGPU-Sim's `shd_warp_t::waiting`: no issue while its atomics are in flight. A
            // long wait, as for a load (two-level scheduling demotes such warps).
            let until = self.timing.atomics_until[s];
            self.block(s, Block::Atomic, t, until);
            self.warps.long_until[s] = until;
            return;
        }
        let timing = env.table.get(func, pc);
        self.warps.head_unit[s] = timing.unit;
        if let Some(inst) = env.k.module.functions[func as usize].insts.get(pc as usize) {
            // `cp.async.wait_group`/`wait_all` wait for copies in flight, like a load's result.
            let copies_landed = match inst.op {
                Op::CpAsyncWait => self.cp.ready(s, cp_wait_count(inst)),
                Op::CpAsyncWaitAll => self.cp.all_landed(s),
                _ => true,
            };
            if !copies_landed {
                self.block(s, Block::Data, t, u64::MAX);
                self.warps.long_until[s] = u64::MAX;
                return;
            }
            let h = self.timing.sb[s].check_at(
                env.table.regs.get(func, pc),
                self.timing.reg_base[s] as usize,
                self.timing.pred_base[s] as usize,
                t,
            );
            if let Hazard::Blocked { until, long } = h {
                self.block(s, Block::Data, t, until);
                if long {
                    self.warps.long_until[s] = until;
                }
                return;
            }
        }
        self.block(s, Block::Ready, t, t);
    }

    /// Warp `s`'s scoreboard changed outside its own issue (an asynchronous result release):
    /// re-derive its blocking state from cycle `t`.
    pub fn recheck(&mut self, env: &Env, s: usize, t: u64) {
        if self.warps.occupied()[s] && self.warps.state()[s] == WarpState::Ready {
            self.set_head(env, s, t);
        }
    }

    /// Copies the functional warp's state, PC and frame into the slot's cached fields.
    #[inline]
    pub(crate) fn snapshot(&mut self, s: usize) {
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
            let s = c * self.shape.wpc + wi;
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
            let s = c * self.shape.wpc + wi;
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
