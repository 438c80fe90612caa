//! Writeback and CTA retirement. Results are released from the scoreboard by time (an entry's
//! ready cycle); this stage retires a CTA once every warp has finished and every in-flight
//! result of its warps has been written back, recording per-CTA and per-warp statistics and
//! freeing the CTA's warp slots (the implicit exit barrier).

use super::{Env, Sm};
use crate::fetch_policy::FetchPolicy;
use crate::ids::CtaSlot;
use crate::policy::Events as _;
use crate::policy::{Block, IssuePolicy};
use crate::stats::{CtaRecord, LogKind, WarpRecord};

impl<P: IssuePolicy, F: FetchPolicy> Sm<P, F> {
    pub(crate) fn retire(&mut self, env: &mut Env, now: u64) {
        if !self.residency.pending_exit {
            return;
        }
        self.residency.pending_exit = false;
        for c in (0..self.residency.ctas.len()).map(CtaSlot::new) {
            let Some(rc) = &self.residency.ctas[c] else {
                continue;
            };
            if !rc.cta.finished() {
                continue;
            }
            let first = c.index() * self.shape.wpc;
            let slots = self.cta_warp_slots(c);
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
                let w = &rc.cta.warps[s.index() - first];
                env.out.warps.push(WarpRecord {
                    cta: rc.linear,
                    warp: w.index,
                    sm: self.id,
                    slot: s.0,
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
            env.out.ctas.push(CtaRecord {
                linear: rc.linear,
                id: rc.cta.id,
                sm: self.id,
                start: rc.start,
                end: now,
            });
            self.log(env, now, LogKind::CtaEnd { cta: rc.linear });
            notify!(self, now, env.all_dispatched, |p, v| p
                .on_cta_exit(c.raw(), &v));
            self.cta_slots.resident[c] = false;
            self.residency.count -= 1;
            self.rebuild_age_order();
            // Occupancy changed: every scheduler walks again.
            self.sched.wake_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testbench::{kernel, Bench};
    use crate::policy::Block;

    /// A one-warp CTA, run cycle by cycle on gtx480: the warp exits when it issues `ret`, but
    /// the CTA retires (freeing its slot, recording its end) only in the cycle its last
    /// result is written back; until then its warp drains.
    #[test]
    fn a_cta_retires_when_its_last_result_is_written_back() {
        let mut b = Bench::new(&kernel("mov.u32 %r1, %tid.x;"), 32, "gtx480", &[]);
        let mut sm = b.sm(1, true);
        b.launch(&mut sm, 1, 0, 0);
        let (end, drained) = b.with_env(1, |env| {
            env.all_dispatched = true;
            let mut drained = 0;
            for now in 0..100 {
                sm.cycle(env, now).unwrap();
                if sm.is_idle() {
                    return (env.out.ctas[0].end, drained);
                }
                drained += (sm.warps.block[0] == Block::Drain) as u64;
            }
            panic!("the CTA did not retire in 100 cycles");
        });
        // Fetched in cycle 0 (both instructions: one block), `mov` issues in 2, `ret` in 3.
        let exit = sm.timing.done_at[0];
        assert_eq!(exit, 3);
        // `ret` reads no register: into a collector the next cycle, dispatched the one after,
        // into its unit the third, released latency 1 + writeback 2 later; the CTA retires
        // with it.
        assert_eq!(sm.timing.last_complete[0], exit + 6);
        assert_eq!(end, exit + 6);
        assert_eq!(drained, 6, "cycles 3..9 spent draining");
        assert_eq!(sm.warps.block[0], Block::Exit);
        assert_eq!(
            sm.timing.stalls[0].drain, 5,
            "the drain interval opens at exit + 1"
        );
        assert!(sm.has_room(), "its slot is free again");
    }
}
