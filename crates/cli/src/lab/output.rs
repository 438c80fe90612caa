//! An experiment's outputs, in one folder: `runs.csv` (tidy: one row per run × statistic),
//! one CSV and one SVG figure per view, the resolved configuration of each variant, and
//! `report.md` — our tables beside the paper's claims, with a verdict on each claim.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use super::claims::{judge, Direction, Tally};
use super::figures;
use super::grid::Grid;
use super::key::simulator_id;
use super::spec::{Measure, View};
use super::table::{table, Format, Table, BAWS_CLASSES, STALL_COMPONENTS};
use crate::csv_out;
use serde::Serialize;

/// Writes every output of `g` into `dir`; returns the files written.
pub fn write(g: &Grid, dir: &Path, size: &str) -> Result<Vec<PathBuf>, String> {
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut files = Vec::new();
    let mut put = |name: String, text: String| -> Result<(), String> {
        let path = dir.join(name);
        fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        files.push(path);
        Ok(())
    };
    put("runs.csv".into(), tidy_csv(g))?;
    let mut figures_written = Vec::new();
    for v in &g.experiment.views {
        if let Some(t) = table(g, v) {
            put(format!("{}.csv", v.file_stem()), table_csv(&t))?;
        }
        if let Some((header, rows)) = cta_order_rows(g, v) {
            let csv = csv_out::records(std::iter::once(header).chain(order_cells(&rows, "")));
            put(format!("{}.csv", v.file_stem()), csv)?;
            figures_written.push(Ok(String::new()));
            continue;
        }
        match figures::draw(g, v) {
            Ok(Some(svg)) => {
                put(format!("{}.svg", v.file_stem()), svg)?;
                figures_written.push(Ok(format!("{}.svg", v.file_stem())));
            }
            Ok(None) => figures_written.push(Err(format!("{}: no data to draw", v.file_stem()))),
            Err(e) => figures_written.push(Err(format!("{}: {e}", v.file_stem()))),
        }
    }
    for variant in variants_with_configs(g) {
        put(variant.0, variant.1)?;
    }
    put("report.md".into(), report(g, size, &figures_written))?;
    Ok(files)
}

/// `config.toml` (one variant) or `config-LABEL.toml` per variant: the resolved config each
/// variant ran with (a `tls:N` scheduler's own `policy.tls.active` is in its runs' keys, not
/// here).
fn variants_with_configs(g: &Grid) -> Vec<(String, String)> {
    let e = g.experiment;
    let mut out: Vec<(String, String)> = Vec::new();
    for s in &g.series {
        let name = if e.variants.len() > 1 {
            format!("config-{}.toml", s.variant.label)
        } else {
            "config.toml".into()
        };
        if out.iter().any(|(n, _)| *n == name) {
            continue;
        }
        if let Ok(c) =
            warpsim_core::config::GpuConfig::load_with(s.variant.config_in(e), &s.variant.cfg)
        {
            out.push((name, c.to_toml()));
        }
    }
    out
}

/// A row of `runs.csv`: one run × statistic (a failed run's `error` is one too).
#[derive(Serialize, Default)]
struct TidyRow<'a> {
    experiment: &'a str,
    program: &'a str,
    series: &'a str,
    scheduler: &'a str,
    variant: &'a str,
    config: &'a str,
    size: &'a str,
    simulator: &'a str,
    verified: &'a str,
    statistic: &'a str,
    /// The value as Rust prints an `f64` (shortest round trip, no `.0` on integers), or the
    /// error.
    value: String,
}

/// One row per run × statistic.
pub fn tidy_csv(g: &Grid) -> String {
    let rows = g.records().flat_map(|(program, series, r)| {
        let row = move |statistic, value| TidyRow {
            experiment: &g.experiment.name,
            program,
            series: &series.label,
            scheduler: &series.scheduler,
            variant: &series.variant.label,
            config: &r.config,
            size: &r.size,
            simulator: &r.simulator,
            verified: if r.ok() { "yes" } else { "no" },
            statistic,
            value,
        };
        let stats = r
            .stats
            .iter()
            .map(move |(k, v)| row(k.as_str(), v.to_string()));
        stats.chain(r.error.iter().map(move |e| row("error", e.clone())))
    });
    csv_out::serde_rows(rows)
}

/// A view's table as CSV (empty cells for failed or missing runs).
pub fn table_csv(t: &Table) -> String {
    let header = std::iter::once(t.row_label.to_string()).chain(t.columns.iter().cloned());
    let rows = t.rows.iter().chain(&t.summary).map(|(label, cells)| {
        let cells = cells
            .iter()
            .map(|c| c.map_or(String::new(), |v| v.to_string()));
        std::iter::once(label.clone()).chain(cells).collect()
    });
    csv_out::records(std::iter::once(header.collect()).chain(rows))
}

fn markdown_table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut s = format!(
        "| {} |\n|{}\n",
        header.join(" | "),
        "---|".repeat(header.len())
    );
    for r in rows {
        s += &format!("| {} |\n", r.join(" | "));
    }
    s
}

fn view_markdown(t: &Table, v: &View) -> String {
    if matches!(v, View::Stalls { .. }) {
        // 7 components × series is too wide to read: the per-program cells are in the CSV;
        // here the mean over programs, one row per series.
        let n = STALL_COMPONENTS.len();
        let series = t.columns.len() / n;
        let mut header = vec!["series (mean over programs)".to_string()];
        header.extend(STALL_COMPONENTS.iter().map(|(c, _)| c.to_string()));
        header.push("total of the six".into());
        let rows: Vec<Vec<String>> = (0..series)
            .map(|i| {
                let cells = &t.summary[0].1[i * n..(i + 1) * n];
                let name = t.columns[i * n]
                    .strip_suffix(&format!(" {}", STALL_COMPONENTS[0].0))
                    .unwrap_or(&t.columns[i * n])
                    .to_string();
                let total: Option<f64> = cells[..BAWS_CLASSES].iter().copied().sum();
                let mut r = vec![name];
                r.extend(cells.iter().map(|c| t.format.show(*c)));
                r.push(t.format.show(total));
                r
            })
            .collect();
        return markdown_table(&header, &rows);
    }
    let mut header = vec![t.row_label.to_string()];
    header.extend(t.columns.iter().cloned());
    let rows: Vec<Vec<String>> = t
        .rows
        .iter()
        .chain(&t.summary)
        .map(|(l, cells)| {
            std::iter::once(l.clone())
                .chain(cells.iter().map(|c| t.format.show(*c)))
                .collect()
        })
        .collect();
    markdown_table(&header, &rows)
}

/// How the verdicts are given, said once in every report that has claims.
pub const VERDICT_RULE: &str = "agrees: same direction and at least a third of the paper's effect; agrees in sign only: less; flat: within ±0.5% of neutral";

/// The Markdown report.
pub fn report(g: &Grid, size: &str, figures: &[Result<String, String>]) -> String {
    let e = g.experiment;
    let mut s = format!(
        "# {}\n\n",
        if e.title.is_empty() {
            &e.name
        } else {
            &e.title
        }
    );
    if !e.description.is_empty() {
        s += e.description.trim();
        s += "\n\n";
    }
    let runs = g.records().count();
    let _ = writeln!(
        s,
        "Config `{}`, size `{size}`, {} programs × {} series = {runs} runs, simulator `{}`.",
        e.configs(),
        g.programs.len(),
        g.series.len(),
        simulator_id()
    );
    if let Some(b) = &e.baseline {
        let _ = writeln!(s, "Baseline: `{b}`.");
        let ipc = g.ipc_programs();
        if !ipc.is_empty() {
            let _ = writeln!(s, "Speedups of {} are by IPC: their thread instruction counts differ between schedulers (spin loops or atomic retries), so cycles alone would count the extra work as slowness.", ipc.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", "));
        }
    }
    s += "\n";
    if !e.claims.is_empty() {
        s += "## Ours beside the paper\n\n";
        let rows: Vec<Vec<String>> = e
            .claims
            .iter()
            .map(|c| {
                let v = judge(g, c);
                // Fractions and RTRU read as percentages, speedups as ratios.
                let format = if matches!(
                    c.ours,
                    Measure::Mean { .. } | Measure::Max { .. } | Measure::MeanDifference { .. }
                ) {
                    Format::Percent
                } else {
                    Format::Ratio
                };
                let fmt = |x: f64| format.show(Some(x));
                vec![
                    c.label.clone(),
                    fmt(c.paper),
                    v.ours.map_or("– (a run failed or is missing)".into(), fmt),
                    v.direction.word().to_string(),
                ]
            })
            .collect();
        s += &markdown_table(
            &[
                "claim".into(),
                "paper".into(),
                "ours".into(),
                "verdict".into(),
            ],
            &rows,
        );
        let _ = writeln!(
            s,
            "\nVerdicts ({}): {}.",
            VERDICT_RULE,
            Tally::of_claims(g, &e.claims)
        );
        let disagree: Vec<&str> = e
            .claims
            .iter()
            .filter(|c| judge(g, c).direction == Direction::Disagrees)
            .map(|c| c.label.as_str())
            .collect();
        if !disagree.is_empty() {
            let _ = writeln!(
                s,
                "\nOur direction disagrees with the paper's on {} of {} claims: {}.",
                disagree.len(),
                e.claims.len(),
                disagree.join("; ")
            );
        }
        s += "\n";
    }
    for (v, fig) in e.views.iter().zip(figures) {
        let _ = writeln!(s, "## {}\n", heading(v));
        match fig {
            Ok(f) if f.is_empty() => {}
            Ok(f) => {
                let _ = writeln!(s, "![{}]({f})\n", v.file_stem());
            }
            Err(why) => {
                let _ = writeln!(s, "(no figure: {why})\n");
            }
        }
        if let Some(t) = table(g, v) {
            s += &view_markdown(&t, v);
            s += "\n";
        }
        if let Some((header, rows)) = cta_order_rows(g, v) {
            s += &markdown_table(&header, &order_cells(&rows, "–"));
            s += "\n";
        }
    }
    let failures = g.failures();
    if !failures.is_empty() {
        let _ = writeln!(
            s,
            "## Failed runs ({})\n\nTheir cells are empty, and so is every mean over them.\n",
            failures.len()
        );
        for f in failures {
            let _ = writeln!(s, "- {f}");
        }
        s += "\n";
    }
    if !g.missing.is_empty() {
        let _ = writeln!(s, "## Missing runs ({})\n", g.missing.len());
        for m in &g.missing {
            let _ = writeln!(s, "- {m}");
        }
    }
    s
}

/// A CTA-order row: the sample cycle and the CTA at each rank (`None` past the CTAs resident).
type OrderCells = (u64, Vec<Option<u64>>);

/// Rows as text, `absent` where no CTA holds a rank.
fn order_cells(rows: &[OrderCells], absent: &str) -> Vec<Vec<String>> {
    rows.iter()
        .map(|(cycle, ranks)| {
            std::iter::once(cycle.to_string())
                .chain(
                    ranks
                        .iter()
                        .map(|c| c.map_or(absent.to_string(), |c| c.to_string())),
                )
                .collect()
        })
        .collect()
}

/// A CTA-order view as (header, rows); `None` for other views or when the run is missing or
/// failed.
fn cta_order_rows(g: &Grid, v: &View) -> Option<(Vec<String>, Vec<OrderCells>)> {
    let View::CtaOrder {
        program,
        series,
        ranks,
        rows,
    } = v
    else {
        return None;
    };
    let rec = g
        .record(g.program_index(program)?, g.series_index(series)?)
        .filter(|r| r.ok())?;
    let order = rec.cta_order.as_ref()?;
    let mut header = vec!["cycle".to_string()];
    header.extend((0..*ranks).map(|r| format!("rank {r}")));
    let body = order
        .iter()
        .take(*rows as usize)
        .map(|row| {
            (
                row.cycle,
                (0..*ranks as usize)
                    .map(|i| row.order.get(i).copied())
                    .collect(),
            )
        })
        .collect();
    Some((header, body))
}

fn heading(v: &View) -> String {
    match v {
        View::Speedup { baseline: None, .. } => "Speedup over the baseline (baseline cycles / cycles)".into(),
        View::Speedup { baseline: Some(b), .. } => format!("Speedup over {b} ({b}'s cycles / cycles)"),
        View::IssueSlots { baseline: None, .. } => "Issue-slot ratios (of every scheduler's slots)".into(),
        View::IssueSlots { baseline: Some(b), .. } => format!("Idle, scoreboard and pipeline slots, normalised to {b}'s three together"),
        View::Fractions { .. } => "Barrier and exit stall fractions (of resident warp cycles)".into(),
        View::Stalls { .. } => "Stall breakdown, normalised to the baseline's total stall cycles".into(),
        View::Rtru { .. } => "RTRU (mean over each CTA's warp phases)".into(),
        View::Stat { stat, baseline, .. } => {
            let label = stat.0.label;
            let mut c = label.chars();
            let label = c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect());
            match baseline {
                None => label,
                Some(b) => format!("{label}, relative to {b}"),
            }
        }
        View::Timeline { program, series, ctas } => format!("Warp-phase timeline: {program} under {series}, first {ctas} CTAs of SM 0"),
        View::CtaOrder { program, series, .. } => format!("CTA order of {program} under {series} on SM 0, every 1000 cycles (highest priority first)"),
        View::CtaSpans { program, series, ctas } => format!("CTA spans of {program} on SM 0 (dispatch to exit, cycles), first {ctas} CTAs under {}", series.join(", ")),
    }
}
