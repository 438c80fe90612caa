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
use super::{Env, Shape, Slot, Sm};
use crate::classify::{MemClass, Unit};
use crate::fetch_policy::FetchPolicy;
use crate::mem::coalesce::{atomic_requests, bank_degree, lines, mark_whole_sectors};
use crate::policy::Events as _;
use crate::policy::{Block, IssuePolicy, Issued};
use crate::policy::{Build, BuildCtx};
use crate::stats::IssueEvent;
use crate::stats::IssueSlots;
use std::cmp::Reverse;
use warpsim_core::config::AtomicRequests;
use warpsim_core::config::GpuConfig;
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

/// The warp schedulers of one SM: each one's policy, its issue-slot outcome and counters,
/// and when it may sleep.
pub(crate) struct Schedulers<P: IssuePolicy> {
    /// Per scheduler.
    pub policies: Vec<P>,
    /// The policy's SM-wide state (one per SM, told about every event before the schedulers).
    pub shared: P::Shared,
    /// Scratch: a scheduler's priority order this cycle.
    pub order: Vec<u16>,
    /// Per scheduler: issue-slot counters.
    pub slots: Vec<IssueSlots>,
    /// Per scheduler: it need not walk before this cycle (nothing can issue).
    pub wake: Vec<u64>,
    /// Per scheduler: the warps its last walk found ready but blocked on a busy unit or
    /// collector (charged a structural stall for every cycle it sleeps on them).
    pub unit_stalled: Vec<Vec<u16>>,
    /// A memory instruction that cannot queue (shared memory) waits for the LD/ST unit: no
    /// other may queue until it has issued, so it is served in its turn (`sm.ldst_queue`).
    pub ldst_waiting: bool,
    /// This cycle's issue-slot outcome per scheduler (also what a sleeping one charges).
    pub outcome: Vec<Slot>,
    /// Warps that were ready this cycle but found their unit busy (warp-sharing candidates).
    pub blocked_ready: Vec<u16>,
}

impl<P: IssuePolicy> Schedulers<P> {
    /// `make(ctx)` builds scheduler `ctx.scheduler`'s policy.
    pub fn new(
        cfg: &GpuConfig,
        shape: &Shape,
        ctas_per_sm: usize,
        make: &mut impl FnMut(&BuildCtx) -> P,
    ) -> Self {
        let n = shape.slots();
        let s = shape.sched_slots.len();
        let base = BuildCtx {
            scheduler: 0,
            slots: &[],
            schedulers: s,
            warp_slots: n,
            cta_slots: ctas_per_sm,
            warps_per_cta: shape.wpc,
            params: &cfg.policy,
        };
        let policies = shape
            .sched_slots
            .iter()
            .enumerate()
            .map(|(i, slots)| {
                make(&BuildCtx {
                    scheduler: i,
                    slots,
                    ..base
                })
            })
            .collect();
        Schedulers {
            policies,
            shared: P::Shared::build(&base),
            order: Vec::with_capacity(n),
            slots: vec![IssueSlots::default(); s],
            wake: vec![0; s],
            unit_stalled: (0..s).map(|_| Vec::with_capacity(n)).collect(),
            ldst_waiting: false,
            outcome: vec![Slot::Idle; s],
            blocked_ready: Vec::with_capacity(n),
        }
    }

    /// Every scheduler walks again next time (the order or the occupancy changed).
    pub fn wake_all(&mut self) {
        self.wake.iter_mut().for_each(|x| *x = 0);
    }

    /// Every scheduler sleeping past `now` walks at `now` (the LD/ST unit freed).
    pub fn wake_all_by(&mut self, now: u64) {
        self.wake.iter_mut().for_each(|w| *w = (*w).min(now));
    }

    /// Charges this cycle's outcome of each scheduler, `n` times (`n` > 1: cycles slept).
    pub fn count_outcomes(&mut self, n: u64) {
        for (c, o) in self.slots.iter_mut().zip(&self.outcome) {
            match o {
                Slot::Issued => c.issued += n,
                Slot::Pipeline => c.pipeline += n,
                Slot::Scoreboard => c.scoreboard += n,
                Slot::Idle => c.idle += n,
            }
        }
    }
}

impl<P: IssuePolicy, F: FetchPolicy> Sm<P, F> {
    pub(crate) fn issue_stage(
        &mut self,
        env: &mut Env,
        k: usize,
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
            let si = s as usize;
            if self.warps.wake[si] > now {
                any_data |= self.warps.block[si] == Block::Data;
                continue;
            }
            let unit = self.warps.head_unit[si];
            match self
                .units
                .free(unit, k, now)
                .filter(|_| self.collectors.free(unit, k, now).is_some())
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
        if P::MAY_SLEEP
            && picked.is_none()
            && (!any_struct || self.waits_for_memory_stage(k))
            && self.sched.policies[k].settled(&view!(self, now, env.all_dispatched))
        {
            // No candidate could issue: nothing changes before one of the other warps' wake
            // cycle or an event, which lowers `sched_wake` through `block` — or, when the
            // candidates wait for the LD/ST unit, the memory stage freeing it.
            let mut wake = u64::MAX;
            for &s in &self.shape.sched_slots[k] {
                if self.warps.occupied[s as usize] && self.warps.wake[s as usize] > now {
                    wake = wake.min(self.warps.wake[s as usize]);
                }
            }
            self.sched.wake[k] = wake;
        }
        let Some((s, u)) = picked else { return Ok(()) };
        let first = self.warps.head_unit[s];
        self.issue_one(env, s, k, u, now, false)?;
        if self.shape.dual_issue {
            if let Some(u2) = self.second_issue(env, s, k, first, now) {
                self.timing.dual[s] += 1;
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
            || self.sched.ldst_waiting
            || !env
                .table
                .get(self.timing.cur_func[s], self.timing.cur_pc[s])
                .queues
        {
            return None;
        }
        self.collectors.free(unit, k, now)?;
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
        self.sched.unit_stalled[k]
            .iter()
            .all(|&s| self.warps.head_unit[s as usize] == Unit::Ldst)
            && if self.shape.share_warps {
                (0..self.shape.sched_slots.len()).all(held)
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
        if self.warps.state[s] != WarpState::Ready
            || self.warps.block[s] != Block::Ready
            || self.warps.wake[s] != now + 1
            || self.warps.head_unit[s] == first
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
        self.collectors.free(self.warps.head_unit[s], k, now)?;
        self.units.free(self.warps.head_unit[s], k, now)
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
        if self.mem.outstanding[s] == 0 && now >= self.timing.last_complete[s] {
            // Nothing of the warp's is in flight: its previous run of in-flight cycles ended
            // at its last completion, and a new one starts with this instruction.
            self.timing.busy_cycles[s] +=
                self.timing.last_complete[s].saturating_sub(self.timing.busy_from[s]);
            self.timing.busy_from[s] = now;
        }
        let (c, wi) = self.cta_and_warp(s);
        let pc = self.timing.cur_pc[s];
        let t = env.table.get(self.timing.cur_func[s], pc);
        if t.unit == Unit::Ldst && !t.queues {
            // The waiting unqueueable access (if it was this one) has its turn now.
            self.sched.ldst_waiting = false;
        }
        let rc = self.residency.ctas[c]
            .as_mut()
            .expect("occupied slot has a CTA");
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
                                let age = self.warps.age[s];
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
        let read = self.collectors.book_reads(uses, s, now);
        if let Some(c) = self.collectors.free(t.unit, sched, now) {
            self.collectors.occupy(c, now + read as u64);
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
        self.warps.insts[s] += 1;
        self.warps.thread_insts[s] += lanes;
        self.cta_slots.insts[c] += 1;
        self.cta_slots.thread_insts[c] += lanes;
        match plan {
            Plan::Sync(access) => {
                let ready =
                    now + self.shape.pipeline_cycles + read as u64 + access.latency.max(1) as u64
                        - 1;
                if let Some(inst) = inst {
                    if !matches!(inst.op, Op::St | Op::Sust) {
                        self.timing.sb[s].reserve(inst, &f, ready, false);
                    }
                }
                self.timing.sb[s].fit(w.regs.len() / WARP_SIZE, w.preds.len());
                self.timing.last_complete[s] = self.timing.last_complete[s].max(ready);
                // A shared-memory atomic completes with its result (GPGPU-Sim: at writeback).
                if self.shape.atomics_block_warp && inst.is_some_and(|i| i.op == Op::Atom) {
                    self.timing.atomics_until[s] = self.timing.atomics_until[s].max(ready);
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
                    self.timing.sb[s].reserve(inst, &f, PENDING, long);
                }
                self.timing.sb[s].fit(w.regs.len() / WARP_SIZE, w.preds.len());
                let (rb, pb) = ((f.reg_base / WARP_SIZE) as u32, f.pred_base as u32);
                let track = self.mem.stage(unit, s, kind, release, f.func, pc, rb, pb);
                if self.shape.atomics_block_warp && inst.op == Op::Atom {
                    // Until the last of its atomics completes (`finish`).
                    self.timing.atomics_out[s] += 1;
                    self.timing.atomics_until[s] = u64::MAX;
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
            (WarpState::Done, _) | (_, None) => self.warps.set_ib_n(s, 0),
            (_, Some(npc)) => {
                if w.frame().func == self.front.ib_func[s] && npc == self.front.ib_pc[s] + 1 {
                    self.front.ib_pc[s] = npc;
                    self.warps.set_ib_n(s, self.warps.ib_n[s] - 1);
                } else {
                    self.warps.set_ib_n(s, 0);
                    self.front.flushed[s] = true;
                }
            }
        }
        self.front.rouse();
        if let Some(tr) = env.trace.as_mut() {
            tr.push(IssueEvent {
                cycle: now,
                sm: self.id,
                scheduler: sched as u32,
                slot: s as u32,
                age: self.warps.age[s],
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
