//! Per-kernel statistics of a run: collected from a device after its launches, summarised as
//! text (cycles, IPC, issue-slot and stall breakdowns, simulation rate), and written with
//! `--stats` as JSON + CSV + the resolved configuration. The timing statistics' columns and
//! descriptions come from `warpsim_timing::report`, where each is declared once.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use serde_json::json;
use warpsim_core::device::{Device, LaunchRecord};
use warpsim_timing::stats::{IssueSlots, SharedIssues, StallCounts};
use warpsim_timing::TimingStats;
use warpsim_timing::{analysis, report};

use crate::model::{take_timing_stats, Mode, Model};

/// One completed launch: what every mode knows, plus the timing model's statistics.
#[derive(Clone, Debug, Serialize)]
pub struct KernelRow {
    /// The workload or manifest the launch belongs to.
    pub program: String,
    /// Launch number within the program, from 0.
    pub launch: usize,
    /// The kernel as written in C++ (`scale(float*, int)`), and its mangled PTX symbol.
    pub kernel: String,
    pub kernel_mangled: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub registers_per_thread: Option<u32>,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    pub ctas: u64,
    /// Timing mode only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timing: Option<TimingStats>,
}

/// Takes the device's launch records (and the timing engine's statistics) as rows.
pub fn collect(dev: &mut Device, program: &str) -> Vec<KernelRow> {
    let records: Vec<LaunchRecord> = dev.take_launch_records();
    let mut timing = take_timing_stats(dev).into_iter();
    records
        .into_iter()
        .enumerate()
        .map(|(i, r)| KernelRow {
            program: program.to_string(),
            launch: i,
            kernel: warpsim_core::demangle(&r.kernel),
            kernel_mangled: r.kernel,
            grid: [r.grid.x, r.grid.y, r.grid.z],
            block: [r.block.x, r.block.y, r.block.z],
            registers_per_thread: r.registers_per_thread,
            warp_instructions: r.stats.warp_instructions,
            thread_instructions: r.stats.thread_instructions,
            ctas: r.stats.ctas,
            timing: r.cycles.and_then(|_| timing.next()),
        })
        .collect()
}

/// Sums over launches (launches run back to back, so cycles add up).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Totals {
    pub launches: u64,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    /// Timing mode only (0 otherwise).
    pub cycles: u64,
    /// Warp instructions per cycle over all launches.
    pub ipc: f64,
    pub issue: IssueSlots,
    pub stalls: StallCounts,
    /// Warp-sharing issues by unit class (timing mode with `+ws`).
    pub shared_issues: SharedIssues,
    /// Σ over launches of [`report::resident_warp_cycles`]: the denominator of the barrier
    /// fractions (timing mode only).
    pub resident_warp_cycles: u64,
    /// Caches, interconnect and DRAM, summed over launches (timing mode only).
    pub memory: warpsim_timing::mem::MemStats,
}

impl Totals {
    /// The launches' sums: instruction counts over every row (functional ones too), the
    /// timing ones from [`analysis::Totals`], the timing crate's one implementation of sums
    /// over launches.
    pub fn of<'a>(rows: impl IntoIterator<Item = &'a KernelRow>) -> Totals {
        let rows: Vec<&KernelRow> = rows.into_iter().collect();
        let timing = analysis::Totals::of(rows.iter().filter_map(|r| r.timing.as_ref()));
        let warp_instructions = rows.iter().map(|r| r.warp_instructions).sum();
        Totals {
            launches: rows.len() as u64,
            warp_instructions,
            thread_instructions: rows.iter().map(|r| r.thread_instructions).sum(),
            cycles: timing.cycles,
            ipc: if timing.cycles > 0 {
                warp_instructions as f64 / timing.cycles as f64
            } else {
                0.0
            },
            issue: timing.issue,
            stalls: timing.stalls,
            shared_issues: timing.shared_issues,
            resident_warp_cycles: timing.resident_warp_cycles,
            memory: timing.memory,
        }
    }

    /// BAWS's barrier intensity of the launches summed here: barrier plus exit-wait warp
    /// cycles over resident warp cycles, each summed over every launch first, so a launch
    /// weighs by its warp cycles (a program's short setup kernel does not count like its main
    /// one). For one launch it is `TimingStats::barrier_exit_fraction`. `None` without timing
    /// statistics.
    pub fn barrier_exit_fraction(&self) -> Option<f64> {
        analysis::barrier_exit_fraction(&self.stalls, self.resident_warp_cycles)
    }
}

fn pct(part: u64, whole: u64) -> String {
    format!("{:.1}%", 100.0 * part as f64 / whole.max(1) as f64)
}

/// `1.23 M`, `456.7 K`, `12`.
fn si(v: f64) -> String {
    if v >= 1e6 {
        format!("{:.2} M", v / 1e6)
    } else if v >= 1e3 {
        format!("{:.1} K", v / 1e3)
    } else {
        format!("{v:.0}")
    }
}

/// The text summary of a timed run: cycles, IPC, issue slots and warp stalls. Empty in
/// functional mode.
pub fn timing_summary(t: &Totals) -> Vec<String> {
    if t.cycles == 0 {
        return Vec::new();
    }
    let slots = t.issue.issued + t.issue.idle + t.issue.scoreboard + t.issue.pipeline;
    let s = &t.stalls;
    let stalls = s.total();
    let sh = &t.shared_issues;
    let mut lines = vec![
        format!(
            "cycles: {}, IPC {:.3} warp instructions/cycle, thread IPC {:.2} (GPGPU-Sim's gpu_tot_ipc)",
            t.cycles,
            t.ipc,
            t.thread_instructions as f64 / t.cycles as f64
        ),
        format!(
            "issue slots: issued {}, idle {}, scoreboard {}, pipeline {} (of {slots})",
            pct(t.issue.issued, slots),
            pct(t.issue.idle, slots),
            pct(t.issue.scoreboard, slots),
            pct(t.issue.pipeline, slots)
        ),
        format!(
            "warp stall cycles: data {}, structural {}, barrier {}, exit wait {}, drain {}, control {}, fetch {}, not selected {} (of {stalls})",
            pct(s.data, stalls),
            pct(s.structural, stalls),
            pct(s.barrier, stalls),
            pct(s.exit_wait, stalls),
            pct(s.drain, stalls),
            pct(s.control, stalls),
            pct(s.fetch, stalls),
            pct(s.not_selected, stalls)
        ),
    ];
    let m = &t.memory;
    let rate = |c: &warpsim_timing::mem::CacheCounts| match c.hits + c.misses {
        0 => "-".to_string(),
        n => format!("{} of {n}", pct(c.misses, n)),
    };
    lines.push(format!(
        "memory: L1D miss rate {}, L2 miss rate {}; DRAM {} reads, {} writes, row hits {}",
        rate(&m.l1d),
        rate(&m.l2),
        m.dram.reads,
        m.dram.writes,
        match m.dram.reads + m.dram.writes {
            0 => "-".to_string(),
            n => pct(m.dram.row_hits, n),
        }
    ));
    if sh.total() > 0 {
        lines.push(format!(
            "shared issues (warp sharing): {} = {} of warp instructions; SP {}, SFU {}, MEM {}",
            sh.total(),
            pct(sh.total(), t.warp_instructions),
            sh.sp,
            sh.sfu,
            sh.mem
        ));
    }
    lines
}

/// What every statistic of `stats.csv`/`stats.json` means: the timing model's table, plus the
/// issued-by-active-lanes histogram columns.
fn descriptions() -> std::collections::BTreeMap<String, String> {
    let mut d: std::collections::BTreeMap<String, String> = report::launch_stats()
        .map(|(d, _)| (d.name.to_string(), d.description.to_string()))
        .collect();
    for n in 0..=32 {
        d.insert(
            format!("issued_w{n}"),
            format!("warp instructions issued with {n} active lanes (GPGPU-Sim's W{n}; JSON: issued_lanes[{n}])"),
        );
    }
    d
}

/// After Ctrl-C: the statistics of the launches that completed, marked partial (the
/// interrupted launch is described by its error).
pub fn print_partial(rows: &[KernelRow]) {
    let t = Totals::of(rows);
    println!("partial statistics (interrupted): {} completed launch{}, {} warp instructions, {} thread instructions", rows.len(), if rows.len() == 1 { "" } else { "es" }, t.warp_instructions, t.thread_instructions);
    for line in timing_summary(&t) {
        println!("{line}");
    }
}

/// GPGPU-Sim's closing line: simulation rate in instructions and cycles per wall second.
pub fn rate_line(t: &Totals, wall: Duration) -> String {
    let secs = wall.as_secs_f64().max(1e-9);
    let mut s = format!(
        "simulation rate: {} warp inst/s, {} thread inst/s",
        si(t.warp_instructions as f64 / secs),
        si(t.thread_instructions as f64 / secs)
    );
    if t.cycles > 0 {
        let _ = write!(s, ", {} cycles/s", si(t.cycles as f64 / secs));
    }
    let _ = write!(s, " (wall {})", crate::bench::fmt_duration(wall));
    s
}

/// Where `--stats P` puts its files: `P.json`/`P.csv`/`P.config.toml` when `P` ends in
/// `.json` or `.csv`, else `P/stats.json`, `P/stats.csv`, `P/config.toml`.
pub fn stats_paths(p: &Path) -> [PathBuf; 3] {
    match p.extension().and_then(|e| e.to_str()) {
        Some("json" | "csv") => {
            let stem = p.with_extension("");
            let with = |suffix: &str| {
                let mut s = stem.clone().into_os_string();
                s.push(suffix);
                PathBuf::from(s)
            };
            [with(".json"), with(".csv"), with(".config.toml")]
        }
        _ => [
            p.join("stats.json"),
            p.join("stats.csv"),
            p.join("config.toml"),
        ],
    }
}

/// The columns every CSV row starts with; timing mode continues with the timing model's own
/// statistics table (`warpsim_timing::report`: kernel, config, policy, then every declared
/// statistic), functional mode with the kernel and its instruction counts.
const CSV_PREFIX: [&str; 6] = ["program", "launch", "grid", "block", "registers", "ctas"];
const CSV_FUNCTIONAL: [&str; 3] = ["kernel", "warp_instructions", "thread_instructions"];

/// The CSV text: one row per launch, then one `total` row per program and, with several
/// programs, an `all` one (totals leave grid, block, registers and CTAs empty).
pub fn csv(rows: &[KernelRow]) -> String {
    let timed = rows.iter().any(|r| r.timing.is_some());
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut header = strings(&CSV_PREFIX);
    header.extend(if timed {
        report::csv_header()
    } else {
        strings(&CSV_FUNCTIONAL)
    });
    let body = |kernel: &str, warp: u64, thread: u64, timing: Option<&TimingStats>| match timing {
        Some(t) => report::csv_row(t),
        None => vec![kernel.to_string(), warp.to_string(), thread.to_string()],
    };
    let dims = |d: [u32; 3]| format!("{}x{}x{}", d[0], d[1], d[2]);
    let mut records = vec![header];
    for r in rows {
        let regs = r.registers_per_thread.map(|n| n.to_string());
        let mut f = vec![
            r.program.clone(),
            r.launch.to_string(),
            dims(r.grid),
            dims(r.block),
            regs.unwrap_or_default(),
            r.ctas.to_string(),
        ];
        let timing = r.timing.as_ref();
        f.extend(body(
            &r.kernel,
            r.warp_instructions,
            r.thread_instructions,
            timing,
        ));
        records.push(f);
    }
    let mut programs: Vec<&str> = Vec::new();
    for r in rows {
        if !programs.contains(&r.program.as_str()) {
            programs.push(&r.program);
        }
    }
    let total_row = |name: &str, of: &[&KernelRow]| {
        let t = Totals::of(of.iter().copied());
        let stats: Vec<TimingStats> = of.iter().filter_map(|r| r.timing.clone()).collect();
        let timing = timed.then(|| report::totals(&stats));
        let mut f = vec![name.to_string(), "total".into()];
        f.extend(vec![String::new(); 4]);
        f.extend(body(
            "total",
            t.warp_instructions,
            t.thread_instructions,
            timing.as_ref(),
        ));
        f
    };
    for p in &programs {
        let of: Vec<&KernelRow> = rows.iter().filter(|r| r.program == *p).collect();
        records.push(total_row(p, &of));
    }
    if programs.len() > 1 {
        let of: Vec<&KernelRow> = rows.iter().collect();
        records.push(total_row("all", &of));
    }
    crate::csv_out::records(records)
}

/// Writes `--stats` output; returns the files written.
pub fn write(
    path: &Path,
    model: &Model,
    rows: &[KernelRow],
    wall: Duration,
) -> Result<Vec<PathBuf>, String> {
    let [json_path, csv_path, toml_path] = stats_paths(path);
    if let Some(dir) = json_path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("--stats: cannot create {}: {e}", dir.display()))?;
    }
    let totals = Totals::of(rows);
    let timed = model.mode == Mode::Timing;
    let doc = json!({
        "mode": model.mode.name(),
        "config": if timed { json!(model.config.name) } else { json!(null) },
        "policy": if timed { json!(model.policy.name()) } else { json!(null) },
        "wall_seconds": wall.as_secs_f64(),
        "kernels": rows,
        "total": totals,
        "descriptions": descriptions(),
    });
    let files = [
        (
            json_path,
            serde_json::to_string_pretty(&doc).expect("statistics serialize") + "\n",
        ),
        (csv_path, csv(rows)),
        (toml_path, model.config.to_toml()),
    ];
    let mut written = Vec::new();
    for (p, text) in files {
        std::fs::write(&p, text)
            .map_err(|e| format!("--stats: cannot write {}: {e}", p.display()))?;
        written.push(p);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpsim_timing::stats::{CtaRecord, WarpRecord};

    /// A launch of one CTA resident `cycles` cycles whose warps stalled as given.
    fn launch(cycles: u64, warps: &[StallCounts]) -> KernelRow {
        let mut s = TimingStats {
            cycles,
            ctas: vec![CtaRecord {
                linear: 0,
                id: [0; 3],
                sm: 0,
                start: 0,
                end: cycles,
            }],
            ..report::totals(&[])
        };
        for (i, st) in warps.iter().enumerate() {
            s.stalls.add(st);
            s.warps.push(WarpRecord {
                cta: 0,
                warp: i as u32,
                sm: 0,
                slot: i as u32,
                age: i as u64,
                instructions: 0,
                thread_instructions: 0,
                dual_issue_cycles: 0,
                start: 0,
                done: 0,
                issued_cycles: 0,
                stalls: *st,
                barrier_fraction: 0.0,
            });
        }
        KernelRow {
            program: "p".into(),
            launch: 0,
            kernel: "k".into(),
            kernel_mangled: "k".into(),
            grid: [1; 3],
            block: [32 * warps.len() as u32, 1, 1],
            registers_per_thread: None,
            warp_instructions: 0,
            thread_instructions: 0,
            ctas: 1,
            timing: Some(s),
        }
    }

    #[test]
    fn program_intensity_weighs_launches_by_warp_cycles() {
        // 1 warp × 100 cycles, half at a barrier: 50%.
        let a = launch(
            100,
            &[StallCounts {
                barrier: 50,
                data: 10,
                ..Default::default()
            }],
        );
        // 4 warps × 100 cycles, 40 exit-wait cycles (drain does not count): 10%.
        let quiet = StallCounts {
            fetch: 5,
            ..Default::default()
        };
        let b = launch(
            100,
            &[
                StallCounts {
                    exit_wait: 40,
                    drain: 30,
                    ..Default::default()
                },
                quiet,
                quiet,
                quiet,
            ],
        );
        for r in [&a, &b] {
            let one = Totals::of([r]).barrier_exit_fraction().unwrap();
            assert_eq!(one, r.timing.as_ref().unwrap().barrier_exit_fraction());
        }
        let both = Totals::of([&a, &b]);
        assert_eq!(both.resident_warp_cycles, 500);
        // (50 + 40) / (100 + 400), not the mean of 50% and 10%.
        assert_eq!(both.barrier_exit_fraction(), Some(90.0 / 500.0));
    }

    #[test]
    fn functional_runs_have_no_intensity() {
        let mut r = launch(100, &[StallCounts::default()]);
        r.timing = None;
        assert_eq!(Totals::of([&r]).barrier_exit_fraction(), None);
    }
}
