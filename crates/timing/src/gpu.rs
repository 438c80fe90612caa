//! The GPU: a CTA dispatcher over the SMs and the cycle loop.
//!
//! Dispatcher: CTAs in linear grid order; each cycle, round robin over SMs starting after the
//! SM that last received one (across launches on one memory system too, as GPGPU-Sim's
//! `m_last_cluster_issue`), every SM with a free CTA slot receives at most one CTA. CTAs per
//! SM come from `occupancy::resident_ctas`, the rule the Device checks launches with. Dispatch
//! starts at `gpu.kernel_launch_latency`.
//!
//! The policy is chosen once ([`run_timed`] calls the issue policy's registry entry, whose
//! run function is the cycle loop [`run_timed_with_on`] monomorphised for it) and the cycle
//! loop is generic over the concrete issue policy type; the fetch policy is an enum.

use crate::classify::TimingTable;
use crate::cycle::{step_and_commit, with_env, Common, Parts};
use crate::error::kernel_name;
use crate::fetch_policy::FetchPolicy;
use crate::mem::MemSystem;
use crate::policy::{BuildCtx, IssuePolicy, PolicyKind};
use crate::sm::{Sm, SmOut};
use crate::stats::{
    CtaRecord, ICacheStats, IssueSlots, LaunchIdentity, StallCounts, TimingStats, WarpRecord,
};
use crate::team::Team;
use crate::TimingError;
use warpsim_core::config::GpuConfig;
use warpsim_core::device::DeviceError;
use warpsim_core::exec::context::LaunchCtx;
use warpsim_core::exec::grid::make_cta;
use warpsim_core::exec::memory::GlobalMemory;
use warpsim_core::occupancy::{does_not_fit, resident_ctas, CtaDemand, SmResources};

/// What a timed launch needs besides the launch itself.
#[derive(Clone, Copy, Debug)]
pub struct TimingOptions {
    /// Issue and fetch policy (their parameters are the configuration's `[policy]` table).
    pub policy: PolicyKind,
    /// Registers per thread (from `ptxas -v`), for occupancy.
    pub registers_per_thread: u32,
    /// The launch fails when it runs longer than this.
    pub max_cycles: u64,
    /// The launch fails when it has issued more warp instructions than this (the functional
    /// executor's runaway guard, applied to timed launches too).
    pub max_warp_instructions: u64,
    /// Record every issue in `TimingStats::issue_trace` (for tests and timelines; off for speed).
    pub trace_issue: bool,
    /// Record CTA start/end, barrier arrive/release and warp finish events in
    /// `TimingStats::events` (memory grows with the events; off by default).
    pub event_log: bool,
    /// With `event_log`: also log the policy's CTA order on each SM whenever it changes
    /// (`LogKind::CtaOrder` + one `LogKind::CtaRank` per CTA; policies that keep one: `pro`,
    /// `mwf-*`, `saws`). Off, it costs one flag test per SM-cycle.
    pub cta_order_log: bool,
    /// Every instruction fetch hits the L1 I-cache (isolates the core in microbenchmarks).
    pub perfect_icache: bool,
    /// Jump over cycles in which no SM can change anything (identical statistics; on by
    /// default, off only to test that).
    pub fast_forward: bool,
    /// Progress reports and a stop request (Ctrl-C), looked at every
    /// [`crate::watch::WATCH_CYCLES`] cycles; `None` by default.
    pub watch: Option<crate::watch::Watch>,
    /// Threads that step the SMs of each cycle (`team.rs`); 1 by default. Statistics are
    /// bit-identical for every value.
    pub threads: usize,
}

impl TimingOptions {
    pub fn new(policy: PolicyKind, registers_per_thread: u32) -> TimingOptions {
        TimingOptions {
            policy,
            registers_per_thread,
            max_cycles: 1 << 40,
            max_warp_instructions: u64::MAX,
            trace_issue: false,
            event_log: false,
            cta_order_log: false,
            perfect_icache: false,
            fast_forward: true,
            watch: None,
            threads: 1,
        }
    }
}

impl Default for TimingOptions {
    /// GTO, fetch `rr`, registers unknown (0: they do not limit occupancy), no tracing.
    fn default() -> TimingOptions {
        TimingOptions::new(PolicyKind::GTO, 0)
    }
}

/// One kernel launch as the timing model runs it: the kernel and its arguments, the memory
/// its threads read and write, the `printf` output, and the dynamic shared memory per CTA.
pub struct Launch<'l, 'a> {
    pub k: &'l LaunchCtx<'a>,
    pub gmem: &'l mut GlobalMemory,
    pub printf: &'l mut String,
    pub shared_bytes: u32,
}

/// Runs a launch to completion in timing mode on a cold memory system. `k.smid` is ignored
/// (each SM reports its own).
pub fn run_timed(
    k: &LaunchCtx,
    gmem: &mut GlobalMemory,
    printf: &mut String,
    shared_bytes: u32,
    cfg: &GpuConfig,
    opts: &TimingOptions,
) -> Result<TimingStats, TimingError> {
    let mut mem = MemSystem::new(cfg, cfg.gpu.num_sms.max(1) as usize);
    run_timed_on(&mut mem, k, gmem, printf, shared_bytes, cfg, opts)
}

/// [`run_timed`] on `mem`, a memory system built for `cfg` that earlier launches used: its
/// L2 contents and DRAM row state carry over ([`MemSystem::begin_launch`]), as on a GPU
/// running kernels back to back.
pub fn run_timed_on(
    mem: &mut MemSystem,
    k: &LaunchCtx,
    gmem: &mut GlobalMemory,
    printf: &mut String,
    shared_bytes: u32,
    cfg: &GpuConfig,
    opts: &TimingOptions,
) -> Result<TimingStats, TimingError> {
    let launch = Launch {
        k,
        gmem,
        printf,
        shared_bytes,
    };
    (opts.policy.issue().run)(mem, launch, cfg, opts)
}

/// [`run_timed`] with explicit policy instances: `issue(ctx)` builds scheduler
/// `ctx.scheduler`'s issue policy on every SM (its SM-wide state is built with
/// [`crate::policy::Build`]), `fetch()` each SM's fetch policy. `opts.policy` only names them
/// in the statistics.
pub fn run_timed_with<P: IssuePolicy, F: FetchPolicy>(
    launch: Launch,
    cfg: &GpuConfig,
    opts: &TimingOptions,
    issue: impl FnMut(&BuildCtx) -> P,
    fetch: impl FnMut() -> F,
) -> Result<TimingStats, TimingError> {
    let mut mem = MemSystem::new(cfg, cfg.gpu.num_sms.max(1) as usize);
    run_timed_with_on(&mut mem, launch, cfg, opts, issue, fetch)
}

/// [`run_timed_with`] on a memory system earlier launches used (see [`run_timed_on`]). Warp
/// sharing is on when `opts.policy` says `+ws`.
pub fn run_timed_with_on<P: IssuePolicy, F: FetchPolicy>(
    mem: &mut MemSystem,
    launch: Launch,
    cfg: &GpuConfig,
    opts: &TimingOptions,
    issue: impl FnMut(&BuildCtx) -> P,
    fetch: impl FnMut() -> F,
) -> Result<TimingStats, TimingError> {
    let share = opts.policy.shares();
    run_loop(mem, launch, cfg, opts, share, issue, fetch)
}

/// A GPU without tensor cores (`units.tensor = 0`: gtx480, titanx-pascal) refuses a kernel
/// that can reach a `wmma`/`mma`/`ldmatrix` by name before its first cycle, so the per-cycle
/// path never meets one it cannot time. Functional mode executes them; the presets with
/// tensor units time them (`classify::tensor_op`).
fn refuse_tensor_cores(k: &LaunchCtx, cfg: &GpuConfig) -> Result<(), TimingError> {
    if cfg.units.tensor > 0 {
        return Ok(());
    }
    let Some((t, line)) = k.module.tensor_use(k.kernel) else {
        return Ok(());
    };
    Err(TimingError::Device(Box::new(DeviceError::InvalidLaunch {
        kernel: k.module.functions[k.kernel as usize].name.clone(),
        reason: format!(
            "line {line}: {} is a tensor-core instruction and the preset `{}` has no tensor \
             cores; run it in functional mode",
            t.name, cfg.name
        ),
    })))
}

/// The launch's shape on this GPU: CTA slots per SM, warps per CTA, CTAs in the grid.
struct Occupancy {
    per_sm: u32,
    wpc: usize,
    total: u64,
}

/// How many CTAs of `k` fit on an SM; an error when none does, or when a cooperative launch's
/// grid cannot be resident at once.
fn occupancy(
    k: &LaunchCtx,
    shared_bytes: u32,
    cfg: &GpuConfig,
    opts: &TimingOptions,
) -> Result<Occupancy, TimingError> {
    let threads = k.block[0] * k.block[1] * k.block[2];
    let wpc = threads.div_ceil(cfg.sm.warp_size.max(1)).max(1) as usize;
    let demand = CtaDemand {
        threads,
        registers: opts.registers_per_thread,
        shared_bytes,
    };
    let resources = SmResources::of(&cfg.sm);
    let (per_sm, limiter) = resident_ctas(&resources, &demand);
    // The Device refuses both before a launch gets here (`DeviceOptions::sm`, the same rule and
    // messages); these guard a launch that reaches the engine another way.
    if per_sm == 0 {
        return Err(DeviceError::InvalidLaunch {
            kernel: kernel_name(k),
            reason: does_not_fit(&resources, &demand),
        }
        .into());
    }
    let num_sms = cfg.gpu.num_sms.max(1);
    let total = k.grid.iter().map(|&d| d as u64).product::<u64>();
    // A cooperative launch (it has a grid-sync workspace) whose CTAs cannot all be resident
    // would hang in its first `grid.sync()`: the resident CTAs spin until the others arrive,
    // and those wait for slots the spinning CTAs never free.
    if k.grid_workspace != 0 && total > per_sm as u64 * num_sms as u64 {
        return Err(DeviceError::CooperativeLaunchTooLarge {
            kernel: kernel_name(k),
            ctas: total,
            per_sm,
            sms: num_sms,
            limiter: limiter.describe(),
        }
        .into());
    }
    Ok(Occupancy { per_sm, wpc, total })
}

/// The cycle loop; `share` turns warp sharing on (`+ws`, or an entry defined with it).
pub(crate) fn run_loop<P: IssuePolicy, F: FetchPolicy>(
    mem: &mut MemSystem,
    launch: Launch,
    cfg: &GpuConfig,
    opts: &TimingOptions,
    share: bool,
    mut issue: impl FnMut(&BuildCtx) -> P,
    mut fetch: impl FnMut() -> F,
) -> Result<TimingStats, TimingError> {
    let Launch {
        k,
        gmem,
        printf,
        shared_bytes,
    } = launch;
    refuse_tensor_cores(k, cfg)?;
    mem.begin_launch();
    let occ = occupancy(k, shared_bytes, cfg, opts)?;
    let num_sms = cfg.gpu.num_sms.max(1);
    let mut table = TimingTable::new(k.module, cfg);
    table.place_at(mem.between.code.base(k.module_id, table.code_bytes()));
    // A unified L1 / shared-memory array (`l1d.unified_size`): the SMs' L1 is what this
    // launch's shared memory leaves of it.
    let carved = cfg.for_launch_shared(shared_bytes as u64 * occ.per_sm as u64);
    let sm_cfg = carved.as_ref().unwrap_or(cfg);
    let mut sms = build_sms(mem, sm_cfg, &occ, opts, share, &mut issue, &mut fetch);
    let ctxs: Vec<LaunchCtx> = (0..num_sms)
        .map(|i| LaunchCtx {
            smid: i,
            num_sms,
            ..k.clone()
        })
        .collect();
    // The dispatcher's round robin goes on from where the last launch left it (GPGPU-Sim's
    // `m_last_cluster_issue` is set once, when the GPU is built).
    let mut dispatch = Dispatcher {
        next_cta: 0,
        total: occ.total,
        next_sm: mem.between.next_sm % sms.len(),
        wpc: occ.wpc,
        shared_bytes,
        start: cfg.gpu.kernel_launch_latency as u64,
    };
    let mut outs: Vec<SmOut> = (0..sms.len()).map(|_| SmOut::new(cfg, opts)).collect();
    // The launch's records, in the order they were made. They grow as CTAs finish: a huge
    // grid must not reserve memory for CTAs that may never run (the cycle limit can stop it
    // first).
    let mut all = SmOut::new(cfg, opts);
    all.ctas = Vec::with_capacity(occ.total.min(1 << 16) as usize);
    let common = Common {
        ctxs: &ctxs,
        cfg,
        table: &table,
        log_cta_order: opts.event_log && opts.cta_order_log,
        fast_forward: opts.fast_forward,
    };
    let mut all_dispatched = occ.total == 0;
    let mut now = 0u64;
    // The cycle limit and the watch share one comparison per iteration: at `look_at` the
    // loop checks the limit, reports progress and honours a stop request.
    let mut look_at = crate::watch::WATCH_CYCLES.min(opts.max_cycles.saturating_add(1));
    let mut limit_at = 0u64;
    // The cycle loop, its SMs stepped by `team` (or this thread alone).
    let mut cycles = |team: Option<&Team<P, F>>| -> Result<(), TimingError> {
        loop {
            if now < dispatch.start && dispatch.total > 0 {
                // Nothing is resident before the first dispatch: skip the launch latency.
                now = dispatch.start;
            }
            let parts = Parts {
                gmem,
                mem,
                outs: &mut outs,
                all: &mut all,
            };
            dispatch.cycle(&mut sms, &common, &mut all_dispatched, parts, now);
            mem.cycle(now);
            let parts = Parts {
                gmem,
                mem,
                outs: &mut outs,
                all: &mut all,
            };
            let resident =
                step_and_commit(&mut sms, &common, all_dispatched, team, parts, printf, now)?;
            now += 1;
            if resident == 0 && dispatch.done() {
                return Ok(());
            }
            // Fast forward: when no SM can act before cycle t (and no CTA can be dispatched), jump.
            if opts.fast_forward && (dispatch.done() || !sms.iter().any(|s| s.has_room())) {
                now = fast_forward(&mut sms, mem, now);
            }
            // The SMs' instruction counts are summed every 256 cycles for the instruction
            // limit (a runaway launch overshoots it by at most that), and at each look.
            if now < look_at && now < limit_at {
                continue;
            }
            limit_at = now + 256;
            let warp_instructions = outs.iter().map(|o| o.warp_instructions).sum::<u64>();
            if now >= look_at {
                let ctas_done = all.ctas.len() as u64;
                look_at = look(k, opts, warp_instructions, ctas_done, dispatch.total, now)?;
            }
            if warp_instructions > opts.max_warp_instructions {
                return Err(TimingError::InstructionLimit {
                    kernel: kernel_name(k),
                    limit: opts.max_warp_instructions,
                });
            }
        }
    };
    if opts.threads > 1 {
        let team = Team::new(opts.threads);
        std::thread::scope(|scope| {
            for t in 1..team.threads() {
                let (team, common) = (&team, &common);
                scope.spawn(move || team.work(t, common));
            }
            let r = cycles(Some(&team));
            team.finish();
            r
        })?;
    } else {
        cycles(None)?;
    }
    for o in &outs {
        o.add_counters(&mut all);
    }
    let stats = statistics(k, cfg, opts, &sms, mem, &mut all, occ.per_sm, now);
    mem.between.next_sm = dispatch.next_sm;
    for (i, sm) in sms.into_iter().enumerate() {
        mem.between.keep(i, sm.into_kept(), now);
    }
    Ok(stats)
}

/// The launch's SMs, each with the caches it kept from the last launch.
fn build_sms<P: IssuePolicy, F: FetchPolicy>(
    mem: &mut MemSystem,
    cfg: &GpuConfig,
    occ: &Occupancy,
    opts: &TimingOptions,
    share: bool,
    issue: &mut impl FnMut(&BuildCtx) -> P,
    fetch: &mut impl FnMut() -> F,
) -> Vec<Sm<P, F>> {
    (0..cfg.gpu.num_sms.max(1))
        .map(|i| {
            let mut sm = Sm::new(
                i,
                cfg,
                occ.per_sm as usize,
                occ.wpc,
                issue,
                fetch(),
                opts.perfect_icache,
                share,
            );
            // The instruction, constant and texture caches keep their lines between launches.
            if let Some(kept) = mem.between.take(i as usize) {
                sm.adopt(kept);
            }
            sm
        })
        .collect()
}

/// The CTA dispatcher: CTAs in linear grid order, round robin over the SMs.
struct Dispatcher {
    /// The next CTA to hand out, of `total`.
    next_cta: u64,
    total: u64,
    /// The SM after the one that last received a CTA.
    next_sm: usize,
    /// Warps per CTA (a CTA's warps get dynamic ids `linear * wpc + index`).
    wpc: usize,
    shared_bytes: u32,
    /// The first cycle CTAs are dispatched (`gpu.kernel_launch_latency`).
    start: u64,
}

impl Dispatcher {
    /// Every CTA has been handed out.
    fn done(&self) -> bool {
        self.next_cta >= self.total
    }

    /// Cycle `now`: every SM with a free CTA slot receives at most one CTA, in round-robin
    /// order; after the last, every SM is told.
    fn cycle<P: IssuePolicy, F: FetchPolicy>(
        &mut self,
        sms: &mut [Sm<P, F>],
        common: &Common,
        all_dispatched: &mut bool,
        parts: Parts,
        now: u64,
    ) {
        if now < self.start || self.done() {
            return;
        }
        let Parts {
            gmem,
            mem,
            outs,
            all,
        } = parts;
        let first = self.next_sm;
        for i in 0..sms.len() {
            let si = (first + i) % sms.len();
            if !self.done() && sms[si].has_room() {
                sms[si].wake(now);
                let cta = make_cta(&common.ctxs[si], self.next_cta, self.shared_bytes);
                let age_base = self.next_cta * self.wpc as u64;
                let linear = self.next_cta;
                let parts = Parts {
                    gmem: &mut *gmem,
                    mem: &mut *mem,
                    outs: &mut *outs,
                    all: &mut *all,
                };
                with_env(
                    common,
                    *all_dispatched,
                    si,
                    &mut sms[si],
                    parts,
                    |sm, env| sm.launch(env, cta, linear, now, age_base),
                );
                self.next_cta += 1;
                self.next_sm = (si + 1) % sms.len();
            }
        }
        if self.done() {
            *all_dispatched = true;
            for sm in sms.iter_mut() {
                sm.wake(now);
                sm.last_cta_dispatched(now);
            }
        }
    }
}

/// The next cycle to run after `now - 1`: the earliest at which an SM or the memory system can
/// act. A sleeping SM's skipped cycles are credited when it wakes; the others' here.
fn fast_forward<P: IssuePolicy, F: FetchPolicy>(
    sms: &mut [Sm<P, F>],
    mem: &MemSystem,
    now: u64,
) -> u64 {
    let t = sms
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.is_quiet())
        .map(|(i, s)| s.next_activity(now - 1).min(mem.next_reply(i)))
        .min()
        .unwrap_or(now)
        .min(mem.next_event(now - 1));
    if t <= now || t == u64::MAX {
        return now;
    }
    for sm in sms.iter_mut().filter(|s| !s.is_quiet() && !s.sleeping()) {
        sm.skip(now, t);
    }
    t
}

/// At cycle `now`: the cycle limit, a progress report and a stop request. Returns the next
/// cycle to look at.
fn look(
    k: &LaunchCtx,
    opts: &TimingOptions,
    warp_instructions: u64,
    ctas_done: u64,
    ctas_total: u64,
    now: u64,
) -> Result<u64, TimingError> {
    if now > opts.max_cycles {
        return Err(TimingError::CycleLimit {
            kernel: kernel_name(k),
            limit: opts.max_cycles,
        });
    }
    if let Some(w) = &opts.watch {
        let p = crate::watch::Progress {
            kernel: &k.module.functions[k.kernel as usize].name,
            cycle: now,
            warp_instructions,
            ctas_done,
            ctas_total,
        };
        if w.look(&p) {
            return Err(TimingError::Interrupted {
                kernel: kernel_name(k),
                cycle: now,
                warp_instructions,
                ctas_done,
                ctas_total,
            });
        }
    }
    Ok(now
        .saturating_add(crate::watch::WATCH_CYCLES)
        .min(opts.max_cycles.saturating_add(1)))
}

/// The launch's statistics after its last cycle `cycles` (moves the records out of `env`,
/// the launch's output with every SM's counters added).
// The launch, its SMs, memory system and output: what the statistics are made of.
#[allow(clippy::too_many_arguments)]
fn statistics<P: IssuePolicy, F: FetchPolicy>(
    k: &LaunchCtx,
    cfg: &GpuConfig,
    opts: &TimingOptions,
    sms: &[Sm<P, F>],
    mem: &mut MemSystem,
    env: &mut SmOut,
    ctas_per_sm: u32,
    cycles: u64,
) -> TimingStats {
    let mut memory = mem.stats();
    let mut issue = IssueSlots::default();
    for sm in sms {
        let (l1d, l1d_loads, cc, tex) = sm.mem_counts();
        memory.l1d.add(&l1d);
        memory.l1d_loads.add(&l1d_loads);
        memory.const_cache.add(&cc);
        memory.tex.add(&tex);
        for s in sm.sched.counters() {
            issue.add(s);
        }
    }
    let mut stalls = StallCounts::default();
    for w in &env.warps {
        stalls.add(&w.stalls);
    }
    let resident_cycles = resident_warp_cycles(&env.ctas, &env.warps);
    TimingStats {
        identity: LaunchIdentity {
            kernel: kernel_name(k),
            config: cfg.name.clone(),
            policy: opts.policy.issue_label(),
            fetch_policy: opts.policy.fetch.name().to_string(),
        },
        cycles,
        warp_instructions: env.warp_instructions,
        thread_instructions: env.thread_instructions,
        ipc: env.warp_instructions as f64 / cycles.max(1) as f64,
        ctas_per_sm,
        issue,
        issue_per_scheduler: sms.iter().map(|s| s.sched.counters().to_vec()).collect(),
        issued_lanes: std::mem::take(&mut env.lanes),
        icache: ICacheStats {
            hits: sms.iter().map(|s| s.front.icache().hits).sum(),
            misses: sms.iter().map(|s| s.front.icache().misses).sum(),
            reservation_fails: sms.iter().map(|s| s.front.icache().reservation_fails).sum(),
        },
        shared_issues: env.shared_issues,
        dual_issues: env.dual_issues,
        bank_conflict_cycles: env.bank_conflict_cycles,
        stalls,
        memory,
        barrier_stall_fraction: crate::analysis::stall_fraction(stalls.barrier, resident_cycles),
        issue_trace: env.trace.take().unwrap_or_default(),
        events: env.log.take().unwrap_or_default(),
        ctas: std::mem::take(&mut env.ctas),
        warps: std::mem::take(&mut env.warps),
    }
}

/// Warp-cycles resident: each CTA's residency times its warps.
fn resident_warp_cycles(ctas: &[CtaRecord], warps: &[WarpRecord]) -> u64 {
    // Warp records are pushed per CTA, so one pass counts each CTA's warps. Sized by the CTAs
    // that ran, not by the grid.
    let mut per_cta = vec![
        0u64;
        ctas.iter()
            .map(|c| c.linear as usize + 1)
            .max()
            .unwrap_or(0)
    ];
    for w in warps {
        if let Some(n) = per_cta.get_mut(w.cta as usize) {
            *n += 1;
        }
    }
    ctas.iter()
        .map(|c| (c.end - c.start) * per_cta.get(c.linear as usize).copied().unwrap_or(0))
        .sum()
}
