//! Scatter plot on log-log axes with the y = x line: one simulator's figure against
//! another's per program (the correlation report: GPGPU-Sim cycles across, warpsim's up).
//! Both axes cover the same decades, so the diagonal is the line of agreement and a point's
//! distance from it is the ratio. Each series is a colour (a preset and policy).

use super::canvas::{render, Anchor, Font};
use super::legend::{self, Entry, Swatch};
use super::palette;
use super::text;
use super::PlotError;

/// Points of one series: (x, y), both > 0.
#[derive(Debug, Clone)]
pub struct Points {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

#[derive(Debug, Clone)]
pub struct Scatter {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Points>,
}

const SIDE: f64 = 460.0;
const MARGIN: f64 = 12.0;
const TITLE_PX: f64 = 14.0;
const TICK_PX: f64 = 11.0;
const AXIS_PX: f64 = 12.0;
const NOTE_PX: f64 = 11.0;
/// Half the side of series 0's square marker; each later series is a pixel smaller, and the
/// series are drawn in order, so points of several series at one spot nest visibly.
const DOT: f64 = 5.0;

/// Whole decades [lo, hi] (powers of ten) holding every value.
fn decades(values: impl Iterator<Item = f64>) -> (i32, i32) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    (a, b.max(a + 1))
}

fn decade_label(e: i32) -> String {
    if (0..=6).contains(&e) {
        format!("{}", 10u64.pow(e as u32))
    } else {
        format!("1e{e}")
    }
}

/// Draws the chart. Points that are not finite and positive are left out (a note says how
/// many); no series, or no drawable point, is an error.
pub fn scatter(s: &Scatter) -> Result<String, PlotError> {
    if s.series.is_empty() {
        return Err(PlotError::Empty("no series"));
    }
    let ok = |p: &(f64, f64)| p.0.is_finite() && p.1.is_finite() && p.0 > 0.0 && p.1 > 0.0;
    let dropped: usize = s
        .series
        .iter()
        .map(|x| x.points.iter().filter(|p| !ok(p)).count())
        .sum();
    let all: Vec<(f64, f64)> = s
        .series
        .iter()
        .flat_map(|x| x.points.iter().copied().filter(ok))
        .collect();
    if all.is_empty() {
        return Err(PlotError::Empty(
            "no point with positive finite coordinates",
        ));
    }
    let (lo, hi) = decades(all.iter().flat_map(|p| [p.0, p.1]));
    let entries: Vec<Entry> = s
        .series
        .iter()
        .enumerate()
        .map(|(i, x)| Entry {
            label: x.label.clone(),
            swatch: Swatch::Fill(palette::series(i)),
        })
        .collect();
    let tick_w = (lo..=hi)
        .map(|e| text::width(&decade_label(e), TICK_PX))
        .fold(0.0, f64::max);
    let left = MARGIN + AXIS_PX + 10.0 + tick_w + 8.0;
    let width = left + SIDE + MARGIN + 8.0;
    let legend_top = MARGIN + TITLE_PX + 12.0;
    let legend_h = legend::height(&entries, width - 2.0 * MARGIN);
    let top = legend_top + legend_h + 10.0;
    let bottom = top + SIDE;
    let notes: Vec<String> = if dropped > 0 {
        text::wrap(
            &format!("{dropped} point(s) without a positive value are not drawn."),
            width - 2.0 * MARGIN,
            NOTE_PX,
        )
    } else {
        Vec::new()
    };
    let height = bottom + TICK_PX + 8.0 + AXIS_PX + 14.0 + notes.len() as f64 * 15.0 + MARGIN;
    let span = (hi - lo) as f64;
    let fx = |v: f64| left + (v.log10() - lo as f64) / span * SIDE;
    let fy = |v: f64| bottom - (v.log10() - lo as f64) / span * SIDE;

    render((width.ceil() as u32, height.ceil() as u32), |c| {
        let max_chars = ((width - 2.0 * MARGIN) / (TITLE_PX * 0.62)) as usize;
        c.text(
            &text::truncate(&s.title, max_chars.max(8)),
            width / 2.0,
            MARGIN + TITLE_PX / 2.0 + 2.0,
            Anchor::Middle,
            Font::new(TITLE_PX, palette::TEXT).bold(),
        )?;
        legend::draw(c, &entries, width / 2.0, legend_top, width - 2.0 * MARGIN)?;
        let tick = Font::new(TICK_PX, palette::TEXT);
        for e in lo..=hi {
            let v = 10f64.powi(e);
            let (x, y) = (fx(v), fy(v));
            c.line((left, y), (left + SIDE, y), palette::GRID, 1)?;
            c.line((x, top), (x, bottom), palette::GRID, 1)?;
            c.text(&decade_label(e), left - 7.0, y, Anchor::End, tick)?;
            c.text(
                &decade_label(e),
                x,
                bottom + 4.0 + TICK_PX / 2.0,
                Anchor::Middle,
                tick,
            )?;
        }
        c.dashed((left, bottom), (left + SIDE, top), palette::REFERENCE, 1)?;
        c.text(
            "y = x",
            left + SIDE - 4.0,
            top + 10.0,
            Anchor::End,
            Font::new(TICK_PX, palette::NOTE).italic(),
        )?;
        c.line((left, top), (left, bottom), palette::AXIS, 1)?;
        c.line((left, bottom), (left + SIDE, bottom), palette::AXIS, 1)?;
        for (i, x) in s.series.iter().enumerate() {
            let d = (DOT - i as f64).max(2.0);
            for p in x.points.iter().filter(|p| ok(p)) {
                let (px, py) = (fx(p.0), fy(p.1));
                c.fill(px - d, py - d, px + d, py + d, palette::series(i))?;
            }
        }
        let axis = Font::new(AXIS_PX, palette::TEXT);
        c.text(
            &s.x_label,
            left + SIDE / 2.0,
            bottom + TICK_PX + 8.0 + AXIS_PX / 2.0 + 4.0,
            Anchor::Middle,
            axis,
        )?;
        c.text(
            &s.y_label,
            MARGIN + AXIS_PX / 2.0,
            (top + bottom) / 2.0,
            Anchor::Middle,
            axis.vertical(),
        )?;
        let note = Font::new(NOTE_PX, palette::NOTE).italic();
        for (i, line) in notes.iter().enumerate() {
            c.text(
                line,
                MARGIN,
                height - MARGIN - (notes.len() - i) as f64 * 15.0 + 7.5,
                Anchor::Start,
                note,
            )?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::super::svg_check::{count_filled, has_text, well_formed};
    use super::*;

    fn chart(points: Vec<(f64, f64)>) -> Scatter {
        Scatter {
            title: "MAE 10%".into(),
            x_label: "GPGPU-Sim cycles".into(),
            y_label: "warpsim cycles".into(),
            series: vec![
                Points {
                    label: "gtx480 gto".into(),
                    points,
                },
                Points {
                    label: "gtx480 lrr".into(),
                    points: vec![(2000.0, 1500.0)],
                },
            ],
        }
    }

    #[test]
    fn draws_points_decades_and_labels() {
        let svg = scatter(&chart(vec![(150.0, 120.0), (40000.0, 52000.0)])).unwrap();
        well_formed(&svg);
        for t in [
            "MAE 10%",
            "gtx480 gto",
            "gtx480 lrr",
            "y = x",
            "100",
            "100000",
            "GPGPU-Sim cycles",
            "warpsim cycles",
        ] {
            assert!(has_text(&svg, t), "{t} missing");
        }
        // Two points of series 0 (rose) and one of series 1 (indigo), plus their legend keys.
        assert_eq!(count_filled(&svg, "#CC6677"), 3);
        assert_eq!(count_filled(&svg, "#332288"), 2);
        assert_eq!(
            svg,
            scatter(&chart(vec![(150.0, 120.0), (40000.0, 52000.0)])).unwrap(),
            "deterministic"
        );
    }

    #[test]
    fn bad_points_are_left_out_with_a_note_and_nothing_to_draw_is_an_error() {
        let svg = scatter(&chart(vec![(0.0, 5.0), (f64::NAN, 1.0), (10.0, 10.0)])).unwrap();
        assert!(has_text(
            &svg,
            "2 point(s) without a positive value are not drawn."
        ));
        let empty = Scatter {
            series: vec![Points {
                label: "x".into(),
                points: vec![(0.0, 0.0)],
            }],
            ..chart(vec![])
        };
        assert!(matches!(scatter(&empty), Err(PlotError::Empty(_))));
        assert!(matches!(
            scatter(&Scatter {
                series: vec![],
                ..chart(vec![])
            }),
            Err(PlotError::Empty(_))
        ));
    }

    #[test]
    fn decades_cover_the_values() {
        assert_eq!(decades([150.0, 40000.0].into_iter()), (2, 5));
        assert_eq!(decades([100.0].into_iter()), (2, 3));
    }
}
