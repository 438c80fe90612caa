//! Views → SVG figures, through `crate::plot`: speedups as grouped bars with a
//! geometric-mean group and a line at 1.0, fractions and stall breakdowns as stacked bars
//! (one stack per series under each program), RTRU as grouped bars from zero, and
//! timelines from a run's recorded warp phases.

use super::grid::Grid;
use super::record::SegmentKind;
use super::spec::MeanStat;
use super::spec::View;
use super::table::{
    cta_span_table, issue_slot_cell, mean_stat, stall_share, stat_cell, StatView, BAWS_CLASSES,
    FRACTIONS, ISSUE_SLOTS, STALL_COMPONENTS,
};
use crate::plot::{self, GroupedBars, Lane, Segment, Series, StackedBars, Timeline, YRange};

/// Missing and failed cells are NaN: the charts leave them out and say so under the chart.
fn value(v: Option<f64>) -> f64 {
    v.unwrap_or(f64::NAN)
}

/// One stack per shown series under each program, `parts` bottom to top, heights
/// `value(program, series, part index)`.
fn stacked(
    g: &Grid,
    series: &[String],
    what: &str,
    y_label: String,
    parts: &[&str],
    value: impl Fn(usize, usize, usize) -> Option<f64>,
    reference: Option<f64>,
) -> Result<String, plot::PlotError> {
    let shown = g.shown(series, None);
    plot::stacked_bars(&StackedBars {
        title: format!("{what} ({}, {})", g.experiment.configs(), g.experiment.name),
        y_label,
        categories: g.programs.iter().map(|p| p.to_string()).collect(),
        series: shown.iter().map(|&s| g.series[s].label.clone()).collect(),
        components: parts.iter().map(|k| k.to_string()).collect(),
        values: (0..g.programs.len())
            .map(|p| {
                shown
                    .iter()
                    .map(|&s| {
                        (0..parts.len())
                            .map(|k| self::value(value(p, s, k)))
                            .collect()
                    })
                    .collect()
            })
            .collect(),
        reference,
    })
}

/// One bar series per shown series, a bar per program: `cell(program, series)`.
fn bars(g: &Grid, shown: Vec<usize>, cell: impl Fn(usize, usize) -> Option<f64>) -> Vec<Series> {
    shown
        .into_iter()
        .map(|s| Series {
            name: g.series[s].label.clone(),
            values: (0..g.programs.len()).map(|p| value(cell(p, s))).collect(),
        })
        .collect()
}

/// The figure of view `v` as SVG; `Ok(None)` when there is nothing to draw (a timeline
/// whose run failed).
pub fn draw(g: &Grid, v: &View) -> Result<Option<String>, String> {
    let e = g.experiment;
    let title = |what: &str| format!("{what} ({}, {})", e.configs(), e.name);
    let categories: Vec<String> = g.programs.iter().map(|p| p.to_string()).collect();
    let svg = match v {
        View::Speedup { series, baseline } => {
            let Some(b) = g.view_baseline(baseline) else {
                return Ok(None);
            };
            plot::grouped_bars(&GroupedBars {
                title: title("Speedup"),
                y_label: format!("speedup over {}", g.series[b].label),
                categories,
                series: bars(g, g.shown(series, Some(b)), |p, s| g.speedup_over(p, s, b)),
                geomean: Some("GM".into()),
                reference: Some(1.0),
                y_range: YRange::Auto,
            })
        }
        View::IssueSlots { series, baseline } => {
            let base = baseline.as_deref().and_then(|b| g.series_index(b));
            let y = match baseline {
                Some(b) => format!("issue-stall slots / {b}'s"),
                None => "share of issue slots".into(),
            };
            stacked(
                g,
                series,
                "Issue slots",
                y,
                &ISSUE_SLOTS.map(|k| k.label),
                |p, s, k| issue_slot_cell(g, p, s, &ISSUE_SLOTS[k], base),
                base.map(|_| 1.0),
            )
        }
        View::Rtru { series } => plot::grouped_bars(&GroupedBars {
            title: title("RTRU"),
            y_label: "RTRU (mean over warp phases)".into(),
            categories,
            series: bars(g, g.shown(series, None), |p, s| {
                mean_stat(g, p, s, MeanStat::Rtru)
            }),
            geomean: None,
            reference: None,
            y_range: YRange::FromZero,
        }),
        View::Stat {
            stat,
            series,
            baseline,
        } => stat_figure(g, stat.0, series, baseline.as_deref()),
        View::Fractions { series } => stacked(
            g,
            series,
            "Barrier and exit stalls",
            "share of resident warp cycles".into(),
            &FRACTIONS.map(|(label, _)| label),
            |p, s, k| mean_stat(g, p, s, FRACTIONS[k].1),
            None,
        ),
        View::Stalls { series } => {
            let classes = &STALL_COMPONENTS[..BAWS_CLASSES];
            let names: Vec<&str> = classes.iter().map(|(n, _)| *n).collect();
            let y = format!("stall cycles / {}'s", e.baseline.as_deref().unwrap_or("?"));
            stacked(
                g,
                series,
                "Stall breakdown",
                y,
                &names,
                |p, s, c| stall_share(g, p, s, classes[c].1),
                Some(1.0),
            )
        }
        // A table, not a figure (`output.rs`).
        View::CtaOrder { .. } => return Ok(None),
        View::CtaSpans {
            program,
            series,
            ctas,
        } => match cta_spans_figure(g, program, series, *ctas) {
            Some(svg) => svg,
            None => return Ok(None),
        },
        View::Timeline {
            program,
            series,
            ctas,
        } => match timeline_figure(g, program, series, *ctas) {
            Some(svg) => svg,
            None => return Ok(None),
        },
    };
    svg.map(Some).map_err(|e| e.to_string())
}

/// A `stat` view: the statistic per program and series, or its ratio to `baseline`'s.
fn stat_figure(
    g: &Grid,
    stat: &StatView,
    series: &[String],
    baseline: Option<&str>,
) -> Result<String, plot::PlotError> {
    let e = g.experiment;
    let base = baseline.and_then(|b| g.series_index(b));
    let label = stat.short;
    plot::grouped_bars(&GroupedBars {
        title: format!("{label} ({}, {})", e.configs(), e.name),
        y_label: match baseline {
            Some(b) => format!("{label} / {b}'s"),
            None => label.to_string(),
        },
        categories: g.programs.iter().map(|p| p.to_string()).collect(),
        series: bars(g, g.shown(series, None), |p, s| {
            stat_cell(g, p, s, stat.stat, base)
        }),
        geomean: base.map(|_| "GM".into()),
        reference: base.map(|_| 1.0),
        y_range: YRange::FromZero,
    })
}

/// PRO Figure 2: SM 0's CTAs of `program` under each of `series`, dispatch to exit; `None`
/// when no run has any.
fn cta_spans_figure(
    g: &Grid,
    program: &str,
    series: &[String],
    ctas: u32,
) -> Option<Result<String, plot::PlotError>> {
    let e = g.experiment;
    let t = cta_span_table(g, program, series, ctas as usize)?;
    // One block per series, one lane per CTA in the order SM 0 was given them.
    let lanes: Vec<Lane> = series
        .iter()
        .enumerate()
        .flat_map(|(i, name)| {
            t.rows.iter().filter_map(move |(_, cells)| {
                let (cta, start, end) = (cells[3 * i]?, cells[3 * i + 1]?, cells[3 * i + 2]?);
                Some(Lane {
                    label: format!("CTA {cta}"),
                    group: name.clone(),
                    segments: vec![Segment {
                        start: start as u64,
                        end: end as u64,
                        kind: plot::SegmentKind::Resident,
                    }],
                })
            })
        })
        .collect();
    if lanes.is_empty() {
        return None;
    }
    Some(plot::timeline(&Timeline {
        title: format!(
            "{program}: CTAs on SM 0, dispatch to exit ({})",
            e.configs()
        ),
        x_label: "cycle of the launch".into(),
        lanes,
    }))
}

/// A warp-phase timeline of `program` under `series`: the first `ctas` CTAs of SM 0; `None`
/// when the run is missing, failed or recorded no phases.
fn timeline_figure(
    g: &Grid,
    program: &str,
    series: &str,
    ctas: u32,
) -> Option<Result<String, plot::PlotError>> {
    let e = g.experiment;
    let (p, s) = (g.program_index(program)?, g.series_index(series)?);
    let lanes = g.record(p, s).and_then(|r| r.phases.as_ref())?;
    let mut shown_ctas: Vec<u64> = Vec::new();
    for l in lanes {
        if !shown_ctas.contains(&l.cta) && shown_ctas.len() < ctas as usize {
            shown_ctas.push(l.cta);
        }
    }
    let lanes: Vec<Lane> = lanes
        .iter()
        .filter(|l| shown_ctas.contains(&l.cta))
        .map(|l| Lane {
            label: format!("w{}", l.warp),
            group: format!("CTA {}", l.cta),
            segments: l
                .segments
                .iter()
                .map(|s| Segment {
                    start: s.start,
                    end: s.end,
                    kind: match s.kind {
                        // The paper numbers phases from 1.
                        SegmentKind::Run { phase } => plot::SegmentKind::Run(phase + 1),
                        SegmentKind::BarrierWait => plot::SegmentKind::BarrierWait,
                        SegmentKind::ExitWait => plot::SegmentKind::ExitWait,
                    },
                })
                .collect(),
        })
        .collect();
    if lanes.is_empty() {
        return None;
    }
    Some(plot::timeline(&Timeline {
        title: format!(
            "{program} under {series}: warp phases, first CTAs of SM 0 ({})",
            e.configs()
        ),
        x_label: "cycle of the launch".into(),
        lanes,
    }))
}
