//! RTRU, the ratio of temporal resource under-utilisation (BAWS eq. 1, after Xiang et al.),
//! per warp phase: for the `N` warps of a CTA in phase k,
//!
//! ```text
//! RTRU = Σᵢ (maxT − Tᵢ) / (N · maxT)
//! ```
//!
//! with `Tᵢ` the cycles from the phase's start to warp i's arrival at the barrier ending it
//! ([`WarpPhase::duration`](super::WarpPhase::duration): the CTA's start or the cycle after
//! the previous release, to one past the `bar.sync`'s issue) and `maxT` the largest. Since the
//! slowest warp's arrival releases the barrier, `maxT − Tᵢ` is warp i's barrier wait.
//!
//! Choices:
//! - **Groups** are (CTA, phase index): phase k of a CTA is the k-th phase of each of its warps
//!   that has one (a warp that exits early has fewer phases; it counts in the groups it has).
//! - **The exit phase** (ending at the implicit exit barrier, BAWS's "barrier 5" in Fig 3) is
//!   computed like any other (`Tᵢ` to the warp's last instruction) and flagged `exit`; whether
//!   a program figure counts it is [`rtru_summary`]'s `include_exit` argument, because the
//!   paper draws it as a barrier (Fig 3) but does not say whether Fig 5 averages it. A group
//!   is the exit phase when every one of its warp phases ends at the exit.
//! - **Degenerate groups**: one warp gives 0 (Σ is 0); `maxT = 0` (impossible with whole
//!   phases, each lasts ≥ 1 cycle) gives 0 rather than a division by zero.
//! - **The program's "average RTRU"** ([`RtruSummary::mean`]) is the plain mean over its
//!   (CTA, phase) groups, every phase weighing the same, which is how we read "RTRU per
//!   program" in Fig 5. [`RtruSummary::pooled`] weighs each group by `N · maxT` (total idle
//!   warp-cycles over total warp-cycles of the phases), so long phases dominate; both are
//!   reported because the paper does not say which it averages.

use super::{ratio, WarpTimeline};
use crate::analysis::PhaseEnd;
use std::collections::BTreeMap;

/// RTRU of one CTA's phase.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct PhaseRtru {
    pub cta: u64,
    pub sm: u32,
    /// Phase index (0 = from the CTA's start to the first barrier).
    pub phase: u32,
    /// Warps in the group: `N`.
    pub warps: u32,
    /// The longest `Tᵢ`.
    pub max_t: u64,
    /// Σᵢ (maxT − Tᵢ): the numerator.
    pub idle: u64,
    /// Every warp phase of the group ends at the exit.
    pub exit: bool,
    pub rtru: f64,
}

/// RTRU per (CTA, phase), ordered by CTA then phase. Empty without phases.
pub fn rtru(timelines: &[WarpTimeline]) -> Vec<PhaseRtru> {
    // (cta, phase) -> (sm, durations, all end at exit)
    let mut groups: BTreeMap<(u64, u32), (u32, Vec<u64>, bool)> = BTreeMap::new();
    for t in timelines {
        for p in &t.phases {
            let g = groups
                .entry((t.cta, p.index))
                .or_insert((t.sm, Vec::new(), true));
            g.1.push(p.duration());
            g.2 &= p.ends_at == PhaseEnd::Exit;
        }
    }
    groups
        .into_iter()
        .map(|((cta, phase), (sm, ts, exit))| {
            let max_t = ts.iter().copied().max().unwrap_or(0);
            let idle: u64 = ts.iter().map(|t| max_t - t).sum();
            let n = ts.len() as u64;
            PhaseRtru {
                cta,
                sm,
                phase,
                warps: n as u32,
                max_t,
                idle,
                exit,
                rtru: ratio(idle, n * max_t),
            }
        })
        .collect()
}

/// RTRU over many phases (one launch's, or a program's launches concatenated).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct RtruSummary {
    /// Phases averaged.
    pub phases: u64,
    /// Plain mean of the phases' RTRU (0 with no phase).
    pub mean: f64,
    /// Σ idle / Σ N·maxT over the phases (0 with no phase).
    pub pooled: f64,
}

/// Summarises `phases`, counting exit phases only when `include_exit`.
pub fn rtru_summary(phases: &[PhaseRtru], include_exit: bool) -> RtruSummary {
    let used: Vec<&PhaseRtru> = phases.iter().filter(|p| include_exit || !p.exit).collect();
    let n = used.len() as u64;
    let sum: f64 = used.iter().map(|p| p.rtru).sum();
    let idle: u64 = used.iter().map(|p| p.idle).sum();
    let whole: u64 = used.iter().map(|p| p.warps as u64 * p.max_t).sum();
    RtruSummary {
        phases: n,
        mean: if n == 0 { 0.0 } else { sum / n as f64 },
        pooled: ratio(idle, whole),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::WarpPhase;

    fn timeline(cta: u64, warp: u32, phases: &[(u64, u64, PhaseEnd)]) -> WarpTimeline {
        WarpTimeline {
            cta,
            warp,
            sm: 0,
            slot: Some(warp),
            cta_start: 0,
            cta_end: None,
            phases: phases
                .iter()
                .enumerate()
                .map(|(i, &(start, end, ends_at))| WarpPhase {
                    index: i as u32,
                    start,
                    end,
                    wait_end: end,
                    ends_at,
                })
                .collect(),
        }
    }

    const BAR: PhaseEnd = PhaseEnd::Barrier { pc: 1 };
    const EXIT: PhaseEnd = PhaseEnd::Exit;

    #[test]
    fn equation_1_per_cta_phase() {
        // CTA 0, 4 warps. Phase 0: T = 10, 20, 30, 40 → maxT 40, Σ(maxT − T) = 30+20+10+0 =
        // 60, RTRU = 60 / (4·40) = 0.375. Exit phase from 41: T = 10, 10, 10, 30 → Σ = 60,
        // RTRU = 60 / 120 = 0.5.
        let t: Vec<WarpTimeline> = [10, 20, 30, 40]
            .iter()
            .zip([10, 10, 10, 30])
            .enumerate()
            .map(|(w, (&a, b))| timeline(0, w as u32, &[(0, a, BAR), (41, 41 + b, EXIT)]))
            .collect();
        let r = rtru(&t);
        assert_eq!(r.len(), 2);
        assert_eq!(
            (r[0].phase, r[0].warps, r[0].max_t, r[0].idle, r[0].exit),
            (0, 4, 40, 60, false)
        );
        assert_eq!(r[0].rtru, 0.375);
        assert_eq!(
            (r[1].phase, r[1].max_t, r[1].idle, r[1].exit),
            (1, 30, 60, true)
        );
        assert_eq!(r[1].rtru, 0.5);

        // Mean with the exit phase (0.375 + 0.5) / 2; pooled (60 + 60) / (160 + 120).
        let all = rtru_summary(&r, true);
        assert_eq!((all.phases, all.mean), (2, 0.4375));
        assert_eq!(all.pooled, 120.0 / 280.0);
        let barriers = rtru_summary(&r, false);
        assert_eq!(
            (barriers.phases, barriers.mean, barriers.pooled),
            (1, 0.375, 0.375)
        );
    }

    #[test]
    fn a_warp_that_exits_early_counts_where_it_has_a_phase() {
        // Warp 0 exits after 5 cycles; warp 1 reaches a barrier after 20, then exits after 10.
        // Phase 0 mixes an exit and a barrier arrival: maxT 20, Σ 15, RTRU 15/40, not exit.
        // Phase 1 has warp 1 alone: RTRU 0, an exit phase.
        let t = vec![
            timeline(0, 0, &[(0, 5, EXIT)]),
            timeline(0, 1, &[(0, 20, BAR), (21, 31, EXIT)]),
        ];
        let r = rtru(&t);
        assert_eq!((r[0].warps, r[0].rtru, r[0].exit), (2, 15.0 / 40.0, false));
        assert_eq!((r[1].warps, r[1].rtru, r[1].exit), (1, 0.0, true));
    }

    #[test]
    fn degenerate_inputs_do_not_divide_by_zero() {
        assert!(rtru(&[]).is_empty());
        assert_eq!(rtru_summary(&[], true), RtruSummary::default());
        // A zero-length phase (cannot come from the log, but must not produce NaN).
        let r = rtru(&[
            timeline(0, 0, &[(5, 5, BAR)]),
            timeline(0, 1, &[(5, 5, BAR)]),
        ]);
        assert_eq!((r[0].max_t, r[0].rtru), (0, 0.0));
        assert_eq!(rtru_summary(&r, true).pooled, 0.0);
    }
}
