//! `warpsim suite [--set NAME]`: runs built-in programs in parallel (rayon), each on its own
//! device, and prints one table row per program. Results do not depend on the thread count:
//! programs share nothing, and rows are reported in registry order. Its parallel map and
//! progress bar also drive `warpsim intensity`.

use std::io::IsTerminal;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde_json::json;
use warpsim_core::device::DeviceOptions;
use warpsim_suite::{Program, Size};

use crate::bench::fmt_duration;
use crate::exit;
use crate::model::{Mode, Model};
use crate::stats_out::{self, Totals};
use crate::workload::{add_timing_json, error_code, outcome_json, print_table, run_program};

/// The programs of `set` (all when `None`), or why the name is wrong.
pub fn select(set: Option<&str>) -> Result<Vec<&'static Program>, String> {
    match set {
        None => Ok(warpsim_suite::programs().iter().collect()),
        Some(name) => warpsim_suite::set(name).ok_or_else(|| {
            let names: Vec<&str> = warpsim_suite::SETS.iter().map(|s| s.name).collect();
            format!("unknown program set {name:?}; sets: {}", names.join(", "))
        }),
    }
}

/// Maps `f` over `items` on `jobs` threads (rayon's default when `None`), ticking `progress`
/// once per item. Results come back in `items`' order, whatever the thread count.
pub fn par_map<T: Sync, R: Send>(
    items: &[T],
    jobs: Option<usize>,
    progress: &ProgressBar,
    f: impl Fn(&T) -> R + Sync,
) -> Result<Vec<R>, String> {
    let work = || {
        items
            .par_iter()
            .map(|item| {
                let r = f(item);
                progress.inc(1);
                r
            })
            .collect::<Vec<_>>()
    };
    match jobs {
        None => Ok(work()),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| format!("--jobs {n}: {e}"))?;
            Ok(pool.install(work))
        }
    }
}

/// A progress bar over `len` runs on stderr; hidden when stderr is not a terminal or `quiet`
/// (JSON on stdout), so piped output stays clean.
pub fn progress_bar(len: usize, what: &str, quiet: bool) -> ProgressBar {
    let progress = ProgressBar::new(len as u64);
    if quiet || !std::io::stderr().is_terminal() {
        progress.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        progress.set_style(
            ProgressStyle::with_template(&format!(
                "{{bar:30}} {{pos}}/{{len}} {what}, {{elapsed}} (ETA {{eta}})"
            ))
            .expect("valid template"),
        );
    }
    progress
}

/// `12.3%`, or `-` without timing statistics.
pub fn percent(fraction: Option<f64>) -> String {
    fraction.map_or_else(|| "-".into(), |f| format!("{:.1}%", 100.0 * f))
}

pub fn suite(set: Option<&str>, size: Size, model: &Model, jobs: Option<usize>, json: bool) -> u8 {
    let mut programs = match select(set) {
        Ok(p) => p,
        Err(e) => return exit::fail(exit::BAD_INPUT, e),
    };
    // Programs the timed GPU cannot run (tensor cores on a preset without them) are left
    // out of the table and named after it, not reported as failures.
    let skipped = skip_unsupported(&mut programs, model);
    let progress = progress_bar(programs.len(), "programs", json);
    let start = Instant::now();
    let runs = match par_map(&programs, jobs, &progress, |p| {
        run_program(p, size, model, DeviceOptions::default())
    }) {
        Ok(r) => r,
        Err(e) => return exit::fail(exit::BAD_INPUT, e),
    };
    let wall = start.elapsed();
    progress.finish_and_clear();

    let mut code = exit::OK;
    let mut rows = Vec::new();
    let mut json_rows = Vec::new();
    let mut failures = Vec::new();
    for (p, run) in programs.iter().zip(&runs) {
        let t = Totals::of(&run.rows);
        let timed = t.cycles > 0;
        let (cycles, ipc) = if timed {
            (t.cycles.to_string(), format!("{:.3}", t.ipc))
        } else {
            ("-".into(), "-".into())
        };
        match &run.result {
            Ok(o) => {
                rows.push([
                    p.name.to_string(),
                    p.sets.join(","),
                    o.launches.to_string(),
                    cycles,
                    ipc,
                    percent(t.barrier_exit_fraction()),
                    o.warp_instructions.to_string(),
                    format!("yes ({})", o.values_checked),
                    fmt_duration(run.wall),
                ]);
                let mut v = outcome_json(p, size, o, run.wall);
                v["sets"] = json!(p.sets);
                add_timing_json(&mut v, model, &t);
                json_rows.push(v);
            }
            Err(e) => {
                let c = error_code(e);
                code = code.max(c);
                let status = if c == exit::MISMATCH {
                    "MISMATCH"
                } else {
                    "ERROR"
                };
                rows.push([
                    p.name.to_string(),
                    p.sets.join(","),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    status.into(),
                    fmt_duration(run.wall),
                ]);
                json_rows.push(json!({"workload": p.name, "sets": p.sets, "size": size.name(), "ok": false, "error": e.to_string(), "wall_seconds": run.wall.as_secs_f64()}));
                failures.push(format!("{}: {e}", p.name));
            }
        }
    }
    let all_rows: Vec<_> = runs.iter().flat_map(|r| r.rows.iter().cloned()).collect();
    if let Some(path) = &model.stats {
        match stats_out::write(path, model, &all_rows, wall) {
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
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!(json_rows)).unwrap()
        );
    } else {
        let header = [
            "program",
            "set",
            "launches",
            "cycles",
            "IPC",
            "bar+exit %",
            "warp insts",
            "verified",
            "wall",
        ]
        .map(String::from);
        print_table(&header, &rows);
        let ok = runs.iter().filter(|r| r.result.is_ok()).count();
        let threads = jobs.unwrap_or_else(rayon::current_num_threads);
        println!(
            "{ok} of {} programs verified ({size}, {}, {threads} threads)",
            rows.len(),
            model.describe()
        );
        let totals = Totals::of(&all_rows);
        for line in stats_out::timing_summary(&totals) {
            println!("total {line}");
        }
        println!("{}", stats_out::rate_line(&totals, wall));
    }
    for (name, why) in &skipped {
        eprintln!("warpsim: skipped {name}: {why}");
    }
    for f in failures {
        eprintln!("warpsim: error: {f}");
    }
    code
}

/// Removes from `programs` those the model's GPU cannot time ([`Program::unsupported_on`]);
/// returns their names and why. Functional mode runs every program.
pub fn skip_unsupported(
    programs: &mut Vec<&'static Program>,
    model: &Model,
) -> Vec<(&'static str, String)> {
    if model.mode != Mode::Timing {
        return Vec::new();
    }
    let mut skipped = Vec::new();
    programs.retain(|p| match p.unsupported_on(&model.config) {
        Some(why) => {
            skipped.push((p.name, why));
            false
        }
        None => true,
    });
    skipped
}
