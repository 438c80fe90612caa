//! One streaming multiprocessor: a coordinator over state each stage owns (see [`Sm`]).
//! Per-warp timing state is struct-of-arrays indexed by warp slot; a CTA in CTA slot `c` owns
//! warp slots `c*W .. c*W + W` (W = warps per CTA) and warp slot `w` belongs to scheduler
//! `w mod S` (the typed ids [`WarpSlot`], [`CtaSlot`], [`SchedId`] index them). Each cycle
//! runs the stages in reverse pipeline order (GPGPU-Sim's): the memory
//! pipeline ([`memory`]), memory-completion hooks ([`events`]), CTA retirement ([`retire`]),
//! issue ([`issue`], an instruction's timing in [`mem_plan`], warp sharing in [`share`]),
//! fetch+decode ([`fetch`]). The front end (`Frontend`), the schedulers (`Schedulers`) and the
//! memory side (`SmMem`) keep their state private; each answers `next_activity` for fast
//! forward ([`sleep`]). `ARCHITECTURE.md` walks through one cycle.
//!
//! Speed: a warp's blocking state (scoreboard, barrier, exit, empty I-buffer) is computed when
//! it changes, not every cycle ([`warps`]); stall cycles are credited per interval; the issue
//! walk skips blocked warps with one compare; a scheduler none of whose warps can issue sleeps
//! until one of them changes state.

/// The policies' view of SM `$sm` at cycle `$now`, borrowing only the fields it shows (so
/// `$sm.sched.policies` / `$sm.fetch` can be borrowed mutably beside it).
macro_rules! view {
    ($sm:expr, $now:expr, $all:expr) => {
        $crate::policy::PolicyView {
            now: $now,
            warps: &$sm.warps,
            ctas: &$sm.cta_slots,
            warps_per_cta: $sm.shape.wpc,
            ib_depth: $sm.shape.ib_depth,
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
        let (shared, policies) = $sm.sched.policies_mut();
        {
            let $p = shared;
            $call;
        }
        for $p in policies.iter_mut() {
            $call;
        }
    }};
}

pub mod alu_path;
pub mod collectors;
pub mod cp_async;
pub mod events;
pub mod fetch;
pub mod icache;
pub mod issue;
pub mod kept;
pub mod mem_plan;
pub mod memory;
pub mod out;
pub mod retire;
pub mod schedulers;
pub mod scoreboard;
pub mod share;
pub mod sleep;
pub mod tensor_access;
#[cfg(test)]
pub(crate) mod testbench;
pub mod units;
pub mod warps;

use crate::classify::TimingTable;
use crate::fetch_policy::FetchPolicy;
use crate::ids::{CtaSlot, SchedId, WarpSlot};
use crate::mem::SmNet;
use crate::policy::{BuildCtx, CtaSlots, IssuePolicy, PolicyView, WarpSlots};
pub use out::SmOut;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use units::Units;
use warpsim_core::config::{GpuConfig, LongMarks, SchedulerOrder};
use warpsim_core::exec::context::LaunchCtx;
use warpsim_core::exec::cta::Cta;
use warpsim_core::exec::memory::GlobalMemory;

/// What an SM's cycle sees outside the SM: read-only launch state, global memory as the
/// cycle began, its own port to the memory system, and its own output (`out.rs`). Nothing in
/// it is shared writably with another SM, so SMs can step on separate threads.
pub struct Env<'k, 'a> {
    pub k: &'k LaunchCtx<'a>,
    pub cfg: &'k GpuConfig,
    pub table: &'k TimingTable,
    /// The dispatcher has handed out the last CTA.
    pub all_dispatched: bool,
    /// Log the policy's CTA order when it changes (`TimingOptions::cta_order_log`).
    pub log_cta_order: bool,
    /// Global memory as the cycle began; the SM's own effects go to `out.journal`.
    pub gmem: &'k GlobalMemory,
    /// This SM's port to the interconnect, L2 slices and DRAM.
    pub mem: SmNet<'k>,
    pub out: &'k mut SmOut,
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
    pub cta: CtaSlot,
    pub warp: u16,
    pub scheduler: SchedId,
}

/// One SM: a coordinator over state that each stage owns. The stages run in [`Sm::cycle`];
/// what one stage needs of another goes through the owner's methods.
pub struct Sm<P: IssuePolicy, F> {
    pub id: u32,
    /// Fixed for the launch: slot layout and the config's switches.
    pub(crate) shape: Shape,
    /// The resident CTAs (`retire.rs` frees them).
    pub(crate) residency: Residency,
    /// Per warp slot, what policies may read (see [`PolicyView`]).
    pub(crate) warps: WarpSlots,
    /// Per CTA slot, what policies may read.
    pub(crate) cta_slots: CtaSlots,
    /// Per scheduler: occupied slots oldest first.
    pub(crate) age_order: Vec<Vec<u16>>,
    /// Per scheduler: occupied slots in slot order.
    pub(crate) slot_order: Vec<Vec<u16>>,
    /// Per warp slot, pipeline-private timing state (`warps.rs`).
    pub(crate) timing: warps::WarpTiming,
    /// Fetch, decode, I-cache and I-buffers (`fetch.rs`).
    pub(crate) front: fetch::Frontend<F>,
    /// The warp schedulers: policies, issue-slot outcomes, sleep state (`issue.rs`).
    pub(crate) sched: schedulers::Schedulers<P>,
    /// LD/ST unit instances.
    pub(crate) units: Units,
    /// SP and SFU instructions' way to their units: pipeline registers, unit instances,
    /// result buses.
    pub(crate) alu: alu_path::AluPath,
    /// Operand collectors and register banks.
    pub(crate) collectors: collectors::Collectors,
    /// L1 D-cache, constant cache, LD/ST staging and in-flight memory instructions.
    pub(crate) mem: memory::SmMem,
    /// Per warp slot: `cp.async` copies in flight by commit group.
    pub(crate) cp: cp_async::CpGroups,
    /// Completions `(cycle, slot)` of synchronous LD/ST instructions (shared memory) for
    /// `on_mem_complete` (only with `WANTS_MEM_EVENTS`; asynchronous ones notify directly).
    pub(crate) completions: BinaryHeap<Reverse<(u64, WarpSlot)>>,
    /// Per-SM fast forward (`sleep.rs`).
    pub(crate) sleep: sleep::Sleep,
}

/// What is fixed for a launch: the slot layout and the config's switches.
pub(crate) struct Shape {
    /// Warps per CTA.
    pub wpc: usize,
    /// Where each warp slot sits: its CTA slot, its warp in the CTA, its scheduler (tabled: the
    /// per-issue paths would otherwise divide by runtime values several times).
    pub place: Vec<SlotPlace>,
    /// Per scheduler: its warp slots (slot `w` belongs to scheduler `w mod S`).
    pub sched_slots: Vec<Vec<u16>>,
    /// Per scheduler: its warp slots as a bit set (slots are below 64, `sm.max_warps`).
    pub sched_bits: Vec<u64>,
    /// I-buffer entries per warp.
    pub ib_depth: u8,
    /// Cycles the pipeline stages around the LD/ST unit add to a result timed at issue
    /// (`[pipeline]`: collect + dispatch + writeback).
    pub pipeline_cycles: u64,
    /// Cycles from a unit's last stage to the release of its result (`pipeline.writeback`).
    pub writeback: u64,
    /// Warp sharing is on (`+ws`): the share stage runs after the schedulers' walks.
    pub share_warps: bool,
    /// `sm.dual_issue`: a scheduler may issue a second instruction of the same warp to a
    /// different unit class in the same cycle.
    pub dual_issue: bool,
    /// `sm.scheduler_order = "rotate"`: the scheduler that goes first moves on every cycle.
    pub rotate_schedulers: bool,
    /// `sm.atomics_block_warp`: a warp issues nothing while its atomics are in flight.
    pub atomics_block_warp: bool,
    /// `policy.tls.long_marks = "sticky"`: GPGPU-Sim's long-operation marks decide which
    /// warps are long-latency dependent (for a policy that reads it, `READS_LONG_DEP`).
    pub sticky_long_marks: bool,
}

impl Shape {
    fn new(cfg: &GpuConfig, ctas_per_sm: usize, wpc: usize, share_warps: bool) -> Shape {
        let n = ctas_per_sm * wpc;
        let s = cfg.sm.schedulers.max(1) as usize;
        Shape {
            wpc,
            place: (0..n)
                .map(|w| SlotPlace {
                    cta: CtaSlot::new(w / wpc),
                    warp: (w % wpc) as u16,
                    scheduler: SchedId::new(w % s),
                })
                .collect(),
            sched_slots: (0..s)
                .map(|i| (0..n).filter(|w| w % s == i).map(|w| w as u16).collect())
                .collect(),
            sched_bits: (0..s)
                .map(|i| {
                    (0..n.min(64))
                        .filter(|w| w % s == i)
                        .fold(0, |m, w| m | 1 << w)
                })
                .collect(),
            ib_depth: cfg.sm.ibuffer_entries.clamp(1, 255) as u8,
            pipeline_cycles: cfg.pipeline.overhead() as u64,
            writeback: cfg.pipeline.writeback as u64,
            share_warps,
            dual_issue: cfg.sm.dual_issue,
            rotate_schedulers: cfg.sm.scheduler_order == SchedulerOrder::Rotate,
            atomics_block_warp: cfg.sm.atomics_block_warp,
            sticky_long_marks: cfg.policy.tls.long_marks == LongMarks::Sticky,
        }
    }

    /// Warp slots.
    pub fn slots(&self) -> usize {
        self.place.len()
    }
}

/// The CTAs resident on the SM.
pub(crate) struct Residency {
    /// Per CTA slot.
    pub ctas: Vec<Option<ResidentCta>>,
    /// CTA slots occupied.
    pub count: usize,
    /// Some warp finished since the last retire check.
    pub pending_exit: bool,
    /// The CTA order last logged (linear grid indices), with `Env::log_cta_order`.
    pub logged_order: Vec<u64>,
}

impl<P: IssuePolicy, F: FetchPolicy> Sm<P, F> {
    /// An SM with `ctas_per_sm` CTA slots of `wpc` warps; `make(ctx)` builds scheduler
    /// `ctx.scheduler`'s policy; `share_warps` turns warp sharing on.
    // Once per SM per launch, from the config, the launch's occupancy and the options.
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
        let shape = Shape::new(cfg, ctas_per_sm, wpc, share_warps);
        let n = shape.slots();
        let per_sched = || -> Vec<Vec<u16>> {
            shape
                .sched_slots
                .iter()
                .map(|v| Vec::with_capacity(v.len()))
                .collect()
        };
        Sm {
            id,
            residency: Residency {
                ctas: (0..ctas_per_sm).map(|_| None).collect(),
                count: 0,
                pending_exit: false,
                logged_order: Vec::new(),
            },
            warps: WarpSlots::new(
                n,
                shape.ib_depth,
                (cfg.sm.fetch_bytes / 8).clamp(1, 255) as u8,
            ),
            cta_slots: CtaSlots::new(ctas_per_sm),
            age_order: per_sched(),
            slot_order: per_sched(),
            timing: warps::WarpTiming::new(n),
            front: fetch::Frontend::new(cfg, n, fetch, perfect_icache),
            sched: schedulers::Schedulers::new(cfg, &shape, ctas_per_sm, make),
            units: Units::new(cfg),
            alu: alu_path::AluPath::new(cfg),
            collectors: collectors::Collectors::new(cfg),
            mem: memory::SmMem::new(cfg, n),
            cp: cp_async::CpGroups::new(n),
            completions: BinaryHeap::with_capacity(4 * n),
            sleep: sleep::Sleep::default(),
            shape,
        }
    }

    /// Warp slot `s`'s CTA slot and its warp index in that CTA.
    #[inline]
    pub(crate) fn cta_and_warp(&self, s: WarpSlot) -> (CtaSlot, usize) {
        let p = self.shape.place[s];
        (p.cta, p.warp as usize)
    }

    /// The warp slots of CTA slot `c`'s warps.
    #[inline]
    pub(crate) fn cta_warp_slots(&self, c: CtaSlot) -> impl Iterator<Item = WarpSlot> + Clone {
        let first = c.index() * self.shape.wpc;
        WarpSlot::range(first..first + self.cta_slots.warps[c] as usize)
    }

    /// A CTA slot is free.
    pub fn has_room(&self) -> bool {
        self.residency.count < self.residency.ctas.len()
    }

    pub fn is_idle(&self) -> bool {
        self.residency.count == 0
    }

    /// Nothing resident and nothing left in its memory pipeline (dirty victims still to send).
    pub fn is_quiet(&self) -> bool {
        self.residency.count == 0 && !self.mem.busy()
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
        self.warps.touch();
        for (k, slots) in self.shape.sched_slots.iter().enumerate() {
            let o = &mut self.slot_order[k];
            o.clear();
            o.extend(
                slots
                    .iter()
                    .copied()
                    .filter(|&s| self.warps.occupied()[s as usize]),
            );
            let a = &mut self.age_order[k];
            a.clear();
            a.extend_from_slice(o);
            a.sort_unstable_by_key(|&s| self.warps.age[s as usize]);
        }
    }

    /// One cycle of this SM; then, when asked to, logs the policy's CTA order if it changed.
    pub fn cycle(&mut self, env: &mut Env, now: u64) -> Result<(), crate::TimingError> {
        self.run_stages(env, now)?;
        if env.log_cta_order {
            self.log_cta_order(env, now);
        }
        Ok(())
    }

    /// The stages of one cycle.
    fn run_stages(&mut self, env: &mut Env, now: u64) -> Result<(), crate::TimingError> {
        if self.sched.timer_due(now) {
            let v = view!(self, now, env.all_dispatched);
            self.sched.fire_timer(&v);
        }
        self.mem_stage(env, now);
        if P::WANTS_MEM_EVENTS {
            self.deliver_completions(env, now);
        }
        self.retire(env, now);
        if self.residency.count == 0 {
            return Ok(());
        }
        let s = self.shape.sched_slots.len();
        // Schedulers share units, collectors and ports: whoever goes first wins a contested
        // one. Rotating the first by cycle number keeps that fair (and fast-forward safe).
        let first = if self.shape.rotate_schedulers {
            (now % s as u64) as usize
        } else {
            0
        };
        let mut k = first;
        for _ in 0..s {
            self.issue_stage(env, SchedId::new(k), now)?;
            k = if k + 1 == s { 0 } else { k + 1 };
        }
        if self.shape.share_warps {
            self.share_stage(env, now)?;
        }
        self.sched.count_outcomes(now, now + 1);
        self.fetch_stage(env, now);
        Ok(())
    }
}
