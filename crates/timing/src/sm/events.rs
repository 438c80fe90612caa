//! What an issued instruction changes besides its own warp's next instruction: barrier
//! arrival and release, warp exit (the implicit exit barrier), the event log, the policy hooks,
//! and memory-completion notifications.

use super::{Env, Sm};
use crate::fetch_policy::FetchPolicy;
use crate::ids::{CtaSlot, WarpSlot};
use crate::policy::Events as _;
use crate::policy::{Block, IssuePolicy, SmState as _};
use crate::stats::{LogEvent, LogKind};
use std::cmp::Reverse;
use warpsim_core::exec::grid::{deadlock, synccheck_error};
use warpsim_core::exec::step::StepEvent;
use warpsim_core::exec::warp::WarpState;
use warpsim_core::ir::BarKind;

impl<P: IssuePolicy, F: FetchPolicy> Sm<P, F> {
    /// Appends to the event log when it is on.
    #[inline]
    pub(crate) fn log(&self, env: &mut Env, now: u64, kind: LogKind) {
        if let Some(l) = env.out.log.as_mut() {
            l.push(LogEvent {
                cycle: now,
                sm: self.id,
                kind,
            });
        }
    }

    /// Logs the policy's CTA order (`LogKind::CtaOrder` + `CtaRank`s) when it differs from
    /// the one logged last. Called at the end of the SM's cycle, so an order that changes
    /// several times within a cycle is logged once, as the cycle leaves it; skipped cycles
    /// (fast forward) change nothing, so the log is the same with and without it.
    pub(crate) fn log_cta_order(&mut self, env: &mut Env, now: u64) {
        let (Some(order), Some(log)) = (self.sched.shared().cta_order(), env.out.log.as_mut())
        else {
            return;
        };
        let linear = &self.cta_slots.linear;
        let same = order.len() == self.residency.logged_order.len()
            && order
                .iter()
                .zip(&self.residency.logged_order)
                .all(|(&c, &l)| linear[c as usize] == l);
        if same {
            return;
        }
        self.residency.logged_order.clear();
        self.residency
            .logged_order
            .extend(order.iter().map(|&c| linear[c as usize]));
        let ev = |kind| LogEvent {
            cycle: now,
            sm: self.id,
            kind,
        };
        log.push(ev(LogKind::CtaOrder {
            ctas: order.len() as u32,
        }));
        for (rank, &cta) in self.residency.logged_order.iter().enumerate() {
            log.push(ev(LogKind::CtaRank {
                rank: rank as u32,
                cta,
            }));
        }
    }

    /// After warp `s` executed the instruction at `pc` in cycle `now` with outcome `ev`:
    /// applies the functional barrier/exit effects and updates every affected warp's state.
    pub(crate) fn after_step(
        &mut self,
        env: &mut Env,
        s: WarpSlot,
        ev: StepEvent,
        pc: u32,
        now: u64,
    ) -> Result<(), crate::TimingError> {
        let (c, wi) = self.cta_and_warp(s);
        let waits_at_barrier = self.apply_step_event(env, c, wi, ev)?;
        self.snapshot(s);
        if waits_at_barrier {
            self.barrier_arrival(env, s, pc, now);
        }
        match self.warps.state()[s] {
            WarpState::Done => self.warp_finished(env, s, now),
            WarpState::AtBarrier { .. } => {
                self.warps.set_waiting(s, true);
                self.block(s, Block::Barrier, now + 1, u64::MAX);
            }
            WarpState::Ready => self.set_head(env, s, now + 1),
        }
        if matches!(ev, StepEvent::Continue) {
            return Ok(());
        }
        if waits_at_barrier && self.warps.state()[s] != WarpState::Ready {
            // The barrier this warp waits on is incomplete, and the functional CTA releases
            // another barrier only when its arrival count or the live threads change (an
            // arrival there, an exit): nobody was released, no other warp to look at.
            return Ok(());
        }
        // A barrier arrival or an exit can release the CTA's waiting warps.
        let released = if waits_at_barrier && self.warps.state()[s] == WarpState::Ready {
            self.cta_slots.at_barrier[c] -= 1;
            Some(pc)
        } else {
            None
        };
        self.release_waiters(env, s, released, now);
        Ok(())
    }

    /// The functional CTA's side of warp `wi` of CTA slot `c` finishing or arriving at a
    /// barrier (`ev`): returns whether the warp waits at a barrier. A CTA none of whose
    /// unfinished warps can run is a deadlock.
    fn apply_step_event(
        &mut self,
        env: &Env,
        c: CtaSlot,
        wi: usize,
        ev: StepEvent,
    ) -> Result<bool, crate::TimingError> {
        let cta = &mut self.residency.ctas[c].as_mut().expect("resident").cta;
        let mut waits_at_barrier = false;
        match ev {
            StepEvent::Continue => return Ok(false),
            StepEvent::Done => {
                cta.warps[wi].state = WarpState::Done;
                cta.release_ready()
                    .map_err(|h| synccheck_error(env.k, cta, h))?;
            }
            StepEvent::Barrier { kind, .. } => {
                waits_at_barrier = kind != BarKind::Arrive;
                cta.arrive(wi, ev)
                    .map_err(|h| synccheck_error(env.k, cta, h))?;
            }
        }
        if !cta.finished() && cta.warps.iter().all(|w| w.state != WarpState::Ready) {
            return Err(deadlock(env.k, cta).into());
        }
        Ok(waits_at_barrier)
    }

    /// Warp slot `s` arrived at the barrier at `pc` (counted as an arrival even when it
    /// completes the barrier at once).
    fn barrier_arrival(&mut self, env: &mut Env, s: WarpSlot, pc: u32, now: u64) {
        let (c, wi) = self.cta_and_warp(s);
        self.cta_slots.at_barrier[c] += 1;
        self.cta_slots.first_arrival[c].get_or_insert(now);
        self.timing.bar_pc[s] = pc;
        let cta = self.cta_slots.linear[c];
        self.log(
            env,
            now,
            LogKind::BarrierArrive {
                cta,
                warp: wi as u32,
                pc,
            },
        );
        notify!(self, now, env.all_dispatched, |p, v| p.on_barrier_arrive(
            s.raw(),
            pc,
            &v
        ));
    }

    /// Warp slot `s` executed its last instruction in cycle `now`: it waits at the implicit
    /// exit barrier, and when it was its CTA's last warp the CTA drains its memory accesses.
    fn warp_finished(&mut self, env: &mut Env, s: WarpSlot, now: u64) {
        let (c, wi) = self.cta_and_warp(s);
        self.warps.set_waiting(s, true);
        self.cta_slots.finished[c] += 1;
        self.timing.done_at[s] = now;
        self.residency.pending_exit = true;
        self.block(s, Block::Exit, now + 1, u64::MAX);
        if self.cta_slots.finished[c] == self.cta_slots.warps[c] {
            // The last warp finished: from here the CTA only waits for its memory.
            for o in self.cta_warp_slots(c) {
                self.block(o, Block::Drain, now + 1, u64::MAX);
            }
        }
        let cta = self.cta_slots.linear[c];
        self.log(
            env,
            now,
            LogKind::WarpFinish {
                cta,
                warp: wi as u32,
            },
        );
        notify!(self, now, env.all_dispatched, |p, v| p
            .on_warp_finished(s.raw(), &v));
    }

    /// After warp slot `s`'s barrier arrival or exit in cycle `now`: the warps of its CTA
    /// the functional CTA released from their barrier may issue from the next cycle.
    /// `released`: the barrier's PC when `s` itself passed it.
    fn release_waiters(&mut self, env: &mut Env, s: WarpSlot, mut released: Option<u32>, now: u64) {
        let c = self.shape.place[s].cta;
        for o in self.cta_warp_slots(c) {
            if o == s {
                continue;
            }
            let old = self.warps.state()[o];
            self.snapshot(o);
            if matches!(old, WarpState::AtBarrier { .. })
                && self.warps.state()[o] == WarpState::Ready
            {
                self.warps.set_waiting(o, false);
                self.cta_slots.at_barrier[c] -= 1;
                released.get_or_insert(self.timing.bar_pc[o]);
                self.set_head(env, o, now + 1);
            }
        }
        let Some(pc) = released else { return };
        if self.cta_slots.at_barrier[c] == 0 {
            self.cta_slots.first_arrival[c] = None;
        }
        let cta = self.cta_slots.linear[c];
        self.log(env, now, LogKind::BarrierRelease { cta, pc });
        notify!(self, now, env.all_dispatched, |p, v| p.on_barrier_release(
            c.raw(),
            pc,
            &v
        ));
    }

    /// Delivers `on_mem_complete` for every memory instruction whose result is ready by `now`.
    pub(crate) fn deliver_completions(&mut self, env: &Env, now: u64) {
        while let Some(&Reverse((at, s))) = self.completions.peek() {
            if at > now {
                break;
            }
            self.completions.pop();
            if self.warps.occupied()[s] {
                notify!(self, now, env.all_dispatched, |p, v| p
                    .on_mem_complete(s.raw(), &v));
            }
        }
    }

    /// The dispatcher handed out the kernel's last CTA.
    pub fn last_cta_dispatched(&mut self, now: u64) {
        notify!(self, now, true, |p, v| p.on_last_cta_dispatched(&v));
    }
}

#[cfg(test)]
mod tests {
    use super::super::testbench::{kernel, Bench};
    use crate::ids::WarpSlot;
    use crate::policy::Block;

    /// Two warps meet at `bar.sync`, run cycle by cycle on gtx480: the first to arrive waits
    /// (a barrier stall) until the second's arrival releases both, and both may issue from the
    /// next cycle.
    #[test]
    fn a_barrier_holds_the_first_arrival_until_the_last() {
        let src = kernel("bar.sync 0;\nmov.u32 %r1, %tid.x;");
        let mut b = Bench::new(&src, 64, "gtx480", &[]);
        let mut sm = b.sm(1, true);
        b.launch(&mut sm, 1, 0, 0);
        let mut blocks = Vec::new();
        b.with_env(1, |env| {
            env.all_dispatched = true;
            for now in 0..5 {
                sm.cycle(env, now).unwrap();
                blocks.push((sm.warps.block[0], sm.warps.wake[0], sm.warps.wake[1]));
            }
        });
        // Warp 0 is fetched in cycle 0 and arrives in 2; warp 1, fetched in 1, arrives in 3
        // and releases the barrier: both wait on nothing from cycle 4.
        assert_eq!(blocks[2].0, Block::Barrier);
        assert_eq!(sm.timing.bar_pc[0], 0);
        assert_eq!(
            blocks[3],
            (Block::Ready, 4, 4),
            "released by warp 1's arrival"
        );
        // Both issue their `mov` in cycle 4.
        assert_eq!((sm.warps.insts[0], sm.warps.insts[1]), (2, 2));
        assert_eq!(sm.cta_slots.at_barrier[0], 0);
        assert_eq!(sm.cta_slots.first_arrival[0], None);
        sm.settle(WarpSlot(0), 10);
        assert_eq!(sm.timing.stalls[0].barrier, 1, "cycle 3");
        assert_eq!(sm.timing.stalls[1].barrier, 0);
    }
}
