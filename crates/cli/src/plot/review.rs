//! Renders each chart kind with realistic fake data — the sizes of the BAWS figures — so a
//! person can look at them: with `WARPSIM_PLOT_REVIEW=DIR` set, the SVGs are written to DIR
//! (convert them with `rsvg-convert -b white -o x.png x.svg`). Without it the test only
//! checks that they render.

use super::svg_check::well_formed;
use super::*;

pub(crate) const PROGRAMS: [&str; 13] = [
    "BT", "CP", "FWT", "HISTO", "KMN", "MM", "NW", "OCTP", "PVC", "PVR", "SRAD1", "SRAD2", "STN",
];

/// A small deterministic generator (no seeding crate needed for fake data).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

pub(crate) fn speedups() -> GroupedBars {
    let schedulers = [
        "TLS",
        "TLS+CFF",
        "GTO",
        "GTO+CFF",
        "MWF(LRR)",
        "MWF(LRR)+CFF",
        "MWF(GTO)",
        "MWF(GTO)+CFF",
    ];
    let mut rng = Lcg(8);
    GroupedBars {
        title: "Speedup over LRR, barrier-intensive programs (gtx480)".into(),
        y_label: "speedup over LRR".into(),
        categories: PROGRAMS.iter().map(|s| s.to_string()).collect(),
        series: schedulers
            .iter()
            .enumerate()
            .map(|(i, s)| Series {
                name: s.to_string(),
                values: PROGRAMS
                    .iter()
                    .map(|_| 0.85 + 0.03 * i as f64 + 0.22 * rng.next())
                    .collect(),
            })
            .collect(),
        geomean: Some("GM".into()),
        reference: Some(1.0),
        y_range: YRange::Auto,
    }
}

pub(crate) fn rtru() -> GroupedBars {
    let mut rng = Lcg(5);
    GroupedBars {
        title: "RTRU under LRR and GTO".into(),
        y_label: "RTRU".into(),
        categories: PROGRAMS.iter().map(|s| s.to_string()).collect(),
        series: ["LRR", "GTO"]
            .iter()
            .map(|s| Series {
                name: s.to_string(),
                values: PROGRAMS.iter().map(|_| 0.05 + 0.5 * rng.next()).collect(),
            })
            .collect(),
        geomean: None,
        reference: None,
        y_range: YRange::Auto,
    }
}

pub(crate) fn stalls() -> StackedBars {
    let series = ["LRR", "GTO", "MWF", "MWF+CFF"];
    let components = ["control", "data", "structural", "barrier", "exit", "fetch"];
    let mut rng = Lcg(3);
    let values = PROGRAMS
        .iter()
        .map(|_| {
            let base: Vec<f64> = components.iter().map(|_| 0.02 + rng.next()).collect();
            let total: f64 = base.iter().sum();
            series
                .iter()
                .enumerate()
                .map(|(s, _)| {
                    base.iter()
                        .map(|v| v / total * (1.0 - 0.08 * s as f64) * (0.9 + 0.2 * rng.next()))
                        .collect()
                })
                .collect()
        })
        .collect();
    StackedBars {
        title: "Stall cycles by reason, normalised to LRR".into(),
        y_label: "stall cycles (LRR = 1)".into(),
        categories: PROGRAMS.iter().map(|s| s.to_string()).collect(),
        series: series.iter().map(|s| s.to_string()).collect(),
        components: components.iter().map(|s| s.to_string()).collect(),
        values,
        reference: Some(1.0),
    }
}

/// 16 warps in 4 CTAs, 5 phases; later CTAs start later and warps drift apart as under GTO.
pub(crate) fn phases() -> Timeline {
    let mut rng = Lcg(11);
    let mut lanes = Vec::new();
    for cta in 0..4u64 {
        let mut phase_start = cta * 900;
        let mut ends = [0u64; 4];
        let mut lane_segments: Vec<Vec<Segment>> = vec![Vec::new(); 4];
        for k in 1..=5u32 {
            for (w, segs) in lane_segments.iter_mut().enumerate() {
                let len =
                    (1500.0 + 2500.0 * rng.next() + 600.0 * (w as f64) * (cta as f64 + 1.0) / 4.0)
                        as u64;
                ends[w] = phase_start + len;
                segs.push(Segment {
                    start: phase_start,
                    end: ends[w],
                    kind: SegmentKind::Run(k),
                });
            }
            let release = *ends.iter().max().unwrap();
            for (w, segs) in lane_segments.iter_mut().enumerate() {
                let kind = if k == 5 {
                    SegmentKind::ExitWait
                } else {
                    SegmentKind::BarrierWait
                };
                segs.push(Segment {
                    start: ends[w],
                    end: release,
                    kind,
                });
            }
            phase_start = release;
        }
        for (w, segments) in lane_segments.into_iter().enumerate() {
            lanes.push(Lane {
                label: format!("w{}", cta * 4 + w as u64),
                group: format!("CTA {cta}"),
                segments,
            });
        }
    }
    Timeline {
        title: "Warp phases, CTAs 0-3 on SM 0 (fake data)".into(),
        x_label: "cycle".into(),
        lanes,
    }
}

/// 15 programs with long names, 8 series, missing values: the legibility limit.
pub(crate) fn crowded() -> GroupedBars {
    let mut chart = speedups();
    chart.title = "15 programs with long names, 8 schedulers, two missing values".into();
    chart.categories = (0..15)
        .map(|i| {
            format!(
                "{}_kernel_v{i}",
                PROGRAMS[i % PROGRAMS.len()].to_lowercase()
            )
        })
        .collect();
    let mut rng = Lcg(21);
    for s in &mut chart.series {
        s.values = (0..15).map(|_| 0.85 + 0.45 * rng.next()).collect();
    }
    chart.series[2].values[4] = f64::NAN;
    chart.series[6].values[11] = f64::INFINITY;
    chart
}

/// 64 warps in 4 CTAs of 16 over ~100k cycles, 12 phases of uneven length.
pub(crate) fn long_timeline() -> Timeline {
    let mut rng = Lcg(17);
    let mut lanes = Vec::new();
    for cta in 0..4u64 {
        let mut start = cta * 2000;
        let mut segs: Vec<Vec<Segment>> = vec![Vec::new(); 16];
        for k in 1..=12u32 {
            let ends: Vec<u64> = (0..16)
                .map(|w| start + (3000.0 + 5000.0 * rng.next() + 150.0 * w as f64) as u64)
                .collect();
            let release = *ends.iter().max().unwrap();
            for (w, lane) in segs.iter_mut().enumerate() {
                // Runs reported in pieces, as a per-interval trace would.
                let mid = (start + ends[w]) / 2;
                lane.push(Segment {
                    start,
                    end: mid,
                    kind: SegmentKind::Run(k),
                });
                lane.push(Segment {
                    start: mid,
                    end: ends[w],
                    kind: SegmentKind::Run(k),
                });
                lane.push(Segment {
                    start: ends[w],
                    end: release,
                    kind: if k == 12 {
                        SegmentKind::ExitWait
                    } else {
                        SegmentKind::BarrierWait
                    },
                });
            }
            start = release;
        }
        for (w, segments) in segs.into_iter().enumerate() {
            lanes.push(Lane {
                label: format!("w{}", cta * 16 + w as u64),
                group: format!("CTA {cta}"),
                segments,
            });
        }
    }
    Timeline {
        title: "64 warps, 12 phases, ~100k cycles".into(),
        x_label: "cycle".into(),
        lanes,
    }
}

/// One category, a value past a fixed axis.
pub(crate) fn single() -> Bars {
    Bars {
        title: "One program, fixed axis 0..2".into(),
        y_label: "speedup".into(),
        categories: vec!["a_program_with_an_extremely_long_name_that_goes_on".into()],
        values: vec![3.4],
        geomean: None,
        reference: Some(1.0),
        y_range: YRange::Fixed { lo: 0.0, hi: 2.0 },
    }
}

#[test]
fn review_charts_render() {
    let charts = [
        ("grouped_speedup", grouped_bars(&speedups())),
        ("grouped_rtru", grouped_bars(&rtru())),
        ("grouped_crowded", grouped_bars(&crowded())),
        ("bars_single", bars(&single())),
        ("stacked_stalls", stacked_bars(&stalls())),
        ("timeline_phases", timeline(&phases())),
        ("timeline_64_lanes", timeline(&long_timeline())),
    ];
    let dir = std::env::var_os("WARPSIM_PLOT_REVIEW").map(std::path::PathBuf::from);
    for (name, svg) in charts {
        let svg = svg.unwrap_or_else(|e| panic!("{name}: {e}"));
        well_formed(&svg);
        if let Some(dir) = &dir {
            write_svg(&dir.join(format!("{name}.svg")), &svg).unwrap();
        }
    }
}
