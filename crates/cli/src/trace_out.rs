//! `--trace FILE.json` (`run`; `exec` passes it to the shim as `WARPSIM_TRACE`): the timed
//! launches as a Chrome / Perfetto trace, built by `warpsim_timing::trace` from the event log
//! (which `--trace` switches on). Open it at ui.perfetto.dev or chrome://tracing.

use std::path::Path;

use warpsim_timing::TimingStats;

use crate::model::{Mode, Model};
use crate::stats_out::KernelRow;

/// The model with the event log on when `trace` is given; an error in functional mode, which
/// has no cycles to trace.
pub fn enable(mut model: Model, trace: Option<&Path>) -> Result<Model, String> {
    if let Some(p) = trace {
        if model.mode != Mode::Timing {
            return Err(format!(
                "--trace {}: needs timing mode (the trace is in cycles)",
                p.display()
            ));
        }
        model.event_log = true;
    }
    Ok(model)
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
