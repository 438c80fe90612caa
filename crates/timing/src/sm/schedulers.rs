//! The warp schedulers of one SM as state: each one's policy, its issue-slot outcome and
//! counters, when it may sleep, and the outcome counting of the cycles it sleeps through. The
//! issue stage that walks them is `issue.rs`.

use super::{Shape, Slot};
use crate::ids::SchedId;
use crate::policy::{Build, BuildCtx, DataPattern, IssueOrders, IssuePolicy, SmState as _};
use crate::stats::IssueSlots;
use warpsim_core::config::GpuConfig;

/// The warp schedulers of one SM: each one's policy, its issue-slot outcome and counters,
/// and when it may sleep. Its state is its own: the rest of the SM wakes schedulers, lends the
/// policies to fetch and to event delivery, and reads the counters, through the methods below.
pub(crate) struct Schedulers<P: IssuePolicy> {
    /// Per scheduler.
    pub(super) policies: Vec<P>,
    /// The policy's SM-wide state (one per SM, told about every event before the schedulers).
    pub(super) shared: P::Shared,
    /// Scratch: a scheduler's priority order this cycle.
    pub(super) order: Vec<u16>,
    /// Per scheduler: issue-slot counters.
    slots: Vec<IssueSlots>,
    /// Per scheduler: it need not walk before this cycle (nothing can issue).
    pub(super) wake: Vec<u64>,
    /// Per scheduler: the warps its last walk found ready but blocked on a busy unit or
    /// collector (charged a structural stall for every cycle it sleeps on them).
    pub(super) unit_stalled: Vec<Vec<u16>>,
    /// A memory instruction that cannot queue (`cp.async`) waits for the LD/ST unit: no other
    /// may queue until it has issued, so it is served in its turn (`sm.ldst_queue`).
    pub(super) ldst_waiting: bool,
    /// This cycle's issue-slot outcome per scheduler (also what a sleeping one charges).
    pub(super) outcome: Vec<Slot>,
    /// Per scheduler asleep with a scoreboard or idle outcome: in which cycles it charges the
    /// scoreboard outcome rather than idle, when its policy said ([`Settled::DataWhen`](crate::policy::Settled::DataWhen)).
    data_pattern: Vec<Option<DataPattern>>,
    /// How many of `data_pattern` are set (none: every scheduler charges its outcome).
    data_patterns: usize,
    /// Warps that were ready this cycle but found their unit busy (warp-sharing candidates).
    pub(super) blocked_ready: Vec<u16>,
}

impl<P: IssuePolicy> Schedulers<P> {
    /// `make(ctx)` builds scheduler `ctx.scheduler`'s policy.
    pub fn new(
        cfg: &GpuConfig,
        shape: &Shape,
        ctas_per_sm: usize,
        make: &mut impl FnMut(&BuildCtx) -> P,
    ) -> Self {
        let n = shape.slots();
        let s = shape.sched_slots.len();
        let base = BuildCtx {
            scheduler: 0,
            slots: &[],
            schedulers: s,
            warp_slots: n,
            cta_slots: ctas_per_sm,
            warps_per_cta: shape.wpc,
            params: &cfg.policy,
        };
        let policies = shape
            .sched_slots
            .iter()
            .enumerate()
            .map(|(i, slots)| {
                make(&BuildCtx {
                    scheduler: i,
                    slots,
                    ..base
                })
            })
            .collect();
        Schedulers {
            policies,
            shared: P::Shared::build(&base),
            order: Vec::with_capacity(n),
            slots: vec![IssueSlots::default(); s],
            wake: vec![0; s],
            unit_stalled: (0..s).map(|_| Vec::with_capacity(n)).collect(),
            ldst_waiting: false,
            outcome: vec![Slot::Idle; s],
            data_pattern: vec![None; s],
            data_patterns: 0,
            blocked_ready: Vec::with_capacity(n),
        }
    }

    /// Every scheduler walks again next time (the order or the occupancy changed).
    pub fn wake_all(&mut self) {
        self.wake.iter_mut().for_each(|x| *x = 0);
    }

    /// Every scheduler sleeping past `now` walks at `now` (the LD/ST unit freed).
    pub fn wake_all_by(&mut self, now: u64) {
        self.wake.iter_mut().for_each(|w| *w = (*w).min(now));
    }

    /// Scheduler `k` walks again by cycle `t` at the latest (one of its warps changed state).
    #[inline]
    pub fn wake_by(&mut self, k: SchedId, t: u64) {
        self.wake[k] = self.wake[k].min(t);
    }

    /// After cycle `now`, the next cycle the schedulers act by themselves: the next one when
    /// one of them issued or met a busy unit (it walks again); else the first at which a
    /// sleeping one walks again or the SM-wide policy state's timer is due.
    #[inline]
    pub fn next_activity(&self, now: u64) -> u64 {
        if self
            .outcome
            .iter()
            .any(|o| matches!(o, Slot::Issued | Slot::Pipeline))
        {
            return now + 1;
        }
        self.wake
            .iter()
            .fold(self.shared.wake_at(), |t, &w| t.min(w))
    }

    /// The SM-wide policy state's timer is due at `now`.
    #[inline]
    pub fn timer_due(&self, now: u64) -> bool {
        now >= self.shared.wake_at()
    }

    /// Runs the SM-wide state's timer; the order may have changed, so every scheduler walks
    /// again.
    pub fn fire_timer(&mut self, v: &crate::policy::PolicyView) {
        self.shared.on_timer(v);
        self.wake_all();
    }

    /// The SM-wide policy state.
    pub fn shared(&self) -> &P::Shared {
        &self.shared
    }

    /// The SM-wide policy state and every scheduler's policy, to deliver an event to.
    pub fn policies_mut(&mut self) -> (&mut P::Shared, &mut [P]) {
        (&mut self.shared, &mut self.policies)
    }

    /// Every scheduler's issue order, built on demand (what a fetch policy reads).
    pub fn orders<'a>(&'a mut self, sched_slots: &'a [Vec<u16>]) -> IssueOrders<'a, P> {
        IssueOrders::new(&mut self.policies, &self.shared, sched_slots)
    }

    /// Per scheduler: the issue-slot counters.
    pub fn counters(&self) -> &[IssueSlots] {
        &self.slots
    }

    /// Warp sharing's inputs: the warps ready this cycle whose port was busy, and scratch
    /// space; `None` when there are none. Hand both back with [`Schedulers::end_sharing`].
    pub fn begin_sharing(&mut self) -> Option<(Vec<u16>, Vec<u16>)> {
        if self.blocked_ready.is_empty() {
            return None;
        }
        Some((
            std::mem::take(&mut self.blocked_ready),
            std::mem::take(&mut self.order),
        ))
    }

    /// Takes back [`Schedulers::begin_sharing`]'s vectors (they keep their capacity).
    pub fn end_sharing(&mut self, mut blocked: Vec<u16>, scratch: Vec<u16>) {
        blocked.clear();
        self.blocked_ready = blocked;
        self.order = scratch;
    }

    /// Scheduler `b` issued this cycle.
    #[inline]
    pub fn issued(&self, b: SchedId) -> bool {
        self.outcome[b] == Slot::Issued
    }

    /// Scheduler `b` issued another scheduler's warp (warp sharing).
    pub fn issued_shared(&mut self, b: SchedId) {
        self.outcome[b] = Slot::Issued;
        self.wake[b] = 0;
    }

    /// Scheduler `b`'s policy picks among `cand` (warp sharing).
    pub fn pick_shared(
        &mut self,
        b: SchedId,
        cand: &[u16],
        v: &crate::policy::PolicyView,
    ) -> Option<u16> {
        self.policies[b].pick_shared(cand, v)
    }

    /// A cycle's outcome for scheduler `k`, set by hand (tests).
    #[cfg(test)]
    pub fn set_outcome(&mut self, k: SchedId, o: Slot) {
        self.outcome[k] = o;
    }

    /// The warps found ready but port-blocked this cycle, set by hand (tests).
    #[cfg(test)]
    pub fn set_blocked_ready(&mut self, warps: Vec<u16>) {
        self.blocked_ready = warps;
    }

    /// Charges each scheduler's outcome for the cycles `from .. to` (more than one: cycles
    /// slept through): its last walk's, or where that met no busy unit, its data pattern's.
    #[inline]
    pub fn count_outcomes(&mut self, from: u64, to: u64) {
        let n = to - from;
        if self.data_patterns != 0 {
            return self.count_with_patterns(from, to);
        }
        for (c, &o) in self.slots.iter_mut().zip(&self.outcome) {
            charge(c, o, n);
        }
    }

    /// [`Schedulers::count_outcomes`] while a scheduler sleeps with a data pattern: the walk's
    /// own cycle (`first - 1`) keeps its outcome, the others follow the pattern.
    #[inline(never)]
    fn count_with_patterns(&mut self, from: u64, to: u64) {
        let n = to - from;
        if n == 1 {
            // One cycle stepped (the usual case): the walk's own cycle, or the pattern's.
            for ((c, &o), p) in self
                .slots
                .iter_mut()
                .zip(&self.outcome)
                .zip(&self.data_pattern)
            {
                let o = match p {
                    Some(p) if matches!(o, Slot::Scoreboard | Slot::Idle) && from >= p.first => {
                        if p.at(from) {
                            Slot::Scoreboard
                        } else {
                            Slot::Idle
                        }
                    }
                    _ => o,
                };
                charge(c, o, 1);
            }
            return;
        }
        for ((c, o), p) in self
            .slots
            .iter_mut()
            .zip(&self.outcome)
            .zip(&self.data_pattern)
        {
            let (own, data) = match (o, p) {
                (Slot::Issued, _) => {
                    c.issued += n;
                    continue;
                }
                (Slot::Pipeline, _) => {
                    c.pipeline += n;
                    continue;
                }
                (_, None) => (n, 0),
                (_, Some(p)) if n == 1 => match from.checked_sub(p.first) {
                    None => (1, 0),
                    Some(_) => (0, p.at(from) as u64),
                },
                (_, Some(p)) => {
                    let own = p.first.clamp(from, to) - from;
                    (own, p.count(from + own, to))
                }
            };
            if *o == Slot::Scoreboard {
                c.scoreboard += own;
            } else {
                c.idle += own;
            }
            c.scoreboard += data;
            c.idle += n - own - data;
        }
    }

    /// Scheduler `k`'s data pattern while it sleeps (`None`: awake, or its outcome holds).
    #[inline]
    pub(super) fn set_data_pattern(&mut self, k: SchedId, p: Option<DataPattern>) {
        let was = self.data_pattern[k].is_some() as usize;
        self.data_patterns = self.data_patterns + p.is_some() as usize - was;
        self.data_pattern[k] = p;
    }
}

/// Adds `n` cycles of outcome `o` to a scheduler's issue-slot counts.
#[inline(always)]
fn charge(c: &mut IssueSlots, o: Slot, n: u64) {
    match o {
        Slot::Issued => c.issued += n,
        Slot::Pipeline => c.pipeline += n,
        Slot::Scoreboard => c.scoreboard += n,
        Slot::Idle => c.idle += n,
    }
}
