//! The GPU: a CTA dispatcher over the SMs and the cycle loop.
//!
//! Dispatcher: CTAs in linear grid order; each cycle, round robin over SMs starting after the
//! SM that last received one, every SM with a free CTA slot receives at most one CTA. CTAs per
//! SM come from `occupancy::ctas_per_sm`. Dispatch starts at `gpu.kernel_launch_latency`.

use crate::classify::TimingTable;
use crate::error::kernel_name;
use crate::policy::PolicyKind;
use crate::sm::{Env, Sm};
use crate::stats::{IssueSlots, StallCounts, TimingStats};
use crate::TimingError;
use warpsim_core::config::GpuConfig;
use warpsim_core::device::DeviceError;
use warpsim_core::exec::context::LaunchCtx;
use warpsim_core::exec::grid::make_cta;
use warpsim_core::exec::memory::GlobalMemory;
use warpsim_core::occupancy::{ctas_per_sm, CtaDemand};

/// What a timed launch needs besides the launch itself.
#[derive(Clone, Copy, Debug)]
pub struct TimingOptions {
    pub policy: PolicyKind,
    /// Registers per thread (from `ptxas -v`), for occupancy.
    pub registers_per_thread: u32,
    /// The launch fails when it runs longer than this.
    pub max_cycles: u64,
    /// Record every issue in `TimingStats::issue_trace` (for tests and timelines; off for speed).
    pub trace_issue: bool,
}

impl TimingOptions {
    pub fn new(policy: PolicyKind, registers_per_thread: u32) -> TimingOptions {
        TimingOptions {
            policy,
            registers_per_thread,
            max_cycles: 1 << 40,
            trace_issue: false,
        }
    }
}

/// Runs a launch to completion in timing mode. `k.smid` is ignored (each SM reports its own).
pub fn run_timed(
    k: &LaunchCtx,
    gmem: &mut GlobalMemory,
    printf: &mut String,
    shared_bytes: u32,
    cfg: &GpuConfig,
    opts: &TimingOptions,
) -> Result<TimingStats, TimingError> {
    let threads = k.block[0] * k.block[1] * k.block[2];
    let wpc = threads.div_ceil(cfg.sm.warp_size.max(1)).max(1) as usize;
    let (per_sm, _) = ctas_per_sm(
        &cfg.sm,
        &CtaDemand {
            threads,
            registers: opts.registers_per_thread,
            shared_bytes,
        },
    );
    if per_sm == 0 {
        return Err(DeviceError::InvalidLaunch {
            kernel: kernel_name(k),
            reason: format!("one CTA ({threads} threads, {} registers/thread, {shared_bytes} B shared) does not fit on an SM of `{}`", opts.registers_per_thread, cfg.name),
        }
        .into());
    }
    let table = TimingTable::new(k.module, cfg);
    let num_sms = cfg.gpu.num_sms.max(1);
    let mut sms: Vec<Sm> = (0..num_sms)
        .map(|i| Sm::new(i, cfg, per_sm as usize, wpc, opts.policy))
        .collect();
    let ctxs: Vec<LaunchCtx> = (0..num_sms)
        .map(|i| LaunchCtx {
            smid: i,
            num_sms,
            ..k.clone()
        })
        .collect();
    let total = k.grid.iter().map(|&d| d as u64).product::<u64>();
    let mut env = Env {
        k,
        gmem,
        printf,
        cfg,
        table: &table,
        warp_instructions: 0,
        thread_instructions: 0,
        ctas: Vec::with_capacity(total as usize),
        warps: Vec::new(),
        trace: opts.trace_issue.then(Vec::new),
    };
    let mut next_cta = 0u64;
    let mut next_sm = 0usize;
    let start = cfg.gpu.kernel_launch_latency as u64;
    let mut now = 0u64;
    loop {
        if now >= start && next_cta < total {
            let first = next_sm;
            for i in 0..sms.len() {
                let si = (first + i) % sms.len();
                if next_cta < total && sms[si].has_room() {
                    let cta = make_cta(&ctxs[si], next_cta, shared_bytes);
                    sms[si].launch(cta, next_cta, now, next_cta * wpc as u64);
                    next_cta += 1;
                    next_sm = (si + 1) % sms.len();
                }
            }
        }
        let mut resident = 0usize;
        for (si, sm) in sms.iter_mut().enumerate() {
            if sm.is_idle() {
                continue;
            }
            env.k = &ctxs[si];
            sm.cycle(&mut env, now)?;
            resident += !sm.is_idle() as usize;
        }
        now += 1;
        if resident == 0 && next_cta >= total {
            break;
        }
        if now > opts.max_cycles {
            return Err(TimingError::CycleLimit {
                kernel: kernel_name(k),
                limit: opts.max_cycles,
            });
        }
    }
    let mut issue = IssueSlots::default();
    for sm in &sms {
        for s in &sm.issue {
            issue.add(s);
        }
    }
    let mut stalls = StallCounts::default();
    let mut resident_cycles = 0u64;
    for w in &env.warps {
        stalls.add(&w.stalls);
    }
    for c in &env.ctas {
        let n = env.warps.iter().filter(|w| w.cta == c.linear).count() as u64;
        resident_cycles += (c.end - c.start) * n;
    }
    Ok(TimingStats {
        kernel: kernel_name(k),
        config: cfg.name.clone(),
        policy: opts.policy.name(),
        cycles: now,
        warp_instructions: env.warp_instructions,
        thread_instructions: env.thread_instructions,
        ipc: env.warp_instructions as f64 / now.max(1) as f64,
        ctas_per_sm: per_sm,
        issue,
        issue_per_scheduler: sms.iter().map(|s| s.issue.clone()).collect(),
        stalls,
        barrier_stall_fraction: stalls.barrier as f64 / resident_cycles.max(1) as f64,
        issue_trace: env.trace.unwrap_or_default(),
        ctas: env.ctas,
        warps: env.warps,
    })
}
