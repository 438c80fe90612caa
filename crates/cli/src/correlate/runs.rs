//! Reads the run folders `scripts/correlate.sh` writes: `RUNS/PROGRAM/PRESET/POLICY/` with
//! `warpsim.{stdout,jsonl,rc,wall}` (the program under `warpsim exec`), `replay.{json,rc}`
//! (its launch manifest under `warpsim run`) and `gpgpusim.{log,rc,wall}` (the CUDA 11.8
//! build under GPGPU-Sim). Anything missing or unreadable becomes a problem noted on the
//! row, never a panic: a comparison with holes is still worth writing.

use std::path::Path;

use super::gpgpusim;
use super::stats::{self, KernelStats, SETUP_PREFIX};

/// One program under one preset and policy, on both simulators.
#[derive(Debug, Default)]
pub struct Row {
    pub program: String,
    pub preset: String,
    pub policy: String,
    /// The measured launches (all but `setup_*`), summed; `None` when the run is unusable.
    pub gpgpusim: Option<KernelStats>,
    /// GPGPU-Sim's report columns as an earlier reference printed them (`--gpgpusim-from`),
    /// used instead of formatting `gpgpusim`.
    pub gpgpusim_columns: Option<Vec<String>>,
    pub warpsim: Option<KernelStats>,
    /// warpsim's report columns as an earlier reference printed them (a row kept by
    /// `--merge`), used instead of formatting `warpsim`.
    pub warpsim_columns: Option<Vec<String>>,
    /// Cycles of the measured launches when the manifest is replayed with `warpsim run`.
    pub replay_cycles: Option<u64>,
    pub gpgpusim_wall: Option<f64>,
    pub warpsim_wall: Option<f64>,
    /// `METRIC` lines: (key, GPGPU-Sim's value, warpsim's value).
    pub metrics: Vec<(String, Option<f64>, Option<f64>)>,
    /// Why a side is missing or suspect (failed verification, exit status, parse errors).
    pub problems: Vec<String>,
}

impl Row {
    /// warpsim's cycles over GPGPU-Sim's.
    pub fn ratio(&self) -> Option<f64> {
        let (g, w) = (self.gpgpusim.as_ref()?, self.warpsim.as_ref()?);
        (g.cycles > 0).then(|| w.cycles as f64 / g.cycles as f64)
    }
}

fn read(dir: &Path, file: &str) -> Option<String> {
    std::fs::read_to_string(dir.join(file)).ok()
}

fn exit_status(dir: &Path, file: &str) -> Option<i32> {
    read(dir, file)?.trim().parse().ok()
}

/// `METRIC <program> <key> <value>` lines.
fn metrics(out: &str) -> Vec<(String, f64)> {
    out.lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            (it.next()? == "METRIC").then_some(())?;
            let (_prog, key, value) = (it.next()?, it.next()?, it.next()?);
            Some((key.to_string(), value.parse().ok()?))
        })
        .collect()
}

/// The program's own verdict: its "PASS NAME" line, and exit status 0.
fn verdict(
    side: &str,
    program: &str,
    out: &str,
    rc: Option<i32>,
    problems: &mut Vec<String>,
) -> bool {
    let passed = out.lines().any(|l| l.trim() == format!("PASS {program}"));
    match rc {
        Some(0) if passed => true,
        Some(0) => {
            problems.push(format!("{side}: no \"PASS {program}\" line"));
            false
        }
        Some(c) => {
            let fail = out
                .lines()
                .find(|l| l.starts_with("FAIL"))
                .map(|l| format!(": {l}"))
                .unwrap_or_default();
            problems.push(format!("{side}: exit status {c}{fail}"));
            false
        }
        None => {
            problems.push(format!("{side}: did not run (no exit status)"));
            false
        }
    }
}

fn read_side<T>(side: &str, parsed: Result<T, String>, problems: &mut Vec<String>) -> Option<T> {
    parsed
        .map_err(|e| problems.push(format!("{side}: {e}")))
        .ok()
}

/// One run folder.
pub fn read_run(dir: &Path, program: &str, preset: &str, policy: &str) -> Row {
    let mut row = Row {
        program: program.into(),
        preset: preset.into(),
        policy: policy.into(),
        ..Row::default()
    };
    let p = &mut row.problems;

    let w_out = read(dir, "warpsim.stdout").unwrap_or_default();
    if verdict(
        "warpsim",
        program,
        &w_out,
        exit_status(dir, "warpsim.rc"),
        p,
    ) {
        let text = read(dir, "warpsim.jsonl").ok_or_else(|| "no warpsim.jsonl".to_string());
        row.warpsim = read_side(
            "warpsim",
            text.and_then(|t| stats::parse_warpsim_jsonl(&t)),
            p,
        )
        .map(|k| KernelStats::measured(&k));
    }
    let g_log = read(dir, "gpgpusim.log").unwrap_or_default();
    if verdict(
        "gpgpusim",
        program,
        &g_log,
        exit_status(dir, "gpgpusim.rc"),
        p,
    ) {
        row.gpgpusim =
            read_side("gpgpusim", gpgpusim::parse(&g_log), p).map(|k| KernelStats::measured(&k));
    }
    if exit_status(dir, "replay.rc") == Some(0) {
        let text = read(dir, "replay.json").ok_or_else(|| "no replay.json".to_string());
        let launches = read_side("replay", text.and_then(|t| stats::parse_run_stats(&t)), p);
        row.replay_cycles = launches.map(|l| {
            l.iter()
                .filter(|(k, _)| !k.starts_with(SETUP_PREFIX))
                .map(|(_, c)| c)
                .sum()
        });
    } else {
        p.push(format!(
            "replay: exit status {:?}",
            exit_status(dir, "replay.rc")
        ));
    }
    if let (Some(r), Some(w)) = (row.replay_cycles, row.warpsim.as_ref()) {
        if r != w.cycles {
            row.problems.push(format!(
                "replay: {r} cycles, exec {}: the manifest does not reproduce the program",
                w.cycles
            ));
        }
    }
    row.gpgpusim_wall = read(dir, "gpgpusim.wall").and_then(|s| s.trim().parse().ok());
    row.warpsim_wall = read(dir, "warpsim.wall").and_then(|s| s.trim().parse().ok());

    let (gm, wm) = (metrics(&g_log), metrics(&w_out));
    let find = |m: &[(String, f64)], k: &str| m.iter().find(|(kk, _)| kk == k).map(|(_, v)| *v);
    for (k, _) in gm.iter().chain(&wm) {
        if !row.metrics.iter().any(|(kk, _, _)| kk == k) {
            row.metrics.push((k.clone(), find(&gm, k), find(&wm, k)));
        }
    }
    row
}

fn sorted_dirs(dir: &Path) -> Result<Vec<String>, String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().map(|t| t.is_dir()).unwrap_or(false))
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort();
    Ok(names)
}

/// Every run under `runs`, by program, preset, policy (sorted by name; the order of the
/// table and of the CSV).
pub fn read_all(runs: &Path) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for program in sorted_dirs(runs)? {
        for preset in sorted_dirs(&runs.join(&program))? {
            for policy in sorted_dirs(&runs.join(&program).join(&preset))? {
                rows.push(read_run(
                    &runs.join(&program).join(&preset).join(&policy),
                    &program,
                    &preset,
                    &policy,
                ));
            }
        }
    }
    if rows.is_empty() {
        return Err(format!(
            "{}: no runs (expected PROGRAM/PRESET/POLICY folders)",
            runs.display()
        ));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metric_lines() {
        let m = metrics("x\nMETRIC lat_int cycles_per_op 6.000\nMETRIC bad\nPASS lat_int\n");
        assert_eq!(m, vec![("cycles_per_op".to_string(), 6.0)]);
    }

    #[test]
    fn verdicts() {
        let mut p = Vec::new();
        assert!(verdict("w", "dot", "PASS dot\n", Some(0), &mut p));
        assert!(!verdict(
            "w",
            "dot",
            "FAIL dot: 3 mismatches\n",
            Some(1),
            &mut p
        ));
        assert!(!verdict("w", "dot", "", Some(0), &mut p));
        assert!(!verdict("w", "dot", "", None, &mut p));
        assert_eq!(
            p,
            [
                "w: exit status 1: FAIL dot: 3 mismatches",
                "w: no \"PASS dot\" line",
                "w: did not run (no exit status)"
            ]
        );
    }

    #[test]
    fn a_missing_runs_folder_is_an_error() {
        assert!(read_all(Path::new("/nonexistent/runs")).is_err());
    }
}
