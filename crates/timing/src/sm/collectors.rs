//! Operand collectors and register banks. Two models (`[operand_collectors]`):
//!
//! - **Pool** (`per_scheduler = 0`, gtx480): an issued instruction takes a collector unit of
//!   its class (sp / sfu / mem / tensor pools, else a generic one) from one SM-wide pool; a class with
//!   no collectors of its own and no generic ones is unconstrained.
//! - **Per scheduler** (`per_scheduler = N > 0`, titanx-pascal; KAWS §2.1 and Fig. 3): every
//!   scheduler owns N collector units per unit class (SP, SFU, MEM, tensor), each feeding its own
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
//! collector.
//!
//! Writes take bank cycles too: GPGPU-Sim's writeback writes an instruction's destination
//! registers through their banks (`opndcoll_rfu_t::writeback`) before the collectors read in
//! the same cycle, and the arbiter gives a bank with a write no read that cycle. An
//! instruction timed at issue books its writes then, in the cycle its result is released;
//! reads booked later find that bank cycle taken. Simplifications: a write whose bank cycle
//! an earlier-booked read already holds is not booked (GPGPU-Sim would move the read; it drops
//! a second write to one bank in a cycle the same way), and the writes of accesses timed by
//! the memory system (global loads, whose reply cycle is not known at issue) are not booked.
//!
//! The bookings live in a calendar per bank (`window` collector steps ahead of issue, each
//! entry tagged with its step so nothing is cleared as time passes).

use crate::classify::Unit;
use crate::ids::{SchedId, WarpSlot};
use crate::reg_use::RegUse;
use warpsim_core::config::GpuConfig;

/// Which collector an instruction holds: (pool, index); pools 0–2 and 4 = the unit classes
/// ([`pool`]), 3 = generic, 5 = unconstrained. Per scheduler, pool = the unit class and index
/// = `scheduler × N + i`.
pub type Collector = (u8, u16);

/// The generic pool's index in `Collectors::busy`.
const GENERIC: usize = 3;
/// The pool index of an instruction that needs no collector (its class has none).
const UNCONSTRAINED: u8 = 5;

/// The pool of `unit`'s own collectors in `Collectors::busy`.
#[inline]
fn pool(unit: Unit) -> usize {
    match unit {
        Unit::Sp => 0,
        Unit::Sfu => 1,
        Unit::Ldst => 2,
        Unit::Tensor => 4,
    }
}

/// The most collector steps a bank's calendar reaches ahead of issue (a config with unit
/// latencies of thousands of cycles books no writes that far ahead).
const MAX_WINDOW: u64 = 4096;
/// Cycles of queued reads the calendar leaves room for beyond a result's latency.
const READ_SLACK: u64 = 32;

pub struct Collectors {
    /// `busy[pool][i]`: the first collector step in which collector `i` can be allocated
    /// (pools: sp, sfu, mem, generic, tensor). Per scheduler: the class pools hold N entries
    /// per scheduler, scheduler `k`'s at `k·N .. k·N + N`; generic is empty.
    busy: [Vec<u64>; 5],
    /// N collectors per (scheduler, class); 0 = the pool model.
    per_scheduler: usize,
    /// Pool model with `sm.sub_core`: each pool is split into one block per scheduler, as
    /// GPGPU-Sim's sub-core model allocates only among the issuing scheduler's share of a
    /// collector set (`allocate_cu`: `cusPerSched`; a pool that does not split evenly is
    /// shared).
    split_pools: bool,
    /// Banks a warp's registers spread over: all of the SM's, or its scheduler's share.
    banks: u64,
    /// `split_banks`: scheduler `k`'s banks start at `k · banks`.
    split: bool,
    schedulers: u64,
    /// Collector steps per cycle (`bank_reads_per_cycle`); a bank serves one access a step.
    ports: u64,
    /// Per bank of the SM, `window` entries: entry `t mod window` of bank `b` is `t + 1` when
    /// the bank is taken in collector step `t` (`cycle × ports + k`).
    calendar: Vec<u64>,
    /// Collector steps ahead of issue the calendar reaches (a power of two): enough for the
    /// write of the slowest unit's result, at most `MAX_WINDOW`. A write further ahead is not
    /// booked.
    window: u64,
    /// Cycles from issue to the collector step in which a collector can first be allocated
    /// (`pipeline.collect`).
    collect: u64,
}

impl Collectors {
    pub fn new(cfg: &GpuConfig) -> Collectors {
        let o = &cfg.operand_collectors;
        let n = |x: u32| vec![0u64; x as usize];
        let per = o.per_scheduler as usize;
        let busy = if per > 0 {
            let k = (per * cfg.sm.schedulers.max(1) as usize) as u32;
            [n(k), n(k), n(k), Vec::new(), n(k)]
        } else {
            [n(o.sp), n(o.sfu), n(o.mem), n(o.generic), n(o.tensor)]
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
        let ahead = cfg.latency.slowest() as u64 + cfg.pipeline.overhead() as u64 + READ_SLACK;
        let ports = o.bank_reads_per_cycle.max(1) as u64;
        let window = (ahead * ports).next_power_of_two().clamp(64, MAX_WINDOW);
        Collectors {
            busy,
            per_scheduler: per,
            split_pools: per == 0 && cfg.sm.sub_core,
            banks,
            split: o.split_banks,
            schedulers,
            ports,
            calendar: vec![0; (all.max(banks * schedulers) * window) as usize],
            window,
            collect: cfg.pipeline.collect as u64,
        }
    }

    /// The per-scheduler model is on.
    pub fn per_scheduler(&self) -> bool {
        self.per_scheduler > 0
    }

    /// Collector steps a cycle.
    pub fn ports(&self) -> u64 {
        self.ports
    }

    /// The first collector step in which an instruction issued at cycle `now` can be moved
    /// into a collector (GPGPU-Sim's `allocate_cu` in the next cycle's steps).
    #[inline]
    pub fn first_step(&self, now: u64) -> u64 {
        (now + self.collect) * self.ports
    }

    /// A collector for a `unit`-class instruction that scheduler `sched` issues at `now` and
    /// that is free by the time it can be allocated. Per scheduler: one of `sched`'s own of
    /// that class. Pool: the class's first free one, then a generic one (`sched` does not
    /// matter).
    #[inline]
    pub fn free(&self, unit: Unit, sched: SchedId, now: u64) -> Option<Collector> {
        let step = self.first_step(now);
        let pool = pool(unit);
        if self.per_scheduler > 0 {
            let first = sched.index() * self.per_scheduler;
            return (first..first + self.per_scheduler)
                .find(|&i| self.busy[pool][i] <= step)
                .map(|i| (pool as u8, i as u16));
        }
        if self.busy[pool].is_empty() && self.busy[GENERIC].is_empty() {
            return Some((UNCONSTRAINED, 0));
        }
        [pool, GENERIC].into_iter().find_map(|p| {
            self.mine(p, sched)
                .find(|&i| self.busy[p][i] <= step)
                .map(|i| (p as u8, i as u16))
        })
    }

    /// The collectors of pool `p` scheduler `sched` may take (`split_pools`).
    #[inline]
    fn mine(&self, p: usize, sched: SchedId) -> std::ops::Range<usize> {
        let n = self.busy[p].len();
        let s = self.schedulers as usize;
        if self.split_pools && n >= s && n.is_multiple_of(s) {
            let per = n / s;
            sched.index() * per..(sched.index() + 1) * per
        } else {
            0..n
        }
    }

    /// The collector a `unit`-class instruction of scheduler `sched` gets first and the step
    /// from which it is free: the first free one in allocation order (own class, then
    /// generic) when several are free by the same step.
    #[inline]
    pub fn earliest(&self, unit: Unit, sched: SchedId) -> (Collector, u64) {
        let pool = pool(unit);
        if self.per_scheduler > 0 {
            let first = sched.index() * self.per_scheduler;
            return (first..first + self.per_scheduler)
                .map(|i| ((pool as u8, i as u16), self.busy[pool][i]))
                .min_by_key(|&(c, at)| (at, c.1))
                .expect("per_scheduler > 0");
        }
        if self.busy[pool].is_empty() && self.busy[GENERIC].is_empty() {
            return ((UNCONSTRAINED, 0), 0);
        }
        let mut best: Option<(Collector, u64)> = None;
        for p in [pool, GENERIC] {
            for i in self.mine(p, sched) {
                let at = self.busy[p][i];
                if best.is_none_or(|(_, b)| at < b) {
                    best = Some(((p as u8, i as u16), at));
                }
            }
        }
        best.expect("a pool with collectors")
    }

    /// Collector `c` holds its instruction until collector step `until` (and can be allocated
    /// again in that step: GPGPU-Sim dispatches before it allocates).
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
    /// numbers of its source operands) for warp slot `slot` whose collector was allocated in
    /// step `allocated`: each read takes the first step after that in which its bank is free.
    /// The last read's step, `None` when it reads nothing.
    pub fn read(&mut self, uses: RegUse, slot: WarpSlot, allocated: u64) -> Option<u64> {
        let mut last: Option<u64> = None;
        for &r in uses.bank_regs {
            let b = self.bank(r as u64, slot);
            let mut at = allocated + 1;
            while !self.take(b, at) {
                at += 1;
            }
            last = Some(last.map_or(at, |l| l.max(at)));
        }
        last
    }

    /// Books the reads of an instruction issued at `now` whose collector is free when it
    /// arrives (an LD/ST instruction): allocated in the first step it can be, it reads, and
    /// dispatches the step after its last read (the step after its allocation when it reads
    /// nothing), when its collector is free again.
    pub fn book_reads(&mut self, uses: RegUse, slot: WarpSlot, now: u64) -> Reads {
        let allocated = self.first_step(now);
        let last = self.read(uses, slot, allocated);
        Reads::new(allocated, last, self.ports)
    }

    /// Books the writes of the destination registers `dsts` (GPGPU-Sim's numbers:
    /// `RegUse::bank_dsts`) of an instruction of warp slot `slot` issued at `now` whose
    /// result is released in cycle `released`: each takes its bank in the first collector
    /// step of that cycle (GPGPU-Sim writes back before the collectors step).
    #[inline(always)]
    pub fn book_writes(&mut self, dsts: &[u16], slot: WarpSlot, now: u64, released: u64) {
        let at = released * self.ports;
        if dsts.is_empty() || at >= self.first_step(now) + self.window {
            return;
        }
        for &r in dsts {
            let b = self.bank(r as u64, slot);
            if !self.take(b, at) {
                return;
            }
        }
    }

    /// Cycles GPGPU-Sim's writeback takes to write destination registers `dsts` (as
    /// [`Collectors::book_writes`]) of warp slot `slot` when no other write competes for
    /// their banks (at least 1): `opndcoll_rfu_t::writeback` writes them in operand order
    /// until one finds its bank already written this cycle, and goes on from that one in the
    /// next cycle. Eight fragment registers over a sub-core's 2 banks take 4 cycles.
    pub fn write_cycles(&self, dsts: &[u16], slot: WarpSlot) -> u32 {
        let mut cycles = 1;
        let mut first = 0;
        for (i, &r) in dsts.iter().enumerate() {
            let b = self.bank(r as u64, slot);
            if dsts[first..i]
                .iter()
                .any(|&o| self.bank(o as u64, slot) == b)
            {
                cycles += 1;
                first = i;
            }
        }
        cycles
    }

    /// Takes bank `b` in collector step `step` if nothing else has it then.
    #[inline]
    fn take(&mut self, b: usize, step: u64) -> bool {
        let e = &mut self.calendar[(b as u64 * self.window + (step & (self.window - 1))) as usize];
        if *e == step + 1 {
            false
        } else {
            *e = step + 1;
            true
        }
    }
}

/// An instruction's register reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reads {
    /// Cycles from the first step a read could take to the last read, inclusive (at least 1;
    /// more with register-bank conflicts).
    pub cycles: u32,
    /// The collector step in which its collector dispatches it (and is free again).
    pub dispatch: u64,
}

impl Reads {
    /// Reads from a collector allocated in step `allocated`, the last in step `last`, with
    /// `ports` steps a cycle.
    #[inline]
    pub fn new(allocated: u64, last: Option<u64>, ports: u64) -> Reads {
        match last {
            Some(l) => Reads {
                cycles: ((l - allocated - 1) / ports + 1) as u32,
                dispatch: l + 1,
            },
            None => Reads {
                cycles: 1,
                dispatch: allocated + 1,
            },
        }
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
    fn a_writeback_takes_a_cycle_per_run_of_registers_its_banks_can_take_together() {
        let frag: Vec<u16> = (1..=8).collect();
        // titanx-pascal has 4 schedulers: 8 banks split give each 2 (rtx2060, rtx3070), 16
        // give 4 (qv100); 16 shared by all (gtx480's arrangement) take 8 registers at once.
        for (banks, split, cycles) in [(8, true, 4), (16, true, 2), (16, false, 1)] {
            let oc = banked(banks, split, 1);
            assert_eq!(
                oc.write_cycles(&frag, WarpSlot(5)),
                cycles,
                "{banks} {split}"
            );
        }
        let two = banked(8, true, 1);
        assert_eq!(two.write_cycles(&[], WarpSlot(0)), 1);
        assert_eq!(two.write_cycles(&[7], WarpSlot(0)), 1);
        // In operand order, a cycle ends at the first register whose bank is taken: %r3 after
        // %r1, then %r4 after %r2. Two a bank would fit in 2 cycles; GPGPU-Sim takes 3.
        assert_eq!(two.write_cycles(&[1, 3, 2, 4], WarpSlot(0)), 3);
    }

    #[test]
    fn per_scheduler_collectors_belong_to_one_scheduler_and_class() {
        let mut oc = Collectors::new(&cfg(&[]));
        assert!(oc.per_scheduler());
        let c = oc.free(Unit::Ldst, SchedId(2), 10).unwrap();
        oc.occupy(c, oc.first_step(12));
        // Scheduler 2's MEM collector is held for instructions issued before 12; its SP and
        // SFU ones and every other scheduler's MEM one are free.
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
        oc.occupy(a, oc.first_step(5));
        let b = oc.free(Unit::Sp, SchedId(1), 0).unwrap();
        assert_ne!(a, b);
        oc.occupy(b, oc.first_step(5));
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
        oc.occupy(c, oc.first_step(3));
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
            in_operands: 0,
            preds: &[],
            bank_regs: regs,
            bank_dsts: &[],
        }
    }

    #[test]
    fn reads_of_one_instruction_take_turns_in_a_shared_bank() {
        // Each case on idle banks (a fresh set).
        let fresh = || banked(4, false, 1);
        // r1, r5 and r9 share bank 1 (warp slot 0); r2 has bank 2 to itself.
        assert_eq!(
            fresh()
                .book_reads(reads(&[1, 5, 2, 9]), WarpSlot(0), 10)
                .cycles,
            3
        );
        // The warp slot skews the banks: 2 + 1 and 6 + 1 meet in bank 3, 4 + 1 does not.
        assert_eq!(
            fresh()
                .book_reads(reads(&[2, 6, 4]), WarpSlot(1), 10)
                .cycles,
            2
        );
        assert_eq!(fresh().book_reads(reads(&[]), WarpSlot(0), 10).cycles, 1);
        // A register named twice is read twice (GPGPU-Sim reads every source operand).
        assert_eq!(
            fresh().book_reads(reads(&[3, 3]), WarpSlot(0), 10).cycles,
            2
        );
        // More than 64 banks: registers 64 apart are in different banks.
        let wide = || banked(128, false, 1);
        assert_eq!(
            wide().book_reads(reads(&[1, 65]), WarpSlot(0), 10).cycles,
            1
        );
        assert_eq!(
            wide().book_reads(reads(&[1, 129]), WarpSlot(0), 10).cycles,
            2
        );
    }

    #[test]
    fn a_bank_serves_the_instructions_in_issue_order() {
        let mut oc = banked(4, false, 1);
        // Warp 0 reads r1 and r5 (bank 1) from cycle 10: cycles 10 and 11.
        assert_eq!(oc.book_reads(reads(&[1, 5]), WarpSlot(0), 10).cycles, 2);
        // Warp 1's r0 is in bank 1 too, issued the same cycle: it waits for cycle 12 (its r1,
        // in bank 2, is read at 10).
        assert_eq!(oc.book_reads(reads(&[0, 1]), WarpSlot(1), 10).cycles, 3);
        // Issued at 13, the bank is free again.
        assert_eq!(oc.book_reads(reads(&[0]), WarpSlot(1), 13).cycles, 1);
        // Bank 3 was never taken.
        assert_eq!(oc.book_reads(reads(&[3]), WarpSlot(0), 10).cycles, 1);
    }

    #[test]
    fn a_bank_with_two_read_ports_serves_two_reads_a_cycle() {
        let mut oc = banked(4, false, 2);
        // r0, r4, r8 share bank 0: two reads in cycle 10, the third in 11.
        assert_eq!(oc.book_reads(reads(&[0, 4]), WarpSlot(0), 10).cycles, 1);
        assert_eq!(oc.book_reads(reads(&[8]), WarpSlot(0), 10).cycles, 2);
        // From cycle 12 the bank is free again; reads booked from an earlier cycle wait.
        assert_eq!(oc.book_reads(reads(&[0, 0, 0]), WarpSlot(0), 12).cycles, 2);
    }

    #[test]
    fn a_write_takes_its_bank_from_the_reads_of_that_cycle() {
        let mut oc = banked(4, false, 1);
        // An instruction of warp slot 0 issued at 10 writes r1 (bank 1), released in cycle 20:
        // it takes bank 1 in that cycle's step. An instruction issued at 18 (collector in 19)
        // reads from step 20.
        let w: &[u16] = &[1];
        oc.book_writes(w, WarpSlot(0), 10, 20);
        // A read of r5 (bank 1) waits a cycle; r2 (bank 2) does not.
        assert_eq!(oc.book_reads(reads(&[5]), WarpSlot(0), 18).cycles, 2);
        assert_eq!(oc.book_reads(reads(&[2]), WarpSlot(0), 18).cycles, 1);
        // A write the calendar cannot reach is not booked.
        let far = 10 + oc.window + 5;
        oc.book_writes(w, WarpSlot(0), 10, far);
        assert_eq!(oc.book_reads(reads(&[1]), WarpSlot(0), far - 2).cycles, 1);
    }

    #[test]
    fn a_collector_is_free_again_in_the_step_after_its_last_read() {
        // One step a cycle (gtx480): allocated the cycle after issue, reading the next,
        // dispatched (and free) the step after its last read: a one-read instruction issued at
        // 10 is allocated at 11, reads at 12, dispatches at 13, so its collector takes the
        // next instruction issued at 12, not 11.
        let mut one = banked(4, false, 1);
        let r = one.book_reads(reads(&[1]), WarpSlot(0), 10);
        assert_eq!((r.cycles, r.dispatch), (1, 13));
        let c = one.free(Unit::Sp, SchedId(0), 10).unwrap();
        one.occupy(c, r.dispatch);
        assert!(
            (0..2).all(|k| one.free(Unit::Sp, SchedId(k), 11) != Some(c)),
            "held"
        );
        // Three reads in one bank: 12, 13, 14; dispatched at 15.
        let r = banked(4, false, 1).book_reads(reads(&[1, 5, 9]), WarpSlot(0), 10);
        assert_eq!((r.cycles, r.dispatch), (3, 15));
        // Nothing to read: dispatched the step after its allocation.
        let r = banked(4, false, 1).book_reads(reads(&[]), WarpSlot(0), 10);
        assert_eq!((r.cycles, r.dispatch), (1, 12));
        // Two steps a cycle (titanx-pascal): allocated at step 22 (cycle 11), read at 23,
        // dispatched at 24 (cycle 12): free for an instruction issued at 11.
        let mut two = banked(4, false, 2);
        let r = two.book_reads(reads(&[1]), WarpSlot(0), 10);
        assert_eq!((r.cycles, r.dispatch), (1, 24));
        assert_eq!(two.first_step(11), 24);
        let r = banked(4, false, 2).book_reads(reads(&[1, 5, 9]), WarpSlot(0), 10);
        assert_eq!((r.cycles, r.dispatch), (2, 26));
    }

    #[test]
    fn a_sub_core_pool_gives_each_scheduler_its_block() {
        // titanx-pascal with GPGPU-Sim's SM6_TITANX collectors: 8 generic, 2 per scheduler.
        let mut oc = Collectors::new(&cfg(&["operand_collectors.per_scheduler=0"]));
        for _ in 0..2 {
            let c = oc.free(Unit::Sp, SchedId(1), 10).unwrap();
            assert!((2..4).contains(&c.1), "scheduler 1's block: {c:?}");
            oc.occupy(c, oc.first_step(20));
        }
        assert_eq!(oc.free(Unit::Sfu, SchedId(1), 10), None);
        assert!(oc.free(Unit::Sp, SchedId(2), 10).is_some());
        // Without the sub-core model the pool is the SM's.
        let mut oc = Collectors::new(&cfg(&[
            "operand_collectors.per_scheduler=0",
            "sm.sub_core=false",
        ]));
        for _ in 0..8 {
            let c = oc.free(Unit::Sp, SchedId(1), 10).unwrap();
            oc.occupy(c, oc.first_step(20));
        }
        assert_eq!(oc.free(Unit::Sp, SchedId(3), 10), None);
    }

    #[test]
    fn split_banks_give_each_scheduler_its_own() {
        // titanx-pascal: 4 schedulers; 16 banks split, 4 each.
        let mut oc = banked(16, true, 1);
        // Warp slot 0 (scheduler 0): r0 and r4 meet in its bank 0 (4 banks, not 16).
        assert_eq!(oc.book_reads(reads(&[0, 4]), WarpSlot(0), 10).cycles, 2);
        // Warp slot 4 (scheduler 0 too): r0 + 4 is in scheduler 0's bank 0, taken until 12.
        assert_eq!(oc.book_reads(reads(&[0]), WarpSlot(4), 10).cycles, 3);
        // Warp slot 1 (scheduler 1) reads scheduler 1's banks: none taken.
        assert_eq!(oc.book_reads(reads(&[3]), WarpSlot(1), 10).cycles, 1);
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
