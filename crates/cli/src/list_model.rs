//! `warpsim list policies` and `warpsim list configs`: what `--policy` and `--config` accept.

use warpsim_core::config::{GpuConfig, PRESETS};
use warpsim_timing::PolicyKind;

use crate::exit;

/// One line per issue policy (the names `--policy` and `WARPSIM_POLICY` accept).
const POLICY_SUMMARIES: &[(&str, &str)] = &[
    ("lrr", "loose round robin: start after the warp that issued last"),
    ("gto", "greedy-then-oldest: keep issuing the last warp, else the oldest (default)"),
    ("oldest", "strictly oldest first"),
    ("tls", "two-level: an active set of 6 warps per scheduler, demoted on long-latency dependences (`tls:N` for N)"),
];

pub fn policies() -> u8 {
    for name in PolicyKind::NAMES {
        // Every registered name must resolve; a summary is shown when we have one.
        debug_assert!(PolicyKind::from_name(name).is_ok());
        let summary = POLICY_SUMMARIES.iter().find(|(n, _)| n == name).map(|(_, s)| *s).unwrap_or("");
        println!("{name:8}  {summary}");
    }
    exit::OK
}

pub fn configs() -> u8 {
    for (name, _) in PRESETS {
        match GpuConfig::load(name) {
            Ok(c) => println!(
                "{name:14}  {} SMs at {} MHz core clock, {} schedulers/SM, {} warps/SM, {} KB shared/SM, L1D {} KB, L2 {} KB",
                c.gpu.num_sms,
                c.gpu.core_clock_mhz,
                c.sm.schedulers,
                c.sm.max_warps,
                c.sm.shared_memory / 1024,
                c.l1d.size / 1024,
                c.l2.size / 1024,
            ),
            Err(e) => return exit::fail(exit::SIM_ERROR, format_args!("built-in preset {name}: {e}")),
        }
    }
    println!("(or a TOML file: --config FILE; override keys with -c KEY=VALUE)");
    exit::OK
}
