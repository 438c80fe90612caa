//! Views → tables: rows are programs plus a summary row (geometric mean for speedups,
//! arithmetic mean for fractions and RTRU), columns are series (or series × component). A
//! cell whose run failed or is missing is empty, and so is any summary over it.

use super::grid::{geomean, mean, Grid};
use super::spec::View;

/// The stall components of BAWS Figure 10, in its order: the record's `baws.*` statistics
/// (`analysis::baws_breakdown`: `drain` counts as exit), then `not selected` (ready but not
/// picked), which is no BAWS class: it is shown beside the six, outside the total the
/// series are normalised by, and not drawn in the stacks.
pub const STALL_COMPONENTS: [(&str, &str); 7] = [
    ("control", "baws.control"),
    ("data", "baws.data"),
    ("structural", "baws.structural"),
    ("barrier", "baws.barrier"),
    ("exit", "baws.exit"),
    ("fetch", "baws.fetch"),
    ("not selected", "baws.not_selected"),
];

/// The issue-slot kinds an `issue-slots` view shows (the record's `issue.KIND_ratio`); the
/// rest of the slots issued.
pub const ISSUE_SLOT_KINDS: [&str; 3] = ["idle", "scoreboard", "pipeline"];

/// The six BAWS classes of [`STALL_COMPONENTS`] (without `not selected`).
pub const BAWS_CLASSES: usize = 6;

#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// What a row is (`program`; `CTA` for CTA spans).
    pub row_label: &'static str,
    pub columns: Vec<String>,
    /// (program, cells).
    pub rows: Vec<(String, Vec<Option<f64>>)>,
    /// (label, cells): `GM` or `mean`.
    pub summary: Vec<(String, Vec<Option<f64>>)>,
    /// How to print a value.
    pub format: Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `1.084`.
    Ratio,
    /// `30.2%`.
    Percent,
    /// `12345` (counts; means rounded).
    Count,
}

impl Format {
    pub fn show(self, v: Option<f64>) -> String {
        match (self, v) {
            (_, None) => "–".into(),
            (Format::Ratio, Some(v)) => format!("{v:.3}"),
            (Format::Percent, Some(v)) => format!("{:.1}%", 100.0 * v),
            (Format::Count, Some(v)) => format!("{v:.0}"),
        }
    }
}

/// A statistic of the record that a `stat` view can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatView {
    /// Its name in the record (`record::stats_of`).
    pub name: &'static str,
    /// What it is, for headings.
    pub label: &'static str,
    /// A few words, for figure titles and axes.
    pub short: &'static str,
    pub format: Format,
}

const fn sv(
    name: &'static str,
    label: &'static str,
    short: &'static str,
    format: Format,
) -> StatView {
    StatView {
        name,
        label,
        short,
        format,
    }
}

/// The statistics `stat` views and `stat-ratio` claims can use.
pub const STAT_VIEWS: &[StatView] = &[
    sv("cycles", "cycles", "cycles", Format::Count),
    sv(
        "ipc",
        "IPC (warp instructions per cycle)",
        "IPC",
        Format::Ratio,
    ),
    sv(
        "l1d.load_miss_rate",
        "L1D miss rate of loads",
        "L1D miss rate",
        Format::Percent,
    ),
    sv(
        "l1d.reservation_fails",
        "L1D reservation-fail cycles",
        "reservation fails",
        Format::Count,
    ),
    sv(
        "issue.idle",
        "idle issue slots (no warp had a valid instruction)",
        "idle slots",
        Format::Count,
    ),
    sv(
        "issue.scoreboard",
        "scoreboard issue slots (valid instructions all waiting on operands)",
        "scoreboard slots",
        Format::Count,
    ),
    sv(
        "issue.pipeline",
        "pipeline-stall issue slots (ready warps, their units busy)",
        "pipeline-stall slots",
        Format::Count,
    ),
    sv(
        "warps_in_flight",
        "mean warps with an issued, not yet completed instruction per SM (MOTRR's \"in flight\")",
        "warps in flight",
        Format::Ratio,
    ),
    sv(
        "warps_resident",
        "mean resident, unfinished warps per SM",
        "warps resident",
        Format::Ratio,
    ),
    sv(
        "last_cta_cycles",
        "cycles of the longest launch's last-dispatched CTA",
        "last CTA cycles",
        Format::Count,
    ),
    sv(
        "last_cta_mean_cycles",
        "cycles of each launch's last-dispatched CTA, mean over the launches",
        "mean last-CTA cycles",
        Format::Count,
    ),
    sv(
        "shared_issues.sp",
        "warp-sharing issues to an SP port of another scheduler",
        "shared SP issues",
        Format::Count,
    ),
    sv(
        "shared_issues.sfu",
        "warp-sharing issues to an SFU port of another scheduler",
        "shared SFU issues",
        Format::Count,
    ),
    sv(
        "shared_issues.mem",
        "warp-sharing issues to a MEM (LD/ST) port of another scheduler",
        "shared MEM issues",
        Format::Count,
    ),
    sv(
        "shared_issues.total",
        "warp-sharing issues to another scheduler's port, all unit classes",
        "shared issues",
        Format::Count,
    ),
];

/// The `stat` view entry named `name`.
pub fn stat_view(name: &str) -> Option<&'static StatView> {
    STAT_VIEWS.iter().find(|v| v.name == name)
}

/// A `stat` view's cell: the statistic, or its ratio to series `baseline`'s.
pub fn stat_cell(g: &Grid, p: usize, s: usize, stat: &str, baseline: Option<usize>) -> Option<f64> {
    let v = g.stat(p, s, stat)?;
    match baseline {
        None => Some(v),
        Some(b) => {
            let base = g.stat(p, b, stat)?;
            (base > 0.0).then(|| v / base)
        }
    }
}

/// An issue-slot view's cell: slots of `kind` over all of the series' slots, or, with
/// `baseline`, over the baseline series' idle + scoreboard + pipeline slots.
pub fn issue_slot_cell(
    g: &Grid,
    p: usize,
    s: usize,
    kind: &str,
    baseline: Option<usize>,
) -> Option<f64> {
    match baseline {
        None => g.stat(p, s, &format!("issue.{kind}_ratio")),
        Some(b) => {
            let total: f64 = ISSUE_SLOT_KINDS
                .iter()
                .map(|k| g.stat(p, b, &format!("issue.{k}")))
                .sum::<Option<f64>>()?;
            let part = g.stat(p, s, &format!("issue.{kind}"))?;
            (total > 0.0).then(|| part / total)
        }
    }
}

/// Per program and series, a stall component's cycles over the baseline's total stall
/// cycles (its six BAWS classes).
pub fn stall_share(g: &Grid, p: usize, s: usize, component: &str) -> Option<f64> {
    let b = g.baseline()?;
    let total: f64 = STALL_COMPONENTS[..BAWS_CLASSES]
        .iter()
        .map(|(_, k)| g.stat(p, b, k))
        .sum::<Option<f64>>()?;
    let part = g.stat(p, s, component)?;
    (total > 0.0).then(|| part / total)
}

/// The value of a fractions / RTRU statistic (`barrier`, `exit`, `barrier+exit`, `rtru`).
pub fn mean_stat(g: &Grid, p: usize, s: usize, stat: &str) -> Option<f64> {
    match stat {
        "barrier" => g.stat(p, s, "fraction.barrier"),
        "exit" => g.stat(p, s, "fraction.exit"),
        "barrier+exit" => Some(g.stat(p, s, "fraction.barrier")? + g.stat(p, s, "fraction.exit")?),
        "rtru" => g.stat(p, s, "rtru"),
        _ => None,
    }
}

/// A summary row: its label and how a column is summed up.
type Summary = (&'static str, fn(&[Option<f64>]) -> Option<f64>);

/// Programs × columns, a column being a series and, for views with several numbers per
/// series, a part of it (`""` for none); `cell(program, series, part)`; one summary row,
/// `sum` over each column.
fn build(
    g: &Grid,
    cols: &[(usize, &str)],
    cell: impl Fn(usize, usize, &str) -> Option<f64>,
    (summary, sum): Summary,
    format: Format,
) -> Table {
    let rows: Vec<(String, Vec<Option<f64>>)> = g
        .programs
        .iter()
        .enumerate()
        .map(|(p, name)| {
            (
                name.to_string(),
                cols.iter().map(|&(s, part)| cell(p, s, part)).collect(),
            )
        })
        .collect();
    let summary = vec![(
        summary.to_string(),
        (0..cols.len())
            .map(|i| sum(&rows.iter().map(|(_, c)| c[i]).collect::<Vec<_>>()))
            .collect(),
    )];
    let columns = cols
        .iter()
        .map(|&(s, part)| {
            if part.is_empty() {
                g.series[s].label.clone()
            } else {
                format!("{} {part}", g.series[s].label)
            }
        })
        .collect();
    Table {
        row_label: "program",
        columns,
        rows,
        summary,
        format,
    }
}

/// Every (series, part) pair, series outer.
fn parts<'a>(shown: &[usize], parts: &[&'a str]) -> Vec<(usize, &'a str)> {
    shown
        .iter()
        .flat_map(|&s| parts.iter().map(move |p| (s, *p)))
        .collect()
}

/// The table of a view (`None` for a timeline or a CTA order, which have no numeric table).
pub fn table(g: &Grid, v: &View) -> Option<Table> {
    const MEAN: Summary = ("mean", mean);
    Some(match v {
        View::Speedup { series, baseline } => {
            let b = g.view_baseline(baseline)?;
            build(
                g,
                &parts(&g.shown(series, Some(b)), &[""]),
                |p, s, _| g.speedup_over(p, s, b),
                ("GM", geomean),
                Format::Ratio,
            )
        }
        View::Stat {
            stat,
            series,
            baseline,
        } => {
            let base = match baseline {
                Some(b) => Some(g.series_index(b)?),
                None => None,
            };
            let (summary, format): (Summary, Format) = match base {
                Some(_) => (("GM", geomean), Format::Ratio),
                None => (MEAN, stat_view(stat)?.format),
            };
            build(
                g,
                &parts(&g.shown(series, None), &[""]),
                |p, s, _| stat_cell(g, p, s, stat, base),
                summary,
                format,
            )
        }
        View::Rtru { series } => build(
            g,
            &parts(&g.shown(series, None), &[""]),
            |p, s, _| mean_stat(g, p, s, "rtru"),
            MEAN,
            Format::Percent,
        ),
        View::IssueSlots { series, baseline } => {
            let base = match baseline {
                Some(b) => Some(g.series_index(b)?),
                None => None,
            };
            let format = if base.is_some() {
                Format::Ratio
            } else {
                Format::Percent
            };
            build(
                g,
                &parts(&g.shown(series, None), &ISSUE_SLOT_KINDS),
                |p, s, k| issue_slot_cell(g, p, s, k, base),
                MEAN,
                format,
            )
        }
        View::Fractions { series } => build(
            g,
            &parts(&g.shown(series, None), &["barrier", "exit"]),
            |p, s, k| mean_stat(g, p, s, k),
            MEAN,
            Format::Percent,
        ),
        View::Stalls { series } => {
            let names: Vec<&str> = STALL_COMPONENTS.iter().map(|(n, _)| *n).collect();
            let stat = |name: &str| {
                STALL_COMPONENTS
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map_or("", |(_, k)| k)
            };
            build(
                g,
                &parts(&g.shown(series, None), &names),
                |p, s, c| stall_share(g, p, s, stat(c)),
                MEAN,
                Format::Ratio,
            )
        }
        View::CtaSpans {
            program,
            series,
            ctas,
        } => cta_span_table(g, program, series, *ctas as usize)?,
        View::Timeline { .. } | View::CtaOrder { .. } => return None,
    })
}

/// SM 0's CTAs of `program`'s longest launch under each of `series`: row `k` is the `k`-th
/// CTA SM 0 was given (dispatch order, the first `ctas`), with its linear index, dispatch and
/// exit cycles per series (empty where a series ran fewer, or its run failed or is missing);
/// summary row: the last of each column (the exit column's is when SM 0 finished).
pub fn cta_span_table(g: &Grid, program: &str, series: &[String], ctas: usize) -> Option<Table> {
    let p = g.program_index(program)?;
    let spans: Vec<&[super::record::SpanRow]> = series
        .iter()
        .map(|s| {
            g.series_index(s)
                .and_then(|s| g.record(p, s))
                .filter(|r| r.ok())
                .and_then(|r| r.cta_spans.as_deref())
                .map_or(&[][..], |v| &v[..v.len().min(ctas)])
        })
        .collect();
    let n = spans.iter().map(|v| v.len()).max().unwrap_or(0);
    let columns = series
        .iter()
        .flat_map(|s| [format!("{s} CTA"), format!("{s} start"), format!("{s} end")])
        .collect();
    let rows: Vec<(String, Vec<Option<f64>>)> = (0..n)
        .map(|k| {
            let cells = spans
                .iter()
                .flat_map(|v| {
                    let r = v.get(k);
                    [
                        r.map(|r| r.cta as f64),
                        r.map(|r| r.start as f64),
                        r.map(|r| r.end as f64),
                    ]
                })
                .collect();
            (k.to_string(), cells)
        })
        .collect();
    let last = (0..3 * series.len())
        .map(|i| {
            if i % 3 == 0 {
                None
            } else {
                rows.iter()
                    .filter_map(|(_, c)| c[i])
                    .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
            }
        })
        .collect();
    Some(Table {
        row_label: "k-th CTA on SM 0",
        columns,
        rows,
        summary: vec![("last".to_string(), last)],
        format: Format::Count,
    })
}
