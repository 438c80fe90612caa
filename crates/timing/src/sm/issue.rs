//! Issue: each scheduler asks its policy for a priority order of its warps and walks it,
//! issuing the first warp that (a) is not waiting (barrier / finished), (b) has a valid
//! I-buffer head matching its SIMT PC (a mismatch — taken branch, reconvergence, call, return —
//! flushes the I-buffer: a control hazard), (c) passes the scoreboard, (d) finds a free
//! functional unit. Issue executes the instruction functionally through `exec::step`. Every
//! warp of the scheduler that does not issue is charged one stall cycle with its reason.

use super::memory::{const_access, global_access, shared_access, Access};
use super::scoreboard::Hazard;
use super::{Env, Sm};
use crate::classify::{MemClass, OpTiming};
use warpsim_core::exec::grid::{deadlock, fault_error};
use crate::policy::PolicyView;
use crate::stats::IssueEvent;
use warpsim_core::exec::context::MemCtx;
use warpsim_core::exec::mem_ops::addresses;
use warpsim_core::exec::operands::{classify_generic, Lanes, Window};
use warpsim_core::exec::step::{step, StepEvent};
use warpsim_core::exec::warp::{WarpState, WARP_SIZE};
use warpsim_core::ir::{Op, Space};

/// Outcome of evaluating one warp for issue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reason {
    Ready(OpTiming, usize),
    Exit,
    Barrier,
    Control,
    Fetch,
    Data,
    Structural,
}

impl Sm {
    /// Whether the warp in `slot` could issue now on scheduler `sched`.
    fn evaluate(&mut self, env: &Env, slot: usize, sched: usize, now: u64) -> Reason {
        match self.state[slot] {
            WarpState::Done => return Reason::Exit,
            WarpState::AtBarrier { .. } => return Reason::Barrier,
            WarpState::Ready => {}
        }
        if self.ib_n[slot] == 0 {
            return if self.flushed[slot] {
                Reason::Control
            } else {
                Reason::Fetch
            };
        }
        let (func, pc) = (self.cur_func[slot], self.cur_pc[slot]);
        if func != self.ib_func[slot] || pc != self.ib_pc[slot] {
            self.ib_n[slot] = 0;
            self.flushed[slot] = true;
            return Reason::Control;
        }
        // A blocked warp's scoreboard entries cannot change until it issues again, so the
        // cycle it unblocks is cached.
        if now < self.data_until[slot] {
            return Reason::Data;
        }
        if let Some(inst) = env.k.module.functions[func as usize].insts.get(pc as usize) {
            let Some(rc) = &self.ctas[slot / self.wpc] else {
                return Reason::Exit;
            };
            let f = rc.cta.warps[slot % self.wpc].frame();
            if let Hazard::Blocked { until, .. } = self.sb[slot].check(inst, &f, now) {
                self.data_until[slot] = until;
                return Reason::Data;
            }
        }
        let t = env.table.get(func, pc);
        match self.units.free(t.unit, sched, now) {
            Some(u) => Reason::Ready(t, u),
            None => Reason::Structural,
        }
    }

    /// Fills the policy view's `waiting` and (for two-level) `long_dep` for `sched`'s warps.
    fn refresh_view(&mut self, env: &Env, sched: usize, now: u64) {
        let needs_long = self.policies[sched].needs_long_dep();
        for i in 0..self.sched_slots[sched].len() {
            let s = self.sched_slots[sched][i] as usize;
            if !self.occupied[s] {
                continue;
            }
            self.waiting[s] = self.state[s] != WarpState::Ready;
            if needs_long {
                self.long_dep[s] = false;
                if self.state[s] == WarpState::Ready {
                    let Some(rc) = &self.ctas[s / self.wpc] else {
                        continue;
                    };
                    let w = &rc.cta.warps[s % self.wpc];
                    let f = w.frame();
                    if let Some(inst) = env.k.module.functions[f.func as usize]
                        .insts
                        .get(self.cur_pc[s] as usize)
                    {
                        self.long_dep[s] = matches!(
                            self.sb[s].check(inst, &f, now),
                            Hazard::Blocked { long: true, .. }
                        );
                    }
                }
            }
        }
    }

    pub(crate) fn issue_stage(
        &mut self,
        env: &mut Env,
        sched: usize,
        now: u64,
    ) -> Result<(), crate::TimingError> {
        self.refresh_view(env, sched, now);
        let mut order = std::mem::take(&mut self.order);
        let slots = std::mem::take(&mut self.sched_slots[sched]);
        {
            let view = PolicyView {
                occupied: &self.occupied,
                age: &self.age,
                waiting: &self.waiting,
                long_dep: &self.long_dep,
            };
            self.policies[sched].order(&slots, &view, &mut order);
        }
        let stamp = now + 1;
        let mut issued = false;
        let (mut any_struct, mut any_data) = (false, false);
        let mut result = Ok(());
        for &s in &order {
            let s = s as usize;
            self.walked[s] = stamp;
            let r = self.evaluate(env, s, sched, now);
            match r {
                Reason::Ready(t, u) if !issued => {
                    issued = true;
                    self.policies[sched].issued(s as u16);
                    if let Some(tr) = env.trace.as_mut() {
                        tr.push(IssueEvent {
                            cycle: now,
                            sm: self.id,
                            scheduler: sched as u32,
                            slot: s as u32,
                            age: self.age[s],
                            pc: self.cur_pc[s],
                        });
                    }
                    self.issued_at[s] = stamp;
                    if let Err(e) = self.issue_one(env, s, t, u, now) {
                        result = Err(e);
                        break;
                    }
                    continue;
                }
                // Once the scheduler has issued, a ready warp lost arbitration, whatever the
                // unit state after that issue.
                Reason::Structural if issued => {
                    self.charge(s, Reason::Ready(OpTiming::NOP, 0));
                    continue;
                }
                Reason::Structural => any_struct = true,
                Reason::Data => any_data = true,
                _ => {}
            }
            self.charge(s, r);
        }
        for &s in &slots {
            let s = s as usize;
            if self.occupied[s] && self.walked[s] != stamp {
                let r = self.evaluate(env, s, sched, now);
                self.charge(s, r);
            }
        }
        let slot_stat = &mut self.issue[sched];
        if issued {
            slot_stat.issued += 1;
        } else if any_struct {
            slot_stat.pipeline += 1;
        } else if any_data {
            slot_stat.scoreboard += 1;
        } else {
            slot_stat.idle += 1;
        }
        self.order = order;
        self.sched_slots[sched] = slots;
        result
    }

    #[inline]
    fn charge(&mut self, s: usize, r: Reason) {
        let c = &mut self.stalls[s];
        match r {
            Reason::Ready(..) => c.not_selected += 1,
            Reason::Exit => c.exit_wait += 1,
            Reason::Barrier => c.barrier += 1,
            Reason::Control => c.control += 1,
            Reason::Fetch => c.fetch += 1,
            Reason::Data => c.data += 1,
            Reason::Structural => c.structural += 1,
        }
    }

    /// Issues the I-buffer head of warp slot `s` on unit instance `unit`.
    fn issue_one(
        &mut self,
        env: &mut Env,
        s: usize,
        t: OpTiming,
        unit: usize,
        now: u64,
    ) -> Result<(), crate::TimingError> {
        let (c, wi) = (s / self.wpc, s % self.wpc);
        let rc = self.ctas[c].as_mut().expect("occupied slot has a CTA");
        let cta = &mut rc.cta;
        let k = env.k;
        let w = &mut cta.warps[wi];
        let f = w.frame();
        let pc = w.pc().unwrap_or(0);
        let inst = k.module.functions[f.func as usize].insts.get(pc as usize);
        let mut m = MemCtx {
            global: &mut *env.gmem,
            shared: &mut cta.shared,
            printf: &mut *env.printf,
            clock: now,
            cta: cta.id,
        };
        // Memory timing from the addresses, computed before executing.
        let access = match (t.mem, inst) {
            (MemClass::Data, Some(inst)) => {
                let active = w.active_mask();
                let exec = match inst.guard.pred {
                    None => active,
                    Some(p) => {
                        active
                            & (w.preds[f.pred_base + p as usize]
                                ^ if inst.guard.negated { u32::MAX } else { 0 })
                    }
                };
                if exec == 0 {
                    Access {
                        latency: 1,
                        occupancy: 1,
                        long: false,
                    }
                } else {
                    let mut lanes: Lanes = [0; WARP_SIZE];
                    addresses(k, &m, w, &f, &inst.src[0], &mut lanes);
                    let space = match inst.mods.space {
                        Space::Generic => {
                            match classify_generic(lanes[exec.trailing_zeros() as usize]) {
                                Window::Shared(_) => Space::Shared,
                                _ => Space::Global,
                            }
                        }
                        sp => sp,
                    };
                    if space == Space::Shared {
                        shared_access(env.cfg, &lanes, exec)
                    } else {
                        global_access(env.cfg, &lanes, exec)
                    }
                }
            }
            (MemClass::Const, _) => const_access(env.cfg),
            _ => Access {
                latency: t.latency,
                occupancy: t.initiation,
                long: false,
            },
        };
        let before = w.thread_instructions;
        let ev = step(k, &mut m, w).map_err(|e| fault_error(k, cta, wi, e))?;
        let w = &mut cta.warps[wi];
        env.warp_instructions += 1;
        env.thread_instructions += w.thread_instructions - before;
        self.insts[s] += 1;
        let ready = now + access.latency.max(1) as u64;
        if let Some(inst) = inst {
            if inst.op != Op::St {
                self.sb[s].reserve(inst, &f, ready, access.long);
            }
        }
        self.sb[s].fit(w.regs.len() / WARP_SIZE, w.preds.len());
        self.last_complete[s] = self.last_complete[s].max(ready);
        self.units
            .occupy(t.unit, unit, now + access.occupancy.max(1) as u64);
        // I-buffer: pop the head when execution continues sequentially, else flush.
        match (w.state, w.pc()) {
            (WarpState::Done, _) | (_, None) => self.ib_n[s] = 0,
            (_, Some(npc)) => {
                if w.frame().func == self.ib_func[s] && npc == self.ib_pc[s] + 1 {
                    self.ib_pc[s] = npc;
                    self.ib_n[s] -= 1;
                } else {
                    self.ib_n[s] = 0;
                    self.flushed[s] = true;
                }
            }
        }
        match ev {
            StepEvent::Continue => {}
            StepEvent::Done => {
                cta.warps[wi].state = WarpState::Done;
                cta.release_ready();
                self.done_at[s] = now;
                self.pending_exit = true;
            }
            ev @ StepEvent::Barrier { .. } => cta.arrive(wi, ev),
        }
        if cta.warps[wi].state == WarpState::Done {
            self.done_at[s] = now;
            self.pending_exit = true;
        }
        let event = !matches!(ev, StepEvent::Continue);
        if event && !cta.finished() && cta.warps.iter().all(|w| w.state != WarpState::Ready) {
            return Err(deadlock(k, cta).into());
        }
        if event {
            // A barrier release or an exit can change other warps' state.
            self.sync_cta(c);
        } else {
            let w = &self.ctas[c].as_ref().expect("resident").cta.warps[wi];
            let snap = (w.state, w.pc(), w.frames.last().map_or(0, |f| f.func));
            self.set_warp(s, snap);
        }
        Ok(())
    }
}
