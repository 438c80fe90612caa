//! What a run with phases keeps (the event log itself is too big to store): the program's
//! mean RTRU over every CTA's warp phases of every launch (`analysis::rtru`), and the warp
//! timelines of the first CTAs SM 0 ran in the longest launch, for timeline figures.

use warpsim_timing::analysis::{self, PhaseEnd};

use super::record::{
    longest_launch, Lane, OrderRow, Segment, SegmentKind, CTA_ORDER_PERIOD, CTA_ORDER_RANKS,
};
use crate::stats_out::KernelRow;

/// The most CTAs a timeline view may show (`spec.rs` bounds `ctas` by it).
pub const TIMELINE_CTAS: usize = 16;

pub struct RunPhases {
    pub lanes: Vec<Lane>,
    /// Mean RTRU over every (CTA, phase) group, exit phases included (the paper treats a
    /// CTA's exit as an implicit barrier); `None` without any phase.
    pub rtru: Option<f64>,
    /// The same without the exit phases.
    pub rtru_barriers_only: Option<f64>,
}

pub fn of_run(rows: &[KernelRow]) -> RunPhases {
    let mut groups = Vec::new();
    for s in rows.iter().filter_map(|r| r.timing.as_ref()) {
        groups.extend(analysis::rtru(&analysis::warp_phases(s)));
    }
    let summary = |exit: bool| {
        let s = analysis::rtru_summary(&groups, exit);
        (s.phases > 0).then_some(s.mean)
    };
    let lanes = longest_launch(rows)
        .and_then(|r| r.timing.as_ref())
        .map_or_else(Vec::new, |s| {
            let timelines = analysis::warp_phases(s);
            // SM 0's CTAs in dispatch order (ties by index), the first few.
            let mut ctas: Vec<(u64, u64)> = timelines
                .iter()
                .filter(|t| t.sm == 0)
                .map(|t| (t.cta_start, t.cta))
                .collect();
            ctas.sort_unstable();
            ctas.dedup();
            ctas.truncate(TIMELINE_CTAS);
            ctas.iter()
                .flat_map(|&(_, cta)| timelines.iter().filter(move |t| t.cta == cta))
                .map(|t| Lane {
                    cta: t.cta,
                    warp: t.warp,
                    segments: t
                        .phases
                        .iter()
                        .flat_map(|p| {
                            let wait = match p.ends_at {
                                PhaseEnd::Barrier { .. } => SegmentKind::BarrierWait,
                                PhaseEnd::Exit => SegmentKind::ExitWait,
                            };
                            [
                                Segment {
                                    start: p.start,
                                    end: p.end,
                                    kind: SegmentKind::Run { phase: p.index },
                                },
                                Segment {
                                    start: p.end,
                                    end: p.wait_end,
                                    kind: wait,
                                },
                            ]
                        })
                        .filter(|s| s.end > s.start)
                        .collect(),
                })
                .collect()
        });
    RunPhases {
        lanes,
        rtru: summary(true),
        rtru_barriers_only: summary(false),
    }
}

/// The CTA order of SM 0 in the longest launch, sampled every [`CTA_ORDER_PERIOD`] cycles
/// (`analysis::cta_order_table`).
pub fn cta_order(rows: &[KernelRow]) -> Vec<OrderRow> {
    longest_launch(rows)
        .and_then(|r| r.timing.as_ref())
        .map_or_else(Vec::new, |s| {
            analysis::cta_order_table(s, 0, CTA_ORDER_PERIOD, CTA_ORDER_RANKS)
                .into_iter()
                .map(|r| OrderRow {
                    cycle: r.cycle,
                    order: r.order,
                })
                .collect()
        })
}
