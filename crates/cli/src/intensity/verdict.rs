//! The BAWS paper's classification: a program is barrier-intensive when its warps spend more
//! than 15% of their resident cycles stalled at barriers or at the exit. Each built-in program
//! of the BAWS sets declares its class by its set; a measurement either agrees or misses it.

use warpsim_suite::Program;

/// The paper's cut-off on the barrier + exit-wait fraction.
pub const CUTOFF: f64 = 0.15;

/// The class a program's set declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    BarrierIntensive,
    NonBarrier,
}

impl Class {
    /// `baws-barrier` programs are barrier-intensive, `baws-nonbarrier` ones are not; the
    /// other sets make no claim.
    pub fn of(p: &Program) -> Option<Class> {
        if p.sets.contains(&"baws-barrier") {
            Some(Class::BarrierIntensive)
        } else if p.sets.contains(&"baws-nonbarrier") {
            Some(Class::NonBarrier)
        } else {
            None
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Class::BarrierIntensive => "barrier-intensive",
            Class::NonBarrier => "non-barrier",
        }
    }

    /// Whether one measured fraction is on this class's side of the cut-off (strictly: a
    /// program at exactly 15% belongs to neither).
    pub fn holds(self, fraction: f64) -> bool {
        match self {
            Class::BarrierIntensive => fraction > CUTOFF,
            Class::NonBarrier => fraction < CUTOFF,
        }
    }
}

/// What the measurements say about a program's class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// On its class's side of the cut-off under every policy.
    Ok,
    /// On the wrong side under at least one policy: a finding about the program (or the
    /// model), not a failure of the run.
    MissesClass,
    /// Its set declares no class.
    Unclassified,
    /// A run failed (verification or simulation), so there is nothing to judge.
    Failed,
}

impl Verdict {
    /// The verdict on `class` from one fraction per policy (`None` where that run failed).
    pub fn judge(class: Option<Class>, fractions: &[Option<f64>]) -> Verdict {
        if fractions.iter().any(Option::is_none) {
            return Verdict::Failed;
        }
        match class {
            None => Verdict::Unclassified,
            Some(c) if fractions.iter().flatten().all(|&f| c.holds(f)) => Verdict::Ok,
            Some(_) => Verdict::MissesClass,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::MissesClass => "MISSES CLASS",
            Verdict::Unclassified => "-",
            Verdict::Failed => "FAILED",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_come_from_the_sets() {
        let class = |name: &str| Class::of(warpsim_suite::program(name).unwrap());
        assert_eq!(class("baws_sp"), Some(Class::BarrierIntensive));
        assert_eq!(class("rod_lud"), Some(Class::NonBarrier));
        assert_eq!(class("matmul"), None);
    }

    #[test]
    fn both_policies_must_be_on_the_class_side_of_the_cutoff() {
        use Class::*;
        let judge = |c, f: &[Option<f64>]| Verdict::judge(Some(c), f);
        assert_eq!(
            judge(BarrierIntensive, &[Some(0.20), Some(0.151)]),
            Verdict::Ok
        );
        assert_eq!(
            judge(BarrierIntensive, &[Some(0.20), Some(0.149)]),
            Verdict::MissesClass
        );
        assert_eq!(
            judge(BarrierIntensive, &[Some(0.15), Some(0.30)]),
            Verdict::MissesClass
        );
        assert_eq!(judge(NonBarrier, &[Some(0.01), Some(0.149)]), Verdict::Ok);
        assert_eq!(
            judge(NonBarrier, &[Some(0.16), Some(0.01)]),
            Verdict::MissesClass
        );
        assert_eq!(
            judge(NonBarrier, &[Some(0.15), Some(0.01)]),
            Verdict::MissesClass
        );
        assert_eq!(judge(NonBarrier, &[Some(0.01), None]), Verdict::Failed);
        assert_eq!(
            Verdict::judge(None, &[Some(0.5), Some(0.01)]),
            Verdict::Unclassified
        );
        assert_eq!(Verdict::judge(None, &[None, Some(0.01)]), Verdict::Failed);
    }
}
