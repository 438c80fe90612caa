//! `warpsim run --workload NAME`: one built-in program, and the helpers `suite` and `bench`
//! share.

use std::time::{Duration, Instant};

use serde_json::json;
use warpsim_core::device::DeviceOptions;
use warpsim_suite::{Outcome, Program, Size, SuiteError};

use crate::bench::fmt_duration;
use crate::exit;
use crate::model::{Mode, Model};
use crate::stats_out::{self, KernelRow, Totals};

/// Looks a workload up, or explains which exist.
pub fn find(name: &str) -> Result<&'static Program, String> {
    warpsim_suite::program(name).ok_or_else(|| {
        let names: Vec<&str> = warpsim_suite::programs().iter().map(|p| p.name).collect();
        format!("unknown workload {name:?}; available: {}", names.join(", "))
    })
}

/// One program run: the verified outcome (or why it failed), the wall time of the run (host
/// reference and verification included) and its launches' statistics.
pub struct ProgramRun {
    pub result: Result<Outcome, SuiteError>,
    pub wall: Duration,
    pub rows: Vec<KernelRow>,
}

/// Runs `program` on a fresh device of `model`, with the registers per thread of its kernels
/// from its committed `ptxas -v` report.
pub fn run_program(
    program: &Program,
    size: Size,
    model: &Model,
    options: DeviceOptions,
) -> ProgramRun {
    let mut dev = model.device(options);
    let start = Instant::now();
    let result = match program.resources() {
        Ok(kernels) => {
            for k in kernels {
                dev.set_kernel_registers(&k.name, k.registers);
            }
            (program.run)(&mut dev, size)
        }
        Err(e) => Err(SuiteError::Invalid {
            program: program.name,
            message: format!("its .ptxas report: {e}"),
        }),
    };
    let wall = start.elapsed();
    ProgramRun {
        result,
        wall,
        rows: stats_out::collect(&mut dev, program.name),
    }
}

/// The exit code for a failed program run.
pub fn error_code(e: &SuiteError) -> u8 {
    match e {
        SuiteError::Device(d) => exit::device_error_code(d),
        _ => exit::MISMATCH,
    }
}

pub fn run_one(
    name: &str,
    size: Size,
    max_warp_instructions: Option<u64>,
    model: &Model,
    json: bool,
) -> u8 {
    let program = match find(name) {
        Ok(p) => p,
        Err(e) => return exit::fail(exit::BAD_INPUT, e),
    };
    if model.mode == crate::model::Mode::Timing {
        if let Some(why) = program.unsupported_on(&model.config) {
            return exit::fail(exit::BAD_INPUT, format!("workload {name} {why}"));
        }
    }
    let mut options = DeviceOptions::default();
    if let Some(n) = max_warp_instructions {
        options.max_warp_instructions = n;
    }
    let run = run_program(program, size, model, options);
    warpsim_timing::watch::end_progress();
    if let Some(path) = &model.stats {
        match stats_out::write(path, model, &run.rows, run.wall) {
            Ok(files) if !json => eprintln!(
                "statistics: {}",
                files
                    .iter()
                    .map(|f| f.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Ok(_) => {}
            Err(e) => return exit::fail(exit::BAD_INPUT, e),
        }
    }
    if let Err(e) = crate::trace_out::write_requested(model, &run.rows, json) {
        return exit::fail(exit::BAD_INPUT, e);
    }
    let totals = Totals::of(&run.rows);
    match run.result {
        Ok(o) => {
            if json {
                let mut v = outcome_json(program, size, &o, run.wall);
                add_timing_json(&mut v, model, &totals);
                println!("{}", serde_json::to_string_pretty(&v).unwrap());
                return exit::OK;
            }
            println!(
                "workload {} ({size}, {}): verified, {} values checked",
                program.name,
                model.describe(),
                o.values_checked
            );
            println!(
                "    {} launches, {} warp instructions, {} thread instructions, {}",
                o.launches,
                o.warp_instructions,
                o.thread_instructions,
                fmt_duration(run.wall)
            );
            for line in stats_out::timing_summary(&totals) {
                println!("{line}");
            }
            println!(
                "{} (host reference and checks included)",
                stats_out::rate_line(&totals, run.wall)
            );
            if !o.printf.is_empty() {
                println!("printf output:");
                print!("{}", o.printf);
                if !o.printf.ends_with('\n') {
                    println!();
                }
            }
            exit::OK
        }
        Err(e) => {
            if error_code(&e) == exit::INTERRUPTED {
                stats_out::print_partial(&run.rows);
            }
            exit::fail(
                error_code(&e),
                format_args!(
                    "workload {} ({size}, {}) failed: {e}",
                    program.name,
                    model.describe()
                ),
            )
        }
    }
}

/// Adds the mode and, in timing mode, cycles / IPC / configuration to a JSON summary.
pub fn add_timing_json(v: &mut serde_json::Value, model: &Model, t: &Totals) {
    v["mode"] = json!(model.mode.name());
    if model.mode == Mode::Timing {
        v["config"] = json!(model.config.name);
        v["policy"] = json!(model.policy.name());
        v["cycles"] = json!(t.cycles);
        v["ipc"] = json!(t.ipc);
        v["issue"] = json!(t.issue);
        v["stalls"] = json!(t.stalls);
        v["barrier_exit_fraction"] = json!(t.barrier_exit_fraction());
    }
}

pub fn outcome_json(p: &Program, size: Size, o: &Outcome, wall: Duration) -> serde_json::Value {
    json!({"workload": p.name, "size": size.name(), "ok": true, "launches": o.launches,
        "values_checked": o.values_checked, "warp_instructions": o.warp_instructions,
        "thread_instructions": o.thread_instructions, "wall_seconds": wall.as_secs_f64(), "printf": o.printf})
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
            .map(|(i, c)| {
                if i == 0 {
                    format!("{c:<w$}", w = width[i])
                } else {
                    format!("{c:>w$}", w = width[i])
                }
            })
            .collect();
        println!("{}", cells.join("  ").trim_end());
    };
    line(header);
    for r in rows {
        line(r);
    }
}
