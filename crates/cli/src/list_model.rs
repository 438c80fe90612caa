//! `warpsim list policies` and `warpsim list configs`: what `--policy`, `--fetch` and
//! `--config` accept. Policies come from the timing model's registry, with the keys of the
//! `[policy.NAME]` tables each one reads and their values in the default preset.

use warpsim_core::config::{GpuConfig, PolicyParams, PRESETS};
use warpsim_timing::policy::{FETCH, ISSUE};

use crate::exit;

/// The value of dotted `key` in `table`, as TOML writes it.
fn value_of(table: &toml::Table, key: &str) -> Option<String> {
    let mut cur = table;
    let mut parts = key.split('.').peekable();
    while let Some(p) = parts.next() {
        let v = cur.get(p)?;
        if parts.peek().is_none() {
            return Some(v.to_string());
        }
        cur = v.as_table()?;
    }
    None
}

pub fn policies() -> u8 {
    let defaults: toml::Table = match GpuConfig::load(PRESETS[0].0).map(|c| c.to_toml().parse()) {
        Ok(Ok(t)) => t,
        _ => {
            return exit::fail(
                exit::SIM_ERROR,
                format_args!("the built-in preset {} does not load", PRESETS[0].0),
            )
        }
    };
    let show = |name: &str, summary: &str, tables: &[&str]| {
        println!("  {name:8}  {summary}");
        for p in tables.iter().flat_map(|t| PolicyParams::keys(t)) {
            let v = value_of(&defaults, &p).unwrap_or_else(|| "?".into());
            println!("  {:8}    -c {p}={v}", "");
        }
    };
    println!("issue policies (--policy NAME):");
    for e in ISSUE {
        show(e.name, e.summary, e.params);
    }
    println!("fetch policies (--fetch NAME, or --policy ISSUE+FETCH):");
    for e in FETCH {
        show(e.name, e.summary, e.params);
    }
    println!("warp sharing (KAWS): add `+ws` to any issue policy (`gto+ws`, `mwf-gto+cff+ws`): a scheduler that issued");
    println!("  nothing issues another scheduler's ready warp whose collector or unit was busy (oldest first)");
    println!("(-c KEY=VALUE lines: the parameter and its default; `tls:N` is short for -c policy.tls.active=N)");
    exit::OK
}

pub fn configs() -> u8 {
    for (name, _) in PRESETS {
        match GpuConfig::load(name) {
            Ok(c) => println!(
                "{name:14}  {} SMs at {} MHz core clock, {} schedulers/SM, {} warps/SM, {} KB shared/SM, L1D {}, L2 {} KB{}",
                c.gpu.num_sms,
                c.gpu.core_clock_mhz,
                c.sm.schedulers,
                c.sm.max_warps,
                c.sm.shared_memory / 1024,
                l1d(&c.l1d),
                c.l2.size / 1024,
                match c.units.tensor {
                    0 => String::new(),
                    n => format!(", {n} tensor units/SM"),
                },
            ),
            Err(e) => return exit::fail(exit::SIM_ERROR, format_args!("built-in preset {name}: {e}")),
        }
    }
    println!("(or a TOML file: --config FILE; override keys with -c KEY=VALUE)");
    exit::OK
}

/// The L1 D-cache's size, or its range when it shares a unified array with shared memory.
fn l1d(d: &warpsim_core::config::L1d) -> String {
    if d.unified_size == 0 {
        return format!("{} KB", d.size / 1024);
    }
    let most = d.shared_carveouts.iter().copied().max().unwrap_or(0) as u64;
    let least = d.shared_carveouts.iter().copied().min().unwrap_or(0) as u64;
    format!(
        "{}-{} KB (unified {} KB with shared memory)",
        d.carved(most).0 / 1024,
        d.carved(least).0 / 1024,
        d.unified_size / 1024
    )
}
