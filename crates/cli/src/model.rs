//! The simulation-model options every running subcommand shares (`--mode`, `--config`,
//! `--cfg`, `--policy`, `--max-cycles`, `--stats`), resolved once into a [`Model`] that builds
//! devices with the right launch engine installed.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use warpsim_core::config::GpuConfig;
use warpsim_core::device::{Device, DeviceOptions};
use warpsim_timing::engine::{device_options_for, TimingEngine, DEFAULT_MAX_CYCLES};
use warpsim_timing::{PolicyKind, TimingStats};

/// How launches run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// The functional executor: results and instruction counts, no time.
    Functional,
    /// The cycle-level timing model (results identical to functional mode).
    Timing,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Functional => "functional",
            Mode::Timing => "timing",
        }
    }
}

/// Command-line options of the simulation model.
#[derive(Args, Clone, Debug)]
pub struct ModelArgs {
    /// `timing` (cycle-level model) or `functional` (results only, faster).
    #[arg(long, value_enum, default_value = "timing")]
    pub mode: Mode,
    /// GPU preset (`warpsim list configs`) or a TOML config file.
    #[arg(long, value_name = "NAME|FILE", default_value = "gtx480")]
    pub config: String,
    /// Override one config key, e.g. `-c sm.schedulers=4` (repeatable).
    #[arg(short = 'c', long = "cfg", value_name = "KEY=VALUE")]
    pub cfg: Vec<String>,
    /// Issue policy (`warpsim list policies`); `ISSUE+FETCH` names the fetch policy too
    /// (`mwf-gto+cff`), `+ws` adds warp sharing (`gto+ws`), `tls:N` sets `policy.tls.active`.
    #[arg(long, value_name = "NAME", default_value = "gto")]
    pub policy: String,
    /// Fetch policy (`warpsim list policies`): `rr` (default), `cff`, `fef`.
    #[arg(long, value_name = "NAME")]
    pub fetch: Option<String>,
    /// Timing mode: a launch running longer than this many cycles fails (runaway guard).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_CYCLES, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_cycles: u64,
    /// Timing mode: record the event log (CTA start/end, barrier arrive/release, warp finish)
    /// in the `--stats` JSON.
    #[arg(long)]
    pub event_log: bool,
    /// Timing mode, with `--event-log`: also log the issue policy's CTA order in every cycle
    /// it changes (`pro`, `mwf-*`, `saws` publish one; PRO's Table IV).
    #[arg(long, requires = "event_log")]
    pub cta_order_log: bool,
    /// Write per-kernel and total statistics (JSON + CSV) and the resolved config (TOML):
    /// into directory DIR, or beside FILE.json / FILE.csv. `exec`: one JSON line per launch
    /// in FILE.jsonl, or DIR/stats.jsonl.
    #[arg(long, value_name = "DIR|FILE")]
    pub stats: Option<PathBuf>,
    /// Fail a launch whose barrier (`__syncthreads()`, `bar.sync`) completes although
    /// threads of the CTA exited before reaching it (undefined behaviour GPUs let pass),
    /// like compute-sanitizer's synccheck. Both modes.
    #[arg(long)]
    pub synccheck: bool,
    /// Timing mode: threads that step the SMs of each cycle, per simulation (statistics are
    /// bit-identical for every count; `suite`, `reproduce` and `sweep` already run whole
    /// simulations in parallel with `--jobs`).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: u32,
}

impl ModelArgs {
    /// In functional mode, the warning that names the timing-only options given (compared
    /// with their defaults), or `None`. For `exec` the configuration is not timing-only: it is
    /// the device the program sees (`cudaGetDeviceProperties`).
    pub fn functional_warning(&self, exec: bool) -> Option<String> {
        if self.mode != Mode::Functional {
            return None;
        }
        let mut ignored = Vec::new();
        if self.policy != "gto" {
            ignored.push("--policy");
        }
        if self.fetch.is_some() {
            ignored.push("--fetch");
        }
        if !exec && self.config != "gtx480" {
            ignored.push("--config");
        }
        if !exec && !self.cfg.is_empty() {
            ignored.push("-c");
        }
        if self.max_cycles != DEFAULT_MAX_CYCLES {
            ignored.push("--max-cycles");
        }
        if self.event_log {
            ignored.push("--event-log");
        }
        if self.threads != 1 {
            ignored.push("--threads");
        }
        (!ignored.is_empty()).then(|| {
            format!(
                "warpsim: warning: functional mode ignores the timing-only {}: {}",
                if ignored.len() == 1 {
                    "option"
                } else {
                    "options"
                },
                ignored.join(", ")
            )
        })
    }
}

/// The resolved model: configuration, policy, mode.
#[derive(Clone, Debug)]
pub struct Model {
    pub mode: Mode,
    pub config: GpuConfig,
    pub policy: PolicyKind,
    pub max_cycles: u64,
    pub event_log: bool,
    pub cta_order_log: bool,
    pub stats: Option<PathBuf>,
    /// `--trace FILE.json` (`run` only; set after [`Model::resolve`], with the event log on).
    pub trace: Option<PathBuf>,
    /// `--issue-trace FILE.csv` (`run` only; set after [`Model::resolve`]): every issued warp
    /// instruction is recorded.
    pub issue_trace: Option<PathBuf>,
    /// `--synccheck`: barriers completing without exited threads are errors.
    pub synccheck: bool,
    /// `--threads`: threads stepping the SMs of each cycle (timing mode).
    pub threads: usize,
    /// `run`: timed launches stop on Ctrl-C and, when `Some(true)`, print progress lines
    /// (set after [`Model::resolve`]; `None` elsewhere: no watch).
    pub watch: Option<bool>,
}

impl Model {
    /// Loads the configuration (with overrides) and the policy; the error explains the fix.
    pub fn resolve(a: &ModelArgs) -> Result<Model, String> {
        let (mut policy, shorthand) =
            PolicyKind::parse(&a.policy).map_err(|e| format!("--policy: {e}"))?;
        if let Some(f) = &a.fetch {
            policy = policy
                .with_fetch(f, PolicyKind::names_fetch(&a.policy))
                .map_err(|e| format!("--fetch: {e}"))?;
        }
        // `tls:N` is the config key `policy.tls.active=N`; giving both would lose one of them.
        let mut overrides: Vec<String> = shorthand.into_iter().collect();
        if let Some(o) = overrides.first() {
            let key = o.split('=').next().unwrap_or_default();
            if a.cfg
                .iter()
                .any(|c| c.split('=').next().map(str::trim) == Some(key))
            {
                return Err(format!(
                    "--policy {} sets `{key}`, and so does a -c override: give it once",
                    a.policy
                ));
            }
        }
        overrides.extend(a.cfg.iter().cloned());
        let config = GpuConfig::load_with(&a.config, &overrides)
            .map_err(|e| format!("--config {}: {e}", a.config))?;
        Ok(Model {
            mode: a.mode,
            config,
            policy,
            max_cycles: a.max_cycles,
            event_log: a.event_log,
            cta_order_log: a.cta_order_log,
            stats: a.stats.clone(),
            synccheck: a.synccheck,
            threads: a.threads as usize,
            trace: None,
            issue_trace: None,
            watch: None,
        })
    }

    /// `gtx480/gto` in timing mode, `functional` otherwise.
    pub fn describe(&self) -> String {
        match self.mode {
            Mode::Functional => "functional".into(),
            Mode::Timing => format!("timing {}/{}", self.config.name, self.policy.name()),
        }
    }

    /// A fresh device running launches in this model's mode. Both modes model the configured
    /// GPU (`device_options_for`: its SM count, shared memory, and the occupancy every launch
    /// is checked against), so a launch is accepted or refused alike in either.
    pub fn device(&self, base: DeviceOptions) -> Device {
        let base = DeviceOptions {
            synccheck: self.synccheck || base.synccheck,
            ..base
        };
        match self.mode {
            Mode::Functional => Device::with_options(device_options_for(&self.config, base)),
            Mode::Timing => {
                let mut engine = TimingEngine::new(self.config.clone(), self.policy);
                engine.set_max_cycles(self.max_cycles);
                engine.set_threads(self.threads);
                engine.set_event_log(self.event_log);
                engine.set_trace_issue(self.issue_trace.is_some());
                engine.set_cta_order_log(self.cta_order_log);
                engine.set_watch(self.watch.map(crate::interrupt::watch));
                let mut dev = Device::with_options(device_options_for(&self.config, base));
                dev.set_engine(Box::new(engine));
                dev
            }
        }
    }
}

/// Takes the timing statistics the device's engine accumulated (empty in functional mode).
pub fn take_timing_stats(dev: &mut Device) -> Vec<TimingStats> {
    dev.engine_as_mut::<TimingEngine>()
        .map(TimingEngine::take_records)
        .unwrap_or_default()
}
