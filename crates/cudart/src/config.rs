//! The shim's settings, read once from the environment.
//!
//! | variable | meaning |
//! |---|---|
//! | `WARPSIM_CONFIG` | GPU preset name (`gtx480`, `titanx-pascal`, `qv100`, `rtx2060`, `rtx3070`) or path of a TOML config (default `gtx480`) |
//! | `WARPSIM_MODE` | `timing` (default: the cycle-level model) or `functional` |
//! | `WARPSIM_POLICY` | issue policy (`warpsim list policies`): `gto` (default), `mwf-gto`, … ; `ISSUE+FETCH` (`mwf-gto+cff`) names the fetch policy too, `+ws` adds warp sharing (`gto+ws`); `tls:N` sets `policy.tls.active` |
//! | `WARPSIM_FETCH` | fetch policy: `rr` (default), `cff`, `fef` |
//! | `WARPSIM_STATS` | file to which one JSON line per kernel launch is appended |
//! | `WARPSIM_TRACE` | timing mode: Chrome/Perfetto trace of every launch so far (`warpsim_timing::trace`), rewritten after each launch; switches the event log on |
//! | `WARPSIM_EVENT_LOG` | timing mode, `1`: each `WARPSIM_STATS` line carries the launch's event log (`events`: CTA start/end, barrier arrive/release, warp finish) |
//! | `WARPSIM_PROGRESS` | timing mode, `1`: a progress line on stderr every 2 s during long launches (cycles, IPC, CTAs done, warp instructions/s). `warpsim exec` sets it when its stderr is a terminal, or with `--progress` |
//! | `WARPSIM_MAX_INSTRUCTIONS` | functional mode: warp instructions after which a launch fails as a runaway |
//! | `WARPSIM_MAX_CYCLES` | timing mode: cycles after which a launch fails as a runaway |
//! | `WARPSIM_THREADS` | timing mode: threads that step the SMs of each cycle (default 1; statistics are bit-identical for every count; `warpsim exec --threads N`) |
//! | `WARPSIM_DUMP_PTX` | a folder: each module's embedded PTX is written there at registration as `module<N>.compute_<SM>.ptx` (`warpsim exec --dump-ptx DIR`) |
//! | `WARPSIM_REGISTERS` | both modes: `KERNEL=N[,KERNEL=N…]`, registers per thread for the occupancy of each named kernel (mangled name) instead of its cubin's `REGCOUNT` (`warpsim exec --registers`; `scripts/correlate.sh` gives GPGPU-Sim's counts) |
//! | `WARPSIM_SYNCCHECK` | `1`: a barrier that completes although threads of the CTA exited before reaching it fails the launch (`warpsim exec --synccheck`; both modes) |
//!
//! A bad value gives one `warpsim:` line on stderr naming the variable, and the default.

use std::path::PathBuf;

use warpsim_core::config::GpuConfig;
use warpsim_timing::PolicyKind;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Functional,
    /// The cycle-level timing model.
    Timing,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Preset name or config file path, as given.
    pub config_name: String,
    /// The resolved GPU configuration (the device the program sees, and the timing model's).
    pub gpu: GpuConfig,
    pub mode: Mode,
    pub policy: PolicyKind,
    pub stats: Option<PathBuf>,
    /// `WARPSIM_TRACE`: where to write the Chrome trace (timing mode only).
    pub trace: Option<PathBuf>,
    pub max_instructions: Option<u64>,
    pub max_cycles: Option<u64>,
    /// `WARPSIM_THREADS`: threads stepping the SMs of each cycle (timing mode).
    pub threads: usize,
    /// `WARPSIM_EVENT_LOG=1`: the event log goes into the statistics lines.
    pub event_log: bool,
    /// `WARPSIM_PROGRESS=1`: progress lines on stderr during timed launches.
    pub progress: bool,
    /// `WARPSIM_DUMP_PTX`: the folder each module's PTX is written to.
    pub dump_ptx: Option<PathBuf>,
    /// `WARPSIM_SYNCCHECK=1`: barriers completing without exited threads fail the launch.
    pub synccheck: bool,
    /// `WARPSIM_REGISTERS`: registers per thread by kernel name, replacing the cubin's count.
    pub registers: Vec<(String, u32)>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            config_name: "gtx480".into(),
            gpu: GpuConfig::load("gtx480").expect("the built-in gtx480 preset loads"),
            mode: Mode::Timing,
            policy: PolicyKind::GTO,
            stats: None,
            trace: None,
            max_instructions: None,
            max_cycles: None,
            threads: 1,
            event_log: false,
            progress: false,
            dump_ptx: None,
            synccheck: false,
            registers: Vec::new(),
        }
    }
}

/// The most `WARPSIM_THREADS` takes (as `--threads`).
const MAX_THREADS: u64 = 1024;

/// A positive integer (underscores allowed), or the warning naming `var`.
fn positive(var: &str, v: &str, what: &str) -> Result<u64, String> {
    match v.trim().replace('_', "").parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "{var}=`{v}` is not a positive integer; using the default {what}"
        )),
    }
}

impl Config {
    /// Reads the process environment.
    pub fn from_env() -> (Config, Vec<String>) {
        Config::parse(|k| std::env::var(k).ok())
    }

    /// Parses settings from `get` (the environment, or a test's map). Returns the warnings to
    /// print, one per bad variable.
    pub fn parse(get: impl Fn(&str) -> Option<String>) -> (Config, Vec<String>) {
        let mut c = Config::default();
        let mut warn = Vec::new();
        if let Some(v) = get("WARPSIM_CONFIG") {
            let v = v.trim().to_string();
            match GpuConfig::load(&v) {
                Ok(g) => {
                    c.gpu = g;
                    c.config_name = v;
                }
                Err(e) => warn.push(format!(
                    "WARPSIM_CONFIG=`{v}`: {e}; using `{}`",
                    c.config_name
                )),
            }
        }
        if let Some(v) = get("WARPSIM_MODE") {
            match v.trim() {
                "timing" | "" => {}
                "functional" => c.mode = Mode::Functional,
                other => warn.push(format!(
                    "WARPSIM_MODE=`{other}` is not `timing` or `functional`; using `timing`"
                )),
            }
        }
        let mut named_fetch = false;
        if let Some(v) = get("WARPSIM_POLICY") {
            let v = v.trim();
            // `tls:N` stands for the config key `policy.tls.active=N`.
            let resolved =
                PolicyKind::parse(v)
                    .map_err(|e| e.to_string())
                    .and_then(|(p, o)| match o {
                        Some(o) => c
                            .gpu
                            .with_overrides(&[o])
                            .map(|g| (p, Some(g)))
                            .map_err(|e| e.to_string()),
                        None => Ok((p, None)),
                    });
            match resolved {
                Ok((p, gpu)) => {
                    if let Some(g) = gpu {
                        c.gpu = g;
                    }
                    c.policy = p;
                    named_fetch = PolicyKind::names_fetch(v);
                }
                Err(e) => warn.push(format!(
                    "WARPSIM_POLICY=`{v}`: {e}; using `{}`",
                    c.policy.name()
                )),
            }
        }
        if let Some(v) = get("WARPSIM_FETCH") {
            let v = v.trim();
            match c.policy.with_fetch(v, named_fetch) {
                Ok(p) => c.policy = p,
                Err(e) => warn.push(format!(
                    "WARPSIM_FETCH=`{v}`: {e}; using `{}`",
                    c.policy.fetch.name()
                )),
            }
        }
        if let Some(v) = get("WARPSIM_STATS") {
            if v.trim().is_empty() {
                warn.push(
                    "WARPSIM_STATS is empty (expected a file path); no statistics are written"
                        .into(),
                );
            } else {
                c.stats = Some(PathBuf::from(v));
            }
        }
        if let Some(v) = get("WARPSIM_TRACE") {
            if v.trim().is_empty() {
                warn.push(
                    "WARPSIM_TRACE is empty (expected a file path); no trace is written".into(),
                );
            } else if c.mode != Mode::Timing {
                warn.push(format!("WARPSIM_TRACE=`{v}` needs WARPSIM_MODE=timing (the trace is in cycles); no trace is written"));
            } else {
                c.trace = Some(PathBuf::from(v));
            }
        }
        if let Some(v) = get("WARPSIM_DUMP_PTX") {
            if v.trim().is_empty() {
                warn.push(
                    "WARPSIM_DUMP_PTX is empty (expected a folder); no PTX is written".into(),
                );
            } else {
                c.dump_ptx = Some(PathBuf::from(v));
            }
        }
        if let Some(v) = get("WARPSIM_MAX_INSTRUCTIONS") {
            match positive("WARPSIM_MAX_INSTRUCTIONS", &v, "limit") {
                Ok(n) => c.max_instructions = Some(n),
                Err(w) => warn.push(w),
            }
        }
        if let Some(v) = get("WARPSIM_MAX_CYCLES") {
            match positive("WARPSIM_MAX_CYCLES", &v, "limit") {
                Ok(n) => c.max_cycles = Some(n),
                Err(w) => warn.push(w),
            }
        }
        if let Some(v) = get("WARPSIM_THREADS") {
            match positive("WARPSIM_THREADS", &v, "of 1 thread") {
                Ok(n) if n <= MAX_THREADS => c.threads = n as usize,
                Ok(n) => warn.push(format!(
                    "WARPSIM_THREADS=`{n}` is more than {MAX_THREADS}; using the default of 1 thread"
                )),
                Err(w) => warn.push(w),
            }
        }
        if let Some(v) = get("WARPSIM_EVENT_LOG") {
            match v.trim() {
                "1" if c.mode == Mode::Timing => c.event_log = true,
                "1" => warn.push("WARPSIM_EVENT_LOG=1 needs WARPSIM_MODE=timing (events are timed); no event log is written".into()),
                "0" | "" => {}
                other => warn.push(format!("WARPSIM_EVENT_LOG=`{other}` is not 1 or 0; no event log is written")),
            }
        }
        if let Some(v) = get("WARPSIM_PROGRESS") {
            match v.trim() {
                "1" => c.progress = c.mode == Mode::Timing,
                "0" | "" => {}
                other => warn.push(format!(
                    "WARPSIM_PROGRESS=`{other}` is not 1 or 0; no progress lines"
                )),
            }
        }
        if let Some(v) = get("WARPSIM_SYNCCHECK") {
            match v.trim() {
                "1" => c.synccheck = true,
                "0" | "" => {}
                other => warn.push(format!(
                    "WARPSIM_SYNCCHECK=`{other}` is not 1 or 0; no synccheck"
                )),
            }
        }
        if let Some(v) = get("WARPSIM_REGISTERS") {
            for item in v.split(',').map(str::trim).filter(|i| !i.is_empty()) {
                match item
                    .split_once('=')
                    .map(|(k, n)| (k.trim(), n.trim().parse::<u32>()))
                {
                    Some((k, Ok(n))) if !k.is_empty() && (1..=255).contains(&n) => {
                        c.registers.push((k.to_string(), n))
                    }
                    _ => warn.push(format!(
                        "WARPSIM_REGISTERS: `{item}` is not KERNEL=N with N from 1 to 255; ignored"
                    )),
                }
            }
        }
        (c, warn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn parse(vars: &[(&str, &str)]) -> (Config, Vec<String>) {
        let m: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::parse(|k| m.get(k).cloned())
    }

    #[test]
    fn defaults_without_variables() {
        assert_eq!(parse(&[]), (Config::default(), vec![]));
    }

    #[test]
    fn good_values() {
        let (c, w) = parse(&[
            ("WARPSIM_CONFIG", "titanx-pascal"),
            ("WARPSIM_MODE", "functional"),
            ("WARPSIM_POLICY", "gto"),
            ("WARPSIM_STATS", "/tmp/s.jsonl"),
            ("WARPSIM_MAX_INSTRUCTIONS", "1_000_000"),
        ]);
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(c.config_name, "titanx-pascal");
        assert_eq!(c.gpu.name, "titanx-pascal");
        assert_eq!(c.mode, Mode::Functional);
        assert_eq!(c.policy, PolicyKind::GTO);
        assert_eq!(c.stats, Some(PathBuf::from("/tmp/s.jsonl")));
        assert_eq!(c.max_instructions, Some(1_000_000));
    }

    #[test]
    fn event_log_needs_timing_mode() {
        assert!(parse(&[("WARPSIM_EVENT_LOG", "1")]).0.event_log);
        let (c, w) = parse(&[("WARPSIM_EVENT_LOG", "1"), ("WARPSIM_MODE", "functional")]);
        assert!(
            !c.event_log && w[0].contains("needs WARPSIM_MODE=timing"),
            "{w:?}"
        );
        let (c, w) = parse(&[("WARPSIM_EVENT_LOG", "yes")]);
        assert!(!c.event_log && w[0].contains("not 1 or 0"), "{w:?}");
        assert!(parse(&[("WARPSIM_PROGRESS", "1")]).0.progress);
        assert!(
            !parse(&[("WARPSIM_PROGRESS", "1"), ("WARPSIM_MODE", "functional")])
                .0
                .progress
        );
        assert!(parse(&[("WARPSIM_PROGRESS", "x")]).1[0].contains("WARPSIM_PROGRESS=`x`"));
    }

    #[test]
    fn registers_by_kernel() {
        let (c, w) = parse(&[("WARPSIM_REGISTERS", "sgemm=23, _Z1kv = 8,")]);
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(
            c.registers,
            vec![("sgemm".to_string(), 23), ("_Z1kv".to_string(), 8)]
        );
        let (c, w) = parse(&[("WARPSIM_REGISTERS", "a=0,b,c=x,=4,d=12")]);
        assert_eq!(c.registers, vec![("d".to_string(), 12)]);
        assert_eq!(w.len(), 4, "{w:?}");
    }

    #[test]
    fn synccheck_in_both_modes() {
        assert!(!parse(&[]).0.synccheck);
        assert!(parse(&[("WARPSIM_SYNCCHECK", "1")]).0.synccheck);
        let (c, w) = parse(&[("WARPSIM_SYNCCHECK", "1"), ("WARPSIM_MODE", "functional")]);
        assert!(c.synccheck && w.is_empty(), "{w:?}");
        let (c, w) = parse(&[("WARPSIM_SYNCCHECK", "on")]);
        assert!(
            !c.synccheck && w[0].contains("WARPSIM_SYNCCHECK=`on`"),
            "{w:?}"
        );
    }

    #[test]
    fn trace_needs_timing_mode() {
        let (c, w) = parse(&[("WARPSIM_TRACE", "/tmp/t.json")]);
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(c.trace, Some(PathBuf::from("/tmp/t.json")));
        let (c, w) = parse(&[
            ("WARPSIM_TRACE", "/tmp/t.json"),
            ("WARPSIM_MODE", "functional"),
        ]);
        assert!(w.len() == 1 && w[0].starts_with("WARPSIM_TRACE"), "{w:?}");
        assert_eq!(c.trace, None);
    }

    #[test]
    fn timing_is_the_default_mode() {
        assert_eq!(parse(&[]).0.mode, Mode::Timing);
        let (c, w) = parse(&[
            ("WARPSIM_MODE", "timing"),
            ("WARPSIM_POLICY", "tls:4"),
            ("WARPSIM_MAX_CYCLES", "5_000"),
            ("WARPSIM_THREADS", "4"),
        ]);
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(
            (c.mode, c.policy.name().as_str(), c.max_cycles, c.threads),
            (Mode::Timing, "tls", Some(5000), 4)
        );
        assert_eq!(c.gpu.policy.tls.active, 4);
    }

    #[test]
    fn fetch_policy_by_name_or_with_the_issue_policy() {
        let (c, w) = parse(&[("WARPSIM_POLICY", "mwf-gto"), ("WARPSIM_FETCH", "cff")]);
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(c.policy.name(), "mwf-gto+cff");
        let (c, w) = parse(&[("WARPSIM_POLICY", "mwf-lrr+fef")]);
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(c.policy.name(), "mwf-lrr+fef");
        // A contradiction is reported and the policy's own fetch stays.
        let (c, w) = parse(&[("WARPSIM_POLICY", "mwf-lrr+fef"), ("WARPSIM_FETCH", "cff")]);
        assert!(w.len() == 1 && w[0].starts_with("WARPSIM_FETCH"), "{w:?}");
        assert_eq!(c.policy.name(), "mwf-lrr+fef");
    }

    #[test]
    fn bad_values_name_the_variable_and_fall_back() {
        for (k, v) in [
            ("WARPSIM_CONFIG", "no-such-gpu"),
            ("WARPSIM_MODE", "fast"),
            ("WARPSIM_POLICY", "two words"),
            ("WARPSIM_POLICY", "fifo"),
            ("WARPSIM_POLICY", "tls:0"),
            ("WARPSIM_POLICY", "tls:999"),
            ("WARPSIM_FETCH", "lrr"),
            ("WARPSIM_MAX_CYCLES", "0"),
            ("WARPSIM_STATS", " "),
            ("WARPSIM_TRACE", ""),
            ("WARPSIM_MAX_INSTRUCTIONS", "-5"),
            ("WARPSIM_MAX_INSTRUCTIONS", "0"),
            ("WARPSIM_MAX_INSTRUCTIONS", "lots"),
            ("WARPSIM_THREADS", "0"),
            ("WARPSIM_THREADS", "1025"),
            ("WARPSIM_THREADS", "many"),
        ] {
            let (c, w) = parse(&[(k, v)]);
            assert_eq!(w.len(), 1, "{k}={v}");
            assert!(w[0].starts_with(k), "{w:?}");
            assert_eq!(c.mode, Mode::Timing);
            assert_eq!(c.policy, PolicyKind::GTO);
            assert_eq!((c.max_instructions, c.max_cycles), (None, None));
            assert_eq!(c.config_name, "gtx480");
            assert_eq!(c.threads, 1);
        }
    }
}
