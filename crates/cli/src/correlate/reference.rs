//! GPGPU-Sim's side of a comparison taken from an earlier report instead of its logs: the
//! committed reference CSV (`correlation/reference/gpgpusim.csv`) and the Markdown report
//! beside it (for the programs' `METRIC` values, which the CSV does not carry). GPGPU-Sim
//! takes hours for the set; a model change in warpsim only changes warpsim's side, so
//! `scripts/correlate.sh --sides warpsim --update-reference` rewrites the reference from new
//! warpsim runs and these unchanged GPGPU-Sim figures.
//!
//! The GPGPU-Sim columns are carried over as the earlier report printed them (percentages
//! included, which the CSV holds rounded), so a refresh never alters GPGPU-Sim's figures.
//!
//! `--merge` reads whole rows back the same way (both sides, the replay, wall times,
//! problems, metrics) and keeps those the new runs do not replace, so a few programs can be
//! added to the reference, or refreshed, without re-running the others.

use std::path::Path;

use super::runs::Row;
use super::stats::KernelStats;
use super::table::SIDE_COLUMNS;
use serde::Deserialize;

/// GPGPU-Sim's figures for one program × preset × policy.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct GpgpusimSide {
    pub program: String,
    pub preset: String,
    pub policy: String,
    /// The counts the ratio and the summaries use (`None`: GPGPU-Sim had no result).
    pub stats: Option<KernelStats>,
    /// The `gpgpusim_*` columns (`table::SIDE_COLUMNS`) as the reference has them.
    pub columns: Vec<String>,
    pub wall: Option<f64>,
    /// The reference's problems that concern GPGPU-Sim (`gpgpusim: …`).
    pub problems: Vec<String>,
    /// `METRIC` values from the report beside the CSV.
    pub metrics: Vec<(String, f64)>,
}

/// A metric row of a report: program, preset, policy, metric, GPGPU-Sim's and warpsim's values.
type MetricRow = (String, String, String, String, Option<f64>, Option<f64>);

/// The `| program | preset | policy | metric | GPGPU-Sim | warpsim |` rows of a report.
fn report_metrics(md: &str) -> Vec<MetricRow> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in md.lines() {
        if line.starts_with("## ") {
            inside = line.starts_with("## Measured inside the programs");
            continue;
        }
        if !inside || !line.starts_with("| ") {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if let [program, preset, policy, metric, g, w] = cells[..] {
            let (g, w) = (g.parse::<f64>().ok(), w.parse::<f64>().ok());
            if g.is_some() || w.is_some() {
                out.push((
                    program.into(),
                    preset.into(),
                    policy.into(),
                    metric.into(),
                    g,
                    w,
                ));
            }
        }
    }
    out
}

/// Reads `csv` and, when present, the report with the same name and `.md` beside it.
pub fn read(csv: &Path) -> Result<Vec<GpgpusimSide>, String> {
    let text = std::fs::read_to_string(csv).map_err(|e| format!("{}: {e}", csv.display()))?;
    let md = std::fs::read_to_string(csv.with_extension("md")).unwrap_or_default();
    parse(&text, &md).map_err(|e| format!("{}: {e}", csv.display()))
}

/// The columns of a reference row read by name (the side columns are read by position, from
/// `gpgpusim_kernels` on, in `table::SIDE_COLUMNS` order).
#[derive(Deserialize)]
struct Named {
    program: String,
    preset: String,
    policy: String,
    gpgpusim_wall_s: String,
    problems: String,
}

pub fn parse(csv: &str, md: &str) -> Result<Vec<GpgpusimSide>, String> {
    let mut reader = crate::csv_out::reader(csv);
    let head = reader.headers().map_err(|e| e.to_string())?.clone();
    if head.is_empty() {
        return Err("empty file".into());
    }
    let col = |name: &str| {
        head.iter()
            .position(|h| h == name)
            .ok_or_else(|| format!("no column {name}"))
    };
    for name in ["program", "preset", "policy", "gpgpusim_wall_s", "problems"] {
        col(name)?;
    }
    let first = col("gpgpusim_kernels")?;
    let metrics = report_metrics(md);
    let mut out = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| e.to_string())?;
        let line = record.position().map_or(0, |p| p.line());
        if record.len() != head.len() {
            return Err(format!(
                "line {line}: {} fields, the header has {}",
                record.len(),
                head.len()
            ));
        }
        let named: Named = record
            .deserialize(Some(&head))
            .map_err(|e| format!("line {line}: {e}"))?;
        let (stats, columns) = side_at(&record, &head, first, line)?;
        out.push(GpgpusimSide {
            stats,
            columns,
            wall: named.gpgpusim_wall_s.parse().ok(),
            problems: named
                .problems
                .split("; ")
                .filter(|x| x.starts_with("gpgpusim"))
                .map(String::from)
                .collect(),
            metrics: metrics
                .iter()
                .filter(|m| (&m.0, &m.1, &m.2) == (&named.program, &named.preset, &named.policy))
                .filter_map(|m| Some((m.3.clone(), m.4?)))
                .collect(),
            program: named.program,
            preset: named.preset,
            policy: named.policy,
        });
    }
    Ok(out)
}

/// The columns of a whole reference row read by name, for `--merge`.
#[derive(Deserialize)]
struct NamedRow {
    program: String,
    preset: String,
    policy: String,
    replay_cycles: String,
    gpgpusim_wall_s: String,
    warpsim_wall_s: String,
    problems: String,
}

/// Reads `csv` (and the report beside it, for the metrics) back into whole rows: each side's
/// columns as they were printed, with the counts the ratio and summaries use.
pub fn read_rows(csv: &Path) -> Result<Vec<Row>, String> {
    let text = std::fs::read_to_string(csv).map_err(|e| format!("{}: {e}", csv.display()))?;
    let md = std::fs::read_to_string(csv.with_extension("md")).unwrap_or_default();
    parse_rows(&text, &md).map_err(|e| format!("{}: {e}", csv.display()))
}

pub fn parse_rows(csv: &str, md: &str) -> Result<Vec<Row>, String> {
    let mut reader = crate::csv_out::reader(csv);
    let head = reader.headers().map_err(|e| e.to_string())?.clone();
    if head.is_empty() {
        return Err("empty file".into());
    }
    let col = |name: &str| {
        head.iter()
            .position(|h| h == name)
            .ok_or_else(|| format!("no column {name}"))
    };
    for name in [
        "program",
        "preset",
        "policy",
        "replay_cycles",
        "gpgpusim_wall_s",
        "warpsim_wall_s",
        "problems",
    ] {
        col(name)?;
    }
    let sides = [col("gpgpusim_kernels")?, col("warpsim_kernels")?];
    let metrics = report_metrics(md);
    let mut out = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| e.to_string())?;
        let line = record.position().map_or(0, |p| p.line());
        if record.len() != head.len() {
            return Err(format!(
                "line {line}: {} fields, the header has {}",
                record.len(),
                head.len()
            ));
        }
        let named: NamedRow = record
            .deserialize(Some(&head))
            .map_err(|e| format!("line {line}: {e}"))?;
        let [g, w] = sides.map(|first| side_at(&record, &head, first, line));
        let ((g_stats, g_columns), (w_stats, w_columns)) = (g?, w?);
        out.push(Row {
            gpgpusim: g_stats,
            gpgpusim_columns: Some(g_columns),
            warpsim: w_stats,
            warpsim_columns: Some(w_columns),
            replay_cycles: named.replay_cycles.parse().ok(),
            gpgpusim_wall: named.gpgpusim_wall_s.parse().ok(),
            warpsim_wall: named.warpsim_wall_s.parse().ok(),
            metrics: metrics
                .iter()
                .filter(|m| (&m.0, &m.1, &m.2) == (&named.program, &named.preset, &named.policy))
                .map(|m| (m.3.clone(), m.4, m.5))
                .collect(),
            problems: named
                .problems
                .split("; ")
                .filter(|p| !p.is_empty())
                .map(String::from)
                .collect(),
            program: named.program,
            preset: named.preset,
            policy: named.policy,
        });
    }
    Ok(out)
}

/// The earlier rows that `new` does not replace (same program, preset and policy) and the new
/// rows, sorted by program, preset, policy: the order of a reference written from run folders.
pub fn merge(earlier: Vec<Row>, new: Vec<Row>) -> Vec<Row> {
    let key = |r: &Row| (r.program.clone(), r.preset.clone(), r.policy.clone());
    let replaced: std::collections::BTreeSet<_> = new.iter().map(key).collect();
    let mut rows: Vec<Row> = earlier
        .into_iter()
        .filter(|r| !replaced.contains(&key(r)))
        .chain(new)
        .collect();
    rows.sort_by_key(key);
    rows
}

/// A side's figures from its columns (kernels, cycles, thread instructions, L1D and L2
/// accesses / misses / reservation fails, then the percentages); `None` when it has no
/// cycles (that simulator failed). `what(k)` names column `k` in an error.
/// One simulator's side of a record: its columns from `first` on and the statistics they
/// hold (`None`: that simulator did not run).
fn side_at(
    record: &csv::StringRecord,
    head: &csv::StringRecord,
    first: usize,
    line: u64,
) -> Result<(Option<KernelStats>, Vec<String>), String> {
    let columns: Vec<String> = record
        .iter()
        .skip(first)
        .take(SIDE_COLUMNS.len())
        .map(String::from)
        .collect();
    let stats = side_stats(&columns, |k| {
        format!("line {line}: {} is not a count", &head[first + k])
    })?;
    Ok((stats, columns))
}

fn side_stats(
    columns: &[String],
    what: impl Fn(usize) -> String,
) -> Result<Option<KernelStats>, String> {
    if columns[1].is_empty() {
        return Ok(None);
    }
    let count = |k: usize| -> Result<u64, String> {
        columns[k]
            .parse()
            .map_err(|_| format!("{}: {:?}", what(k), columns[k]))
    };
    Ok(Some(KernelStats {
        kernel: columns[0].clone(),
        cycles: count(1)?,
        thread_instructions: count(2)?,
        l1d_accesses: count(3)?,
        l1d_misses: count(4)?,
        l1d_reservation_fails: count(5)?,
        l2_accesses: count(6)?,
        l2_misses: count(7)?,
        l2_reservation_fails: count(8)?,
        ..KernelStats::default()
    }))
}

/// Replaces each row's GPGPU-Sim side with the reference's (rows the reference lacks keep
/// none, with a problem saying so).
pub fn apply(rows: &mut [Row], reference: &[GpgpusimSide]) {
    for r in rows.iter_mut() {
        r.problems.retain(|p| !p.starts_with("gpgpusim"));
        let Some(g) = reference
            .iter()
            .find(|g| (&g.program, &g.preset, &g.policy) == (&r.program, &r.preset, &r.policy))
        else {
            r.gpgpusim = None;
            r.gpgpusim_columns = None;
            r.problems.push("gpgpusim: not in the reference".into());
            continue;
        };
        r.gpgpusim = g.stats.clone();
        r.gpgpusim_columns = Some(g.columns.clone());
        r.gpgpusim_wall = g.wall;
        r.problems.extend(g.problems.iter().cloned());
        for (k, v) in &g.metrics {
            match r.metrics.iter_mut().find(|m| &m.0 == k) {
                Some(m) => m.1 = Some(*v),
                None => r.metrics.push((k.clone(), Some(*v), None)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "program,preset,policy,ratio,tolerance,gpgpusim_kernels,gpgpusim_cycles,gpgpusim_thread_insts,gpgpusim_l1d_accesses,gpgpusim_l1d_misses,gpgpusim_l1d_res_fails,gpgpusim_l2_accesses,gpgpusim_l2_misses,gpgpusim_l2_res_fails,gpgpusim_dram_row_hit_pct,gpgpusim_issued_pct,gpgpusim_idle/scoreboard/pipeline_pct,warpsim_kernels,warpsim_cycles,warpsim_thread_insts,warpsim_l1d_accesses,warpsim_l1d_misses,warpsim_l1d_res_fails,warpsim_l2_accesses,warpsim_l2_misses,warpsim_l2_res_fails,warpsim_dram_row_hit_pct,warpsim_issued_pct,warpsim_idle/scoreboard/pipeline_pct,replay_cycles,gpgpusim_wall_s,warpsim_wall_s,problems";

    #[test]
    fn reads_gpgpusim_columns_metrics_and_problems() {
        let csv = format!(
            "{HEAD}\n\
             chase_l1,gtx480,gto,0.8290,0.21,chase_l1,57603,2764,579,67,0,285,281,0,94.3,2.4,52.9/44.7/0.0,chase_l1,47752,2767,579,67,0,68,1,0,,2.9,51.0/46.1/0.0,47752,5.93,0.09,\n\
             chase_l1,titanx-pascal,lrr,,,,,,,,,,,,,,,chase_l1,70738,2767,579,67,0,68,1,0,,1.1,75.4/23.6/0.0,70738,79.43,0.10,\"gpgpusim: exit status 134; replay: x\"\n"
        );
        let md = "## Measured inside the programs (clock())\n\n| program | preset | policy | metric | GPGPU-Sim | warpsim |\n|---|---|---|---|---|---|\n| chase_l1 | gtx480 | gto | cycles_per_load | 68.35 | 70.12 |\n\n## Problems\n\n| a | b | c | d | 1 | 2 |\n";
        let g = parse(&csv, md).unwrap();
        assert_eq!(g.len(), 2);
        let s = g[0].stats.as_ref().unwrap();
        assert_eq!(
            (s.cycles, s.thread_instructions, s.l2_accesses, s.l2_misses),
            (57603, 2764, 285, 281)
        );
        assert_eq!(g[0].columns[9..], ["94.3", "2.4", "52.9/44.7/0.0"]);
        assert_eq!(g[0].metrics, [("cycles_per_load".to_string(), 68.35)]);
        assert_eq!(g[0].wall, Some(5.93));
        assert!(g[1].stats.is_none() && g[1].metrics.is_empty());
        assert_eq!(g[1].problems, ["gpgpusim: exit status 134"]);

        let mut rows = vec![
            Row {
                program: "chase_l1".into(),
                preset: "gtx480".into(),
                policy: "gto".into(),
                problems: vec!["gpgpusim: did not run (no exit status)".into()],
                metrics: vec![("cycles_per_load".into(), None, Some(70.0))],
                ..Row::default()
            },
            Row {
                program: "dot".into(),
                preset: "gtx480".into(),
                policy: "gto".into(),
                ..Row::default()
            },
        ];
        apply(&mut rows, &g);
        assert_eq!(rows[0].gpgpusim.as_ref().map(|k| k.cycles), Some(57603));
        assert!(rows[0].problems.is_empty(), "{:?}", rows[0].problems);
        assert_eq!(
            rows[0].metrics,
            [("cycles_per_load".to_string(), Some(68.35), Some(70.0))]
        );
        assert_eq!(rows[1].problems, ["gpgpusim: not in the reference"]);
    }

    /// A reference read back as whole rows and written again is the same CSV; merging
    /// replaces the rows the runs hold and keeps the others, in the reference's order.
    #[test]
    fn whole_rows_round_trip_and_merge() {
        let csv = format!(
            "{HEAD}\n\
             chase_l1,gtx480,gto,0.8290,0.21,chase_l1,57603,2764,579,67,0,285,281,0,94.3,2.4,52.9/44.7/0.0,chase_l1,47752,2767,579,67,0,68,1,0,,2.9,51.0/46.1/0.0,47752,5.93,0.09,\n\
             chase_l1,titanx-pascal,lrr,,,,,,,,,,,,,,,chase_l1,70738,2767,579,67,0,68,1,0,,1.1,75.4/23.6/0.0,70738,79.43,0.10,gpgpusim: exit status 134; replay: x\n\
             dot,gtx480,gto,1.0000,0.03,dot,100,5,6,7,8,9,10,11,,,,dot,100,5,6,7,8,9,10,11,,,,100,1.00,0.10,\n"
        );
        let md = "## Measured inside the programs (clock())\n\n| program | preset | policy | metric | GPGPU-Sim | warpsim |\n|---|---|---|---|---|---|\n| chase_l1 | gtx480 | gto | cycles_per_load | 68.35 | 70.12 |\n| chase_l1 | titanx-pascal | lrr | cycles_per_load | – | 71.00 |\n";
        let rows = parse_rows(&csv, md).unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(super::super::table::csv(&rows), csv);
        assert_eq!(
            rows[0].metrics,
            [("cycles_per_load".to_string(), Some(68.35), Some(70.12))]
        );
        assert_eq!(
            rows[1].metrics,
            [("cycles_per_load".to_string(), None, Some(71.0))]
        );
        assert_eq!(rows[1].problems, ["gpgpusim: exit status 134", "replay: x"]);
        assert!(rows[1].gpgpusim.is_none());
        assert_eq!(rows[1].warpsim.as_ref().map(|k| k.cycles), Some(70738));

        let new = |program: &str, preset: &str| Row {
            program: program.into(),
            preset: preset.into(),
            policy: "gto".into(),
            ..Row::default()
        };
        let merged = merge(rows, vec![new("dot", "gtx480"), new("chase_l2", "qv100")]);
        let keys: Vec<_> = merged
            .iter()
            .map(|r| format!("{} {} {}", r.program, r.preset, r.policy))
            .collect();
        assert_eq!(
            keys,
            [
                "chase_l1 gtx480 gto",
                "chase_l1 titanx-pascal lrr",
                "chase_l2 qv100 gto",
                "dot gtx480 gto"
            ]
        );
        assert!(merged[3].gpgpusim_columns.is_none(), "dot is the new row");
    }

    #[test]
    fn malformed_references_are_errors() {
        assert!(parse("", "").is_err());
        assert!(parse("program,preset\n", "")
            .unwrap_err()
            .contains("no column policy"));
        let bad = format!(
            "{HEAD}\nx,gtx480,gto,1,1,k,notanumber,1,1,1,1,1,1,1,,,,k,1,1,1,1,1,1,1,1,,,,1,1,1,\n"
        );
        assert!(parse(&bad, "")
            .unwrap_err()
            .contains("gpgpusim_cycles is not a count"));
        assert!(parse(&format!("{HEAD}\nx,y\n"), "")
            .unwrap_err()
            .contains("2 fields"));
    }
}
