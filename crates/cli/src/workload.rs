//! `warpsim run --workload NAME` and `warpsim suite`: the built-in programs.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use serde_json::json;
use warpsim_core::device::{Device, DeviceOptions};
use warpsim_suite::{Outcome, Program, Size, SuiteError};

use crate::bench::{fmt_duration, fmt_rate};
use crate::exit;

/// Looks a workload up, or explains which exist.
pub fn find(name: &str) -> Result<&'static Program, String> {
    warpsim_suite::program(name).ok_or_else(|| {
        let names: Vec<&str> = warpsim_suite::programs().iter().map(|p| p.name).collect();
        format!("unknown workload {name:?}; available: {}", names.join(", "))
    })
}

/// Runs `program` on a fresh device; returns the outcome and the wall time of the run
/// (host reference and verification included).
pub fn run_program(program: &Program, size: Size, options: DeviceOptions) -> (Result<Outcome, SuiteError>, Duration) {
    let mut dev = Device::with_options(options);
    let start = Instant::now();
    let result = (program.run)(&mut dev, size);
    (result, start.elapsed())
}

/// The exit code for a failed program run.
pub fn error_code(e: &SuiteError) -> u8 {
    match e {
        SuiteError::Device(d) => exit::device_error_code(d),
        _ => exit::MISMATCH,
    }
}

pub fn run_one(name: &str, size: Size, max_warp_instructions: Option<u64>, json: bool) -> u8 {
    let program = match find(name) {
        Ok(p) => p,
        Err(e) => return exit::fail(exit::BAD_INPUT, e),
    };
    let mut options = DeviceOptions::default();
    if let Some(n) = max_warp_instructions {
        options.max_warp_instructions = n;
    }
    let (result, wall) = run_program(program, size, options);
    match result {
        Ok(o) => {
            if json {
                println!("{}", serde_json::to_string_pretty(&outcome_json(program, size, &o, wall)).unwrap());
                return exit::OK;
            }
            println!("workload {} ({size}): verified, {} values checked", program.name, o.values_checked);
            println!(
                "    {} launches, {} warp instructions, {} thread instructions, {}",
                o.launches,
                o.warp_instructions,
                o.thread_instructions,
                fmt_duration(wall)
            );
            println!("speed: {} (host reference and checks included)", fmt_rate(o.warp_instructions, o.thread_instructions, wall));
            if !o.printf.is_empty() {
                println!("printf output:");
                print!("{}", o.printf);
                if !o.printf.ends_with('\n') {
                    println!();
                }
            }
            exit::OK
        }
        Err(e) => exit::fail(error_code(&e), format_args!("workload {} ({size}) failed: {e}", program.name)),
    }
}

fn outcome_json(p: &Program, size: Size, o: &Outcome, wall: Duration) -> serde_json::Value {
    json!({"workload": p.name, "size": size.name(), "ok": true, "launches": o.launches,
        "values_checked": o.values_checked, "warp_instructions": o.warp_instructions,
        "thread_instructions": o.thread_instructions, "wall_seconds": wall.as_secs_f64(), "printf": o.printf})
}

pub fn suite(size: Size, json: bool) -> u8 {
    let mut code = exit::OK;
    let mut rows = Vec::new();
    let mut json_rows = Vec::new();
    let mut failures = Vec::new();
    let progress = !json && std::io::stderr().is_terminal();
    for p in warpsim_suite::programs() {
        if progress {
            eprint!("\r\x1b[K{} …", p.name);
        }
        let (result, wall) = run_program(p, size, DeviceOptions::default());
        match result {
            Ok(o) => {
                rows.push([
                    p.name.to_string(),
                    "ok".into(),
                    o.launches.to_string(),
                    o.values_checked.to_string(),
                    o.warp_instructions.to_string(),
                    o.thread_instructions.to_string(),
                    fmt_duration(wall),
                ]);
                json_rows.push(outcome_json(p, size, &o, wall));
            }
            Err(e) => {
                let c = error_code(&e);
                code = code.max(c);
                let status = if c == exit::MISMATCH { "MISMATCH" } else { "ERROR" };
                rows.push([p.name.to_string(), status.into(), "-".into(), "-".into(), "-".into(), "-".into(), fmt_duration(wall)]);
                json_rows.push(json!({"workload": p.name, "size": size.name(), "ok": false, "error": e.to_string(), "wall_seconds": wall.as_secs_f64()}));
                failures.push(format!("{}: {e}", p.name));
            }
        }
    }
    if progress {
        eprint!("\r\x1b[K");
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&json!(json_rows)).unwrap());
    } else {
        let header = ["workload", "status", "launches", "values", "warp insts", "thread insts", "wall"].map(String::from);
        print_table(&header, &rows);
        let ok = rows.iter().filter(|r| r[1] == "ok").count();
        println!("{ok} of {} workloads verified ({size})", rows.len());
    }
    for f in failures {
        eprintln!("warpsim: error: {f}");
    }
    code
}

/// Prints rows under a header, the first column left-aligned and the others right-aligned.
pub fn print_table<const N: usize>(header: &[String; N], rows: &[[String; N]]) {
    let mut width = header.each_ref().map(|h| h.chars().count());
    for r in rows {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |r: &[String; N]| {
        let cells: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, c)| if i == 0 { format!("{c:<w$}", w = width[i]) } else { format!("{c:>w$}", w = width[i]) })
            .collect();
        println!("{}", cells.join("  ").trim_end());
    };
    line(header);
    for r in rows {
        line(r);
    }
}
