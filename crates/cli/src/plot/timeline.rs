//! Warp-phase timelines: one lane per warp along a cycle axis, lanes grouped by CTA with a
//! rule between groups. A warp's run segments are bars coloured by warp phase (the phase
//! number written inside when it fits); waits at a barrier or at the exit are thinner grey
//! bands, so the imbalance the BAWS paper shows in Figures 3, 4 and 6 is the white and grey
//! space between the coloured bars.

use std::collections::BTreeSet;

use super::canvas::{self, Anchor, Font};
use super::legend::{self, Entry, Swatch};
use super::palette;
use super::scale::Axis;
use super::text;
use super::PlotError;

/// What a warp did during a segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegmentKind {
    /// Running (issuing or stalled on anything but a barrier) in warp phase `k`: the phase
    /// between barrier `k-1` and barrier `k`, as the paper numbers them.
    Run(u32),
    /// Arrived at a barrier, waiting for the rest of its CTA.
    BarrierWait,
    /// Finished, waiting for the rest of its CTA to finish (the implicit barrier at exit).
    ExitWait,
    /// A lane that is one span, not warp phases (a CTA from dispatch to exit).
    Resident,
}

/// Cycles `start..end` of one warp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    pub start: u64,
    pub end: u64,
    pub kind: SegmentKind,
}

/// One warp's lane.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Lane {
    /// Written left of the lane ("w0").
    pub label: String,
    /// Consecutive lanes with the same group ("CTA 0") form a block with the group's name
    /// left of it and a rule above and below.
    pub group: String,
    pub segments: Vec<Segment>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Timeline {
    pub title: String,
    /// Under the cycle axis; "cycle" when empty.
    pub x_label: String,
    pub lanes: Vec<Lane>,
}

const MARGIN: f64 = 12.0;
const PLOT_W: f64 = 900.0;
const TITLE_PX: f64 = 15.0;
const TICK_PX: f64 = 11.0;
const GROUP_PX: f64 = 11.0;
/// Phases get this many distinct colours (the palette's size), then colours repeat.
const PHASE_COLOURS: usize = 8;
const GROUP_SHADE: plotters::style::RGBColor = plotters::style::RGBColor(0xF4, 0xF4, 0xF4);

fn check(chart: &Timeline) -> Result<(), PlotError> {
    if chart.lanes.is_empty() {
        return Err(PlotError::Empty("no lanes"));
    }
    if chart.lanes.iter().all(|l| l.segments.is_empty()) {
        return Err(PlotError::Empty("no segments"));
    }
    for lane in &chart.lanes {
        if let Some(s) = lane.segments.iter().find(|s| s.end < s.start) {
            return Err(PlotError::Invalid(format!(
                "lane {:?}: segment ends (cycle {}) before it starts (cycle {})",
                lane.label, s.end, s.start
            )));
        }
    }
    Ok(())
}

/// The lane's segments in start order with touching segments of the same kind joined, so a
/// warp that reports every cycle separately still draws as a few rectangles.
fn merged(segments: &[Segment]) -> Vec<Segment> {
    let mut sorted = segments.to_vec();
    sorted.sort_by_key(|s| (s.start, s.end));
    let mut out: Vec<Segment> = Vec::with_capacity(sorted.len());
    for s in sorted {
        match out.last_mut() {
            Some(last) if last.kind == s.kind && last.end == s.start => last.end = s.end,
            _ => out.push(s),
        }
    }
    out
}

/// A cycle count as a tick label: "20k" for round thousands on long axes.
fn cycle_label(v: f64, step: f64) -> String {
    if step >= 1000.0 && (v / 1000.0).fract() == 0.0 {
        format!("{}k", v / 1000.0)
    } else {
        format!("{v}")
    }
}

/// Renders `chart` as an SVG document.
pub fn timeline(chart: &Timeline) -> Result<String, PlotError> {
    check(chart)?;
    let lanes: Vec<Vec<Segment>> = chart.lanes.iter().map(|l| merged(&l.segments)).collect();
    let first = lanes.iter().flatten().map(|s| s.start).min().unwrap_or(0) as f64;
    let last = lanes.iter().flatten().map(|s| s.end).max().unwrap_or(0) as f64;
    let lo = if first < 0.1 * last { 0.0 } else { first };
    // The axis ends just past the last warp (ticks stop at the last whole step before), so
    // the lanes use the whole width and the last exit wait still shows its end.
    let hi = (last + 0.01 * (last - lo)).max(lo + 1.0);
    let ticked = Axis::covering(lo, hi, 8.0);
    let axis = Axis {
        lo: ticked.lo,
        hi,
        step: ticked.step.max(1.0),
    };

    let phases: BTreeSet<u32> = lanes
        .iter()
        .flatten()
        .filter_map(|s| {
            if let SegmentKind::Run(k) = s.kind {
                Some(k)
            } else {
                None
            }
        })
        .collect();
    let mut entries: Vec<Entry> = phases
        .iter()
        .take(PHASE_COLOURS)
        .map(|&k| Entry {
            label: format!("phase {k}"),
            swatch: Swatch::Fill(palette::phase(k)),
        })
        .collect();
    let has = |k: SegmentKind| lanes.iter().flatten().any(|s| s.kind == k);
    if has(SegmentKind::Resident) {
        entries.push(Entry {
            label: "resident".into(),
            swatch: Swatch::Fill(palette::phase(0)),
        });
    }
    // The wait keys explain phase lanes; a chart of spans alone has none.
    if !phases.is_empty() {
        entries.push(Entry {
            label: "barrier wait".into(),
            swatch: Swatch::Band(palette::BARRIER_WAIT, 0.4),
        });
        entries.push(Entry {
            label: "exit wait".into(),
            swatch: Swatch::Band(palette::EXIT_WAIT, 0.15),
        });
    }
    let note = (phases.len() > PHASE_COLOURS).then(|| format!("{} phases: colours repeat every {PHASE_COLOURS}; the numbers in the bars name the phase.", phases.len()));

    let n = chart.lanes.len();
    let lane_h = (480.0 / n as f64).clamp(9.0, 18.0);
    let lane_px = (lane_h - 2.0).min(10.0);
    let lane_labels: Vec<String> = chart
        .lanes
        .iter()
        .map(|l| text::truncate(&l.label, 12))
        .collect();
    let label_w = lane_labels
        .iter()
        .map(|s| text::width(s, lane_px))
        .fold(0.0, f64::max);
    let group_labels: Vec<String> = chart
        .lanes
        .iter()
        .map(|l| text::truncate(&l.group, 14))
        .collect();
    let group_w = group_labels
        .iter()
        .map(|s| text::width(s, GROUP_PX))
        .fold(0.0, f64::max);
    let left = MARGIN + if group_w > 0.0 { group_w + 10.0 } else { 0.0 } + label_w + 6.0;
    let width = left + PLOT_W + MARGIN + 10.0;
    let title_h = if chart.title.is_empty() {
        0.0
    } else {
        TITLE_PX + 12.0
    };
    let legend_top = MARGIN + title_h;
    let top = legend_top + legend::height(&entries, width - 2.0 * MARGIN) + 10.0;
    let bottom = top + lane_h * n as f64;
    let height = bottom + 20.0 + 18.0 + if note.is_some() { 16.0 } else { 0.0 } + MARGIN;
    let right = left + PLOT_W;
    let x = |cycle: f64| left + axis.frac(cycle) * PLOT_W;

    // Blocks of consecutive lanes with the same group: (first lane, one past the last).
    let mut blocks: Vec<(usize, usize)> = Vec::new();
    for i in 0..n {
        match blocks.last_mut() {
            Some(b) if chart.lanes[b.0].group == chart.lanes[i].group => b.1 = i + 1,
            _ => blocks.push((i, i + 1)),
        }
    }

    canvas::render((width.ceil() as u32, height.ceil() as u32), |c| {
        if !chart.title.is_empty() {
            let title = text::truncate(
                &chart.title,
                ((width - 2.0 * MARGIN) / (TITLE_PX * 0.62)) as usize,
            );
            c.text(
                &title,
                width / 2.0,
                MARGIN + TITLE_PX / 2.0 + 2.0,
                Anchor::Middle,
                Font::new(TITLE_PX, palette::TEXT).bold(),
            )?;
        }
        legend::draw(c, &entries, width / 2.0, legend_top, width - 2.0 * MARGIN)?;
        for (b, &(from, to)) in blocks.iter().enumerate() {
            let (y0, y1) = (top + from as f64 * lane_h, top + to as f64 * lane_h);
            if b % 2 == 1 {
                c.fill(left, y0, right, y1, GROUP_SHADE)?;
            }
            c.text(
                &group_labels[from],
                MARGIN + group_w,
                (y0 + y1) / 2.0,
                Anchor::End,
                Font::new(GROUP_PX, palette::TEXT).bold(),
            )?;
        }
        for v in axis.ticks() {
            c.line((x(v), top), (x(v), bottom), palette::GRID, 1)?;
            c.line((x(v), bottom), (x(v), bottom + 4.0), palette::AXIS, 1)?;
            c.text(
                &cycle_label(v, axis.step),
                x(v),
                bottom + 12.0,
                Anchor::Middle,
                Font::new(TICK_PX, palette::TEXT),
            )?;
        }
        let x_label = if chart.x_label.is_empty() {
            "cycle"
        } else {
            chart.x_label.as_str()
        };
        c.text(
            x_label,
            (left + right) / 2.0,
            bottom + 30.0,
            Anchor::Middle,
            Font::new(12.0, palette::TEXT),
        )?;
        if let Some(note) = &note {
            c.text(
                note,
                MARGIN,
                bottom + 48.0,
                Anchor::Start,
                Font::new(11.0, palette::NOTE).italic(),
            )?;
        }
        let number_font = Font::new(lane_px, palette::TEXT);
        for (i, segments) in lanes.iter().enumerate() {
            let (y0, mid) = (top + i as f64 * lane_h, top + (i as f64 + 0.5) * lane_h);
            c.text(
                &lane_labels[i],
                left - 5.0,
                mid,
                Anchor::End,
                Font::new(lane_px, palette::TEXT),
            )?;
            for s in segments {
                let (x0, x1) = (x(s.start as f64), x(s.end as f64));
                match s.kind {
                    SegmentKind::Run(k) => {
                        c.fill(x0, y0 + 1.0, x1, y0 + lane_h - 1.0, palette::phase(k))?;
                        let label = k.to_string();
                        if x1 - x0 >= text::width(&label, lane_px) + 4.0 {
                            c.text(&label, (x0 + x1) / 2.0, mid, Anchor::Middle, number_font)?;
                        }
                    }
                    SegmentKind::BarrierWait => {
                        let h = (lane_h * 0.2).max(1.5);
                        c.fill(x0, mid - h, x1, mid + h, palette::BARRIER_WAIT)?;
                    }
                    SegmentKind::ExitWait => {
                        c.fill(x0, mid - 1.0, x1, mid + 1.0, palette::EXIT_WAIT)?
                    }
                    SegmentKind::Resident => {
                        c.fill(x0, y0 + 1.0, x1, y0 + lane_h - 1.0, palette::phase(0))?
                    }
                }
            }
        }
        for &(from, _) in blocks.iter().skip(1) {
            let y = top + from as f64 * lane_h;
            c.line((MARGIN, y), (right, y), palette::AXIS, 1)?;
        }
        c.line((left, top), (left, bottom), palette::AXIS, 1)?;
        c.line((left, bottom), (right, bottom), palette::AXIS, 1)
    })
}

#[cfg(test)]
mod tests {
    use super::super::svg_check::{count_filled, count_text, has_text, well_formed};
    use super::*;

    fn seg(start: u64, end: u64, kind: SegmentKind) -> Segment {
        Segment { start, end, kind }
    }

    fn hex(c: plotters::style::RGBColor) -> String {
        format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
    }

    /// 2 CTAs × 2 warps, 2 phases each, long enough for the numbers to fit.
    fn chart() -> Timeline {
        let lane = |w: usize| {
            let d = 100 * w as u64;
            Lane {
                label: format!("w{w}"),
                group: format!("CTA {}", w / 2),
                segments: vec![
                    seg(0, 4000 + d, SegmentKind::Run(1)),
                    seg(4000 + d, 4400, SegmentKind::BarrierWait),
                    seg(4400, 9000 - d, SegmentKind::Run(2)),
                    seg(9000 - d, 9000, SegmentKind::ExitWait),
                ],
            }
        };
        Timeline {
            title: "FWT under GTO".into(),
            x_label: String::new(),
            lanes: (0..4).map(lane).collect(),
        }
    }

    #[test]
    fn spans_have_their_own_key_and_no_wait_keys() {
        let lanes = (0..3)
            .map(|k| Lane {
                label: format!("CTA {k}"),
                group: "lrr".into(),
                segments: vec![seg(k * 10, k * 10 + 25, SegmentKind::Resident)],
            })
            .collect();
        let svg = timeline(&Timeline {
            title: "spans".into(),
            x_label: String::new(),
            lanes,
        })
        .unwrap();
        well_formed(&svg);
        assert!(has_text(&svg, "resident"));
        assert!(!has_text(&svg, "barrier wait") && !has_text(&svg, "exit wait"));
        // Three spans plus the legend key.
        assert_eq!(count_filled(&svg, &hex(palette::phase(0))), 4);
    }

    #[test]
    fn draws_every_segment_and_label() {
        let svg = timeline(&chart()).unwrap();
        well_formed(&svg);
        assert!(has_text(&svg, "FWT under GTO"));
        assert!(has_text(&svg, "cycle"));
        for w in 0..4 {
            assert_eq!(count_text(&svg, &format!("w{w}")), 1);
        }
        assert_eq!(count_text(&svg, "CTA 0"), 1);
        assert_eq!(count_text(&svg, "CTA 1"), 1);
        // 4 run segments per phase, plus the legend key.
        assert_eq!(count_filled(&svg, &hex(palette::phase(1))), 5);
        assert_eq!(count_filled(&svg, &hex(palette::phase(2))), 5);
        // Phase numbers inside the bars.
        assert_eq!(count_text(&svg, "1"), 4);
        // Lanes 0..2 wait at the barrier (lane 3 arrives last... at 4300 < 4400, so all 4), and
        // lanes 1..3 wait at the exit (lane 0 ends exactly at 9000).
        assert_eq!(count_filled(&svg, &hex(palette::BARRIER_WAIT)), 4 + 1);
        assert_eq!(count_filled(&svg, &hex(palette::EXIT_WAIT)), 3 + 1);
        // The axis ends at cycle 9000; its last tick is the last whole step before.
        assert!(has_text(&svg, "8k") && !has_text(&svg, "10k"));
    }

    #[test]
    fn touching_segments_of_one_kind_merge() {
        let m = merged(&[
            seg(5, 9, SegmentKind::Run(1)),
            seg(0, 5, SegmentKind::Run(1)),
            seg(9, 12, SegmentKind::BarrierWait),
            seg(12, 13, SegmentKind::Run(2)),
        ]);
        assert_eq!(
            m,
            vec![
                seg(0, 9, SegmentKind::Run(1)),
                seg(9, 12, SegmentKind::BarrierWait),
                seg(12, 13, SegmentKind::Run(2))
            ]
        );
    }

    #[test]
    fn bad_data_are_errors() {
        assert!(matches!(
            timeline(&Timeline::default()),
            Err(PlotError::Empty(_))
        ));
        let empty_lanes = Timeline {
            lanes: vec![Lane {
                label: "w0".into(),
                ..Default::default()
            }],
            ..Default::default()
        };
        assert!(matches!(timeline(&empty_lanes), Err(PlotError::Empty(_))));
        let mut ch = chart();
        ch.lanes[2].segments.push(seg(10, 5, SegmentKind::Run(3)));
        assert!(matches!(timeline(&ch), Err(PlotError::Invalid(_))));
    }

    #[test]
    fn many_phases_and_zero_length_segments_render() {
        let segments = (0..20u32)
            .map(|k| seg(k as u64 * 10, k as u64 * 10 + 10, SegmentKind::Run(k)))
            .chain([seg(200, 200, SegmentKind::ExitWait)])
            .collect();
        let ch = Timeline {
            title: String::new(),
            x_label: "t".into(),
            lanes: vec![Lane {
                label: "w0".into(),
                group: String::new(),
                segments,
            }],
        };
        let svg = timeline(&ch).unwrap();
        well_formed(&svg);
        assert!(has_text(
            &svg,
            "20 phases: colours repeat every 8; the numbers in the bars name the phase."
        ));
        assert_eq!(timeline(&ch).unwrap(), svg);
    }
}
