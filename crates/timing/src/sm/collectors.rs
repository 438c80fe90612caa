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
//! Either way no free collector is a structural hazard at issue. Register reads go through the
//! SM's register banks, as GPGPU-Sim's do:
//! - every source operand is one read (a register named twice is read twice:
//!   `collector_unit_t::allocate`);
//! - bank of register `r` of warp slot `w` = `(r + w) mod register_banks`, where `r` is
//!   GPGPU-Sim's number of the register, the digits of its PTX name (`register_bank`;
//!   `RegUse::bank_regs`); with `split_banks` (GPGPU-Sim's sub-core model) `(r + w) mod B +
//!   k·B` for the warp's scheduler `k` and its `B = register_banks / schedulers` banks;
//! - a bank serves `bank_reads_per_cycle` reads a cycle (`-gpgpu_reg_file_port_throughput`,
//!   2 on SM6_TITANX, steps the collectors that many times a cycle), in the order the
//!   instructions were issued (one read queue per bank for the whole SM; a collector may read
//!   several banks in one cycle).
//!
//! So an instruction's reads are booked one by one, each in the first cycle its bank is free:
//! sources that share a bank — its own, or those of an instruction issued before it that are
//! still queued — take turns. The read cycles beyond the first delay the result and hold the
//! collector. Simplification: writes do not take bank cycles from reads (GPGPU-Sim gives a
//! write its bank first and stalls a writeback whose bank is taken).

use crate::classify::Unit;
use crate::ids::{SchedId, WarpSlot};
use crate::reg_use::RegUse;
use warpsim_core::config::GpuConfig;

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
    /// Banks a warp's registers spread over: all of the SM's, or its scheduler's share.
    banks: u64,
    /// `split_banks`: scheduler `k`'s banks start at `k · banks`.
    split: bool,
    schedulers: u64,
    /// Reads a bank serves per cycle (`bank_reads_per_cycle`).
    ports: u64,
    /// Per bank of the SM: its next free read slot, in units of `1 / ports` cycle.
    bank_free: Vec<u64>,
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
        let all = o.register_banks.max(1) as u64;
        let schedulers = cfg.sm.schedulers.max(1) as u64;
        // Validation makes the split even; `max(1)` keeps a hand-built config from dividing by
        // zero.
        let banks = if o.split_banks {
            (all / schedulers).max(1)
        } else {
            all
        };
        Collectors {
            busy,
            per_scheduler: per,
            banks,
            split: o.split_banks,
            schedulers,
            ports: o.bank_reads_per_cycle.max(1) as u64,
            bank_free: vec![0; all.max(banks * schedulers) as usize],
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
    pub fn free(&self, unit: Unit, sched: SchedId, now: u64) -> Option<Collector> {
        let pool = unit as usize;
        if self.per_scheduler > 0 {
            let first = sched.index() * self.per_scheduler;
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

    /// The bank of register number `reg` (GPGPU-Sim's) of warp slot `slot`.
    #[inline]
    fn bank(&self, reg: u64, slot: WarpSlot) -> usize {
        let skewed = reg + slot.0 as u64;
        // A mask when the bank count is a power of two (every preset): no division per source
        // register.
        let b = if self.banks.is_power_of_two() {
            skewed & (self.banks - 1)
        } else {
            skewed % self.banks
        };
        if self.split {
            (b + (slot.0 as u64 % self.schedulers) * self.banks) as usize
        } else {
            b as usize
        }
    }

    /// Books the register-file reads of an instruction (`uses.bank_regs`: GPGPU-Sim's
    /// numbers of its source operands) for warp slot `slot`, issued at `now`: each read takes
    /// the first cycle from `now` on in which its bank is free. Returns the cycles from `now`
    /// to the last read, inclusive (at least 1).
    pub fn book_reads(&mut self, uses: RegUse, slot: WarpSlot, now: u64) -> u32 {
        let first = now * self.ports;
        let mut last = first;
        for &r in uses.bank_regs {
            let b = self.bank(r as u64, slot);
            let at = self.bank_free[b].max(first);
            self.bank_free[b] = at + 1;
            last = last.max(at);
        }
        (last / self.ports - now + 1) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{SchedId, WarpSlot};

    fn cfg(overrides: &[&str]) -> GpuConfig {
        let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
        GpuConfig::load_with("titanx-pascal", &o).unwrap()
    }

    /// Collectors over `banks` register banks (split among the schedulers or shared), each
    /// serving `ports` reads a cycle.
    fn banked(banks: u32, split: bool, ports: u32) -> Collectors {
        Collectors::new(&cfg(&[
            &format!("operand_collectors.register_banks={banks}"),
            &format!("operand_collectors.split_banks={split}"),
            &format!("operand_collectors.bank_reads_per_cycle={ports}"),
        ]))
    }

    #[test]
    fn per_scheduler_collectors_belong_to_one_scheduler_and_class() {
        let mut oc = Collectors::new(&cfg(&[]));
        assert!(oc.per_scheduler());
        let c = oc.free(Unit::Ldst, SchedId(2), 10).unwrap();
        oc.occupy(c, 12);
        // Scheduler 2's MEM collector gathers until 12; its SP and SFU ones and every other
        // scheduler's MEM one are free.
        assert_eq!(oc.free(Unit::Ldst, SchedId(2), 11), None);
        assert_eq!(oc.free(Unit::Ldst, SchedId(2), 12), Some(c));
        for (u, k) in [
            (Unit::Sp, 2),
            (Unit::Sfu, 2),
            (Unit::Ldst, 0),
            (Unit::Ldst, 3),
        ] {
            assert!(
                oc.free(u, SchedId(k), 11).is_some(),
                "{u:?} of scheduler {k}"
            );
        }
    }

    #[test]
    fn n_per_scheduler_gives_each_scheduler_n_of_each_class() {
        let mut oc = Collectors::new(&cfg(&["operand_collectors.per_scheduler=2"]));
        let a = oc.free(Unit::Sp, SchedId(1), 0).unwrap();
        oc.occupy(a, 5);
        let b = oc.free(Unit::Sp, SchedId(1), 0).unwrap();
        assert_ne!(a, b);
        oc.occupy(b, 5);
        assert_eq!(oc.free(Unit::Sp, SchedId(1), 4), None);
        assert!(oc.free(Unit::Sp, SchedId(0), 4).is_some());
    }

    #[test]
    fn the_pool_is_shared_by_every_scheduler() {
        let mut oc = Collectors::new(&cfg(&[
            "operand_collectors.per_scheduler=0",
            "operand_collectors.generic=1",
        ]));
        assert!(!oc.per_scheduler());
        let c = oc.free(Unit::Sp, SchedId(0), 0).unwrap();
        oc.occupy(c, 3);
        // One generic collector for the SM: taken for scheduler 0, so busy for all.
        for k in 0..4 {
            assert_eq!(oc.free(Unit::Sfu, SchedId(k), 2), None);
        }
        assert_eq!(oc.free(Unit::Sfu, SchedId(3), 3), Some(c));
    }

    /// An instruction whose source operands have GPGPU-Sim's register numbers `regs`.
    fn reads(regs: &'static [u16]) -> RegUse<'static> {
        RegUse {
            regs: &[],
            sources: 0,
            preds: &[],
            bank_regs: regs,
        }
    }

    #[test]
    fn reads_of_one_instruction_take_turns_in_a_shared_bank() {
        // Each case on idle banks (a fresh set).
        let fresh = || banked(4, false, 1);
        // r1, r5 and r9 share bank 1 (warp slot 0); r2 has bank 2 to itself.
        assert_eq!(fresh().book_reads(reads(&[1, 5, 2, 9]), WarpSlot(0), 10), 3);
        // The warp slot skews the banks: 2 + 1 and 6 + 1 meet in bank 3, 4 + 1 does not.
        assert_eq!(fresh().book_reads(reads(&[2, 6, 4]), WarpSlot(1), 10), 2);
        assert_eq!(fresh().book_reads(reads(&[]), WarpSlot(0), 10), 1);
        // A register named twice is read twice (GPGPU-Sim reads every source operand).
        assert_eq!(fresh().book_reads(reads(&[3, 3]), WarpSlot(0), 10), 2);
        // More than 64 banks: registers 64 apart are in different banks.
        let wide = || banked(128, false, 1);
        assert_eq!(wide().book_reads(reads(&[1, 65]), WarpSlot(0), 10), 1);
        assert_eq!(wide().book_reads(reads(&[1, 129]), WarpSlot(0), 10), 2);
    }

    #[test]
    fn a_bank_serves_the_instructions_in_issue_order() {
        let mut oc = banked(4, false, 1);
        // Warp 0 reads r1 and r5 (bank 1) from cycle 10: cycles 10 and 11.
        assert_eq!(oc.book_reads(reads(&[1, 5]), WarpSlot(0), 10), 2);
        // Warp 1's r0 is in bank 1 too, issued the same cycle: it waits for cycle 12 (its r1,
        // in bank 2, is read at 10).
        assert_eq!(oc.book_reads(reads(&[0, 1]), WarpSlot(1), 10), 3);
        // Issued at 13, the bank is free again.
        assert_eq!(oc.book_reads(reads(&[0]), WarpSlot(1), 13), 1);
        // Bank 3 was never taken.
        assert_eq!(oc.book_reads(reads(&[3]), WarpSlot(0), 10), 1);
    }

    #[test]
    fn a_bank_with_two_read_ports_serves_two_reads_a_cycle() {
        let mut oc = banked(4, false, 2);
        // r0, r4, r8 share bank 0: two reads in cycle 10, the third in 11.
        assert_eq!(oc.book_reads(reads(&[0, 4]), WarpSlot(0), 10), 1);
        assert_eq!(oc.book_reads(reads(&[8]), WarpSlot(0), 10), 2);
        // From cycle 12 the bank is free again; reads booked from an earlier cycle wait.
        assert_eq!(oc.book_reads(reads(&[0, 0, 0]), WarpSlot(0), 12), 2);
    }

    #[test]
    fn split_banks_give_each_scheduler_its_own() {
        // titanx-pascal: 4 schedulers; 16 banks split, 4 each.
        let mut oc = banked(16, true, 1);
        // Warp slot 0 (scheduler 0): r0 and r4 meet in its bank 0 (4 banks, not 16).
        assert_eq!(oc.book_reads(reads(&[0, 4]), WarpSlot(0), 10), 2);
        // Warp slot 4 (scheduler 0 too): r0 + 4 is in scheduler 0's bank 0, taken until 12.
        assert_eq!(oc.book_reads(reads(&[0]), WarpSlot(4), 10), 3);
        // Warp slot 1 (scheduler 1) reads scheduler 1's banks: none taken.
        assert_eq!(oc.book_reads(reads(&[3]), WarpSlot(1), 10), 1);
        // An uneven split is refused, naming the key.
        let err = GpuConfig::load_with(
            "titanx-pascal",
            &[
                "operand_collectors.register_banks=6".to_string(),
                "operand_collectors.split_banks=true".to_string(),
            ],
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("operand_collectors.split_banks"), "{err}");
    }
}
