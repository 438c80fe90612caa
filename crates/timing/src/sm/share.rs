//! Warp sharing (KAWS §3, Fig. 3; on with `+ws`): after every scheduler walked its own order,
//! each scheduler that issued nothing this cycle may issue one warp of another scheduler that
//! was ready this cycle but found its own port of the instruction's class busy (`Sm::port`:
//! for SP and SFU its ID/OC register, full while the collectors behind it are busy; for LD/ST
//! its collector or its unit instance), if the sharing scheduler's port of that class is free.
//! The sharing schedulers take their turn in index order; each one's policy picks among its
//! candidates ([`IssuePolicy::pick_shared`], default oldest). The issue runs through the
//! sharer's port, collectors and units, counts as the warp's issue (its structural stall for
//! this cycle is taken back) and as an `issued` slot of the sharer, and is counted in
//! `TimingStats::shared_issues` by unit class. With the pool collector model the collector
//! check is the SM-wide pool's, as at issue.

use super::{Env, Sm};
use crate::fetch_policy::FetchPolicy;
use crate::ids::{SchedId, WarpSlot};
use crate::policy::IssuePolicy;

impl<P: IssuePolicy, F: FetchPolicy> Sm<P, F> {
    pub(crate) fn share_stage(
        &mut self,
        env: &mut Env,
        now: u64,
    ) -> Result<(), crate::TimingError> {
        let Some((blocked, mut cand)) = self.sched.begin_sharing() else {
            return Ok(());
        };
        let n = self.shape.sched_slots.len();
        let mut result = Ok(());
        for b in SchedId::all(n) {
            let Some(s) = self.share_pick(b, &blocked, &mut cand, now, env.all_dispatched) else {
                continue;
            };
            let si = WarpSlot::from_raw(s);
            let u = self
                .port(self.warps.head_unit[si], b, now)
                .expect("checked free");
            self.timing.stalls[si].structural -= 1;
            self.sched.issued_shared(b);
            if let Err(e) = self.issue_one(env, si, b, u, now, true) {
                result = Err(e);
                break;
            }
        }
        self.sched.end_sharing(blocked, cand);
        result
    }

    /// The warp scheduler `b` issues for another scheduler this cycle, if any: `None` when `b`
    /// issued itself; otherwise its policy's pick among the warps of `blocked` (ready this
    /// cycle, their own port busy) that belong to another scheduler, are still ready (not
    /// issued by an earlier sharer) and find `b`'s collector and unit of their class free.
    /// `cand` is scratch space.
    pub(crate) fn share_pick(
        &mut self,
        b: SchedId,
        blocked: &[u16],
        cand: &mut Vec<u16>,
        now: u64,
        all_dispatched: bool,
    ) -> Option<u16> {
        if self.sched.issued(b) {
            return None;
        }
        cand.clear();
        for &s in blocked {
            let si = WarpSlot::from_raw(s);
            let unit = self.warps.head_unit[si];
            if self.shape.place[si].scheduler != b
                && self.warps.wake[si] <= now
                && self.port(unit, b, now).is_some()
            {
                cand.push(s);
            }
        }
        if cand.is_empty() {
            return None;
        }
        let v = view!(self, now, all_dispatched);
        self.sched
            .pick_shared(b, cand, &v)
            .filter(|s| cand.contains(s))
    }
}

#[cfg(test)]
mod tests {
    //! The sharing decision on a crafted four-scheduler SM: port states and ready warps set by
    //! hand, each sharer's pick taken with [`Sm::share_pick`] in scheduler order as the share
    //! stage does, and an issue's effect on the next decisions applied by hand (the warp is no
    //! longer ready; the sharer's collector and unit of that class are busy).
    use super::super::{Slot, Sm};
    use crate::classify::Unit;
    use crate::fetch_policy::RoundRobin;
    use crate::ids::{SchedId, WarpSlot};
    use crate::policy::Gto;
    use warpsim_core::config::GpuConfig;

    /// Collector `c` or unit `u` of a (scheduler, class) port.
    #[derive(Clone, Copy, PartialEq)]
    enum Busy {
        Collector,
        Unit,
    }

    const NOW: u64 = 100;

    /// Per warp: the class of its ready I-buffer head (`None`: not ready).
    type Ready = [Option<Unit>; 8];
    /// Busy ports: (scheduler, class, what is busy).
    type Ports = Vec<(usize, Unit, Busy)>;

    /// One CTA of 8 warps on titanx-pascal's sub-core SM (4 schedulers, one collector and one
    /// unit instance per scheduler and class); warp `w` (slot = age = `w`) belongs to
    /// scheduler `w mod 4`. `ready[w]`: the class of its I-buffer head, `None` when it is not
    /// ready (a data stall); `busy`: (scheduler, class, what) ports busy this cycle.
    fn sm(ready: Ready, busy: &[(usize, Unit, Busy)]) -> Sm<Gto, RoundRobin> {
        let mut cfg = GpuConfig::load("titanx-pascal").unwrap();
        // The KAWS paper's Fig. 3: an LD/ST unit per scheduler too (the preset has GPGPU-Sim's
        // one per SM, shared by the four schedulers).
        cfg.units.ldst = 4;
        assert_eq!(cfg.operand_collectors.per_scheduler, 1);
        let mut sm = Sm::new(
            0,
            &cfg,
            1,
            8,
            &mut |b| Gto::new(b.scheduler),
            RoundRobin::default(),
            true,
            true,
        );
        for (w, r) in ready.iter().enumerate() {
            sm.warps.set_occupied(WarpSlot::new(w), true);
            sm.warps.age[w] = w as u64;
            sm.warps.wake[w] = if r.is_some() { NOW } else { NOW + 10 };
            sm.warps.head_unit[w] = r.unwrap_or(Unit::Sp);
        }
        for &(k, u, what) in busy {
            hold(&mut sm, k, u, what, NOW + 3);
        }
        // Every scheduler's walk found only warps whose own port is busy: none issued, and the
        // ready warps are the sharing candidates, in walk order.
        for k in 0..4 {
            sm.sched.set_outcome(SchedId(k), Slot::Pipeline);
        }
        sm.sched
            .set_blocked_ready((0..8u16).filter(|&w| ready[w as usize].is_some()).collect());
        sm
    }

    /// Scheduler `k`'s port of class `u` cannot take an instruction before cycle `until`: its
    /// collector (for SP and SFU, the ID/OC register in front of it, which holds its
    /// instruction while the collector is busy) or its unit instance (LD/ST).
    fn hold(sm: &mut Sm<Gto, RoundRobin>, k: usize, u: Unit, what: Busy, until: u64) {
        match (what, u) {
            (Busy::Collector, Unit::Ldst) => {
                let step = sm.collectors.first_step(until);
                sm.collectors.occupy((u as u8, k as u16), step);
            }
            (Busy::Collector, _) => sm.alu.release_id_oc(u, k, until),
            (Busy::Unit, Unit::Ldst) => sm.units.occupy(k, until),
            (Busy::Unit, _) => unreachable!("SP and SFU instances are behind the ID/OC register"),
        }
    }

    /// (warp, sharing scheduler) for each shared issue of the cycle.
    fn share(sm: &mut Sm<Gto, RoundRobin>) -> Vec<(u16, usize)> {
        let (blocked, mut cand) = sm.sched.begin_sharing().unwrap_or_default();
        let mut out = Vec::new();
        for b in 0..4 {
            if let Some(w) = sm.share_pick(SchedId::new(b), &blocked, &mut cand, NOW, false) {
                let u = sm.warps.head_unit[w as usize];
                sm.sched.issued_shared(SchedId::new(b));
                sm.warps.wake[w as usize] = NOW + 1;
                hold(sm, b, u, Collector, NOW + 1);
                if u == Mem {
                    hold(sm, b, u, Unit, NOW + 1);
                }
                out.push((w, b));
            }
        }
        out
    }

    use Busy::*;
    use Unit::{Ldst as Mem, Sfu, Sp};

    /// KAWS Fig. 3 as its text describes it: w0, w4 (S0) carry MEM instructions and S0's MEM
    /// collector is busy; w1 (SP) and w5 (SFU) of S1 find S1's SP and SFU collectors busy
    /// while S1's MEM collector is free; w6 (MEM) at S2 and w3, w7 (MEM) at S3 find their MEM
    /// collectors busy; w2 is not ready (the text does not mention it). The figure's outcome —
    /// w0 to S1, w5 to S2, w1 to S3 — says which other collectors are free: S2's SFU and S3's
    /// SP; and that S0 takes nothing, so its SP and SFU collectors are busy too (were S0's SP
    /// free, the oldest SP candidate w1 would go to S0, not S3). The remaining ones (S2's SP,
    /// S3's SFU) must be busy as well, or S2 would take w1 (older than w5) and S3 nothing.
    fn fig3() -> (Ready, Ports) {
        let ready = [
            Some(Mem),
            Some(Sp),
            None,
            Some(Mem),
            Some(Mem),
            Some(Sfu),
            Some(Mem),
            Some(Mem),
        ];
        let busy = vec![
            (0, Sp, Collector),
            (0, Sfu, Collector),
            (0, Mem, Collector),
            (1, Sp, Collector),
            (1, Sfu, Collector),
            (2, Sp, Collector),
            (2, Mem, Collector),
            (3, Sfu, Collector),
            (3, Mem, Collector),
        ];
        (ready, busy)
    }

    #[test]
    fn kaws_fig3_w0_to_s1_w5_to_s2_w1_to_s3() {
        let (ready, busy) = fig3();
        assert_eq!(share(&mut sm(ready, &busy)), [(0, 1), (5, 2), (1, 3)]);
    }

    #[test]
    fn no_sharing_to_a_scheduler_that_issued_this_cycle() {
        let (ready, busy) = fig3();
        let mut s = sm(ready, &busy);
        s.sched.set_outcome(SchedId(1), Slot::Issued); // S1 issued a warp of its own: its free MEM port is not offered
        assert_eq!(share(&mut s), [(5, 2), (1, 3)]);
    }

    #[test]
    fn no_sharing_when_the_targets_own_collector_or_unit_of_that_class_is_busy() {
        let (ready, mut busy) = fig3();
        busy.push((1, Mem, Collector));
        assert_eq!(share(&mut sm(ready, &busy)), [(5, 2), (1, 3)]);
        // Collector free but the unit instance behind it busy (its port cannot accept).
        let (ready, mut busy) = fig3();
        busy.push((1, Mem, Unit));
        assert_eq!(share(&mut sm(ready, &busy)), [(5, 2), (1, 3)]);
    }

    #[test]
    fn a_scheduler_never_shares_its_own_warps_and_the_oldest_candidate_wins() {
        // Only S0's MEM port is busy and every other port is free: S1, S2, S3 take the MEM
        // warps w0 and w4 of S0, oldest first, and then nothing is left for S3.
        let mut ready = [None; 8];
        ready[0] = Some(Mem);
        ready[4] = Some(Mem);
        assert_eq!(
            share(&mut sm(ready, &[(0, Mem, Collector)])),
            [(0, 1), (4, 2)]
        );
    }
}
