//! Per-warp bookkeeping of `cp.async` copies in flight, by commit group.
//!
//! A `cp.async` is staged like a global load (through L1 for `.ca`, around it for `.cg`) that
//! writes no register: the warp continues at once. Each copy belongs to its warp's *open*
//! group; `cp.async.commit_group` closes it. `cp.async.wait_group N` cannot issue (a data
//! stall) until every committed group but the newest `N` has landed, `cp.async.wait_all`
//! until every copy has (it also commits). Groups are counted in a ring of [`RING`] per warp,
//! indexed by group number: a warp with more than `RING − 1` groups in flight would alias an
//! old group with a new one (no nvcc pipeline keeps that many stages).
use crate::ids::WarpSlot;

/// Group counters per warp.
pub const RING: usize = 16;

/// Per warp slot: the open group's number and the copies in flight per group.
#[derive(Clone, Debug, Default)]
pub struct CpGroups {
    open: Vec<u32>,
    inflight: Vec<[u16; RING]>,
}

impl CpGroups {
    pub fn new(slots: usize) -> CpGroups {
        CpGroups {
            open: vec![0; slots],
            inflight: vec![[0; RING]; slots],
        }
    }

    /// A fresh warp in slot `s`.
    pub fn reset(&mut self, s: WarpSlot) {
        self.open[s] = 0;
        self.inflight[s] = [0; RING];
    }

    /// A copy issued by warp `s` joins its open group; returns the group.
    pub fn issue(&mut self, s: WarpSlot) -> u32 {
        let g = self.open[s];
        let c = &mut self.inflight[s][g as usize % RING];
        *c = c.saturating_add(1);
        g
    }

    /// A copy of group `g` landed in shared memory.
    pub fn land(&mut self, s: WarpSlot, g: u32) {
        let c = &mut self.inflight[s][g as usize % RING];
        *c = c.saturating_sub(1);
    }

    /// `cp.async.commit_group` (and `wait_all`): a new group opens.
    pub fn commit(&mut self, s: WarpSlot) {
        self.open[s] = self.open[s].wrapping_add(1);
    }

    /// Whether `cp.async.wait_group n` may issue: the groups older than the `n` newest
    /// committed ones have landed (the open group is not waited for).
    pub fn ready(&self, s: WarpSlot, n: u32) -> bool {
        let open = self.open[s];
        ((n as usize + 1)..RING).all(|age| {
            let g = open.wrapping_sub(age as u32);
            self.inflight[s][g as usize % RING] == 0
        })
    }

    /// Whether `cp.async.wait_all` may issue: nothing in flight.
    pub fn all_landed(&self, s: WarpSlot) -> bool {
        self.inflight[s].iter().all(|&c| c == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::WarpSlot;

    #[test]
    fn wait_group_waits_for_all_but_the_newest_n() {
        let mut g = CpGroups::new(1);
        let a = g.issue(WarpSlot(0)); // group 0
        g.commit(WarpSlot(0));
        let b = g.issue(WarpSlot(0)); // group 1
        g.commit(WarpSlot(0));
        let open = g.issue(WarpSlot(0)); // group 2, open
        assert_eq!((a, b, open), (0, 1, 2));
        assert!(
            !g.ready(WarpSlot(0), 1),
            "group 0 is older than the newest one"
        );
        assert!(
            g.ready(WarpSlot(0), 2),
            "two newest committed groups may pend"
        );
        g.land(WarpSlot(0), a);
        assert!(g.ready(WarpSlot(0), 1));
        assert!(!g.ready(WarpSlot(0), 0), "group 1 still in flight");
        g.land(WarpSlot(0), b);
        assert!(g.ready(WarpSlot(0), 0), "the open group is not waited for");
        assert!(!g.all_landed(WarpSlot(0)));
        g.land(WarpSlot(0), open);
        assert!(g.all_landed(WarpSlot(0)));
        g.reset(WarpSlot(0));
        assert!(g.ready(WarpSlot(0), 0) && g.all_landed(WarpSlot(0)));
    }
}
