//! LD/ST unit instances, each busy until its access is served (or, for an access timed at
//! issue, its initiation interval has passed). With `sm.sub_core` an instance belongs to
//! scheduler `i mod S` (when there are at least S instances); otherwise any scheduler may use
//! any instance. The SP and SFU instances are the ALU path's (`alu_path.rs`).

use crate::ids::SchedId;
use warpsim_core::config::GpuConfig;

pub struct Units {
    /// Per instance: the first cycle it accepts a new instruction.
    busy_until: Vec<u64>,
    schedulers: usize,
    sub_core: bool,
}

impl Units {
    pub fn new(cfg: &GpuConfig) -> Units {
        Units {
            busy_until: vec![0u64; cfg.units.ldst.max(1) as usize],
            schedulers: cfg.sm.schedulers as usize,
            sub_core: cfg.sm.sub_core,
        }
    }

    /// The instances scheduler `sched` may use.
    #[inline]
    pub fn usable(&self, sched: SchedId) -> impl Iterator<Item = usize> + '_ {
        let n = self.busy_until.len();
        let private = self.sub_core && n >= self.schedulers;
        (0..n).filter(move |&i| !private || i % self.schedulers == sched.index())
    }

    /// A free instance for scheduler `sched` at cycle `now`.
    #[inline]
    pub fn free(&self, sched: SchedId, now: u64) -> Option<usize> {
        self.usable(sched).find(|&i| self.busy_until[i] <= now)
    }

    /// The first cycle an instance scheduler `sched` may use is free (`u64::MAX`: each is
    /// held until the memory stage frees it).
    pub fn next_free(&self, sched: SchedId) -> u64 {
        self.usable(sched)
            .map(|i| self.busy_until[i])
            .min()
            .unwrap_or(u64::MAX)
    }

    #[inline]
    pub fn occupy(&mut self, instance: usize, until: u64) {
        self.busy_until[instance] = until;
    }
}
