//! Functional units: SP, SFU and LD/ST pools, each instance busy until its initiation
//! interval has passed. With `sm.sub_core` an instance belongs to scheduler `i mod S` (when the
//! pool has at least S instances); otherwise any scheduler may use any instance.
//!
//! The result buses (`units.result_buses`, GPGPU-Sim's EX_WB width) carry the SP and SFU
//! units' results to writeback. GPGPU-Sim lets an instruction into such a unit only if a bus
//! is free in the cycle its result will leave the pipeline (`shader_core_ctx::execute`,
//! `test_res_bus`); otherwise it waits in front of the unit and tries again the next cycle.
//! Here an instruction timed at issue books a bus for its writeback cycle, in issue order:
//! with none free it waits, and its result and the hold on its unit instance move on by the
//! cycles waited. LD/ST results do not use them (GPGPU-Sim's LD/ST unit is stallable and
//! writes back on its own path).

use crate::classify::Unit;
use crate::ids::SchedId;
use warpsim_core::config::GpuConfig;

pub struct Units {
    /// `busy_until[class][instance]`: the first cycle the instance accepts a new instruction.
    busy_until: [Vec<u64>; 3],
    schedulers: usize,
    sub_core: bool,
    /// Result buses booked: entry `c mod window` is `(c + 1) << 8 | buses taken in cycle c`
    /// (tagged with its cycle, so nothing is cleared as time passes).
    bus: Vec<u64>,
    /// Buses per cycle (0: not modelled).
    buses: u64,
    /// Cycles ahead of issue the bookings reach (a power of two): the slowest unit's result.
    window: u64,
}

/// The most cycles ahead of issue a result bus is booked (a config with unit latencies of
/// thousands of cycles books none that far ahead).
const MAX_WINDOW: u64 = 4096;

impl Units {
    pub fn new(cfg: &GpuConfig) -> Units {
        let n = |x: u32| vec![0u64; x.max(1) as usize];
        let l = &cfg.latency;
        let slowest = l
            .int
            .iter()
            .chain(&l.fp32)
            .chain(&l.fp64)
            .copied()
            .max()
            .unwrap_or(0);
        // Reads delayed by bank conflicts push a result further: room for 32 cycles of them.
        let ahead = slowest.max(l.sfu) as u64 + cfg.pipeline.overhead() as u64 + 32;
        let window = ahead.next_power_of_two().clamp(64, MAX_WINDOW);
        let buses = cfg.units.result_buses.min(255) as u64;
        Units {
            busy_until: [n(cfg.units.sp), n(cfg.units.sfu), n(cfg.units.ldst)],
            schedulers: cfg.sm.schedulers as usize,
            sub_core: cfg.sm.sub_core,
            bus: if buses > 0 {
                vec![0; window as usize]
            } else {
                Vec::new()
            },
            buses,
            window,
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

    /// Books a result bus for a result of an instruction issued at `now` that would be
    /// written back in cycle `at`: the first cycle from `at` on with a bus free (`at` itself
    /// when the buses are not modelled or the cycle is beyond the bookings' reach).
    #[inline]
    pub fn book_result(&mut self, at: u64, now: u64) -> u64 {
        if self.buses == 0 || at - now >= self.window {
            return at;
        }
        let mut c = at;
        loop {
            let e = &mut self.bus[(c & (self.window - 1)) as usize];
            if *e >> 8 != c + 1 {
                *e = ((c + 1) << 8) | 1;
                return c;
            }
            if *e & 0xff < self.buses {
                *e += 1;
                return c;
            }
            c += 1;
        }
    }

    #[inline]
    pub fn occupy(&mut self, unit: Unit, instance: usize, until: u64) {
        self.busy_until[unit as usize][instance] = until;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(buses: u32) -> Units {
        let o = vec![format!("units.result_buses={buses}")];
        Units::new(&GpuConfig::load_with("gtx480", &o).unwrap())
    }

    #[test]
    fn a_result_waits_for_a_free_result_bus() {
        let mut u = units(2);
        // Two results written back in cycle 20 take both buses; a third waits for 21, where
        // one is left after it.
        assert_eq!(u.book_result(20, 10), 20);
        assert_eq!(u.book_result(20, 11), 20);
        assert_eq!(u.book_result(20, 12), 21);
        assert_eq!(u.book_result(21, 12), 21);
        assert_eq!(u.book_result(21, 13), 22);
        // A later cycle is free; the calendar forgets cycles it has passed.
        assert_eq!(
            u.book_result(20 + u.window, 20 + u.window - 5),
            20 + u.window
        );
    }

    #[test]
    fn without_result_buses_every_result_leaves_on_time() {
        let mut u = units(0);
        for _ in 0..10 {
            assert_eq!(u.book_result(20, 10), 20);
        }
    }
}
