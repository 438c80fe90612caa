//! Issue: each scheduler asks its policy for a priority order of its warps and walks it,
//! issuing the first *candidate* warp (not blocked: see `warps.rs` — not waiting, a valid
//! I-buffer head at its SIMT PC, scoreboard clear) that finds a free functional unit. A
//! candidate whose unit is busy before anything issued counts a `structural` stall cycle.
//! Issue executes the instruction functionally through `exec::step`.
//!
//! A scheduler that found no candidate (all warps blocked) sleeps until the earliest cycle one
//! of its warps can change state (`Schedulers::wake`), charging the same issue-slot outcome each
//! cycle; any state change of one of its warps wakes it (`Sm::block`). Only for policies with
//! `MAY_SLEEP` (every registered one: see its definition for what it requires).

use super::collectors::Reads;
use super::mem_plan::{Access, AtIssue, Plan};
use super::memory::AccKind;
use super::scoreboard::{Write, PENDING};
use super::{Env, Slot, Sm};
use crate::classify::{Pipe, Unit};
use crate::fetch_policy::FetchPolicy;
use crate::ids::{CtaSlot, SchedId, WarpSlot};
use crate::policy::Events as _;
use crate::policy::{Block, IssuePolicy, Issued, Settled};
use crate::reg_use::RegUse;
use crate::stats::IssueEvent;
use std::cmp::Reverse;
use warpsim_core::exec::context::{LaunchCtx, MemCtx};
use warpsim_core::exec::fault::ExecFault;
use warpsim_core::exec::global::{apply_deferred, Deferred, Global};
use warpsim_core::exec::grid::fault_error;
use warpsim_core::exec::memory::GlobalMemory;
use warpsim_core::exec::step::step;
use warpsim_core::exec::warp::{Frame, WarpState, WARP_SIZE};
use warpsim_core::ir::{Inst, Op, Space};

impl<P: IssuePolicy, F: FetchPolicy> Sm<P, F> {
    pub(crate) fn issue_stage(
        &mut self,
        env: &mut Env,
        k: SchedId,
        now: u64,
    ) -> Result<(), crate::TimingError> {
        if P::MAY_SLEEP && now < self.sched.wake[k] {
            // `outcome[k]` still holds the last walk's; a walk stalled on busy units would
            // have charged the same warps a structural stall again.
            for &s in &self.sched.unit_stalled[k] {
                self.timing.stalls[s as usize].structural += 1;
            }
            return Ok(());
        }
        let mut order = std::mem::take(&mut self.sched.order);
        {
            let v = view!(self, now, env.all_dispatched);
            self.sched.policies[k].order(
                &self.sched.shared,
                &self.shape.sched_slots[k],
                &v,
                &mut order,
            );
        }
        self.sched.unit_stalled[k].clear();
        let (mut any_data, mut any_struct) = (false, false);
        let mut picked = None;
        for &s in &order {
            let si = WarpSlot::from_raw(s);
            if self.warps.wake[si] > now {
                any_data |= self.warps.block[si] == Block::Data;
                continue;
            }
            if self.front.is_stale(si) {
                // `sm.branch_redirect = "scheduler"`: found here, flushed, nothing issued.
                self.flush_stale(env, si, now);
                continue;
            }
            let unit = self.warps.head_unit[si];
            match self
                .port(unit, k, now)
                .or_else(|| self.queue_behind(env, si, unit, k, now))
            {
                Some(u) => {
                    picked = Some((si, u));
                    break;
                }
                None => {
                    if unit == Unit::Ldst
                        && !env
                            .table
                            .get(self.timing.cur_func[si], self.timing.cur_pc[si])
                            .queues
                    {
                        self.sched.ldst_waiting = true;
                    }
                    self.timing.stalls[si].structural += 1;
                    self.sched.unit_stalled[k].push(s);
                    any_struct = true;
                    if self.shape.share_warps {
                        self.sched.blocked_ready.push(s);
                    }
                }
            }
        }
        self.sched.order = order;
        self.sched.outcome[k] = match picked {
            Some(_) => Slot::Issued,
            None if any_struct => Slot::Pipeline,
            None if any_data => Slot::Scoreboard,
            None => Slot::Idle,
        };
        self.sched.wake[k] = 0;
        self.sched.set_data_pattern(k, None);
        let settled = if P::MAY_SLEEP
            && picked.is_none()
            && (!any_struct || self.waits_for_memory_stage(k))
        {
            self.sched.policies[k].settled(&view!(self, now, env.all_dispatched))
        } else {
            Settled::No
        };
        if settled != Settled::No {
            if let Settled::DataWhen(p) = settled {
                // Only an outcome decided by data blocking follows the pattern: busy units
                // (pipeline) decide it whatever the rotation does.
                if !any_struct {
                    self.sched.set_data_pattern(k, Some(p));
                }
            }
            // No candidate could issue: nothing changes before one of the other warps' wake
            // cycle or an event, which lowers `Schedulers::wake` through `block` — or, when the
            // candidates wait for the LD/ST unit, the memory stage freeing it.
            self.sched.wake[k] = self.sleep_until(k, now);
        }
        let Some((s, u)) = picked else { return Ok(()) };
        let first = self.warps.head_unit[s];
        self.issue_one(env, s, k, u, now, false)?;
        if self.shape.dual_issue {
            if let Some(u2) = self.second_issue(env, s, k, first, now) {
                self.timing.dual[s] += 1;
                env.out.dual_issues += 1;
                self.issue_one(env, s, k, u2, now, false)?;
            }
        }
        Ok(())
    }

    /// The LD/ST instance warp `s`'s memory instruction may queue behind while it is still
    /// serving an earlier instruction (`sm.ldst_queue`; GPGPU-Sim's memory pipeline registers
    /// and operand collectors in front of the unit): an instruction that queues
    /// (`OpTiming::queues`), a free collector, and room in that instance's queue for the
    /// scheduler `k` (its own share with `sm.sub_core`).
    #[inline]
    fn queue_behind(
        &self,
        env: &Env,
        s: WarpSlot,
        unit: Unit,
        k: SchedId,
        now: u64,
    ) -> Option<usize> {
        if unit != Unit::Ldst
            || self.sched.ldst_waiting
            || !env
                .table
                .get(self.timing.cur_func[s], self.timing.cur_pc[s])
                .queues
        {
            return None;
        }
        self.collectors.free(unit, k, now)?;
        self.units.usable(k).find(|&u| self.mem.queue_room(u, k))
    }

    /// Where an instruction for a `unit`-class unit can issue from scheduler `k` at `now`: an
    /// SP or SFU instruction into a free ID/OC register of its class (`alu_path.rs`), an LD/ST
    /// one to a free LD/ST instance with a free collector. The register or instance.
    #[inline]
    pub(crate) fn port(&self, unit: Unit, k: SchedId, now: u64) -> Option<usize> {
        match unit {
            Unit::Ldst => self
                .units
                .free(k, now)
                .filter(|_| self.collectors.free(unit, k, now).is_some()),
            Unit::Sp | Unit::Sfu | Unit::Tensor => self.alu.id_oc_free(unit, k, now),
        }
    }

    /// Every candidate of scheduler `k`'s last walk met a busy unit, each the LD/ST unit, and
    /// every LD/ST instance `k` may use is held until the memory stage frees it: the walk
    /// cannot go otherwise before that event. With warp sharing another scheduler could issue
    /// `k`'s warps on its own LD/ST instance, so every scheduler's must be held: then none of
    /// `k`'s warps can be shared either, and sleeping skips only their pushes onto the
    /// sharing list. (Short stalls on SP/SFU initiation intervals are cheaper walked than
    /// slept through.)
    fn waits_for_memory_stage(&self, k: SchedId) -> bool {
        // Held, and no room in its queue (`sm.ldst_queue`): room means a candidate waited for
        // something else (a collector), which frees by itself.
        let held = |b: SchedId| {
            self.units.next_free(b) == u64::MAX
                && !self.units.usable(b).any(|u| self.mem.queue_room(u, b))
        };
        self.sched.unit_stalled[k]
            .iter()
            .all(|&s| self.warps.head_unit[s as usize] == Unit::Ldst)
            && if self.shape.share_warps {
                SchedId::all(self.shape.sched_slots.len()).all(held)
            } else {
                held(k)
            }
    }

    /// Dual issue (`sm.dual_issue`): after warp `s` issued an instruction on a `first`-class
    /// unit in cycle `now`, the unit instance for its next instruction when that may issue in
    /// the same cycle: still running, the next I-buffer entry valid at its PC, no scoreboard
    /// hazard at `now` (including on the instruction just issued), and a free unit of a
    /// different class (GPGPU-Sim's `dual_issue_diff_exec_units`).
    fn second_issue(
        &self,
        env: &Env,
        s: WarpSlot,
        k: SchedId,
        first: Unit,
        now: u64,
    ) -> Option<usize> {
        if self.warps.state()[s] != WarpState::Ready
            || self.warps.block[s] != Block::Ready
            || self.warps.wake[s] != now + 1
            || self.warps.head_unit[s] == first
            || self.front.is_stale(s)
        {
            return None;
        }
        let uses = env
            .table
            .regs
            .get(self.timing.cur_func[s], self.timing.cur_pc[s]);
        let (rb, pb) = (
            self.timing.reg_base[s] as usize,
            self.timing.pred_base[s] as usize,
        );
        if self.timing.sb[s].check_at(uses, rb, pb, now) != super::scoreboard::Hazard::None {
            return None;
        }
        self.port(self.warps.head_unit[s], k, now)
    }

    /// Issues the I-buffer head of warp slot `s` from scheduler `sched` through `port` (an
    /// ID/OC register for SP and SFU instructions, an LD/ST instance: `Sm::port`; `shared`:
    /// for another scheduler, by warp sharing).
    pub(crate) fn issue_one(
        &mut self,
        env: &mut Env,
        s: WarpSlot,
        sched: SchedId,
        port: usize,
        now: u64,
        shared: bool,
    ) -> Result<(), crate::TimingError> {
        self.open_busy_run(s, now);
        let (c, wi) = self.cta_and_warp(s);
        let pc = self.timing.cur_pc[s];
        let t = env.table.get(self.timing.cur_func[s], pc);
        if t.unit == Unit::Ldst && !t.queues {
            // The waiting unqueueable access (if it was this one) has its turn now.
            self.sched.ldst_waiting = false;
        }
        let cta = &mut self.residency.ctas[c]
            .as_mut()
            .expect("occupied slot has a CTA")
            .cta;
        let k = env.k;
        let w = &mut cta.warps[wi];
        let frame = w.frame();
        let inst = k.module.functions[frame.func as usize]
            .insts
            .get(pc as usize);
        let out = &mut *env.out;
        // Deferred effects (global atomics, device malloc/free) name this warp and instruction.
        out.journal.set_warp(s.raw() as u32, frame.func, pc);
        let mut m = MemCtx {
            global: Global::Staged {
                base: env.gmem,
                journal: &mut out.journal,
            },
            shared: &mut cta.shared,
            printf: &mut out.printf,
            clock: now,
            cta: cta.id,
        };
        // Memory timing from the addresses, computed before executing.
        let plan = self.mem.plan(
            env.cfg,
            &AtIssue {
                launch: k,
                mem: &m,
                warp: w,
                frame: &frame,
                inst,
                timing: &t,
                age: self.warps.age[s],
            },
        );
        // Operand collection of an LD/ST instruction: a collector (checked free by the
        // caller) for the read cycles, the register banks' turns booked. (An SP or SFU
        // instruction's are booked on its way to its unit: `book_alu`.)
        let table = env.table;
        let uses = table.regs.get(frame.func, pc);
        let mut read = 1;
        if t.unit == Unit::Ldst {
            let reads = self.collectors.book_reads(uses, s, now);
            read = reads.cycles;
            if let Some(oc) = self.collectors.free(t.unit, sched, now) {
                self.collectors.occupy(oc, reads.dispatch);
            }
        }
        let before = w.thread_instructions;
        let ev = step(k, &mut m, w).map_err(|e| fault_error(k, cta, wi, e))?;
        let w = &cta.warps[wi];
        let lanes = w.thread_instructions - before;
        let issuing = Issuing {
            slot: s,
            sched,
            port,
            class: t.unit,
            pipe: t.pipe,
            inst,
            frame,
            read,
            uses,
            regs: w.regs.len() / WARP_SIZE,
            preds: w.preds.len(),
        };
        let next = match (w.state, w.pc()) {
            (WarpState::Done, _) | (_, None) => None,
            (_, Some(npc)) => Some((w.frame().func, npc)),
        };
        self.count_issue(env, s, c, t.unit, lanes, shared);
        let read = match plan {
            Plan::Sync(access) if t.unit == Unit::Ldst && inst.is_some() => {
                self.book_fixed(&issuing, access, pc, now)
            }
            Plan::Sync(access) => self.book_sync(&issuing, access, now),
            Plan::Async { kind, long } => {
                self.book_async(&issuing, kind, long, pc, now);
                read
            }
        };
        env.out.bank_conflict_cycles += read as u64 - 1;
        if matches!(
            inst.map(|i| i.op),
            Some(Op::CpAsyncCommit | Op::CpAsyncWaitAll)
        ) {
            self.cp.commit(s);
        }
        self.front.advance(&mut self.warps, s, next);
        self.trace_issue(env, s, sched, pc, now);
        let e = Issued {
            slot: s.raw(),
            scheduler: sched.raw() as u16,
            pc,
            unit: t.unit,
            lanes: lanes as u32,
            shared,
        };
        notify!(self, now, env.all_dispatched, |p, v| p.on_issue(&e, &v));
        self.after_step(env, s, ev, pc, now)
    }

    /// Carries out deferred operation `d` of this SM's cycle `now` at its commit (`cycle.rs`):
    /// global memory changes and the warp's registers get the results; a fault is reported
    /// as one at issue would be.
    pub(crate) fn apply_deferred(
        &mut self,
        k: &LaunchCtx,
        gmem: &mut GlobalMemory,
        d: &Deferred,
        now: u64,
    ) -> Result<(), crate::TimingError> {
        let (c, wi) = self.cta_and_warp(WarpSlot::new(d.warp as usize));
        let Some(resident) = self.residency.ctas[c].as_mut() else {
            return Ok(()); // the commit follows the issue in the same cycle: still resident
        };
        let cta = &mut resident.cta;
        // A deferred operation prints nothing.
        let mut printf = String::new();
        let mut m = MemCtx {
            global: Global::Direct(gmem),
            shared: &mut cta.shared,
            printf: &mut printf,
            clock: now,
            cta: cta.id,
        };
        let w = &mut cta.warps[wi];
        apply_deferred(k, &mut m, w, d).map_err(|(lane, kind)| {
            let f = ExecFault {
                kind,
                lane: lane as u32,
                pc: d.pc,
                func: d.func,
            };
            fault_error(k, cta, wi, f).into()
        })
    }

    /// Records the issue in the trace, when tracing.
    #[inline]
    fn trace_issue(&self, env: &mut Env, s: WarpSlot, sched: SchedId, pc: u32, now: u64) {
        if let Some(tr) = env.out.trace.as_mut() {
            tr.push(IssueEvent {
                cycle: now,
                sm: self.id,
                scheduler: sched.0,
                slot: s.0,
                age: self.warps.age[s],
                pc,
            });
        }
    }

    /// Warp `s` issues at `now`: if nothing of its was in flight, its previous run of
    /// in-flight cycles ended at its last completion, and a new one starts.
    #[inline]
    fn open_busy_run(&mut self, s: WarpSlot, now: u64) {
        let t = &mut self.timing;
        if self.mem.outstanding[s] == 0 && now >= t.last_complete[s] {
            t.busy_cycles[s] += t.last_complete[s].saturating_sub(t.busy_from[s]);
            t.busy_from[s] = now;
        }
    }

    /// Counts an issued instruction of warp slot `s` (CTA slot `c`) with `lanes` active lanes.
    #[inline]
    fn count_issue(
        &mut self,
        env: &mut Env,
        s: WarpSlot,
        c: CtaSlot,
        unit: Unit,
        lanes: u64,
        shared: bool,
    ) {
        env.out.warp_instructions += 1;
        env.out.thread_instructions += lanes;
        if let Some(h) = env.out.lanes.get_mut(lanes as usize) {
            *h += 1;
        }
        if shared {
            env.out.shared_issues.count(unit);
        }
        self.warps.insts[s] += 1;
        self.warps.thread_insts[s] += lanes;
        self.cta_slots.insts[c] += 1;
        self.cta_slots.thread_insts[c] += lanes;
    }

    /// Books a result timed at issue: its registers' ready cycle, the warp's last completion,
    /// its unit's occupancy. Its operand-read cycles.
    fn book_sync(&mut self, i: &Issuing, access: Access, now: u64) -> u32 {
        let s = i.slot;
        let (ready, read) = if i.class == Unit::Ldst {
            let l = access.latency.max(1) as u64;
            (
                now + self.shape.pipeline_cycles + i.read as u64 + l - 1,
                i.read,
            )
        } else {
            self.book_alu(i, access, now)
        };
        let write = sync_write(i);
        if let Some(inst) = i.inst {
            if !matches!(inst.op, Op::St | Op::Sust) {
                self.timing.sb[s].reserve(inst, &i.frame, ready, write, now);
            }
        }
        self.timing.sb[s].fit(i.regs, i.preds);
        if let Some(inst) = i.inst {
            if inst.op == Op::Tensor {
                let rb = i.frame.reg_base / WARP_SIZE;
                self.timing.sb[s].reserve_regs(i.uses.dsts(), rb, ready, write, now);
            }
        }
        self.collectors.book_writes(i.uses.bank_dsts, s, now, ready);
        self.timing.last_complete[s] = self.timing.last_complete[s].max(ready);
        // A shared-memory atomic completes with its result (GPGPU-Sim: at writeback).
        if self.shape.atomics_block_warp && i.inst.is_some_and(|x| x.op == Op::Atom) {
            self.timing.atomics_until[s] = self.timing.atomics_until[s].max(ready);
        }
        // The access holds its LD/ST unit for its occupancy, unless the unit is still serving
        // an earlier instruction's lines (an access with no active lane is timed at issue even
        // then): the memory stage frees the unit when it is done with those.
        if i.class == Unit::Ldst && !self.mem.serving(i.port) {
            self.units
                .occupy(i.port, now + access.occupancy.max(1) as u64);
        }
        if P::WANTS_MEM_EVENTS && i.class == Unit::Ldst {
            self.completions.push(Reverse((ready, s)));
        }
        read
    }

    /// Times an SP or SFU instruction issued at `now` into ID/OC register `i.port` on its way
    /// to its unit (`alu_path.rs`): into the first collector free, its register reads, into
    /// an OC/EX register, into a unit instance. Its result's release cycle and its
    /// operand-read cycles.
    fn book_alu(&mut self, i: &Issuing, access: Access, now: u64) -> (u64, u32) {
        let ports = self.collectors.ports();
        let (oc, free) = self.collectors.earliest(i.class, i.sched);
        let allocated = self.collectors.first_step(now).max(free);
        // The collectors step before the schedulers issue: the register takes the next
        // instruction in the cycle of that step.
        self.alu.release_id_oc(i.class, i.port, allocated / ports);
        let last = self.collectors.read(i.uses, i.slot, allocated);
        let reads = Reads::new(allocated, last, ports);
        let (reg, dispatched) = self.alu.dispatch(i.class, i.sched, reads.dispatch);
        self.collectors.occupy(oc, dispatched);
        // The units take instructions before the collectors step: the cycle after dispatch.
        let entered = self.alu.enter(
            (i.class, i.pipe),
            i.sched,
            reg,
            dispatched / ports + 1,
            access.latency,
            access.occupancy,
        );
        let released = entered.cycle + access.latency.max(1) as u64 + self.shape.writeback;
        (released, reads.cycles)
    }

    /// Books an LD/ST instruction whose time is known when it reaches the unit (shared memory,
    /// a perfect constant cache, the parameter space: `Plan::Sync`). GPGPU-Sim queues it in
    /// the memory pipeline registers and collectors like any memory instruction
    /// (`ldst_unit::shared_cycle` holds the unit for its bank conflicts), so it is staged on
    /// its LD/ST instance as one pseudo-line (`AccKind::Fixed`): served when the instructions
    /// ahead of it have left the unit, holding it for its conflicts, its result back the
    /// access's latency after. On a free unit that is the time `book_sync` gives, cycle for
    /// cycle (the memory stage serves it the cycle after issue and `finish` adds the pipeline
    /// stages); an access too short for that (`latency + read < 3`: no active lane, a perfect
    /// constant cache) is timed at issue when the unit is free. Its operand-read cycles.
    fn book_fixed(&mut self, i: &Issuing, access: Access, pc: u32, now: u64) -> u32 {
        let back = (i.read + access.latency.max(1)).checked_sub(3);
        if back.is_none() && !self.mem.serving(i.port) {
            return self.book_sync(i, access, now);
        }
        let kind = AccKind::Fixed {
            latency: back.unwrap_or(0),
            hold: access.occupancy.max(1) - 1,
        };
        self.mem.fixed_line();
        self.book_async(i, kind, false, pc, now);
        i.read
    }

    /// Books a memory instruction whose lines the plan staged: registers pending until the
    /// memory stage releases them, the accesses handed to LD/ST instance `i.unit`.
    fn book_async(&mut self, i: &Issuing, kind: AccKind, long: bool, pc: u32, now: u64) {
        let s = i.slot;
        let inst = i.inst.expect("a memory plan has its instruction");
        // A `wmma.store` has no destination either (`RegUse::dsts` is empty for it).
        let release = !matches!(inst.op, Op::St | Op::Sust)
            && (inst.op != Op::Tensor || !i.uses.dsts().is_empty());
        let write = Write {
            long,
            clears: false,
        };
        if release {
            self.timing.sb[s].reserve(inst, &i.frame, PENDING, write, now);
        }
        self.timing.sb[s].fit(i.regs, i.preds);
        if release && inst.op == Op::Tensor {
            let rb = i.frame.reg_base / WARP_SIZE;
            self.timing.sb[s].reserve_regs(i.uses.dsts(), rb, PENDING, write, now);
        }
        let f = &i.frame;
        let (rb, pb) = ((f.reg_base / WARP_SIZE) as u32, f.pred_base as u32);
        // GPGPU-Sim's LD/ST unit completes a constant-cache access whose lines all hit in its
        // memory stage and erases the registers' long-operation marks then
        // (`releaseRegisters`); a line that comes back from memory goes through the
        // writeback, which leaves them (`SmMem::reply` says so on the track).
        let mark_clears = match kind {
            AccKind::Const => true,
            AccKind::Fixed { .. } => on_chip_constant(inst),
            _ => false,
        };
        let track = self.mem.stage(
            i.port,
            i.sched,
            s,
            kind,
            release,
            mark_clears,
            f.func,
            pc,
            rb,
            pb,
        );
        if self.shape.atomics_block_warp && inst.op == Op::Atom {
            // Until the last of its atomics completes (`finish`).
            self.timing.atomics_out[s] += 1;
            self.timing.atomics_until[s] = u64::MAX;
        }
        if release {
            let cycles = self.collectors.write_cycles(i.uses.bank_dsts, s);
            self.mem.set_write_cycles(track, cycles);
        }
        if inst.op == Op::CpAsync {
            let group = self.cp.issue(s);
            self.mem.set_group(track, group);
        }
        // Busy until its staged lines are served (`mem_stage` frees it).
        self.units.occupy(i.port, u64::MAX);
    }
}

/// An instruction being issued, as the bookkeeping after its execution needs it.
struct Issuing<'x> {
    slot: WarpSlot,
    /// The scheduler it issued from (the sharer, with warp sharing).
    sched: SchedId,
    /// Where it issued (`Sm::port`: an ID/OC register, an LD/ST instance), and its class.
    port: usize,
    class: Unit,
    /// The SP class's instances it runs on (Volta's FP32, INT, FP64 units).
    pipe: Pipe,
    inst: Option<&'x Inst>,
    frame: Frame,
    /// Operand-read cycles of an LD/ST instruction (register-bank conflicts included).
    read: u32,
    /// The registers it reads and writes.
    uses: RegUse<'x>,
    /// The warp's registers and predicates per lane (the scoreboard's size).
    regs: usize,
    preds: usize,
}

/// A constant or kernel-parameter access timed at issue (a perfect constant cache): GPGPU-Sim
/// completes it in the LD/ST unit's memory stage (`ldst_unit::constant_cycle`).
fn on_chip_constant(inst: &Inst) -> bool {
    matches!(inst.mods.space, Space::Const | Space::KernelParam)
}

/// How a result timed at issue leaves its registers' long-operation marks (`scoreboard.rs`):
/// the LD/ST unit's writeback leaves them (shared memory), except for a constant or
/// parameter access its memory stage completes, which a parameter load marks first; every
/// other unit's writeback erases them.
fn sync_write(i: &Issuing) -> Write {
    match i.inst {
        Some(inst) if i.class == Unit::Ldst => {
            if on_chip_constant(inst) {
                Write {
                    long: inst.mods.space == Space::KernelParam && inst.op != Op::St,
                    clears: true,
                }
            } else {
                Write::KEEPS
            }
        }
        _ => Write::CLEARS,
    }
}

#[cfg(test)]
mod tests {
    //! The issue stage on gtx480 with a perfect I-cache, its I-buffers filled by hand-run fetch
    //! cycles: which warp issues, what the walk charges, when a dependent instruction may go.
    use super::super::testbench::{kernel, Bench, TestSm};
    use super::super::Slot;
    use crate::ids::{SchedId, WarpSlot};
    use crate::policy::Block;

    /// Two warps of one CTA (slot 0 on scheduler 0, slot 1 on scheduler 1), fetched in cycles 0
    /// and 1 (issuable from 2 and 3).
    fn fetched(body: &str) -> (Bench, TestSm) {
        let mut b = Bench::new(&kernel(body), 64, "gtx480", &[]);
        let mut sm = b.sm(1, true);
        b.launch(&mut sm, 1, 0, 0);
        b.with_env(1, |env| {
            sm.fetch_stage(env, 0);
            sm.fetch_stage(env, 1);
        });
        (b, sm)
    }

    #[test]
    fn a_dependent_instruction_waits_for_its_producers_writeback() {
        let (mut b, mut sm) = fetched("mov.u32 %r1, %tid.x;\nadd.u32 %r2, %r1, 1;");
        // Cycle 2: scheduler 1's warp is still in decode, scheduler 0's issues.
        b.with_env(1, |env| {
            sm.issue_stage(env, SchedId(1), 2).unwrap();
            sm.issue_stage(env, SchedId(0), 2).unwrap();
        });
        assert_eq!(sm.sched.outcome[1], Slot::Idle);
        assert_eq!(sm.sched.outcome[0], Slot::Issued);
        assert_eq!(sm.warps.insts[0], 1);
        assert_eq!(
            (sm.warps.ib_n()[0], sm.front.head_pc(WarpSlot(0))),
            (1, 1),
            "head popped"
        );
        // The `add` reads `%r1`. The `mov` reads no register (`%tid.x` is not in the banks):
        // into a collector at 3, dispatched at 4, into its unit at 5, out after its latency 1
        // and released writeback 2 cycles on, so the add may issue from cycle 8.
        assert_eq!((sm.warps.block[0], sm.warps.wake[0]), (Block::Data, 8));
        // Scheduler 0 has nothing to issue before then.
        b.with_env(1, |env| sm.issue_stage(env, SchedId(0), 3).unwrap());
        assert_eq!(sm.sched.outcome[0], Slot::Scoreboard);
        assert_eq!(sm.sched.wake[0], 8, "it sleeps until the warp can go");
        b.with_env(1, |env| sm.issue_stage(env, SchedId(0), 8).unwrap());
        assert_eq!(sm.sched.outcome[0], Slot::Issued);
        assert_eq!(sm.warps.insts[0], 2);
        // The wait was a data stall of 5 cycles (3..8), credited when it closed.
        assert_eq!(sm.timing.stalls[0].data, 5);
    }

    #[test]
    fn independent_instructions_issue_back_to_back() {
        let (mut b, mut sm) = fetched("mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ntid.x;");
        b.with_env(1, |env| {
            sm.issue_stage(env, SchedId(0), 2).unwrap();
            sm.issue_stage(env, SchedId(0), 3).unwrap();
        });
        assert_eq!(sm.warps.insts[0], 2);
        assert_eq!(sm.warps.ib_n()[0], 0, "both entries issued");
        // The empty buffer waits for fetch.
        assert_eq!(sm.warps.block[0], Block::Fetch);
    }
}
