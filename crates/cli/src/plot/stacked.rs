//! Stacked bar charts: per category (program) one bar per series (scheduler), each bar a
//! stack of components (stall reasons) drawn bottom to top in legend order, with the series
//! named under each bar, as in BAWS Figure 10. The caller normalises the heights (e.g. to
//! the baseline scheduler's total), so the chart adds nothing up across bars.

use super::canvas::{self, Anchor, Font};
use super::catlabels::CategoryLabels;
use super::frame::Frame;
use super::legend::{Entry, Swatch};
use super::palette;
use super::scale::{value_axis, YRange};
use super::text;
use super::PlotError;

/// A stacked bar chart: `values[c][s][k]` is component `k` of the bar of series `s` in
/// category `c`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StackedBars {
    pub title: String,
    pub y_label: String,
    pub categories: Vec<String>,
    /// The bars of every category, left to right; their names are written under each bar.
    pub series: Vec<String>,
    /// The parts of every stack, bottom to top; named in the legend.
    pub components: Vec<String>,
    /// Heights as the caller normalised them; all finite values must be ≥ 0. A bar with a
    /// non-finite component is left out and the chart says so.
    pub values: Vec<Vec<Vec<f64>>>,
    /// A dashed horizontal line at this value (1.0 for "normalised to the baseline").
    pub reference: Option<f64>,
}

const BAR_W: f64 = 14.0;
const BAR_GAP: f64 = 3.0;
const GROUP_GAP: f64 = 18.0;
const SERIES_PX: f64 = 10.0;
const NAMED: usize = 4;

fn check_shape(chart: &StackedBars) -> Result<(), PlotError> {
    if chart.categories.is_empty() {
        return Err(PlotError::Empty("no categories"));
    }
    if chart.series.is_empty() {
        return Err(PlotError::Empty("no series"));
    }
    if chart.components.is_empty() {
        return Err(PlotError::Empty("no stack components"));
    }
    let shape = |what: String, expected: usize, found: usize| {
        if expected == found {
            Ok(())
        } else {
            Err(PlotError::Shape {
                what,
                expected,
                found,
            })
        }
    };
    shape(
        "categories (values[category])".into(),
        chart.categories.len(),
        chart.values.len(),
    )?;
    for (c, per_cat) in chart.values.iter().enumerate() {
        shape(
            format!("category {:?} (one stack per series)", chart.categories[c]),
            chart.series.len(),
            per_cat.len(),
        )?;
        for (s, stack) in per_cat.iter().enumerate() {
            shape(
                format!(
                    "{}/{} (one value per component)",
                    chart.categories[c], chart.series[s]
                ),
                chart.components.len(),
                stack.len(),
            )?;
            if let Some(v) = stack.iter().find(|v| **v < 0.0) {
                return Err(PlotError::Invalid(format!(
                    "{}/{}: negative stack component {v}",
                    chart.categories[c], chart.series[s]
                )));
            }
        }
    }
    Ok(())
}

/// Renders `chart` as an SVG document.
pub fn stacked_bars(chart: &StackedBars) -> Result<String, PlotError> {
    check_shape(chart)?;
    let n_series = chart.series.len();
    let drawable = |stack: &Vec<f64>| stack.iter().all(|v| v.is_finite());
    let totals: Vec<f64> = chart
        .values
        .iter()
        .flatten()
        .filter(|st| drawable(st))
        .map(|st| st.iter().sum())
        .collect();
    let axis = value_axis(YRange::FromZero, &totals, chart.reference)?;
    let mut notes = Vec::new();
    let missing: Vec<String> = chart
        .values
        .iter()
        .enumerate()
        .flat_map(|(c, per_cat)| {
            per_cat
                .iter()
                .enumerate()
                .filter(|(_, st)| !drawable(st))
                .map(move |(s, _)| format!("{}/{}", chart.categories[c], chart.series[s]))
        })
        .collect();
    if !missing.is_empty() {
        let more = if missing.len() > NAMED {
            format!(" and {} more", missing.len() - NAMED)
        } else {
            String::new()
        };
        notes.push(format!(
            "Not drawn (a component is not finite): {}{more}.",
            missing[..missing.len().min(NAMED)].join(", ")
        ));
    }

    let slot = n_series as f64 * (BAR_W + BAR_GAP) - BAR_GAP + GROUP_GAP;
    let slot = slot.max(240.0 / chart.categories.len() as f64);
    let series_names: Vec<String> = chart.series.iter().map(|s| text::truncate(s, 16)).collect();
    let series_h = if n_series > 1 {
        series_names
            .iter()
            .map(|s| text::width(s, SERIES_PX))
            .fold(0.0, f64::max)
            + 8.0
    } else {
        0.0
    };
    let labels = CategoryLabels::plan(&chart.categories, slot);
    let legend = chart
        .components
        .iter()
        .enumerate()
        .map(|(i, k)| Entry {
            label: text::truncate(k, 28),
            swatch: Swatch::Fill(palette::series(i)),
        })
        .collect();
    let frame = Frame {
        title: &chart.title,
        y_label: &chart.y_label,
        legend,
        axis,
        plot_w: slot * chart.categories.len() as f64,
        band_h: series_h + labels.height(),
        notes,
    };
    let l = frame.layout();
    canvas::render(l.size(), |c| {
        frame.draw_under(c, &l)?;
        let centers: Vec<f64> = (0..chart.categories.len())
            .map(|g| l.left + slot * (g as f64 + 0.5))
            .collect();
        let series_font = Font::new(SERIES_PX, palette::TEXT).vertical();
        for (g, per_cat) in chart.values.iter().enumerate() {
            let x_first = centers[g] - (n_series as f64 * (BAR_W + BAR_GAP) - BAR_GAP) / 2.0;
            for (s, stack) in per_cat.iter().enumerate() {
                let (x0, x1) = (
                    x_first + s as f64 * (BAR_W + BAR_GAP),
                    x_first + s as f64 * (BAR_W + BAR_GAP) + BAR_W,
                );
                if n_series > 1 {
                    c.text(
                        &series_names[s],
                        (x0 + x1) / 2.0,
                        l.bottom + 4.0,
                        Anchor::End,
                        series_font,
                    )?;
                }
                if !drawable(stack) {
                    continue;
                }
                let mut acc = 0.0;
                for (k, v) in stack.iter().enumerate() {
                    c.fill(
                        x0,
                        frame.y(&l, acc),
                        x1,
                        frame.y(&l, acc + v),
                        palette::series(k),
                    )?;
                    acc += v;
                }
                if acc > 0.0 {
                    c.outline(
                        x0,
                        frame.y(&l, acc),
                        x1,
                        frame.y(&l, 0.0),
                        palette::AXIS,
                        0.45,
                    )?;
                }
            }
        }
        frame.draw_over(c, &l, chart.reference)?;
        labels.draw(c, &centers, l.bottom + series_h)
    })
}

#[cfg(test)]
mod tests {
    use super::super::svg_check::{count_filled, count_text, has_text, well_formed};
    use super::*;

    fn chart(categories: usize, series: usize, components: usize) -> StackedBars {
        StackedBars {
            title: "Stall breakdown".into(),
            y_label: "stall cycles (LRR = 1)".into(),
            categories: (0..categories).map(|c| format!("P{c}")).collect(),
            series: (0..series).map(|s| format!("S{s}")).collect(),
            components: (0..components).map(|k| format!("K{k}")).collect(),
            values: (0..categories)
                .map(|_| {
                    (0..series)
                        .map(|_| (0..components).map(|k| 0.1 + 0.05 * k as f64).collect())
                        .collect()
                })
                .collect(),
            reference: Some(1.0),
        }
    }

    fn hex(i: usize) -> String {
        let c = palette::series(i);
        format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
    }

    #[test]
    fn one_rect_per_component_per_bar_and_labels() {
        let svg = stacked_bars(&chart(3, 4, 6)).unwrap();
        well_formed(&svg);
        assert_eq!(
            stacked_bars(&chart(3, 4, 6)).unwrap(),
            svg,
            "not deterministic"
        );
        assert!(has_text(&svg, "Stall breakdown"));
        for k in 0..6 {
            assert_eq!(count_filled(&svg, &hex(k)), 3 * 4 + 1, "component {k}");
            assert_eq!(count_text(&svg, &format!("K{k}")), 1);
        }
        for s in 0..4 {
            // Under every bar.
            assert_eq!(count_text(&svg, &format!("S{s}")), 3);
        }
        for c in 0..3 {
            assert!(has_text(&svg, &format!("P{c}")));
        }
    }

    #[test]
    fn non_finite_bar_is_skipped_and_noted() {
        let mut ch = chart(2, 2, 3);
        ch.values[1][0][2] = f64::NAN;
        let svg = stacked_bars(&ch).unwrap();
        assert_eq!(count_filled(&svg, &hex(0)), 2 * 2 - 1 + 1);
        assert!(
            svg.contains("Not drawn (a component is not finite): P1/S0."),
            "{svg}"
        );
    }

    #[test]
    fn bad_data_are_errors() {
        assert!(matches!(
            stacked_bars(&chart(0, 2, 2)),
            Err(PlotError::Empty(_))
        ));
        assert!(matches!(
            stacked_bars(&chart(2, 0, 2)),
            Err(PlotError::Empty(_))
        ));
        assert!(matches!(
            stacked_bars(&chart(2, 2, 0)),
            Err(PlotError::Empty(_))
        ));
        let mut ch = chart(2, 2, 3);
        ch.values[1][1].push(0.5);
        assert!(matches!(
            stacked_bars(&ch),
            Err(PlotError::Shape {
                expected: 3,
                found: 4,
                ..
            })
        ));
        let mut ch = chart(2, 2, 3);
        ch.values.pop();
        assert!(matches!(
            stacked_bars(&ch),
            Err(PlotError::Shape {
                expected: 2,
                found: 1,
                ..
            })
        ));
        let mut ch = chart(2, 2, 3);
        ch.values[0][1][0] = -0.1;
        assert!(matches!(stacked_bars(&ch), Err(PlotError::Invalid(_))));
    }

    #[test]
    fn all_zero_and_single_series_render() {
        let mut ch = chart(1, 1, 2);
        ch.values = vec![vec![vec![0.0, 0.0]]];
        let svg = stacked_bars(&ch).unwrap();
        well_formed(&svg);
        // Zero-height pieces are not drawn; the legend keys are.
        assert_eq!(count_filled(&svg, &hex(0)), 1);
        // One series: no names under the bars.
        assert_eq!(count_text(&svg, "S0"), 0);
    }
}
