//! Issue: each scheduler asks its policy for a priority order of its warps and walks it,
//! issuing the first *candidate* warp (not blocked: see `warps.rs` — not waiting, a valid
//! I-buffer head at its SIMT PC, scoreboard clear) that finds a free functional unit. A
//! candidate whose unit is busy before anything issued counts a `structural` stall cycle.
//! Issue executes the instruction functionally through `exec::step`.
//!
//! A scheduler that found no candidate (all warps blocked) sleeps until the earliest cycle one
//! of its warps can change state (`sched_wake`), charging the same issue-slot outcome each
//! cycle; any state change of one of its warps wakes it (`Sm::block`). Only for policies with
//! `MAY_SLEEP` (every registered one: see its definition for what it requires).

use super::memory::{AccKind, SmMem};
use super::scoreboard::PENDING;
use super::{Env, Slot, Sm};
use crate::classify::{MemClass, Unit};
use crate::fetch_policy::FetchPolicy;
use crate::mem::coalesce::{atomic_requests, bank_degree, lines, mark_whole_sectors};
use crate::policy::Events as _;
use crate::policy::{Block, IssuePolicy, Issued};
use crate::stats::IssueEvent;
use std::cmp::Reverse;
use warpsim_core::config::AtomicRequests;
use warpsim_core::exec::context::MemCtx;
use warpsim_core::exec::grid::fault_error;
use warpsim_core::exec::mem_ops::addresses;
use warpsim_core::exec::operands::{classify_generic, Lanes, Window};
use warpsim_core::exec::step::step;
use warpsim_core::exec::texture::fetch::lane_addresses;
use warpsim_core::exec::warp::{WarpState, WARP_SIZE};
use warpsim_core::ir::{Op, Space};

/// Timing of one issued instruction's result.
#[derive(Clone, Copy, Debug)]
struct Access {
    latency: u32,
    /// Cycles its unit stays busy.
    occupancy: u32,
}

/// How an instruction's result is timed.
enum Plan {
    /// Known at issue.
    Sync(Access),
    /// Global/local/constant memory: the lines staged in `self.mem` decide.
    Async { kind: AccKind, long: bool },
}

impl<P: IssuePolicy, F: FetchPolicy> Sm<P, F> {
    pub(crate) fn issue_stage(
        &mut self,
        env: &mut Env,
        k: usize,
        now: u64,
    ) -> Result<(), crate::TimingError> {
        if P::MAY_SLEEP && now < self.sched_wake[k] {
            // `outcome[k]` still holds the last walk's; a walk stalled on busy units would
            // have charged the same warps a structural stall again.
            for &s in &self.unit_stalled[k] {
                self.stalls[s as usize].structural += 1;
            }
            return Ok(());
        }
        let mut order = std::mem::take(&mut self.order);
        {
            let v = view!(self, now, env.all_dispatched);
            self.policies[k].order(&self.shared, &self.sched_slots[k], &v, &mut order);
        }
        self.unit_stalled[k].clear();
        let (mut any_data, mut any_struct) = (false, false);
        let mut picked = None;
        for &s in &order {
            let si = s as usize;
            if self.w.wake[si] > now {
                any_data |= self.w.block[si] == Block::Data;
                continue;
            }
            let unit = self.w.head_unit[si];
            match self
                .units
                .free(unit, k, now)
                .filter(|_| self.oc.free(unit, k, now).is_some())
                .or_else(|| self.queue_behind(env, si, unit, k, now))
            {
                Some(u) => {
                    picked = Some((si, u));
                    break;
                }
                None => {
                    if unit == Unit::Ldst
                        && !env.table.get(self.cur_func[si], self.cur_pc[si]).queues
                    {
                        self.ldst_waiting = true;
                    }
                    self.stalls[si].structural += 1;
                    self.unit_stalled[k].push(s);
                    any_struct = true;
                    if self.share_warps {
                        self.blocked_ready.push(s);
                    }
                }
            }
        }
        self.order = order;
        self.outcome[k] = match picked {
            Some(_) => Slot::Issued,
            None if any_struct => Slot::Pipeline,
            None if any_data => Slot::Scoreboard,
            None => Slot::Idle,
        };
        self.sched_wake[k] = 0;
        if P::MAY_SLEEP
            && picked.is_none()
            && (!any_struct || self.waits_for_memory_stage(k))
            && self.policies[k].settled(&view!(self, now, env.all_dispatched))
        {
            // No candidate could issue: nothing changes before one of the other warps' wake
            // cycle or an event, which lowers `sched_wake` through `block` — or, when the
            // candidates wait for the LD/ST unit, the memory stage freeing it.
            let mut wake = u64::MAX;
            for &s in &self.sched_slots[k] {
                if self.w.occupied[s as usize] && self.w.wake[s as usize] > now {
                    wake = wake.min(self.w.wake[s as usize]);
                }
            }
            self.sched_wake[k] = wake;
        }
        let Some((s, u)) = picked else { return Ok(()) };
        let first = self.w.head_unit[s];
        self.issue_one(env, s, k, u, now, false)?;
        if self.dual_issue {
            if let Some(u2) = self.second_issue(env, s, k, first, now) {
                self.dual[s] += 1;
                env.dual_issues += 1;
                self.issue_one(env, s, k, u2, now, false)?;
            }
        }
        Ok(())
    }

    /// The LD/ST instance warp `s`'s memory instruction may queue behind while it is still
    /// serving an earlier instruction (`sm.ldst_queue`; GPGPU-Sim's memory pipeline registers
    /// and operand collectors in front of the unit): an access that always goes to the memory
    /// system, a free collector, and room in that instance's queue.
    #[inline]
    fn queue_behind(&self, env: &Env, s: usize, unit: Unit, k: usize, now: u64) -> Option<usize> {
        if unit != Unit::Ldst
            || self.ldst_waiting
            || !env.table.get(self.cur_func[s], self.cur_pc[s]).queues
        {
            return None;
        }
        self.oc.free(unit, k, now)?;
        self.units.usable(unit, k).find(|&u| self.mem.queue_room(u))
    }

    /// Every candidate of scheduler `k`'s last walk met a busy unit, each the LD/ST unit, and
    /// every LD/ST instance `k` may use is held until the memory stage frees it: the walk
    /// cannot go otherwise before that event. With warp sharing another scheduler could issue
    /// `k`'s warps on its own LD/ST instance, so every scheduler's must be held: then none of
    /// `k`'s warps can be shared either, and sleeping skips only their pushes onto the
    /// sharing list. (Short stalls on SP/SFU initiation intervals are cheaper walked than
    /// slept through.)
    fn waits_for_memory_stage(&self, k: usize) -> bool {
        // Held, and no room in its queue (`sm.ldst_queue`): room means a candidate waited for
        // something else (a collector), which frees by itself.
        let held = |b: usize| {
            self.units.next_free(Unit::Ldst, b) == u64::MAX
                && !self
                    .units
                    .usable(Unit::Ldst, b)
                    .any(|u| self.mem.queue_room(u))
        };
        self.unit_stalled[k]
            .iter()
            .all(|&s| self.w.head_unit[s as usize] == Unit::Ldst)
            && if self.share_warps {
                (0..self.sched_slots.len()).all(held)
            } else {
                held(k)
            }
    }

    /// Dual issue (`sm.dual_issue`): after warp `s` issued an instruction on a `first`-class
    /// unit in cycle `now`, the unit instance for its next instruction when that may issue in
    /// the same cycle: still running, the next I-buffer entry valid at its PC, no scoreboard
    /// hazard at `now` (including on the instruction just issued), and a free unit of a
    /// different class (GPGPU-Sim's `dual_issue_diff_exec_units`).
    fn second_issue(&self, env: &Env, s: usize, k: usize, first: Unit, now: u64) -> Option<usize> {
        if self.w.state[s] != WarpState::Ready
            || self.w.block[s] != Block::Ready
            || self.w.wake[s] != now + 1
            || self.w.head_unit[s] == first
        {
            return None;
        }
        let uses = env.table.regs.get(self.cur_func[s], self.cur_pc[s]);
        let (rb, pb) = (self.reg_base[s] as usize, self.pred_base[s] as usize);
        if self.sb[s].check_at(uses, rb, pb, now) != super::scoreboard::Hazard::None {
            return None;
        }
        self.oc.free(self.w.head_unit[s], k, now)?;
        self.units.free(self.w.head_unit[s], k, now)
    }

    /// Issues the I-buffer head of warp slot `s` from scheduler `sched` on unit instance
    /// `unit`.
    pub(crate) fn issue_one(
        &mut self,
        env: &mut Env,
        s: usize,
        sched: usize,
        unit: usize,
        now: u64,
        shared: bool,
    ) -> Result<(), crate::TimingError> {
        if self.mem.outstanding[s] == 0 && now >= self.last_complete[s] {
            // Nothing of the warp's is in flight: its previous run of in-flight cycles ended
            // at its last completion, and a new one starts with this instruction.
            self.busy_cycles[s] += self.last_complete[s].saturating_sub(self.busy_from[s]);
            self.busy_from[s] = now;
        }
        let (c, wi) = self.cta_and_warp(s);
        let pc = self.cur_pc[s];
        let t = env.table.get(self.cur_func[s], pc);
        if t.unit == Unit::Ldst && !t.queues {
            // The waiting unqueueable access (if it was this one) has its turn now.
            self.ldst_waiting = false;
        }
        let rc = self.ctas[c].as_mut().expect("occupied slot has a CTA");
        let cta = &mut rc.cta;
        let k = env.k;
        let w = &mut cta.warps[wi];
        let f = w.frame();
        let inst = k.module.functions[f.func as usize].insts.get(pc as usize);
        let mut m = MemCtx {
            global: &mut *env.gmem,
            shared: &mut cta.shared,
            printf: &mut *env.printf,
            clock: now,
            cta: cta.id,
        };
        // Memory timing from the addresses, computed before executing.
        let sync = |latency: u32, occupancy: u32| Plan::Sync(Access { latency, occupancy });
        let plan = match (t.mem, inst) {
            (MemClass::Data | MemClass::Const, Some(inst)) => {
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
                    sync(1, 1)
                } else {
                    let mut lanes: Lanes = [0; WARP_SIZE];
                    // Textures and surfaces: the global addresses of their elements; a
                    // `cp.async` is timed by its global source (`src[1]`).
                    let tex = matches!(inst.op, Op::Tex | Op::Tld4 | Op::Suld | Op::Sust);
                    let tex_bytes = if tex {
                        lane_addresses(k, &m, w, inst, exec, &mut lanes)
                    } else {
                        let at = if inst.op == Op::CpAsync { 1 } else { 0 };
                        addresses(k, &m, w, &f, &inst.src[at], inst.mods.space, &mut lanes);
                        0
                    };
                    let space = match inst.mods.space {
                        _ if tex => Space::Global,
                        Space::Generic => {
                            match classify_generic(lanes[exec.trailing_zeros() as usize]) {
                                Window::Shared(_) => Space::Shared,
                                Window::Local(_) => {
                                    for a in lanes.iter_mut() {
                                        if let Window::Local(off) = classify_generic(*a) {
                                            *a = off;
                                        }
                                    }
                                    Space::Local
                                }
                                Window::Global(_) => Space::Global,
                            }
                        }
                        sp => sp,
                    };
                    match space {
                        Space::Shared => {
                            let extra = bank_degree(&lanes, exec, env.cfg.sm.shared_banks)
                                .saturating_sub(1);
                            sync(env.cfg.sm.shared_latency + extra, 1 + extra)
                        }
                        // A perfect constant cache: no LD/ST cycle, results at once.
                        Space::Const | Space::KernelParam if env.cfg.const_cache.perfect => {
                            sync(1, 1)
                        }
                        Space::Global | Space::Local | Space::Const | Space::KernelParam => {
                            // Global addresses are their own model addresses.
                            if space != Space::Global {
                                let age = self.w.age[s];
                                for (l, a) in lanes.iter_mut().enumerate() {
                                    *a = SmMem::model_addr(
                                        space,
                                        *a,
                                        age * WARP_SIZE as u64 + l as u64,
                                    );
                                }
                            }
                            let size = if tex {
                                tex_bytes
                            } else {
                                inst.ty.bytes().max(1) * (inst.mods.vec.max(1) as u32)
                            };
                            // Each access splits by the line of the cache that serves it,
                            // one line per LD/ST cycle (GPGPU-Sim: constant accesses by the
                            // constant cache's block, `gpgpu_cache_constl1_linesize`).
                            let line = if matches!(inst.op, Op::Tex | Op::Tld4) {
                                self.mem.tex_line_bytes()
                            } else if matches!(space, Space::Const | Space::KernelParam) {
                                self.mem.const_line_bytes()
                            } else {
                                self.mem.line_bytes()
                            };
                            let sector = env.cfg.coalescer.sector_bytes as u64;
                            let atomic = matches!(inst.op, Op::Atom | Op::Red);
                            if atomic && env.cfg.coalescer.atomics == AtomicRequests::PerOverlap {
                                atomic_requests(
                                    &lanes,
                                    exec,
                                    size,
                                    line,
                                    sector,
                                    &mut self.mem.lines,
                                );
                            } else {
                                lines(&lanes, exec, size, line, sector, &mut self.mem.lines);
                                // A sectored L2 reads back only the sectors a store wrote whole.
                                if env.cfg.l2.sectored && matches!(inst.op, Op::St | Op::Sust) {
                                    mark_whole_sectors(
                                        &lanes,
                                        exec,
                                        size,
                                        line,
                                        sector,
                                        &mut self.mem.lines,
                                    );
                                }
                            }
                            let global = space == Space::Global;
                            let kind = match inst.op {
                                _ if matches!(space, Space::Const | Space::KernelParam) => {
                                    AccKind::Const
                                }
                                Op::Ld | Op::Suld => self.mem.load_kind(global, &inst.mods),
                                // `.ca` allocates in L1, `.cg` goes around it.
                                Op::CpAsync => AccKind::Load {
                                    alloc: !inst.mods.l2_only,
                                },
                                // Texture fetches go through the texture cache.
                                Op::Tex | Op::Tld4 => AccKind::Tex,
                                Op::St | Op::Sust => self.mem.store_kind(global),
                                _ => AccKind::Atomic,
                            };
                            Plan::Async {
                                kind,
                                long: matches!(space, Space::Global | Space::Local),
                            }
                        }
                        // Function parameters and other on-chip spaces: an L1-latency access.
                        _ => sync(env.cfg.l1d.latency, 1),
                    }
                }
            }
            _ => sync(t.latency, t.initiation),
        };
        // Operand collection: a collector (checked free by the caller) for the read cycles,
        // the register banks' turns booked.
        let uses = env.table.regs.get(f.func, pc);
        let read = self.oc.book_reads(uses, s, now);
        if let Some(c) = self.oc.free(t.unit, sched, now) {
            self.oc.occupy(c, now + read as u64);
        }
        env.bank_conflict_cycles += read as u64 - 1;
        let before = w.thread_instructions;
        let ev = step(k, &mut m, w).map_err(|e| fault_error(k, cta, wi, e))?;
        let w = &mut cta.warps[wi];
        let lanes = w.thread_instructions - before;
        env.warp_instructions += 1;
        env.thread_instructions += lanes;
        if let Some(h) = env.lanes.get_mut(lanes as usize) {
            *h += 1;
        }
        if shared {
            env.shared_issues.count(t.unit);
        }
        self.w.insts[s] += 1;
        self.w.thread_insts[s] += lanes;
        self.c.insts[c] += 1;
        self.c.thread_insts[c] += lanes;
        match plan {
            Plan::Sync(access) => {
                let ready = now + self.stages + read as u64 + access.latency.max(1) as u64 - 1;
                if let Some(inst) = inst {
                    if !matches!(inst.op, Op::St | Op::Sust) {
                        self.sb[s].reserve(inst, &f, ready, false);
                    }
                }
                self.sb[s].fit(w.regs.len() / WARP_SIZE, w.preds.len());
                self.last_complete[s] = self.last_complete[s].max(ready);
                // A shared-memory atomic completes with its result (GPGPU-Sim: at writeback).
                if self.atomics_block_warp && inst.is_some_and(|i| i.op == Op::Atom) {
                    self.atomics_until[s] = self.atomics_until[s].max(ready);
                }
                // Queued behind an instruction the LD/ST unit is still serving (an access
                // with no active lane): the unit stays held until the memory stage frees it.
                if t.unit != Unit::Ldst || !self.mem.serving(unit) {
                    self.units
                        .occupy(t.unit, unit, now + access.occupancy.max(1) as u64);
                }
                if P::WANTS_MEM_EVENTS && t.unit == Unit::Ldst {
                    self.completions.push(Reverse((ready, s as u16)));
                }
            }
            Plan::Async { kind, long } => {
                let inst = inst.expect("a memory plan has its instruction");
                let release = !matches!(inst.op, Op::St | Op::Sust);
                if release {
                    self.sb[s].reserve(inst, &f, PENDING, long);
                }
                self.sb[s].fit(w.regs.len() / WARP_SIZE, w.preds.len());
                let (rb, pb) = ((f.reg_base / WARP_SIZE) as u32, f.pred_base as u32);
                let track = self.mem.stage(unit, s, kind, release, f.func, pc, rb, pb);
                if self.atomics_block_warp && inst.op == Op::Atom {
                    // Until the last of its atomics completes (`finish`).
                    self.atomics_out[s] += 1;
                    self.atomics_until[s] = u64::MAX;
                }
                if inst.op == Op::CpAsync {
                    let group = self.cp.issue(s);
                    self.mem.set_group(track, group);
                }
                // Busy until its staged lines are served (`mem_stage` frees it).
                self.units.occupy(Unit::Ldst, unit, u64::MAX);
            }
        }
        if matches!(
            inst.map(|i| i.op),
            Some(Op::CpAsyncCommit | Op::CpAsyncWaitAll)
        ) {
            self.cp.commit(s);
        }
        // I-buffer: pop the head when execution continues sequentially, else flush.
        match (w.state, w.pc()) {
            (WarpState::Done, _) | (_, None) => self.w.set_ib_n(s, 0),
            (_, Some(npc)) => {
                if w.frame().func == self.ib_func[s] && npc == self.ib_pc[s] + 1 {
                    self.ib_pc[s] = npc;
                    self.w.set_ib_n(s, self.w.ib_n[s] - 1);
                } else {
                    self.w.set_ib_n(s, 0);
                    self.flushed[s] = true;
                }
            }
        }
        self.fetch_idle = false;
        if let Some(tr) = env.trace.as_mut() {
            tr.push(IssueEvent {
                cycle: now,
                sm: self.id,
                scheduler: sched as u32,
                slot: s as u32,
                age: self.w.age[s],
                pc,
            });
        }
        let e = Issued {
            slot: s as u16,
            scheduler: sched as u16,
            pc,
            unit: t.unit,
            lanes: lanes as u32,
            shared,
        };
        notify!(self, now, env.all_dispatched, |p, v| p.on_issue(&e, &v));
        self.after_step(env, s, ev, pc, now)
    }
}
