//! Writeback and CTA retirement. Results are released from the scoreboard by time (an entry's
//! ready cycle); this stage retires a CTA once every warp has finished and every in-flight
//! result of its warps has been written back, recording per-CTA and per-warp statistics and
//! freeing the CTA's warp slots (the implicit exit barrier).

use super::{Env, Sm};
use crate::fetch_policy::FetchPolicy;
use crate::policy::Events as _;
use crate::policy::{Block, IssuePolicy};
use crate::stats::{CtaRecord, LogKind, WarpRecord};

impl<P: IssuePolicy, F: FetchPolicy> Sm<P, F> {
    pub(crate) fn retire(&mut self, env: &mut Env, now: u64) {
        if !self.residency.pending_exit {
            return;
        }
        self.residency.pending_exit = false;
        for c in 0..self.residency.ctas.len() {
            let Some(rc) = &self.residency.ctas[c] else {
                continue;
            };
            if !rc.cta.finished() {
                continue;
            }
            let slots = c * self.shape.wpc..c * self.shape.wpc + rc.cta.warps.len();
            let drain = slots
                .clone()
                .map(|s| self.timing.last_complete[s])
                .max()
                .unwrap_or(now);
            let in_flight = slots.clone().any(|s| self.mem.outstanding[s] > 0);
            if drain > now || in_flight {
                self.residency.pending_exit = true;
                continue;
            }
            let rc = self.residency.ctas[c].take().expect("checked");
            for s in slots {
                self.settle(s, now);
                let st = &mut self.timing.stalls[s];
                // Every resident cycle [start, now) is an issue cycle (one or, dual-issued, two
                // instructions) or exactly one reason; the cycles not blocked, not structural
                // and not issuing are `not_selected`.
                let resident = now - self.timing.start[s];
                let issue_cycles = self.warps.insts[s] - self.timing.dual[s];
                st.not_selected = 0;
                st.not_selected = resident.saturating_sub(issue_cycles + st.total());
                let w = &rc.cta.warps[s - c * self.shape.wpc];
                env.warps.push(WarpRecord {
                    cta: rc.linear,
                    warp: w.index,
                    sm: self.id,
                    slot: s as u32,
                    age: self.warps.age[s],
                    instructions: w.instructions,
                    thread_instructions: w.thread_instructions,
                    dual_issue_cycles: self.timing.dual[s],
                    start: self.timing.start[s],
                    done: self.timing.done_at[s],
                    issued_cycles: self.timing.busy_cycles[s]
                        + self.timing.last_complete[s].saturating_sub(self.timing.busy_from[s]),
                    stalls: *st,
                    barrier_fraction: st.barrier as f64 / (now - rc.start).max(1) as f64,
                });
                self.warps.set_occupied(s, false);
                self.warps.set_ib_n(s, 0);
                self.warps.block[s] = Block::Exit;
                self.warps.wake[s] = u64::MAX;
                self.warps.long_until[s] = 0;
                self.timing.since[s] = now;
            }
            env.ctas.push(CtaRecord {
                linear: rc.linear,
                id: rc.cta.id,
                sm: self.id,
                start: rc.start,
                end: now,
            });
            self.log(env, now, LogKind::CtaEnd { cta: rc.linear });
            notify!(self, now, env.all_dispatched, |p, v| p
                .on_cta_exit(c as u16, &v));
            self.cta_slots.resident[c] = false;
            self.residency.count -= 1;
            self.rebuild_age_order();
            // Occupancy changed: every scheduler walks again.
            self.sched.wake_all();
        }
    }
}
