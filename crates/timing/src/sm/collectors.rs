//! Operand collectors and register banks. Two models (`[operand_collectors]`):
//!
//! - **Pool** (`per_scheduler = 0`, gtx480): an issued instruction takes a collector unit of
//!   its class (sp / sfu / mem pools, else a generic one) from one SM-wide pool; a class with
//!   no collectors of its own and no generic ones is unconstrained.
//! - **Per scheduler** (`per_scheduler = N > 0`, titanx-pascal; KAWS §2.1 and Fig. 3): every
//!   scheduler owns N collector units per unit class (SP, SFU, MEM), each feeding its own
//!   issue port. A scheduler can issue an instruction of a class only while one of *its*
//!   collectors of that class is free; another scheduler's free collector is reachable only
//!   through warp sharing (`share.rs`). Single-ported: a unit takes one instruction at a time
//!   and is busy while it gathers that instruction's operands.
//!
//! Either way no free collector is a structural hazard at issue, and gathering takes one cycle
//! per register the busiest bank must supply: bank of register `r` of warp slot `w` =
//! `(r + w) mod register_banks` (GPGPU-Sim's warp-skewed mapping; `r` is the frame's virtual
//! register number). The read cycles beyond the first delay the result (and hold the
//! collector). Simplification: banks are not arbitrated *between* collectors — only conflicts
//! within one instruction's sources are modelled.

use crate::classify::Unit;
use warpsim_core::config::GpuConfig;
use crate::reg_use::RegUse;

/// Which collector an instruction holds: (pool, index); pool 3 = generic, 4 = unconstrained.
/// Per scheduler, pool = the unit class and index = `scheduler × N + i`.
pub type Collector = (u8, u16);

pub struct Collectors {
    /// `busy[pool][i]`: first cycle collector `i` is free (pools: sp, sfu, mem, generic). Per
    /// scheduler: pools sp / sfu / mem hold N entries per scheduler, scheduler `k`'s at
    /// `k·N .. k·N + N`; generic is empty.
    busy: [Vec<u64>; 4],
    /// N collectors per (scheduler, class); 0 = the pool model.
    per_scheduler: usize,
    banks: u64,
}

impl Collectors {
    pub fn new(cfg: &GpuConfig) -> Collectors {
        let o = &cfg.operand_collectors;
        let n = |x: u32| vec![0u64; x as usize];
        let per = o.per_scheduler as usize;
        let busy = if per > 0 {
            let k = (per * cfg.sm.schedulers.max(1) as usize) as u32;
            [n(k), n(k), n(k), Vec::new()]
        } else {
            [n(o.sp), n(o.sfu), n(o.mem), n(o.generic)]
        };
        Collectors {
            busy,
            per_scheduler: per,
            banks: o.register_banks.max(1) as u64,
        }
    }

    /// The per-scheduler model is on.
    pub fn per_scheduler(&self) -> bool {
        self.per_scheduler > 0
    }

    /// A collector for a `unit`-class instruction that scheduler `sched` may use at `now`. Per
    /// scheduler: one of `sched`'s own of that class. Pool: the class's first free one, then a
    /// generic one (`sched` does not matter).
    #[inline]
    pub fn free(&self, unit: Unit, sched: usize, now: u64) -> Option<Collector> {
        let pool = unit as usize;
        if self.per_scheduler > 0 {
            let first = sched * self.per_scheduler;
            let own = self.busy[pool].get(first..first + self.per_scheduler)?;
            return own
                .iter()
                .position(|&b| b <= now)
                .map(|i| (pool as u8, (first + i) as u16));
        }
        if self.busy[pool].is_empty() && self.busy[3].is_empty() {
            return Some((4, 0));
        }
        for p in [pool, 3] {
            if let Some(i) = self.busy[p].iter().position(|&b| b <= now) {
                return Some((p as u8, i as u16));
            }
        }
        None
    }

    /// Collector `c` gathers operands until cycle `until` (free from then on).
    #[inline]
    pub fn occupy(&mut self, c: Collector, until: u64) {
        if let Some(b) = self
            .busy
            .get_mut(c.0 as usize)
            .and_then(|p| p.get_mut(c.1 as usize))
        {
            *b = until;
        }
    }

    /// Cycles to read an instruction's source registers (`uses`) for warp slot `slot` whose
    /// frame's registers start at register slot `rb`: the most of its first 16 distinct
    /// source registers in one bank (at least 1).
    pub fn read_cycles(&self, uses: RegUse, rb: usize, slot: usize) -> u32 {
        // A handful of registers: counting each one's bank among the earlier ones is cheaper
        // than clearing a counter per bank.
        let mut bank_of = [0u64; 16];
        let mut worst = 1;
        for (i, &r) in uses.regs[..uses.sources.min(16)].iter().enumerate() {
            let reg = (rb + r as usize) as u64 + slot as u64;
            // A mask when the bank count is a power of two (every preset): no division per
            // source register.
            let b = if self.banks.is_power_of_two() { reg & (self.banks - 1) } else { reg % self.banks };
            let same = bank_of[..i].iter().filter(|&&x| x == b).count() as u32;
            worst = worst.max(same + 1);
            bank_of[i] = b;
        }
        worst
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(overrides: &[&str]) -> GpuConfig {
        let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
        GpuConfig::load_with("titanx-pascal", &o).unwrap()
    }

    #[test]
    fn per_scheduler_collectors_belong_to_one_scheduler_and_class() {
        let mut oc = Collectors::new(&cfg(&[]));
        assert!(oc.per_scheduler());
        let c = oc.free(Unit::Ldst, 2, 10).unwrap();
        oc.occupy(c, 12);
        // Scheduler 2's MEM collector gathers until 12; its SP and SFU ones and every other
        // scheduler's MEM one are free.
        assert_eq!(oc.free(Unit::Ldst, 2, 11), None);
        assert_eq!(oc.free(Unit::Ldst, 2, 12), Some(c));
        for (u, k) in [
            (Unit::Sp, 2),
            (Unit::Sfu, 2),
            (Unit::Ldst, 0),
            (Unit::Ldst, 3),
        ] {
            assert!(oc.free(u, k, 11).is_some(), "{u:?} of scheduler {k}");
        }
    }

    #[test]
    fn n_per_scheduler_gives_each_scheduler_n_of_each_class() {
        let mut oc = Collectors::new(&cfg(&["operand_collectors.per_scheduler=2"]));
        let a = oc.free(Unit::Sp, 1, 0).unwrap();
        oc.occupy(a, 5);
        let b = oc.free(Unit::Sp, 1, 0).unwrap();
        assert_ne!(a, b);
        oc.occupy(b, 5);
        assert_eq!(oc.free(Unit::Sp, 1, 4), None);
        assert!(oc.free(Unit::Sp, 0, 4).is_some());
    }

    #[test]
    fn the_pool_is_shared_by_every_scheduler() {
        let mut oc = Collectors::new(&cfg(&[
            "operand_collectors.per_scheduler=0",
            "operand_collectors.generic=1",
        ]));
        assert!(!oc.per_scheduler());
        let c = oc.free(Unit::Sp, 0, 0).unwrap();
        oc.occupy(c, 3);
        // One generic collector for the SM: taken for scheduler 0, so busy for all.
        for k in 0..4 {
            assert_eq!(oc.free(Unit::Sfu, k, 2), None);
        }
        assert_eq!(oc.free(Unit::Sfu, 3, 3), Some(c));
    }

    #[test]
    fn read_cycles_count_the_busiest_banks_source_registers() {
        let oc = Collectors::new(&cfg(&["operand_collectors.register_banks=4"]));
        let sources = |regs: &'static [u32]| RegUse {
            regs,
            sources: regs.len(),
            preds: &[],
        };
        // r1, r5 and r9 share bank 1 (frame base 0, warp slot 0); r2 has bank 2 to itself.
        assert_eq!(oc.read_cycles(sources(&[1, 5, 2, 9]), 0, 0), 3);
        // The frame base and the warp slot both skew the banks: 2 + 1 + 1 and 6 + 1 + 1 still
        // meet in bank 0, 3 + 1 + 1 does not.
        assert_eq!(oc.read_cycles(sources(&[2, 6, 3]), 1, 1), 2);
        assert_eq!(oc.read_cycles(sources(&[]), 0, 0), 1);
        // Destinations are not read.
        let one_source = RegUse {
            regs: &[1, 5, 9],
            sources: 1,
            preds: &[],
        };
        assert_eq!(oc.read_cycles(one_source, 0, 0), 1);
        // More than 64 banks: registers 64 apart are in different banks.
        let wide = Collectors::new(&cfg(&["operand_collectors.register_banks=128"]));
        assert_eq!(wide.read_cycles(sources(&[1, 65]), 0, 0), 1);
        assert_eq!(wide.read_cycles(sources(&[1, 129]), 0, 0), 2);
    }
}
