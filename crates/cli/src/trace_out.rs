//! `--trace FILE.json` (`run`; `exec` passes it to the shim as `WARPSIM_TRACE`): the timed
//! launches as a Chrome / Perfetto trace, built by `warpsim_timing::trace` from the event log
//! (which `--trace` switches on). Open it at ui.perfetto.dev or chrome://tracing.
//! `--issue-trace FILE.csv` (`run`): every issued warp instruction, a row each.

use std::path::Path;

use warpsim_timing::TimingStats;

use crate::model::{Mode, Model};
use crate::stats_out::KernelRow;

/// The model with the event log on when `trace` is given; an error in functional mode, which
/// has no cycles to trace.
pub fn enable(mut model: Model, trace: Option<&Path>) -> Result<Model, String> {
    needs_timing(&model, "--trace", trace)?;
    if trace.is_some() {
        model.event_log = true;
    }
    Ok(model)
}

/// An error when `option` names a file and the model has no cycles to trace.
pub fn needs_timing(model: &Model, option: &str, file: Option<&Path>) -> Result<(), String> {
    match file {
        Some(p) if model.mode != Mode::Timing => Err(format!(
            "{option} {}: needs timing mode (the trace is in cycles)",
            p.display()
        )),
        _ => Ok(()),
    }
}

/// Writes the traces the model asks for (`--trace`, `--issue-trace`) of the rows' timed
/// launches, and names each file on stderr unless `quiet`.
pub fn write_requested(model: &Model, rows: &[KernelRow], quiet: bool) -> Result<(), String> {
    if let Some(trace) = &model.trace {
        write(trace, rows)?;
        if !quiet {
            eprintln!("trace: {}", trace.display());
        }
    }
    if let Some(path) = &model.issue_trace {
        write_issues(path, rows)?;
        if !quiet {
            eprintln!("issue trace: {}", path.display());
        }
    }
    Ok(())
}

/// One row of `--issue-trace`.
#[derive(serde::Serialize)]
struct IssueRow<'a> {
    launch: usize,
    kernel: &'a str,
    cycle: u64,
    sm: u32,
    scheduler: u32,
    slot: u32,
    /// The warp's dynamic id (in the order warps became resident on its SM's launch).
    warp: u64,
    pc: u32,
}

/// Writes every issue of the rows' timed launches to `path` as CSV (its folder is created).
fn write_issues(path: &Path, rows: &[KernelRow]) -> Result<(), String> {
    let fail =
        |e: &dyn std::fmt::Display| format!("--issue-trace: cannot write {}: {e}", path.display());
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("--issue-trace: cannot create {}: {e}", dir.display()))?;
    }
    let mut w = csv::Writer::from_path(path).map_err(|e| fail(&e))?;
    for r in rows {
        for e in r.timing.iter().flat_map(|t| &t.issue_trace) {
            w.serialize(IssueRow {
                launch: r.launch,
                kernel: &r.kernel,
                cycle: e.cycle,
                sm: e.sm,
                scheduler: e.scheduler,
                slot: e.slot,
                warp: e.age,
                pc: e.pc,
            })
            .map_err(|e| fail(&e))?;
        }
    }
    w.flush().map_err(|e| fail(&e))
}

/// Writes the trace of the rows' timed launches to `path` (its folder is created).
pub fn write(path: &Path, rows: &[KernelRow]) -> Result<(), String> {
    let stats: Vec<TimingStats> = rows.iter().filter_map(|r| r.timing.clone()).collect();
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("--trace: cannot create {}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string(&warpsim_timing::trace::chrome_trace(&stats))
        .expect("a trace serializes");
    std::fs::write(path, text).map_err(|e| format!("--trace: cannot write {}: {e}", path.display()))
}
