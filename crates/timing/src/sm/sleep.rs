//! Fast forward, per SM and for the whole GPU: after a cycle, an SM that can change nothing by
//! itself before some later cycle is not visited until then.
//!
//! Invariant: sleeping changes no statistic. A sleeping SM's only per-cycle effect would have
//! been its schedulers' issue-slot outcomes, each repeating the last walk's or following the
//! data pattern its policy gave (no scheduler issued or stalled on a unit, or it would not
//! sleep); those are credited for every cycle slept through when it wakes. Everything that could wake it early comes from outside — a reply in
//! the interconnect for it (the run loop asks `MemSystem::next_reply` every cycle), a CTA
//! launched on it, the last CTA dispatched — and each of those wakes it first.

use super::Sm;
use crate::fetch_policy::FetchPolicy;
use crate::ids::SchedId;
use crate::policy::IssuePolicy;

/// Per-SM fast-forward state.
#[derive(Default)]
pub(crate) struct Sleep {
    /// Asleep through cycles before this one; 0: awake.
    pub until: u64,
    /// The first cycle slept through (credited to the issue-slot counters on waking).
    pub from: u64,
}

impl<P: IssuePolicy, F: FetchPolicy> Sm<P, F> {
    /// After cycle `now`: the next cycle at which this SM can change anything by itself
    /// (`now + 1` while busy; `u64::MAX` when only an outside event could wake it). Every
    /// scheduler sleeps (policies with `MAY_SLEEP`), fetch is idle, no CTA is draining and no
    /// memory completion is due before it (replies still in the interconnect are the memory
    /// system's: see `MemSystem::next_reply`).
    pub fn next_activity(&self, now: u64) -> u64 {
        // The cheapest test first: a scheduler that issued or met a busy unit acts again next
        // cycle, which is most cycles of a busy SM.
        if !P::MAY_SLEEP || self.residency.pending_exit {
            return now + 1;
        }
        let sched = self.sched.next_activity(now);
        if sched <= now + 1 {
            return now + 1;
        }
        let front = self.front.next_activity(now);
        if front <= now + 1 {
            return now + 1;
        }
        let mut t = sched.min(front).min(self.mem.next_activity(now));
        if let Some(std::cmp::Reverse((at, _))) = self.completions.peek() {
            t = t.min(*at);
        }
        t.max(now + 1)
    }

    /// The cycle a sleeping scheduler `k` walks again by itself (after `now`): the first wake
    /// cycle of its warps, or for a policy that reads `long_dep` the end of a warp's long
    /// wait (a sticky long-operation mark erased by a result, `Sm::set_head`) if earlier.
    /// Empty slots never wake it (their long wait is 0).
    #[inline]
    pub(super) fn sleep_until(&self, k: SchedId, now: u64) -> u64 {
        let mut wake = u64::MAX;
        let mut m = self.shape.sched_bits[k] & self.warps.occupied_bits();
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            let w = self.warps.wake[s];
            wake = wake.min(if w > now { w } else { u64::MAX });
            if P::READS_LONG_DEP {
                let l = self.warps.long_until[s];
                wake = wake.min(if l > now { l } else { u64::MAX });
            }
        }
        wake
    }

    /// Skips cycles `from .. to` in which [`Sm::next_activity`] said nothing happens: each
    /// sleeping scheduler charges its issue-slot outcome for every skipped cycle (stall cycles
    /// are credited per interval anyway).
    pub fn skip(&mut self, from: u64, to: u64) {
        self.sched.count_outcomes(from, to.max(from));
    }

    /// After cycle `now`: sleeps until the SM's next activity if that is later than the next
    /// cycle. Only an SM with resident CTAs sleeps (one without them counts no issue slots
    /// while its memory pipeline drains, so crediting them would count cycles it never had).
    pub fn doze(&mut self, now: u64) {
        if self.residency.count == 0 {
            return;
        }
        let t = self.next_activity(now);
        if t > now + 1 {
            self.sleep.until = t;
            self.sleep.from = now + 1;
        }
    }

    /// Asleep at cycle `now`, given the arrival cycle of the next reply for it.
    pub fn asleep(&self, now: u64, next_reply: u64) -> bool {
        now < self.sleep.until && now < next_reply
    }

    /// Is sleeping (whatever the cycle): its skipped cycles are not yet credited.
    pub fn sleeping(&self) -> bool {
        self.sleep.until != 0
    }

    /// Wakes at cycle `now` (which it will run): credits the cycles slept through.
    pub fn wake(&mut self, now: u64) {
        if self.sleep.until != 0 {
            self.skip(self.sleep.from, now);
            self.sleep.until = 0;
        }
    }
}
