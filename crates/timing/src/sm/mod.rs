//! One streaming multiprocessor. Per-warp timing state is struct-of-arrays indexed by warp
//! slot; a CTA in CTA slot `c` owns warp slots `c*W .. c*W + W` (W = warps per CTA) and warp
//! slot `w` belongs to scheduler `w mod S`. Each cycle runs the stages in reverse pipeline
//! order (GPGPU-Sim's): the memory pipeline ([`memory`]), completions and writeback/retire
//! ([`writeback`]), issue
//! ([`issue`], with warp sharing in [`share`]), fetch+decode ([`fetch`]).
//!
//! Speed: a warp's blocking state (scoreboard, barrier, exit, empty I-buffer) is computed when
//! it changes, not every cycle ([`warps`]); stall cycles are credited per interval; the issue
//! walk skips blocked warps with one compare; a scheduler none of whose warps can issue sleeps
//! until one of them changes state.

/// The policies' view of SM `$sm` at cycle `$now`, borrowing only the fields it shows (so
/// `$sm.policies` / `$sm.fetch` can be borrowed mutably beside it).
macro_rules! view {
    ($sm:expr, $now:expr, $all:expr) => {
        $crate::policy::PolicyView {
            now: $now,
            warps: &$sm.w,
            ctas: &$sm.c,
            warps_per_cta: $sm.wpc,
            ib_depth: $sm.ib_depth,
            all_dispatched: $all,
            age_order: &$sm.age_order,
            slot_order: &$sm.slot_order,
        }
    };
}

/// Calls `$call` (an [`Events`](crate::policy::Events) hook) on the SM-wide policy state of SM
/// `$sm`, then on every scheduler's policy, with the view bound to `$v`.
macro_rules! notify {
    ($sm:expr, $now:expr, $all:expr, |$p:ident, $v:ident| $call:expr) => {{
        let $v = view!($sm, $now, $all);
        {
            let $p = &mut $sm.shared;
            $call;
        }
        for $p in $sm.policies.iter_mut() {
            $call;
        }
    }};
}

pub mod collectors;
pub mod cp_async;
pub mod events;
pub mod fetch;
pub mod icache;
pub mod issue;
pub mod kept;
pub mod memory;
pub mod scoreboard;
pub mod share;
pub mod sleep;
pub mod units;
pub mod warps;
pub mod writeback;

use crate::classify::TimingTable;
use crate::fetch_policy::FetchPolicy;
use crate::mem::MemSystem;
use crate::policy::{Build, BuildCtx, CtaSlots, IssuePolicy, PolicyView, SmState, WarpSlots};
use crate::stats::{CtaRecord, IssueEvent, IssueSlots, LogEvent, StallCounts, WarpRecord};
use scoreboard::Scoreboard;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use units::Units;
use warpsim_core::config::{GpuConfig, SchedulerOrder};
use warpsim_core::exec::context::LaunchCtx;
use warpsim_core::exec::cta::Cta;
use warpsim_core::exec::memory::GlobalMemory;

/// Everything outside the SMs a cycle touches.
pub struct Env<'k, 'a> {
    pub k: &'k LaunchCtx<'a>,
    /// Interconnect, L2 slices and DRAM.
    pub mem: &'k mut MemSystem,
    pub gmem: &'k mut GlobalMemory,
    pub printf: &'k mut String,
    pub cfg: &'k GpuConfig,
    pub table: &'k TimingTable,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    pub ctas: Vec<CtaRecord>,
    pub warps: Vec<WarpRecord>,
    /// Issue events, when tracing.
    pub trace: Option<Vec<IssueEvent>>,
    /// The event log, when enabled.
    pub log: Option<Vec<LogEvent>>,
    /// Log the policy's CTA order when it changes (`TimingOptions::cta_order_log`).
    pub log_cta_order: bool,
    /// Issued instructions by active-lane count.
    pub lanes: Vec<u64>,
    pub shared_issues: crate::stats::SharedIssues,
    /// Cycles in which a scheduler issued a second instruction (dual issue).
    pub dual_issues: u64,
    /// Extra operand-read cycles from register-bank conflicts.
    pub bank_conflict_cycles: u64,
    /// The dispatcher has handed out the last CTA.
    pub all_dispatched: bool,
}

pub struct ResidentCta {
    pub cta: Cta,
    pub linear: u64,
    pub start: u64,
}

/// A scheduler's issue slot in one cycle (GPGPU-Sim's breakdown; see `stats::IssueSlots`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    Issued,
    Pipeline,
    Scoreboard,
    Idle,
}

/// A warp slot's CTA slot, warp index within that CTA and scheduler.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SlotPlace {
    pub cta: u16,
    pub warp: u16,
    pub scheduler: u16,
}

pub struct Sm<P: IssuePolicy, F> {
    pub id: u32,
    pub(crate) ctas: Vec<Option<ResidentCta>>,
    /// Warps per CTA.
    pub(crate) wpc: usize,
    pub(crate) resident: usize,
    /// Some warp finished since the last retire check.
    pub(crate) pending_exit: bool,
    /// What policies may read (see [`PolicyView`]).
    pub(crate) w: WarpSlots,
    pub(crate) c: CtaSlots,
    /// Per scheduler: occupied slots oldest first.
    pub(crate) age_order: Vec<Vec<u16>>,
    /// Per scheduler: occupied slots in slot order.
    pub(crate) slot_order: Vec<Vec<u16>>,
    pub(crate) ib_depth: u8,
    // ---- per warp slot, pipeline-private ----
    /// Cached current function and PC of the functional warp (refreshed whenever they can
    /// change: issue, barrier release, exit), so the stages need not chase the warp's heap data.
    pub(crate) cur_func: Vec<u32>,
    pub(crate) cur_pc: Vec<u32>,
    /// Register / predicate base of the warp's current frame (for the scoreboard).
    pub(crate) reg_base: Vec<u32>,
    pub(crate) pred_base: Vec<u32>,
    /// I-buffer: `w.ib_n` valid decoded entries, the first at (`ib_func`, `ib_pc`), the rest
    /// sequential.
    pub(crate) ib_func: Vec<u32>,
    pub(crate) ib_pc: Vec<u32>,
    /// Cycle from which the I-buffer's first entry is decoded and can issue (`fetch.rs`).
    pub(crate) ib_ready: Vec<u64>,
    /// The I-buffer was emptied by a control hazard and not refilled yet.
    pub(crate) flushed: Vec<bool>,
    /// Start of the current blocked interval (see `warps.rs`).
    pub(crate) since: Vec<u64>,
    pub(crate) sb: Vec<Scoreboard>,
    /// Cycle the warp's last in-flight result completes.
    pub(crate) last_complete: Vec<u64>,
    /// `sm.atomics_block_warp`: the warp issues nothing before `atomics_until` (its last
    /// atomic's completion; `u64::MAX` while `atomics_out` of them are in the memory system).
    pub(crate) atomics_block_warp: bool,
    pub(crate) atomics_until: Vec<u64>,
    pub(crate) atomics_out: Vec<u16>,
    /// Start of the warp's current run of cycles with an instruction in flight (issued, not
    /// completed: up to `last_complete`, or later while memory accesses are outstanding),
    /// and the cycles of its earlier runs (`issue.rs`, `WarpRecord::issued_cycles`).
    pub(crate) busy_from: Vec<u64>,
    pub(crate) busy_cycles: Vec<u64>,
    pub(crate) start: Vec<u64>,
    pub(crate) done_at: Vec<u64>,
    pub(crate) stalls: Vec<StallCounts>,
    /// PC of the barrier the warp waits at.
    pub(crate) bar_pc: Vec<u32>,
    /// Where each slot sits: its CTA slot, its warp in the CTA, its scheduler (tabled: the
    /// per-issue paths would otherwise divide by runtime values several times).
    pub(crate) place: Vec<SlotPlace>,
    // ---- per scheduler ----
    pub(crate) sched_slots: Vec<Vec<u16>>,
    pub(crate) policies: Vec<P>,
    /// The policy's SM-wide state (one per SM, told about every event before the schedulers).
    pub(crate) shared: P::Shared,
    pub(crate) order: Vec<u16>,
    pub issue: Vec<IssueSlots>,
    /// The scheduler need not walk before this cycle (nothing can issue); see `issue.rs`.
    pub(crate) sched_wake: Vec<u64>,
    /// Per scheduler: the warps its last walk found ready but blocked on a busy unit or
    /// collector (charged a structural stall for every cycle it sleeps on them).
    pub(crate) unit_stalled: Vec<Vec<u16>>,
    /// A memory instruction that cannot queue (shared memory) waits for the LD/ST unit: no
    /// other may queue until it has issued, so it is served in its turn (`sm.ldst_queue`).
    pub(crate) ldst_waiting: bool,
    /// This cycle's issue-slot outcome per scheduler (also what a sleeping one charges).
    pub(crate) outcome: Vec<Slot>,
    /// Warps that were ready this cycle but found their unit busy (warp-sharing candidates).
    pub(crate) blocked_ready: Vec<u16>,
    /// Warp sharing is on (`+ws`): the share stage runs after the schedulers' walks.
    pub(crate) share_warps: bool,
    pub(crate) units: Units,
    pub(crate) oc: collectors::Collectors,
    /// Cycles the pipeline stages around the units add to every result (`[pipeline]`:
    /// collect + dispatch + writeback).
    pub(crate) stages: u64,
    /// `sm.dual_issue`: a scheduler may issue a second instruction of the same warp to a
    /// different unit class in the same cycle.
    pub(crate) dual_issue: bool,
    /// `sm.scheduler_order = "rotate"`: the scheduler that goes first moves on every cycle.
    pub(crate) rotate_schedulers: bool,
    /// Per warp slot: cycles in which it issued two instructions.
    pub(crate) dual: Vec<u64>,
    pub(crate) fetch: F,
    /// Nothing became fetchable since the fetch stage last found nothing to do…
    pub(crate) fetch_idle: bool,
    /// …until this cycle (the earliest pending I-cache miss returns).
    pub(crate) fetch_wake: u64,
    pub(crate) icache: icache::ICache,
    pub(crate) fetch_pick: Vec<u16>,
    /// Completions `(cycle, slot)` of synchronous LD/ST instructions (shared memory) for
    /// `on_mem_complete` (only with `WANTS_MEM_EVENTS`; asynchronous ones notify directly).
    pub(crate) completions: BinaryHeap<Reverse<(u64, u16)>>,
    /// L1 D-cache, constant cache, LD/ST staging and in-flight memory instructions.
    pub(crate) mem: memory::SmMem,
    /// Per warp slot: `cp.async` copies in flight by commit group.
    pub(crate) cp: cp_async::CpGroups,
    /// The CTA order last logged (linear grid indices), with `Env::log_cta_order`.
    pub(crate) logged_order: Vec<u64>,
    /// Asleep (per-SM fast forward, [`sleep`]) through cycles before this one; 0: awake.
    pub(crate) sleep_until: u64,
    /// The first cycle slept through (credited to the issue-slot counters on waking).
    pub(crate) slept_from: u64,
}

impl<P: IssuePolicy, F: FetchPolicy> Sm<P, F> {
    /// An SM with `ctas_per_sm` CTA slots of `wpc` warps; `make(ctx)` builds scheduler
    /// `ctx.scheduler`'s policy; `share_warps` turns warp sharing on.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: u32,
        cfg: &GpuConfig,
        ctas_per_sm: usize,
        wpc: usize,
        make: &mut impl FnMut(&BuildCtx) -> P,
        fetch: F,
        perfect_icache: bool,
        share_warps: bool,
    ) -> Self {
        let n = ctas_per_sm * wpc;
        let s = cfg.sm.schedulers.max(1) as usize;
        let sched_slots: Vec<Vec<u16>> = (0..s)
            .map(|i| (0..n).filter(|w| w % s == i).map(|w| w as u16).collect())
            .collect();
        let base = BuildCtx {
            scheduler: 0,
            slots: &[],
            schedulers: s,
            warp_slots: n,
            cta_slots: ctas_per_sm,
            warps_per_cta: wpc,
            params: &cfg.policy,
        };
        let policies = sched_slots
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
        let shared = P::Shared::build(&base);
        Sm {
            id,
            ctas: (0..ctas_per_sm).map(|_| None).collect(),
            wpc,
            resident: 0,
            pending_exit: false,
            w: WarpSlots::new(
                n,
                cfg.sm.ibuffer_entries.clamp(1, 255) as u8,
                (cfg.sm.fetch_bytes / 8).clamp(1, 255) as u8,
            ),
            c: CtaSlots::new(ctas_per_sm),
            age_order: sched_slots
                .iter()
                .map(|v| Vec::with_capacity(v.len()))
                .collect(),
            slot_order: sched_slots
                .iter()
                .map(|v| Vec::with_capacity(v.len()))
                .collect(),
            ib_depth: cfg.sm.ibuffer_entries.clamp(1, 255) as u8,
            cur_func: vec![0; n],
            cur_pc: vec![0; n],
            reg_base: vec![0; n],
            pred_base: vec![0; n],
            ib_func: vec![0; n],
            ib_pc: vec![0; n],
            ib_ready: vec![0; n],
            flushed: vec![false; n],
            since: vec![0; n],
            sb: vec![Scoreboard::default(); n],
            last_complete: vec![0; n],
            atomics_block_warp: cfg.sm.atomics_block_warp,
            atomics_until: vec![0; n],
            atomics_out: vec![0; n],
            busy_from: vec![0; n],
            busy_cycles: vec![0; n],
            start: vec![0; n],
            done_at: vec![0; n],
            stalls: vec![StallCounts::default(); n],
            bar_pc: vec![0; n],
            place: (0..n)
                .map(|w| SlotPlace {
                    cta: (w / wpc) as u16,
                    warp: (w % wpc) as u16,
                    scheduler: (w % s) as u16,
                })
                .collect(),
            sched_slots,
            policies,
            shared,
            order: Vec::with_capacity(n),
            issue: vec![IssueSlots::default(); s],
            sched_wake: vec![0; s],
            unit_stalled: (0..s).map(|_| Vec::with_capacity(n)).collect(),
            ldst_waiting: false,
            outcome: vec![Slot::Idle; s],
            blocked_ready: Vec::with_capacity(n),
            share_warps,
            units: Units::new(cfg),
            oc: collectors::Collectors::new(cfg),
            stages: cfg.pipeline.overhead() as u64,
            dual_issue: cfg.sm.dual_issue,
            rotate_schedulers: cfg.sm.scheduler_order == SchedulerOrder::Rotate,
            dual: vec![0; n],
            fetch,
            fetch_idle: false,
            fetch_wake: 0,
            icache: icache::ICache::new(cfg, perfect_icache),
            fetch_pick: Vec::with_capacity(n),
            completions: BinaryHeap::with_capacity(4 * n),
            mem: memory::SmMem::new(cfg, n),
            cp: cp_async::CpGroups::new(n),
            logged_order: Vec::new(),
            sleep_until: 0,
            slept_from: 0,
        }
    }

    /// Warp slot `s`'s CTA slot and its warp index in that CTA.
    #[inline]
    pub(crate) fn cta_and_warp(&self, s: usize) -> (usize, usize) {
        let p = self.place[s];
        (p.cta as usize, p.warp as usize)
    }

    /// A CTA slot is free.
    pub fn has_room(&self) -> bool {
        self.resident < self.ctas.len()
    }

    pub fn is_idle(&self) -> bool {
        self.resident == 0
    }

    /// Nothing resident and nothing left in its memory pipeline (dirty victims still to send).
    pub fn is_quiet(&self) -> bool {
        self.resident == 0 && !self.mem.busy()
    }

    /// Memory-hierarchy counters of this SM (L1 D-cache, its loads that looked the tags up,
    /// constant cache, texture cache).
    pub fn mem_counts(
        &self,
    ) -> (
        crate::mem::CacheCounts,
        crate::mem::CacheCounts,
        crate::mem::CacheCounts,
        crate::mem::CacheCounts,
    ) {
        (
            self.mem.l1d_counts,
            self.mem.l1d_load_counts,
            self.mem.cc_counts,
            self.mem.tex_counts,
        )
    }

    /// The policies' view of this SM at cycle `now`.
    pub fn view(&self, now: u64, all_dispatched: bool) -> PolicyView<'_> {
        view!(self, now, all_dispatched)
    }

    /// Rebuilds the per-scheduler slot and age orders (on CTA launch / exit).
    pub(crate) fn rebuild_age_order(&mut self) {
        self.w.touch();
        for (k, slots) in self.sched_slots.iter().enumerate() {
            let o = &mut self.slot_order[k];
            o.clear();
            o.extend(
                slots
                    .iter()
                    .copied()
                    .filter(|&s| self.w.occupied[s as usize]),
            );
            let a = &mut self.age_order[k];
            a.clear();
            a.extend_from_slice(o);
            a.sort_unstable_by_key(|&s| self.w.age[s as usize]);
        }
    }

    /// One cycle of this SM; then, when asked to, logs the policy's CTA order if it changed.
    pub fn cycle(&mut self, env: &mut Env, now: u64) -> Result<(), crate::TimingError> {
        self.stages(env, now)?;
        if env.log_cta_order {
            self.log_cta_order(env, now);
        }
        Ok(())
    }

    /// The stages of one cycle.
    fn stages(&mut self, env: &mut Env, now: u64) -> Result<(), crate::TimingError> {
        if now >= self.shared.wake_at() {
            let v = view!(self, now, env.all_dispatched);
            self.shared.on_timer(&v);
            // The order may have changed: every scheduler walks again.
            self.sched_wake.iter_mut().for_each(|x| *x = 0);
        }
        self.mem_stage(env, now);
        if P::WANTS_MEM_EVENTS {
            self.deliver_completions(env, now);
        }
        self.retire(env, now);
        if self.resident == 0 {
            return Ok(());
        }
        let s = self.sched_slots.len();
        // Schedulers share units, collectors and ports: whoever goes first wins a contested
        // one. Rotating the first by cycle number keeps that fair (and fast-forward safe).
        let first = if self.rotate_schedulers {
            (now % s as u64) as usize
        } else {
            0
        };
        let mut k = first;
        for _ in 0..s {
            self.issue_stage(env, k, now)?;
            k = if k + 1 == s { 0 } else { k + 1 };
        }
        if self.share_warps {
            self.share_stage(env, now)?;
        }
        for k in 0..s {
            let c = &mut self.issue[k];
            match self.outcome[k] {
                Slot::Issued => c.issued += 1,
                Slot::Pipeline => c.pipeline += 1,
                Slot::Scoreboard => c.scoreboard += 1,
                Slot::Idle => c.idle += 1,
            }
        }
        self.fetch_stage(env, now);
        Ok(())
    }
}
