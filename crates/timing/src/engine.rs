//! The timing model as a Device API launch engine: install a [`TimingEngine`] with
//! `Device::set_engine` and every launch of that device runs cycle by cycle under one GPU
//! configuration and issue policy. Per-kernel [`TimingStats`] accumulate in the engine, in
//! launch order; the Device's own launch records carry each launch's cycle count.
//!
//! Registers per thread (for occupancy) come from the launch (`Device::set_kernel_registers`:
//! the suite's `.ptxas` reports, the shim's cubin REGCOUNT, a manifest key). When they are
//! unknown the engine uses [`TimingEngine::set_default_registers`] (0 unless set), and 0
//! means registers do not limit how many CTAs fit on an SM.
//!
//! Launches run back to back on one memory system: L2 contents and DRAM row state carry over
//! from one launch to the next, and so do each SM's instruction, constant and texture caches
//! (its L1 D-cache starts cold) and the dispatcher's round robin, as GPGPU-Sim does by default
//! (`sm/kept.rs`). Each module's code has instruction addresses of its own. With
//! `l2.fill_on_copy` a host-to-device copy installs what it wrote in L2 (GPGPU-Sim's
//! `-gpgpu_perf_sim_memcpy`).
//!
//! Two runaway guards: the cycle limit ([`DEFAULT_MAX_CYCLES`], [`TimingEngine::set_max_cycles`])
//! and the Device's warp-instruction limit (`EngineLaunch::limits`, the same one functional
//! mode applies; checked once per simulated cycle, so a launch stops within one cycle's issues
//! of the limit).

use std::any::Any;

use warpsim_core::config::GpuConfig;
use warpsim_core::device::{
    DeviceError, DeviceOptions, EngineLaunch, EngineStats, LaunchEngine, LaunchStats,
};
use warpsim_core::occupancy::SmResources;

use crate::{run_timed_on, MemSystem, PolicyKind, TimingError, TimingOptions, TimingStats};

/// Default runaway guard: a launch that has not finished after this many cycles fails.
pub const DEFAULT_MAX_CYCLES: u64 = 1_000_000_000;

/// Runs launches in the cycle-level timing model.
pub struct TimingEngine {
    config: GpuConfig,
    options: TimingOptions,
    default_registers: u32,
    records: Vec<TimingStats>,
    total_cycles: u64,
    /// L2 and DRAM state shared by this engine's launches (built at the first launch).
    memory: Option<MemSystem>,
}

impl TimingEngine {
    /// An engine for `config` under `policy`, with [`DEFAULT_MAX_CYCLES`].
    pub fn new(config: GpuConfig, policy: PolicyKind) -> TimingEngine {
        let mut options = TimingOptions::new(policy, 0);
        options.max_cycles = DEFAULT_MAX_CYCLES;
        TimingEngine::with_options(config, options)
    }

    /// An engine with explicit options (`registers_per_thread` there is ignored: it comes from
    /// each launch, or [`TimingEngine::set_default_registers`]).
    pub fn with_options(config: GpuConfig, options: TimingOptions) -> TimingEngine {
        TimingEngine {
            config,
            options,
            default_registers: 0,
            records: Vec::new(),
            total_cycles: 0,
            memory: None,
        }
    }

    /// Registers per thread assumed for kernels whose count is unknown (default 0: registers
    /// do not limit occupancy).
    pub fn set_default_registers(&mut self, registers: u32) {
        self.default_registers = registers;
    }

    /// Records CTA start/end, barrier arrive/release and warp finish events in each launch's
    /// `TimingStats::events` (memory grows with the events).
    pub fn set_event_log(&mut self, on: bool) {
        self.options.event_log = on;
    }

    /// Records every issued warp instruction in each launch's `TimingStats::issue_trace`
    /// (memory grows with the instructions; for comparing issue order with another simulator).
    pub fn set_trace_issue(&mut self, on: bool) {
        self.options.trace_issue = on;
    }

    /// Also logs the policy's CTA order on each SM whenever it changes (policies that keep
    /// one: `pro`, `mwf-*`, `saws`), for `analysis::cta_order_table`; turns the event log on with it.
    pub fn set_cta_order_log(&mut self, on: bool) {
        self.options.cta_order_log = on;
        if on {
            self.options.event_log = true;
        }
    }

    /// Progress reports and a stop request for every launch (see [`crate::watch`]).
    pub fn set_watch(&mut self, watch: Option<crate::watch::Watch>) {
        self.options.watch = watch;
    }

    /// Fails launches that run longer than `cycles`.
    pub fn set_max_cycles(&mut self, cycles: u64) {
        self.options.max_cycles = cycles;
    }

    /// Steps the SMs of each cycle on `threads` threads (`TimingOptions::threads`; at least
    /// 1). Statistics do not depend on it.
    pub fn set_threads(&mut self, threads: usize) {
        self.options.threads = threads.max(1);
    }

    pub fn config(&self) -> &GpuConfig {
        &self.config
    }

    pub fn options(&self) -> &TimingOptions {
        &self.options
    }

    pub fn policy(&self) -> PolicyKind {
        self.options.policy
    }

    /// Statistics of every launch since the last [`TimingEngine::take_records`], in order.
    pub fn records(&self) -> &[TimingStats] {
        &self.records
    }

    /// Returns and clears the per-launch statistics (the cycle total keeps counting).
    pub fn take_records(&mut self) -> Vec<TimingStats> {
        std::mem::take(&mut self.records)
    }

    /// Simulated cycles of all launches so far (launches run back to back, no overlap).
    pub fn total_cycles(&self) -> u64 {
        self.total_cycles
    }

    /// `base` with the limits the Device API checks (SM count for `%nsmid`, shared memory per
    /// block) taken from the configuration.
    pub fn device_options(&self, base: DeviceOptions) -> DeviceOptions {
        device_options_for(&self.config, base)
    }
}

/// `base` with the SM count, the per-block shared-memory limit (at most `base`'s: 48 KB
/// without the opt-in CUDA programs must ask for) and the SM resources of `config`, so that
/// the Device checks every launch against the occupancy the dispatcher will give it
/// (`DeviceOptions::sm`), whichever engine runs it.
pub fn device_options_for(config: &GpuConfig, base: DeviceOptions) -> DeviceOptions {
    DeviceOptions {
        num_sms: config.gpu.num_sms,
        max_shared_per_block: base.max_shared_per_block.min(config.sm.shared_memory),
        sm: Some(SmResources::of(&config.sm)),
        ..base
    }
}

impl LaunchEngine for TimingEngine {
    fn name(&self) -> &str {
        "timing"
    }

    fn launch(&mut self, l: EngineLaunch<'_, '_>) -> Result<EngineStats, DeviceError> {
        let mut opts = self.options;
        opts.registers_per_thread = l.registers_per_thread.unwrap_or(self.default_registers);
        opts.max_warp_instructions = l.limits.max_warp_instructions;
        let cfg = &self.config;
        let mem = self
            .memory
            .get_or_insert_with(|| MemSystem::new(cfg, cfg.gpu.num_sms.max(1) as usize));
        let stats = run_timed_on(
            mem,
            l.ctx,
            l.memory,
            l.printf,
            l.shared_bytes,
            &self.config,
            &opts,
        )
        .map_err(|e| match e {
            TimingError::Device(d) => *d,
            TimingError::CycleLimit { kernel, limit } => DeviceError::CycleLimit { kernel, limit },
            TimingError::InstructionLimit { kernel, limit } => {
                DeviceError::InstructionLimit { kernel, limit }
            }
            TimingError::Interrupted {
                kernel,
                cycle,
                warp_instructions,
                ctas_done,
                ctas_total,
            } => DeviceError::Interrupted {
                kernel,
                cycle,
                warp_instructions,
                ctas_done,
                ctas_total,
            },
            // Policies are resolved before the engine exists; keep the message if one slips through.
            other => DeviceError::InvalidLaunch {
                kernel: l.ctx.module.functions[l.ctx.kernel as usize].name.clone(),
                reason: other.to_string(),
            },
        })?;
        let ctas = l.ctx.grid.iter().map(|&d| d as u64).product();
        let out = EngineStats {
            stats: LaunchStats {
                warp_instructions: stats.warp_instructions,
                thread_instructions: stats.thread_instructions,
                ctas,
            },
            cycles: Some(stats.cycles),
        };
        self.total_cycles += stats.cycles;
        self.records.push(stats);
        Ok(out)
    }

    /// GPGPU-Sim's `-gpgpu_perf_sim_memcpy` (`l2.fill_on_copy`): the copied sectors are in
    /// L2 for the next launch.
    fn host_wrote(&mut self, addr: u64, bytes: u64) {
        if self.config.l2.fill_on_copy {
            let cfg = &self.config;
            self.memory
                .get_or_insert_with(|| MemSystem::new(cfg, cfg.gpu.num_sms.max(1) as usize))
                .fill_from_host(addr, bytes);
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpsim_core::device::{Arg, Device, LaunchConfig};

    const PTX: &str = r#"
.version 7.5
.target sm_75
.address_size 64
.visible .entry fill(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd1, %rd1;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mad.lo.s32 %r1, %r2, %r3, %r1;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r1;
    ret;
}
.visible .entry spin(.param .u64 out)
{
    .reg .b32 %r<2>;
    mov.u32 %r1, 0;
LOOP:
    add.s32 %r1, %r1, 1;
    bra.uni LOOP;
}
"#;

    /// `grid` CTAs of `block` threads, no dynamic shared memory.
    fn one_dim(grid: u32, block: u32) -> LaunchConfig {
        LaunchConfig {
            grid: grid.into(),
            block: block.into(),
            dynamic_shared: 0,
        }
    }

    fn device(max_cycles: Option<u64>) -> Device {
        let cfg = GpuConfig::load("gtx480").unwrap();
        let mut engine = TimingEngine::new(cfg.clone(), PolicyKind::GTO);
        if let Some(n) = max_cycles {
            engine.set_max_cycles(n);
        }
        let mut dev = Device::with_options(device_options_for(&cfg, DeviceOptions::default()));
        dev.set_engine(Box::new(engine));
        dev
    }

    #[test]
    fn timed_launches_compute_and_record() {
        let mut dev = device(None);
        let m = dev.load_ptx(PTX).unwrap();
        let k = dev.kernel(m, "fill").unwrap();
        let out = dev.alloc_zeroed::<u32>(256).unwrap();
        let cfg = one_dim(4, 64);
        dev.set_kernel_registers("fill", 8);
        for _ in 0..2 {
            let s = dev.launch(k, cfg, &[Arg::Ptr(out)]).unwrap();
            assert_eq!((s.ctas, s.warp_instructions), (4, 8 * 10));
        }
        assert_eq!(
            dev.read_vec::<u32>(out, 256).unwrap(),
            (0..256).collect::<Vec<u32>>()
        );
        assert_eq!(dev.engine().name(), "timing");
        let recs = dev.launch_records().to_vec();
        let engine = dev.engine_as::<TimingEngine>().unwrap();
        assert_eq!(engine.records().len(), 2);
        // The second launch finds the first one's lines (parameters, output) in L2.
        let (a, b) = (&engine.records()[0], &engine.records()[1]);
        assert!(
            b.memory.l2.hits > a.memory.l2.hits,
            "{:?}\n{:?}",
            a.memory,
            b.memory
        );
        assert!(b.cycles < a.cycles, "{} vs {}", b.cycles, a.cycles);
        assert_eq!(engine.total_cycles(), a.cycles + b.cycles);
        assert_eq!(recs[0].cycles, Some(engine.records()[0].cycles));
        assert_eq!(recs[0].registers_per_thread, Some(8));
        assert_eq!(recs[0].kernel, "fill");
    }

    #[test]
    fn cycle_limit_is_a_clear_error() {
        let mut dev = device(Some(5_000));
        let m = dev.load_ptx(PTX).unwrap();
        let k = dev.kernel(m, "spin").unwrap();
        let out = dev.alloc_zeroed::<u32>(1).unwrap();
        let err = dev.launch(k, one_dim(1, 32), &[Arg::Ptr(out)]).unwrap_err();
        assert_eq!(
            err,
            DeviceError::CycleLimit {
                kernel: "spin".into(),
                limit: 5_000
            }
        );
        assert!(err.to_string().contains("5000 simulated cycles"), "{err}");
        assert!(dev.launch_records().is_empty());
    }

    #[test]
    fn a_stop_request_interrupts_at_the_next_look() {
        use std::sync::atomic::AtomicBool;
        static STOP: AtomicBool = AtomicBool::new(true);
        let cfg = GpuConfig::load("gtx480").unwrap();
        let mut dev = Device::with_options(device_options_for(&cfg, DeviceOptions::default()));
        let mut engine = TimingEngine::new(cfg, PolicyKind::GTO);
        engine.set_watch(Some(crate::watch::Watch {
            stop: Some(&STOP),
            report: None,
        }));
        dev.set_engine(Box::new(engine));
        let m = dev.load_ptx(PTX).unwrap();
        let k = dev.kernel(m, "spin").unwrap();
        let out = dev.alloc_zeroed::<u32>(1).unwrap();
        let err = dev.launch(k, one_dim(3, 32), &[Arg::Ptr(out)]).unwrap_err();
        let DeviceError::Interrupted {
            kernel,
            cycle,
            warp_instructions,
            ctas_done,
            ctas_total,
        } = err
        else {
            panic!("{err:?}")
        };
        assert_eq!((kernel.as_str(), ctas_done, ctas_total), ("spin", 0, 3));
        // The first look comes once WATCH_CYCLES have passed: the spin has run until then.
        let w = crate::watch::WATCH_CYCLES;
        assert!((w..w + 64).contains(&cycle), "{cycle}");
        assert!(warp_instructions > 0);
    }

    #[test]
    fn instruction_limit_applies_to_timed_launches() {
        let cfg = GpuConfig::load("gtx480").unwrap();
        let mut dev = Device::with_options(DeviceOptions {
            max_warp_instructions: 1_000,
            ..device_options_for(&cfg, DeviceOptions::default())
        });
        // No cycle limit to speak of: the instruction limit must be what stops the spin.
        let mut engine = TimingEngine::new(cfg, PolicyKind::LRR);
        engine.set_max_cycles(u64::MAX);
        dev.set_engine(Box::new(engine));
        let m = dev.load_ptx(PTX).unwrap();
        let k = dev.kernel(m, "spin").unwrap();
        let out = dev.alloc_zeroed::<u32>(1).unwrap();
        let shape = one_dim(2, 64);
        let err = dev.launch(k, shape, &[Arg::Ptr(out)]).unwrap_err();
        assert_eq!(
            err,
            DeviceError::InstructionLimit {
                kernel: "spin".into(),
                limit: 1_000
            }
        );
        assert!(err.to_string().contains("1000 warp instructions"), "{err}");
        // A launch under the limit still runs: `fill` issues 4 warps x 10 instructions.
        let fill = dev.kernel(m, "fill").unwrap();
        let out = dev.alloc_zeroed::<u32>(128).unwrap();
        assert_eq!(
            dev.launch(fill, shape, &[Arg::Ptr(out)])
                .unwrap()
                .warp_instructions,
            40
        );
    }

    #[test]
    fn configuration_sets_device_limits() {
        let cfg = GpuConfig::load("titanx-pascal").unwrap();
        let o = device_options_for(&cfg, DeviceOptions::default());
        assert_eq!((o.num_sms, o.max_shared_per_block), (28, 48 * 1024));
    }
}
