//! Issue-slot ratios (PRO Fig 5 / Table III, KAWS Fig 6): each scheduler-cycle outcome over
//! all issue slots (`issued + idle + scoreboard + pipeline`, every scheduler of every SM
//! while the SM holds a CTA; README, "Statistics").

use super::ratio;
use crate::stats::IssueSlots;

#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct IssueRatios {
    /// All issue slots: the denominator.
    pub slots: u64,
    pub issued: f64,
    pub idle: f64,
    pub scoreboard: f64,
    pub pipeline: f64,
}

/// The ratios of `s` (all 0 with no slot).
pub fn issue_ratios(s: &IssueSlots) -> IssueRatios {
    let slots = s.issued + s.idle + s.scoreboard + s.pipeline;
    IssueRatios {
        slots,
        issued: ratio(s.issued, slots),
        idle: ratio(s.idle, slots),
        scoreboard: ratio(s.scoreboard, slots),
        pipeline: ratio(s.pipeline, slots),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_of_all_slots() {
        // 50 + 25 + 15 + 10 = 100 slots.
        let r = issue_ratios(&IssueSlots {
            issued: 50,
            idle: 25,
            scoreboard: 15,
            pipeline: 10,
        });
        assert_eq!(
            (r.slots, r.issued, r.idle, r.scoreboard, r.pipeline),
            (100, 0.5, 0.25, 0.15, 0.1)
        );
        assert_eq!(issue_ratios(&IssueSlots::default()), IssueRatios::default());
    }
}
