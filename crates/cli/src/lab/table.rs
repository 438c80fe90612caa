//! Views → tables: rows are programs plus a summary row (geometric mean for speedups,
//! arithmetic mean for fractions and RTRU), columns are series (or series × component). A
//! cell whose run failed or is missing is empty, and so is any summary over it. Statistics
//! are named by their `warpsim_timing::stat_table` constants, never by string, so a cell
//! cannot be empty for a misspelt name.

use super::grid::{geomean, mean, Grid};
use super::spec::{MeanStat, View};
use warpsim_timing::stat_table::{self as st, StatDef};

/// The stall components of BAWS Figure 10, in its order: the record's `baws.*` statistics
/// (`analysis::baws_breakdown`: `drain` counts as exit), then `not selected` (ready but not
/// picked), which is no BAWS class: it is shown beside the six, outside the total the
/// series are normalised by, and not drawn in the stacks.
pub const STALL_COMPONENTS: [(&str, &StatDef); 7] = [
    ("control", &st::BAWS_CONTROL),
    ("data", &st::BAWS_DATA),
    ("structural", &st::BAWS_STRUCTURAL),
    ("barrier", &st::BAWS_BARRIER),
    ("exit", &st::BAWS_EXIT),
    ("fetch", &st::BAWS_FETCH),
    ("not selected", &st::BAWS_NOT_SELECTED),
];

/// An issue-slot kind an `issue-slots` view shows: its column label, its slots and their
/// share of all slots.
pub struct IssueSlot {
    pub label: &'static str,
    pub slots: &'static StatDef,
    pub ratio: &'static StatDef,
}

/// The issue-slot kinds an `issue-slots` view shows; the rest of the slots issued.
pub const ISSUE_SLOTS: [IssueSlot; 3] = [
    IssueSlot {
        label: "idle",
        slots: &st::ISSUE_IDLE,
        ratio: &st::ISSUE_IDLE_RATIO,
    },
    IssueSlot {
        label: "scoreboard",
        slots: &st::ISSUE_SCOREBOARD,
        ratio: &st::ISSUE_SCOREBOARD_RATIO,
    },
    IssueSlot {
        label: "pipeline",
        slots: &st::ISSUE_PIPELINE,
        ratio: &st::ISSUE_PIPELINE_RATIO,
    },
];

/// The fractions view's columns.
pub const FRACTIONS: [(&str, MeanStat); 2] =
    [("barrier", MeanStat::Barrier), ("exit", MeanStat::Exit)];

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

/// A statistic of the record that a `stat` view can show, with the words its headings and
/// axes use (the statistic's own description is in `stat_table`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatView {
    /// The statistic (its record name is what the experiment TOML's `stat` keys give).
    pub stat: &'static StatDef,
    /// What it is, for headings.
    pub label: &'static str,
    /// A few words, for figure titles and axes.
    pub short: &'static str,
    pub format: Format,
}

const fn sv(
    stat: &'static StatDef,
    label: &'static str,
    short: &'static str,
    format: Format,
) -> StatView {
    StatView {
        stat,
        label,
        short,
        format,
    }
}

/// The statistics `stat` views and `stat-ratio` claims can use.
pub const STAT_VIEWS: &[StatView] = &[
    sv(&st::CYCLES, "cycles", "cycles", Format::Count),
    sv(
        &st::IPC,
        "IPC (warp instructions per cycle)",
        "IPC",
        Format::Ratio,
    ),
    sv(
        &st::L1D_LOAD_MISS_RATE,
        "L1D miss rate of loads",
        "L1D miss rate",
        Format::Percent,
    ),
    sv(
        &st::L1D_RESERVATION_FAILS,
        "L1D reservation-fail cycles",
        "reservation fails",
        Format::Count,
    ),
    sv(
        &st::ISSUE_IDLE,
        "idle issue slots (no warp had a valid instruction)",
        "idle slots",
        Format::Count,
    ),
    sv(
        &st::ISSUE_SCOREBOARD,
        "scoreboard issue slots (valid instructions all waiting on operands)",
        "scoreboard slots",
        Format::Count,
    ),
    sv(
        &st::ISSUE_PIPELINE,
        "pipeline-stall issue slots (ready warps, their units busy)",
        "pipeline-stall slots",
        Format::Count,
    ),
    sv(
        &st::WARPS_IN_FLIGHT,
        "mean warps with an issued, not yet completed instruction per SM (MOTRR's \"in flight\")",
        "warps in flight",
        Format::Ratio,
    ),
    sv(
        &st::WARPS_RESIDENT,
        "mean resident, unfinished warps per SM",
        "warps resident",
        Format::Ratio,
    ),
    sv(
        &st::LAST_CTA_CYCLES,
        "cycles of the longest launch's last-dispatched CTA",
        "last CTA cycles",
        Format::Count,
    ),
    sv(
        &st::LAST_CTA_MEAN_CYCLES,
        "cycles of each launch's last-dispatched CTA, mean over the launches",
        "mean last-CTA cycles",
        Format::Count,
    ),
    sv(
        &st::SHARED_ISSUES_SP,
        "warp-sharing issues to an SP port of another scheduler",
        "shared SP issues",
        Format::Count,
    ),
    sv(
        &st::SHARED_ISSUES_SFU,
        "warp-sharing issues to an SFU port of another scheduler",
        "shared SFU issues",
        Format::Count,
    ),
    sv(
        &st::SHARED_ISSUES_MEM,
        "warp-sharing issues to a MEM (LD/ST) port of another scheduler",
        "shared MEM issues",
        Format::Count,
    ),
    sv(
        &st::SHARED_ISSUES,
        "warp-sharing issues to another scheduler's port, all unit classes",
        "shared issues",
        Format::Count,
    ),
];

impl StatView {
    /// Its name in records and in the experiment TOML.
    pub fn name(&self) -> &'static str {
        self.stat.record.unwrap_or(self.stat.name)
    }
}

/// The `stat` view entry named `name` (a record name); else an error naming the valid ones.
pub fn stat_view(name: &str) -> Result<&'static StatView, String> {
    STAT_VIEWS.iter().find(|v| v.name() == name).ok_or_else(|| {
        let names: Vec<&str> = STAT_VIEWS.iter().map(|v| v.name()).collect();
        format!("{name:?} is not one of {}", names.join(", "))
    })
}

/// A `stat` view's cell: the statistic, or its ratio to series `baseline`'s.
pub fn stat_cell(
    g: &Grid,
    p: usize,
    s: usize,
    stat: &StatDef,
    baseline: Option<usize>,
) -> Option<f64> {
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
    kind: &IssueSlot,
    baseline: Option<usize>,
) -> Option<f64> {
    match baseline {
        None => g.stat(p, s, kind.ratio),
        Some(b) => {
            let total: f64 = ISSUE_SLOTS
                .iter()
                .map(|k| g.stat(p, b, k.slots))
                .sum::<Option<f64>>()?;
            let part = g.stat(p, s, kind.slots)?;
            (total > 0.0).then(|| part / total)
        }
    }
}

/// Per program and series, a stall component's cycles over the baseline's total stall
/// cycles (its six BAWS classes).
pub fn stall_share(g: &Grid, p: usize, s: usize, component: &StatDef) -> Option<f64> {
    let b = g.baseline()?;
    let total: f64 = STALL_COMPONENTS[..BAWS_CLASSES]
        .iter()
        .map(|(_, k)| g.stat(p, b, k))
        .sum::<Option<f64>>()?;
    let part = g.stat(p, s, component)?;
    (total > 0.0).then(|| part / total)
}

/// The value of a fractions / RTRU statistic.
pub fn mean_stat(g: &Grid, p: usize, s: usize, stat: MeanStat) -> Option<f64> {
    let barrier = &st::BARRIER_STALL_FRACTION;
    match stat {
        MeanStat::Barrier => g.stat(p, s, barrier),
        MeanStat::Exit => g.stat(p, s, &st::FRACTION_EXIT),
        MeanStat::BarrierExit => Some(g.stat(p, s, barrier)? + g.stat(p, s, &st::FRACTION_EXIT)?),
        MeanStat::Rtru => g.stat(p, s, &st::RTRU),
    }
}

/// A summary row: its label and how a column is summed up.
type Summary = (&'static str, fn(&[Option<f64>]) -> Option<f64>);

/// Programs × columns, a column being a shown series and, for views with several numbers
/// per series, a part of it (`parts` their labels, `[""]` for none); `cell(program, series,
/// part index)`; one summary row, `sum` over each column.
fn build(
    g: &Grid,
    shown: &[usize],
    parts: &[&str],
    cell: impl Fn(usize, usize, usize) -> Option<f64>,
    (summary, sum): Summary,
    format: Format,
) -> Table {
    let cols: Vec<(usize, usize)> = shown
        .iter()
        .flat_map(|&s| (0..parts.len()).map(move |k| (s, k)))
        .collect();
    let rows: Vec<(String, Vec<Option<f64>>)> = g
        .programs
        .iter()
        .enumerate()
        .map(|(p, name)| {
            (
                name.to_string(),
                cols.iter().map(|&(s, k)| cell(p, s, k)).collect(),
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
        .map(|&(s, k)| match parts[k] {
            "" => g.series[s].label.clone(),
            part => format!("{} {part}", g.series[s].label),
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

/// The table of a view (`None` for a timeline or a CTA order, which have no numeric table).
pub fn table(g: &Grid, v: &View) -> Option<Table> {
    const MEAN: Summary = ("mean", mean);
    Some(match v {
        View::Speedup { series, baseline } => {
            let b = g.view_baseline(baseline)?;
            build(
                g,
                &g.shown(series, Some(b)),
                &[""],
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
                None => (MEAN, stat.0.format),
            };
            build(
                g,
                &g.shown(series, None),
                &[""],
                |p, s, _| stat_cell(g, p, s, stat.0.stat, base),
                summary,
                format,
            )
        }
        View::Rtru { series } => build(
            g,
            &g.shown(series, None),
            &[""],
            |p, s, _| mean_stat(g, p, s, MeanStat::Rtru),
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
                &g.shown(series, None),
                &ISSUE_SLOTS.map(|k| k.label),
                |p, s, k| issue_slot_cell(g, p, s, &ISSUE_SLOTS[k], base),
                MEAN,
                format,
            )
        }
        View::Fractions { series } => build(
            g,
            &g.shown(series, None),
            &FRACTIONS.map(|(label, _)| label),
            |p, s, k| mean_stat(g, p, s, FRACTIONS[k].1),
            MEAN,
            Format::Percent,
        ),
        View::Stalls { series } => build(
            g,
            &g.shown(series, None),
            &STALL_COMPONENTS.map(|(label, _)| label),
            |p, s, c| stall_share(g, p, s, STALL_COMPONENTS[c].1),
            MEAN,
            Format::Ratio,
        ),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Tables name statistics by constant; each must be one records hold, or its cells would
    /// always be empty.
    #[test]
    fn every_statistic_a_table_reads_is_recorded() {
        let used = STAT_VIEWS
            .iter()
            .map(|v| v.stat)
            .chain(STALL_COMPONENTS.iter().map(|c| c.1))
            .chain(ISSUE_SLOTS.iter().flat_map(|k| [k.slots, k.ratio]))
            .chain([
                &st::BARRIER_STALL_FRACTION,
                &st::FRACTION_EXIT,
                &st::RTRU,
                &st::CYCLES,
                &st::THREAD_INSTRUCTIONS,
            ]);
        for d in used {
            assert!(d.record.is_some(), "{} is not recorded", d.name);
        }
    }
}
