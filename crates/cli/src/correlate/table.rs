//! The comparison as a CSV (one row per program × preset × policy; the committed reference
//! `correlation/reference/gpgpusim.csv` is this file) and as a Markdown report, with the
//! summary figures (mean absolute deviation, correlation) per preset and policy.

use std::fmt::Write as _;

use super::runs::Row;
use super::stats::KernelStats;

/// Added to today's deviation to give a row's tolerance: how far the cycle ratio may move
/// away from 1 before the regression test fails (crates/cli/tests/correlation.rs).
pub const TOLERANCE_MARGIN: f64 = 0.03;

/// `|ratio − 1| + margin`, rounded up to a whole percent.
pub fn tolerance(ratio: f64) -> f64 {
    ((ratio - 1.0).abs() + TOLERANCE_MARGIN)
        .mul_add(100.0, -1e-9)
        .ceil()
        / 100.0
}

/// Mean of |ratio − 1| and Pearson's r of log10 cycles over the rows that have both sides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub n: usize,
    pub mae: f64,
    pub max: f64,
    /// `None` with fewer than two points or no spread.
    pub r: Option<f64>,
}

pub fn summary<'a>(rows: impl IntoIterator<Item = &'a Row>) -> Option<Summary> {
    let pts: Vec<(f64, f64, f64)> = rows
        .into_iter()
        .filter_map(|r| {
            Some((
                (r.gpgpusim.as_ref()?.cycles as f64).log10(),
                (r.warpsim.as_ref()?.cycles as f64).log10(),
                r.ratio()?,
            ))
        })
        .collect();
    if pts.is_empty() {
        return None;
    }
    let n = pts.len() as f64;
    let dev: Vec<f64> = pts.iter().map(|p| (p.2 - 1.0).abs()).collect();
    let (mx, my) = (
        pts.iter().map(|p| p.0).sum::<f64>() / n,
        pts.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for p in &pts {
        sxy += (p.0 - mx) * (p.1 - my);
        sxx += (p.0 - mx) * (p.0 - mx);
        syy += (p.1 - my) * (p.1 - my);
    }
    let r = (pts.len() >= 2 && sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt());
    Some(Summary {
        n: pts.len(),
        mae: dev.iter().sum::<f64>() / n,
        max: dev.iter().cloned().fold(0.0, f64::max),
        r,
    })
}

fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

fn pct(part: u64, whole: u64) -> Option<String> {
    (whole > 0).then(|| format!("{:.1}", 100.0 * part as f64 / whole as f64))
}

/// The per-simulator columns, in order (each appears as `gpgpusim_X` and `warpsim_X`).
pub const SIDE_COLUMNS: [&str; 12] = [
    "kernels",
    "cycles",
    "thread_insts",
    "l1d_accesses",
    "l1d_misses",
    "l1d_res_fails",
    "l2_accesses",
    "l2_misses",
    "l2_res_fails",
    "dram_row_hit_pct",
    "issued_pct",
    "idle/scoreboard/pipeline_pct",
];

fn side_values(k: Option<&KernelStats>) -> Vec<String> {
    let Some(k) = k else {
        return vec![String::new(); SIDE_COLUMNS.len()];
    };
    let t = k.issue.total();
    let stalls = match (
        pct(k.issue.idle, t),
        pct(k.issue.scoreboard, t),
        pct(k.issue.pipeline, t),
    ) {
        (Some(a), Some(b), Some(c)) => format!("{a}/{b}/{c}"),
        _ => String::new(),
    };
    vec![
        k.kernel.clone(),
        k.cycles.to_string(),
        k.thread_instructions.to_string(),
        k.l1d_accesses.to_string(),
        k.l1d_misses.to_string(),
        k.l1d_reservation_fails.to_string(),
        k.l2_accesses.to_string(),
        k.l2_misses.to_string(),
        k.l2_reservation_fails.to_string(),
        opt(k.dram_row_hit_rate().map(|r| format!("{:.1}", 100.0 * r))),
        opt(pct(k.issue.issued, t)),
        stalls,
    ]
}

/// GPGPU-Sim's columns of a row: from an earlier reference when it came from one.
fn gpgpusim_values(r: &Row) -> Vec<String> {
    r.gpgpusim_columns
        .clone()
        .unwrap_or_else(|| side_values(r.gpgpusim.as_ref()))
}

/// warpsim's columns of a row: from an earlier reference when it came from one.
fn warpsim_values(r: &Row) -> Vec<String> {
    r.warpsim_columns
        .clone()
        .unwrap_or_else(|| side_values(r.warpsim.as_ref()))
}

/// CSV header: identification, ratio and tolerance, then every side column for GPGPU-Sim
/// and for warpsim, the replay's cycles, wall times and problems.
pub fn csv(rows: &[Row]) -> String {
    let mut head = vec![
        "program".to_string(),
        "preset".into(),
        "policy".into(),
        "ratio".into(),
        "tolerance".into(),
    ];
    for side in ["gpgpusim", "warpsim"] {
        head.extend(SIDE_COLUMNS.iter().map(|c| format!("{side}_{c}")));
    }
    head.extend(
        [
            "replay_cycles",
            "gpgpusim_wall_s",
            "warpsim_wall_s",
            "problems",
        ]
        .map(String::from),
    );
    let mut records = vec![head];
    for r in rows {
        let ratio = r.ratio();
        let mut f = vec![
            r.program.clone(),
            r.preset.clone(),
            r.policy.clone(),
            opt(ratio.map(|x| format!("{x:.4}"))),
            opt(ratio.map(|x| format!("{:.2}", tolerance(x)))),
        ];
        f.extend(gpgpusim_values(r));
        f.extend(warpsim_values(r));
        f.push(opt(r.replay_cycles));
        f.push(opt(r.gpgpusim_wall.map(|w| format!("{w:.2}"))));
        f.push(opt(r.warpsim_wall.map(|w| format!("{w:.2}"))));
        f.push(r.problems.join("; "));
        records.push(f);
    }
    crate::csv_out::records(records)
}

/// Distinct values of a key, in first-seen order.
pub fn distinct<'a>(rows: &'a [Row], key: impl Fn(&'a Row) -> &'a str) -> Vec<&'a str> {
    let mut v: Vec<&str> = Vec::new();
    for r in rows {
        let k = key(r);
        if !v.contains(&k) {
            v.push(k);
        }
    }
    v
}

fn summary_line(label: &str, s: Option<Summary>) -> String {
    match s {
        Some(s) => format!(
            "| {label} | {} | {:.1}% | {:.1}% | {} |\n",
            s.n,
            100.0 * s.mae,
            100.0 * s.max,
            s.r.map(|r| format!("{r:.3}")).unwrap_or_else(|| "–".into())
        ),
        None => format!("| {label} | 0 | – | – | – |\n"),
    }
}

/// The Markdown report: summary per preset × policy, the ratio matrix (program × preset ×
/// policy), the detail table, the programs' own clock() measurements and the problems.
pub fn markdown(rows: &[Row]) -> String {
    let presets = distinct(rows, |r| &r.preset);
    let policies = distinct(rows, |r| &r.policy);
    let programs = distinct(rows, |r| &r.program);
    let mut md = String::from("# warpsim vs GPGPU-Sim on the correlation set\n\n");
    md += "Ratio = warpsim cycles / GPGPU-Sim cycles of the measured kernels (every launch but the \
           `setup_*` input generators). MAE = mean |ratio − 1|; r = Pearson correlation of log10 cycles.\n\n";
    md += "| preset / policy | programs | MAE | max |ratio − 1| | r |\n|---|---|---|---|---|\n";
    for p in &presets {
        for q in &policies {
            md += &summary_line(
                &format!("{p} / {q}"),
                summary(rows.iter().filter(|r| r.preset == *p && r.policy == *q)),
            );
        }
    }
    md += &summary_line("all", summary(rows));
    md += "\n## Cycle ratio per program\n\n| program |";
    for p in &presets {
        for q in &policies {
            let _ = write!(md, " {p} {q} |");
        }
    }
    md += "\n|---|";
    md += &"---|".repeat(presets.len() * policies.len());
    md.push('\n');
    for prog in &programs {
        let _ = write!(md, "| {prog} |");
        for p in &presets {
            for q in &policies {
                let r = rows
                    .iter()
                    .find(|r| r.program == *prog && r.preset == *p && r.policy == *q);
                let _ = write!(
                    md,
                    " {} |",
                    r.and_then(Row::ratio)
                        .map(|x| format!("{x:.2}"))
                        .unwrap_or_else(|| "–".into())
                );
            }
        }
        md.push('\n');
    }
    md += "\n## Detail\n\nEach cell is GPGPU-Sim / warpsim. Issue slots: issued and idle / scoreboard / \
           pipeline, % of all scheduler slots. DRAM row hits: % of column commands without an activate.\n\n";
    md += "| program | preset | policy | cycles | thread insts | L1D misses | L1D res. fails | L2 misses | L2 res. fails | DRAM row hits % | issued % | idle/sb/pipe % |\n";
    md += "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for r in rows {
        let (g, w) = (gpgpusim_values(r), warpsim_values(r));
        let cell = |i: usize| {
            format!(
                "{} / {}",
                if g[i].is_empty() { "–" } else { &g[i] },
                if w[i].is_empty() { "–" } else { &w[i] }
            )
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.program,
            r.preset,
            r.policy,
            cell(1),
            cell(2),
            cell(4),
            cell(5),
            cell(7),
            cell(8),
            cell(9),
            cell(10),
            cell(11)
        );
    }
    let metric_rows: Vec<&Row> = rows.iter().filter(|r| !r.metrics.is_empty()).collect();
    if !metric_rows.is_empty() {
        md += "\n## Measured inside the programs (clock())\n\n| program | preset | policy | metric | GPGPU-Sim | warpsim |\n|---|---|---|---|---|---|\n";
        for r in metric_rows {
            for (k, g, w) in &r.metrics {
                let f =
                    |v: &Option<f64>| v.map(|v| format!("{v:.2}")).unwrap_or_else(|| "–".into());
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {k} | {} | {} |",
                    r.program,
                    r.preset,
                    r.policy,
                    f(g),
                    f(w)
                );
            }
        }
    }
    let problems: Vec<&Row> = rows.iter().filter(|r| !r.problems.is_empty()).collect();
    if !problems.is_empty() {
        md += "\n## Problems\n\n";
        for r in problems {
            let _ = writeln!(
                md,
                "- {} {} {}: {}",
                r.program,
                r.preset,
                r.policy,
                r.problems.join("; ")
            );
        }
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(program: &str, g: u64, w: u64) -> Row {
        let k = |c| KernelStats {
            kernel: "k".into(),
            cycles: c,
            ..KernelStats::default()
        };
        Row {
            program: program.into(),
            preset: "gtx480".into(),
            policy: "gto".into(),
            gpgpusim: Some(k(g)),
            warpsim: Some(k(w)),
            ..Row::default()
        }
    }

    #[test]
    fn tolerance_is_the_gap_plus_margin_rounded_up() {
        assert_eq!(tolerance(1.0), 0.03);
        assert_eq!(tolerance(0.5), 0.53);
        assert_eq!(tolerance(1.123), 0.16);
    }

    #[test]
    fn summary_figures() {
        let rows = [
            row("a", 100, 50),
            row("b", 1000, 1100),
            row("c", 10000, 10000),
        ];
        let s = summary(&rows).unwrap();
        assert_eq!(s.n, 3);
        assert!((s.mae - 0.2).abs() < 1e-12, "{s:?}");
        assert!((s.max - 0.5).abs() < 1e-12);
        assert!(s.r.unwrap() > 0.99);
        let half = Row {
            warpsim: None,
            ..row("d", 1, 1)
        };
        assert_eq!(summary([&half]), None);
        assert_eq!(summary(&rows[..1]).unwrap().r, None);
    }

    #[test]
    fn csv_and_markdown_carry_every_row() {
        let mut rows = vec![row("a", 100, 50), row("b", 1000, 1100)];
        rows[1].problems.push("gpgpusim: exit status 1".into());
        rows[0]
            .metrics
            .push(("cycles_per_op".into(), Some(6.0), Some(4.0)));
        let c = csv(&rows);
        assert_eq!(c.lines().count(), 3);
        assert!(
            c.lines()
                .nth(1)
                .unwrap()
                .starts_with("a,gtx480,gto,0.5000,0.53,k,100,"),
            "{c}"
        );
        let md = markdown(&rows);
        assert!(md.contains("| gtx480 / gto | 2 | 30.0% | 50.0% |"), "{md}");
        assert!(md.contains("| a | 0.50 |"), "{md}");
        assert!(
            md.contains("| a | gtx480 | gto | cycles_per_op | 6.00 | 4.00 |"),
            "{md}"
        );
        assert!(
            md.contains("- b gtx480 gto: gpgpusim: exit status 1"),
            "{md}"
        );
    }

    /// GPGPU-Sim's columns taken from an earlier reference are printed as they were (its
    /// rounded percentages included), while the ratio uses the parsed cycles.
    #[test]
    fn columns_from_a_reference_are_carried_verbatim() {
        let mut r = row("a", 200, 100);
        let cols: Vec<String> = [
            "k",
            "200",
            "5",
            "6",
            "7",
            "8",
            "9",
            "10",
            "11",
            "94.3",
            "2.4",
            "52.9/44.7/0.0",
        ]
        .map(String::from)
        .to_vec();
        r.gpgpusim_columns = Some(cols);
        let c = csv(&[r]);
        assert!(
            c.lines().nth(1).unwrap().starts_with(
                "a,gtx480,gto,0.5000,0.53,k,200,5,6,7,8,9,10,11,94.3,2.4,52.9/44.7/0.0,k,100,"
            ),
            "{c}"
        );
    }
}
