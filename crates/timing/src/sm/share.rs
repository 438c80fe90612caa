//! Warp sharing (KAWS): after every scheduler walked its own order, a scheduler that issued
//! nothing may issue a warp of another scheduler that was ready this cycle but found its own
//! unit port busy, if a unit instance of that class is free for the sharing scheduler. The
//! sharing scheduler's policy picks among the candidates ([`IssuePolicy::pick_shared`],
//! default oldest). Only compiled in for policies with `SHARES_WARPS`; the issue counts as
//! the warp's issue (its structural stall for this cycle is taken back) and as an `issued`
//! slot of the sharing scheduler, and is counted in `TimingStats::shared_issues`.

use super::{Env, Slot, Sm};
use crate::fetch_policy::FetchPolicy;
use crate::policy::IssuePolicy;

impl<P: IssuePolicy, F: FetchPolicy> Sm<P, F> {
    pub(crate) fn share_stage(
        &mut self,
        env: &mut Env,
        now: u64,
    ) -> Result<(), crate::TimingError> {
        if self.blocked_ready.is_empty() {
            return Ok(());
        }
        let n = self.sched_slots.len();
        let blocked = std::mem::take(&mut self.blocked_ready);
        let mut cand = std::mem::take(&mut self.order);
        let mut result = Ok(());
        for b in 0..n {
            if self.outcome[b] == Slot::Issued {
                continue;
            }
            cand.clear();
            for &s in &blocked {
                let si = s as usize;
                // Still ready (not issued by an earlier sharer this cycle), someone else's, and
                // a port of its class is free for `b`.
                if si % n != b
                    && self.w.wake[si] <= now
                    && self.units.free(self.w.head_unit[si], b, now).is_some()
                    && self.oc.free(self.w.head_unit[si], now).is_some()
                {
                    cand.push(s);
                }
            }
            if cand.is_empty() {
                continue;
            }
            let pick = {
                let v = view!(self, now, env.all_dispatched);
                self.policies[b].pick_shared(&cand, &v)
            };
            let Some(s) = pick.filter(|s| cand.contains(s)) else {
                continue;
            };
            let si = s as usize;
            let u = self
                .units
                .free(self.w.head_unit[si], b, now)
                .expect("checked free");
            self.stalls[si].structural -= 1;
            self.outcome[b] = Slot::Issued;
            self.sched_wake[b] = 0;
            if let Err(e) = self.issue_one(env, si, b, u, now, true) {
                result = Err(e);
                break;
            }
        }
        self.order = cand;
        self.blocked_ready = blocked;
        self.blocked_ready.clear();
        result
    }
}
