//! Functional units: SP, SFU and LD/ST pools, each instance busy until its initiation
//! interval has passed. With `sm.sub_core` an instance belongs to scheduler `i mod S` (when the
//! pool has at least S instances); otherwise any scheduler may use any instance.

use crate::classify::Unit;
use crate::ids::SchedId;
use warpsim_core::config::GpuConfig;

pub struct Units {
    /// `busy_until[class][instance]`: the first cycle the instance accepts a new instruction.
    busy_until: [Vec<u64>; 3],
    schedulers: usize,
    sub_core: bool,
}

impl Units {
    pub fn new(cfg: &GpuConfig) -> Units {
        let n = |x: u32| vec![0u64; x.max(1) as usize];
        Units {
            busy_until: [n(cfg.units.sp), n(cfg.units.sfu), n(cfg.units.ldst)],
            schedulers: cfg.sm.schedulers as usize,
            sub_core: cfg.sm.sub_core,
        }
    }

    /// A free instance of `unit` for scheduler `sched` at cycle `now`.
    #[inline]
    pub fn free(&self, unit: Unit, sched: SchedId, now: u64) -> Option<usize> {
        let pool = &self.busy_until[unit as usize];
        let private = self.sub_core && pool.len() >= self.schedulers;
        (0..pool.len())
            .find(|&i| (!private || i % self.schedulers == sched.index()) && pool[i] <= now)
    }

    /// The first cycle an instance of `unit` that scheduler `sched` may use is free
    /// (`u64::MAX`: each is held until the memory stage frees it).
    pub fn next_free(&self, unit: Unit, sched: SchedId) -> u64 {
        let pool = &self.busy_until[unit as usize];
        let private = self.sub_core && pool.len() >= self.schedulers;
        (0..pool.len())
            .filter(|&i| !private || i % self.schedulers == sched.index())
            .map(|i| pool[i])
            .min()
            .unwrap_or(u64::MAX)
    }

    /// The instances of `unit` scheduler `sched` may use.
    #[inline]
    pub fn usable(&self, unit: Unit, sched: SchedId) -> impl Iterator<Item = usize> + '_ {
        let n = self.busy_until[unit as usize].len();
        let private = self.sub_core && n >= self.schedulers;
        (0..n).filter(move |&i| !private || i % self.schedulers == sched.index())
    }

    #[inline]
    pub fn occupy(&mut self, unit: Unit, instance: usize, until: u64) {
        self.busy_until[unit as usize][instance] = until;
    }
}
