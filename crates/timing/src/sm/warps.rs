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

use super::{Env, Sm};
use crate::fetch_policy::FetchPolicy;
use crate::policy::Events as _;
use crate::policy::{Block, IssuePolicy};
use crate::sm::scoreboard::Hazard;
use warpsim_core::exec::warp::{WarpState, WARP_SIZE};
use warpsim_core::ir::{Inst, Op, Opnd};

/// `N` of `cp.async.wait_group N` (an immediate, as PTX requires; a register waits for all).
fn cp_wait_count(inst: &Inst) -> u32 {
    match inst.src[0] {
        Opnd::Imm(n) => n.min(u32::MAX as u64) as u32,
        _ => 0,
    }
}

impl<P: IssuePolicy, F: FetchPolicy> Sm<P, F> {
    /// Closes warp `s`'s current blocked interval at cycle `t` and opens `[from, until)` with
    /// reason `why` (`Block::Ready` with `until == from`: a candidate from `from`).
    #[inline]
    pub(crate) fn block(&mut self, s: usize, why: Block, from: u64, until: u64) {
        self.settle(s, from);
        self.w.block[s] = why;
        self.w.wake[s] = until;
        self.w.long_until[s] = 0;
        self.since[s] = from;
        // Every change of the I-buffer head is followed by a new interval.
        self.w.refresh_memory_head(s);
        let k = self.place[s].scheduler as usize;
        // The scheduler must walk again in the first cycle that can see the flags above: they
        // changed now, and `from` is at most two cycles on (decode after this cycle's issue
        // opens an interval from the cycle after next), so one cycle before `from`. A
        // scheduler woken at `from` would charge its old outcome for a cycle in which a
        // walking one already reads the new flags (and two-level's replay must stop there).
        self.sched_wake[k] = self.sched_wake[k].min(from.saturating_sub(1));
    }

    /// Credits the blocked part of the current interval up to cycle `t`.
    #[inline]
    pub(crate) fn settle(&mut self, s: usize, t: u64) {
        let end = self.w.wake[s].min(t);
        let since = self.since[s];
        if end <= since {
            return;
        }
        let n = end - since;
        let c = &mut self.stalls[s];
        match self.w.block[s] {
            Block::Ready => {}
            // Waiting on its atomics' results is waiting on data (StallCounts::data).
            Block::Data | Block::Atomic => c.data += n,
            Block::Barrier => c.barrier += n,
            Block::Exit => c.exit_wait += n,
            Block::Drain => c.drain += n,
            Block::Control => c.control += n,
            Block::Fetch => c.fetch += n,
        }
        self.since[s] = end;
    }

    /// Re-derives warp `s`'s blocking state from cycle `t` from its I-buffer head and
    /// scoreboard (the warp is `Ready`). Call after anything that can unblock it.
    pub(crate) fn set_head(&mut self, env: &Env, s: usize, t: u64) {
        // A head still in decode cannot issue before it leaves decode.
        let t = if self.w.ib_n[s] == 0 {
            t
        } else {
            t.max(self.ib_ready[s])
        };
        if self.w.ib_n[s] == 0 {
            let why = if self.flushed[s] {
                Block::Control
            } else {
                Block::Fetch
            };
            self.block(s, why, t, u64::MAX);
            return;
        }
        let (func, pc) = (self.cur_func[s], self.cur_pc[s]);
        if func != self.ib_func[s] || pc != self.ib_pc[s] {
            // The decoded stream is not where the warp continues: a control hazard.
            self.w.set_ib_n(s, 0);
            self.flushed[s] = true;
            self.fetch_idle = false;
            self.block(s, Block::Control, t, u64::MAX);
            return;
        }
        if self.atomics_until[s] > t {
            // GPGPU-Sim's `shd_warp_t::waiting`: no issue while its atomics are in flight. A
            // long wait, as for a load (two-level scheduling demotes such warps).
            let until = self.atomics_until[s];
            self.block(s, Block::Atomic, t, until);
            self.w.long_until[s] = until;
            return;
        }
        let timing = env.table.get(func, pc);
        self.w.head_unit[s] = timing.unit;
        if let Some(inst) = env.k.module.functions[func as usize].insts.get(pc as usize) {
            // `cp.async.wait_group`/`wait_all` wait for copies in flight, like a load's result.
            let copies_landed = match inst.op {
                Op::CpAsyncWait => self.cp.ready(s, cp_wait_count(inst)),
                Op::CpAsyncWaitAll => self.cp.all_landed(s),
                _ => true,
            };
            if !copies_landed {
                self.block(s, Block::Data, t, u64::MAX);
                self.w.long_until[s] = u64::MAX;
                return;
            }
            let h = self.sb[s].check_at(
                env.table.regs.get(func, pc),
                self.reg_base[s] as usize,
                self.pred_base[s] as usize,
                t,
            );
            if let Hazard::Blocked { until, long } = h {
                self.block(s, Block::Data, t, until);
                if long {
                    self.w.long_until[s] = until;
                }
                return;
            }
        }
        self.block(s, Block::Ready, t, t);
    }

    /// Warp `s`'s scoreboard changed outside its own issue (an asynchronous result release):
    /// re-derive its blocking state from cycle `t`.
    pub fn recheck(&mut self, env: &Env, s: usize, t: u64) {
        if self.w.occupied[s] && self.w.state[s] == WarpState::Ready {
            self.set_head(env, s, t);
        }
    }

    /// Copies the functional warp's state, PC and frame into the slot's cached fields.
    #[inline]
    pub(crate) fn snapshot(&mut self, s: usize) {
        let (c, wi) = self.cta_and_warp(s);
        let Some(rc) = &self.ctas[c] else { return };
        let w = &rc.cta.warps[wi];
        let mut state = w.state;
        match (w.pc(), w.frames.last()) {
            (Some(pc), Some(f)) => {
                self.cur_pc[s] = pc;
                self.cur_func[s] = f.func;
                self.reg_base[s] = (f.reg_base / WARP_SIZE) as u32;
                self.pred_base[s] = f.pred_base as u32;
            }
            _ => state = WarpState::Done,
        }
        self.w.set_state(s, state);
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
            .ctas
            .iter()
            .position(|x| x.is_none())
            .expect("launch only with room");
        let nw = cta.warps.len();
        for (wi, w) in cta.warps.iter().enumerate() {
            let s = c * self.wpc + wi;
            self.w.set_occupied(s, true);
            self.w.age[s] = age_base + wi as u64;
            self.w.set_waiting(s, false);
            self.w.set_ib_n(s, 0);
            self.w.insts[s] = 0;
            self.w.thread_insts[s] = 0;
            self.flushed[s] = false;
            self.ib_ready[s] = 0;
            self.sb[s].clear();
            self.cp.reset(s);
            self.sb[s].fit(w.regs.len() / WARP_SIZE, w.preds.len());
            self.last_complete[s] = now;
            self.atomics_until[s] = 0;
            self.atomics_out[s] = 0;
            self.busy_from[s] = now;
            self.busy_cycles[s] = 0;
            self.start[s] = now;
            self.done_at[s] = now;
            self.stalls[s] = Default::default();
            self.dual[s] = 0;
            self.w.fetch_wait[s] = 0;
            // A fresh interval: nothing to credit from the slot's previous occupant.
            self.w.block[s] = Block::Ready;
            self.w.wake[s] = now;
            self.w.long_until[s] = 0;
            self.since[s] = now;
        }
        self.ctas[c] = Some(super::ResidentCta {
            cta,
            linear,
            start: now,
        });
        self.c.resident[c] = true;
        self.c.linear[c] = linear;
        self.c.start[c] = now;
        self.c.warps[c] = nw as u16;
        self.c.at_barrier[c] = 0;
        self.c.finished[c] = 0;
        self.c.first_arrival[c] = None;
        self.c.insts[c] = 0;
        self.c.thread_insts[c] = 0;
        for wi in 0..nw {
            let s = c * self.wpc + wi;
            self.snapshot(s);
            if self.w.state[s] == WarpState::Done {
                // A warp with no valid lanes is finished from the start.
                self.w.set_waiting(s, true);
                self.c.finished[c] += 1;
                let why = if self.c.finished[c] as usize == nw {
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
        self.resident += 1;
        self.fetch_idle = false;
        self.pending_exit = true; // a CTA of warps with no valid lanes finishes at once
        self.log(env, now, crate::stats::LogKind::CtaStart { cta: linear });
        notify!(self, now, env.all_dispatched, |p, v| p
            .on_cta_launch(c as u16, &v));
        c
    }
}
