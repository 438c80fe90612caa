//! Grouped bar charts: one group per category (program), one bar per series (scheduler) in
//! each group, in legend order, as in BAWS Figures 8, 9, 11 and 12. The function can append
//! a geometric-mean group; a reference line (1.0 for speedups) is drawn over the bars.

use super::canvas::{self, Anchor, Font};
use super::catlabels::CategoryLabels;
use super::frame::Frame;
use super::geomean::geometric_mean;
use super::legend::{Entry, Swatch};
use super::palette;
use super::scale::{value_axis, YRange};
use super::text;
use super::PlotError;

/// One series of bars: a name for the legend and one value per category (NaN or infinite
/// for a missing value: its bar is left out and the chart says so).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Series {
    pub name: String,
    pub values: Vec<f64>,
}

/// A grouped bar chart: `series[s].values[c]` is the bar of series `s` in category `c`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GroupedBars {
    pub title: String,
    pub y_label: String,
    pub categories: Vec<String>,
    pub series: Vec<Series>,
    /// Some(label): append a group with this label holding each series' geometric mean over
    /// all categories, computed here (see [`geometric_mean`]; a series with a missing or
    /// non-positive value gets no mean bar, and a note says so). None: no mean group (a caller
    /// with its own mean adds it as an ordinary category).
    pub geomean: Option<String>,
    /// A dashed horizontal line at this value, over the bars (1.0 for speedups).
    pub reference: Option<f64>,
    pub y_range: YRange,
}

/// A single-series bar chart (e.g. one statistic per program); no legend. No report draws
/// one yet (the review renderer and tests do).
#[allow(dead_code)]
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Bars {
    pub title: String,
    pub y_label: String,
    pub categories: Vec<String>,
    pub values: Vec<f64>,
    /// As in [`GroupedBars::geomean`].
    pub geomean: Option<String>,
    pub reference: Option<f64>,
    pub y_range: YRange,
}

/// At most this many missing values are named in the note; the rest are counted.
const NAMED: usize = 4;
const MIN_PLOT_W: f64 = 240.0;

/// Renders `chart` as an SVG document.
pub fn grouped_bars(chart: &GroupedBars) -> Result<String, PlotError> {
    if chart.categories.is_empty() {
        return Err(PlotError::Empty("no categories"));
    }
    if chart.series.is_empty() {
        return Err(PlotError::Empty("no series"));
    }
    for s in &chart.series {
        if s.values.len() != chart.categories.len() {
            return Err(PlotError::Shape {
                what: format!("series {:?} (one value per category)", s.name),
                expected: chart.categories.len(),
                found: s.values.len(),
            });
        }
    }
    let n_series = chart.series.len();
    let mut group_labels = chart.categories.clone();
    // columns[g][s]: the bar of series s in group g (None: not drawn).
    let mut columns: Vec<Vec<Option<f64>>> = (0..chart.categories.len())
        .map(|c| {
            chart
                .series
                .iter()
                .map(|s| Some(s.values[c]).filter(|v| v.is_finite()))
                .collect()
        })
        .collect();
    let mut notes = Vec::new();
    let missing: Vec<String> = chart
        .categories
        .iter()
        .enumerate()
        .flat_map(|(c, cat)| {
            chart
                .series
                .iter()
                .filter(move |s| !s.values[c].is_finite())
                .map(move |s| format!("{cat}/{}", s.name))
        })
        .collect();
    if !missing.is_empty() {
        let more = if missing.len() > NAMED {
            format!(" and {} more", missing.len() - NAMED)
        } else {
            String::new()
        };
        notes.push(format!(
            "Not drawn (value not finite): {}{more}.",
            missing[..missing.len().min(NAMED)].join(", ")
        ));
    }
    if let Some(label) = &chart.geomean {
        let means: Vec<Option<f64>> = chart
            .series
            .iter()
            .map(|s| geometric_mean(&s.values))
            .collect();
        let lacking: Vec<&str> = chart
            .series
            .iter()
            .zip(&means)
            .filter(|(_, m)| m.is_none())
            .map(|(s, _)| s.name.as_str())
            .collect();
        if !lacking.is_empty() {
            notes.push(format!(
                "No {label} bar for {}: a value is missing or not positive.",
                lacking.join(", ")
            ));
        }
        group_labels.push(label.clone());
        columns.push(means);
    }
    let drawn: Vec<f64> = columns.iter().flatten().flatten().copied().collect();
    let axis = value_axis(chart.y_range, &drawn, chart.reference)?;

    let bar_w = if n_series == 1 {
        22.0
    } else {
        (72.0 / n_series as f64).clamp(9.0, 16.0)
    };
    let gap = bar_w.max(12.0);
    let slot = (n_series as f64 * bar_w + gap).max(MIN_PLOT_W / group_labels.len() as f64);
    let labels = CategoryLabels::plan(&group_labels, slot);
    let legend = if n_series > 1 {
        chart
            .series
            .iter()
            .enumerate()
            .map(|(i, s)| Entry {
                label: text::truncate(&s.name, 28),
                swatch: Swatch::Fill(palette::series(i)),
            })
            .collect()
    } else {
        Vec::new()
    };
    let below = drawn.iter().filter(|&&v| v < axis.lo).count();
    if below > 0 {
        notes.push(format!(
            "{below} bar(s) below the axis range are not visible."
        ));
    }
    let frame = Frame {
        title: &chart.title,
        y_label: &chart.y_label,
        legend,
        axis,
        plot_w: slot * group_labels.len() as f64,
        band_h: labels.height(),
        notes,
    };
    let l = frame.layout();
    canvas::render(l.size(), |c| {
        frame.draw_under(c, &l)?;
        let centers: Vec<f64> = (0..group_labels.len())
            .map(|g| l.left + slot * (g as f64 + 0.5))
            .collect();
        if chart.geomean.is_some() {
            let x = l.left + slot * chart.categories.len() as f64;
            c.dashed((x, l.top), (x, l.bottom), palette::NOTE, 1)?;
        }
        let base_y = frame.y(&l, axis.base());
        let mut values = Vec::new();
        for (g, column) in columns.iter().enumerate() {
            let x_first = centers[g] - n_series as f64 * bar_w / 2.0;
            for (s, v) in column.iter().enumerate() {
                let Some(v) = *v else { continue };
                let (x0, x1) = (x_first + s as f64 * bar_w, x_first + (s + 1) as f64 * bar_w);
                let clipped = v > axis.hi;
                let y = frame.y(&l, v.clamp(axis.lo, axis.hi));
                c.fill(x0, base_y, x1, y, palette::series(s))?;
                if (y - base_y).abs() >= 1.0 {
                    c.outline(x0, base_y.min(y), x1, base_y.max(y), palette::AXIS, 0.45)?;
                }
                // The mean bars and bars cut by the axis carry their value.
                let is_mean = g == chart.categories.len();
                if clipped || is_mean {
                    values.push((v, (x0 + x1) / 2.0, y, s));
                }
            }
        }
        frame.draw_over(c, &l, chart.reference)?;
        for (v, x, y, s) in values {
            value_label(c, v, x, y, l.top, palette::series(s))?;
        }
        labels.draw(c, &centers, l.bottom)
    })
}

/// Writes `v` along a bar whose top is at `y`: above it when there is room under the plot
/// area's top edge, else inside the bar's top in a colour that reads on `fill`.
fn value_label(
    c: &canvas::Canvas,
    v: f64,
    x: f64,
    y: f64,
    top: f64,
    fill: plotters::style::RGBColor,
) -> Result<(), PlotError> {
    const PX: f64 = 9.0;
    let s = format!("{v:.2}");
    let w = text::width(&s, PX);
    if y - 3.0 - w >= top {
        // On white, so grid and reference lines do not run through the digits.
        c.fill(
            x - PX / 2.0,
            y - 4.0 - w,
            x + PX / 2.0,
            y - 1.0,
            plotters::style::WHITE,
        )?;
        c.text(
            &s,
            x,
            y - 3.0,
            Anchor::Start,
            Font::new(PX, palette::TEXT).vertical(),
        )
    } else {
        c.text(
            &s,
            x,
            y + 3.0,
            Anchor::End,
            Font::new(PX, palette::text_on(fill)).vertical(),
        )
    }
}

/// Renders a single-series chart (a [`grouped_bars`] chart with one series and no legend).
// No report draws a single-series chart yet (the review renderer and tests do).
#[allow(dead_code)]
pub fn bars(chart: &Bars) -> Result<String, PlotError> {
    grouped_bars(&GroupedBars {
        title: chart.title.clone(),
        y_label: chart.y_label.clone(),
        categories: chart.categories.clone(),
        series: vec![Series {
            name: chart.y_label.clone(),
            values: chart.values.clone(),
        }],
        geomean: chart.geomean.clone(),
        reference: chart.reference,
        y_range: chart.y_range,
    })
}

#[cfg(test)]
mod tests {
    use super::super::svg_check::{count_filled, has_text, well_formed};
    use super::*;

    fn chart(categories: usize, series: usize) -> GroupedBars {
        GroupedBars {
            title: "Speedup over LRR".into(),
            y_label: "speedup".into(),
            categories: (0..categories).map(|c| format!("P{c}")).collect(),
            series: (0..series)
                .map(|s| Series {
                    name: format!("S{s}"),
                    values: (0..categories)
                        .map(|c| 0.9 + 0.01 * (c * series + s) as f64)
                        .collect(),
                })
                .collect(),
            geomean: None,
            reference: Some(1.0),
            y_range: YRange::Auto,
        }
    }

    fn hex(i: usize) -> String {
        let c = palette::series(i);
        format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
    }

    #[test]
    fn one_rect_per_bar_plus_legend_key() {
        let svg = grouped_bars(&chart(5, 3)).unwrap();
        well_formed(&svg);
        assert!(has_text(&svg, "Speedup over LRR"));
        for s in 0..3 {
            // 5 bars and the legend's key.
            assert_eq!(count_filled(&svg, &hex(s)), 6, "series {s}");
            assert!(has_text(&svg, &format!("S{s}")));
        }
        for c in 0..5 {
            assert!(has_text(&svg, &format!("P{c}")));
        }
    }

    #[test]
    fn geomean_group_is_appended() {
        let mut ch = chart(2, 2);
        ch.series[0].values = vec![1.0, 4.0];
        ch.geomean = Some("GM".into());
        let svg = grouped_bars(&ch).unwrap();
        assert!(has_text(&svg, "GM"));
        // The mean bars are labelled with their value: gm(1, 4) = 2.
        assert!(has_text(&svg, "2.00"));
        assert_eq!(count_filled(&svg, &hex(0)), 2 + 1 + 1);
        assert_eq!(count_filled(&svg, &hex(1)), 2 + 1 + 1);
    }

    #[test]
    fn non_finite_values_are_skipped_and_noted() {
        let mut ch = chart(3, 2);
        ch.series[1].values[2] = f64::NAN;
        ch.series[0].values[0] = f64::INFINITY;
        ch.geomean = Some("GM".into());
        let svg = grouped_bars(&ch).unwrap();
        // Series 0: 2 bars, legend key, no mean. Series 1 the same.
        assert_eq!(count_filled(&svg, &hex(0)), 3);
        assert_eq!(count_filled(&svg, &hex(1)), 3);
        assert!(svg.contains("Not drawn (value not finite): P0/S0"), "{svg}");
        assert!(svg.contains("No GM bar for S0, S1:"), "{svg}");
    }

    #[test]
    fn bad_shapes_and_empty_data_are_errors() {
        assert!(matches!(
            grouped_bars(&chart(0, 2)),
            Err(PlotError::Empty(_))
        ));
        assert!(matches!(
            grouped_bars(&chart(2, 0)),
            Err(PlotError::Empty(_))
        ));
        let mut ch = chart(3, 2);
        ch.series[1].values.pop();
        assert!(matches!(
            grouped_bars(&ch),
            Err(PlotError::Shape {
                expected: 3,
                found: 2,
                ..
            })
        ));
        let mut ch = chart(3, 2);
        ch.y_range = YRange::Fixed { lo: 2.0, hi: 1.0 };
        assert!(matches!(grouped_bars(&ch), Err(PlotError::Invalid(_))));
    }

    #[test]
    fn edge_cases_render() {
        // One category, all zeros, a very long label, one series.
        let svg = bars(&Bars {
            title: "t".into(),
            y_label: "RTRU".into(),
            categories: vec!["a_program_with_an_extremely_long_name_indeed_yes".into()],
            values: vec![0.0],
            ..Default::default()
        })
        .unwrap();
        well_formed(&svg);
        assert!(has_text(&svg, "a_program_with_an_extremely…"));
        // One series has no legend key, and a zero bar has no area: nothing in its colour.
        assert_eq!(count_filled(&svg, &hex(0)), 0);
        // Every value missing still draws a frame.
        let mut ch = chart(2, 2);
        for s in &mut ch.series {
            s.values = vec![f64::NAN; 2];
        }
        well_formed(&grouped_bars(&ch).unwrap());
    }

    #[test]
    fn values_past_a_fixed_range_are_cut_and_labelled() {
        let mut ch = chart(2, 1);
        ch.series[0].values = vec![1.1, 3.25];
        ch.y_range = YRange::Fixed { lo: 0.0, hi: 2.0 };
        let svg = grouped_bars(&ch).unwrap();
        assert!(has_text(&svg, "3.25"));
    }

    #[test]
    fn same_input_same_bytes() {
        let ch = chart(13, 8);
        assert_eq!(grouped_bars(&ch).unwrap(), grouped_bars(&ch).unwrap());
    }
}
