//! The way of an SP, SFU or tensor-core instruction from issue to its unit, as GPGPU-Sim's pipeline
//! registers make it (`shader_core_ctx::issue`, `opndcoll_rfu_t::step`, `execute`): the
//! scheduler issues into an ID/OC register of the instruction's class; the operand
//! collectors take it from there into a collector unit when one is free; the collector reads
//! its registers and dispatches into an OC/EX register once that has room; a unit instance
//! takes it from there when its dispatch register is empty, no result of the same instance
//! leaves in the cycle this one would (`simd_function_unit::occupied`), and a result bus is
//! free in that cycle (`test_res_bus`). Each stage waits for the next, so a unit or bus that
//! cannot take an instruction holds its collector, the collectors fill, ID/OC fills and the
//! scheduler stalls: GPGPU-Sim's pipeline stalls on ALU-bound code.
//!
//! warpsim times the whole way when the instruction issues (the policy walks need to know
//! only whether an ID/OC register is free): stage by stage, each in the first cycle it can go
//! given what the instructions issued before it took. Those earlier instructions always go
//! first — GPGPU-Sim takes the oldest ready instruction at each stage too; where it does not
//! (collectors dispatch round robin, the bank arbiter's order) the difference is one of order
//! among instructions already waiting. This module owns the ID/OC and OC/EX registers, the
//! SP, SFU and tensor-core unit instances and the result buses (which the three classes
//! share: GPGPU-Sim's one EX_WB register set); the collectors and register banks are
//! `collectors.rs`'s, and `Sm::book_alu` strings the stages together.
//!
//! The SP class's instances are the `units.sp` FP32 ones, then the `units.int` INT ones, then
//! the `units.dp` FP64 ones (Volta); an instruction enters one of its [`Pipe`]'s, and a pipe
//! with none of its own (`units.int = 0`, `units.dp = 0`) uses the FP32 ones. The INT and FP64
//! pipes share the SP class's ID/OC and OC/EX registers and result buses (GPGPU-Sim gives each
//! its own registers: not modelled yet).
//!
//! With `sm.sub_core` register `i` of ID/OC and OC/EX and unit instance `i` of a pipe belong to
//! scheduler `i mod S` (when there are at least S of them; otherwise every scheduler shares
//! them), as in GPGPU-Sim's sub-core model. Results more than the calendar's window ahead
//! (a latency of thousands of cycles) are not checked against the instance's or the buses'
//! other results.

use crate::classify::{Pipe, Unit};
use crate::ids::SchedId;
use warpsim_core::config::GpuConfig;

/// Cycles ahead the result calendars reach at most (GPGPU-Sim: `MAX_ALU_LATENCY` 512).
const MAX_WINDOW: u64 = 4096;

/// One class's (SP, SFU or tensor-core) pipeline registers and unit instances.
struct Class {
    /// Per ID/OC register: the first cycle a scheduler can issue into it.
    id_oc: Vec<u64>,
    /// Per OC/EX register: the first collector step a collector can dispatch into it.
    oc_ex: Vec<u64>,
    /// Per unit instance: the first cycle its dispatch register is empty (initiation interval).
    unit_free: Vec<u64>,
    /// Per unit instance, `window` entries: entry `c mod window` is `c + 1` when a result
    /// leaves the instance in cycle `c`.
    unit_done: Vec<u64>,
    /// Per [`Pipe`]: `(first instance, instances)`.
    pipes: [(usize, usize); 3],
}

pub struct AluPath {
    /// SP, SFU, tensor core (see [`class`]).
    classes: [Class; 3],
    /// Per cycle of the window: `(c + 1, results)` for the results leaving the units in cycle
    /// `c`.
    bus: Vec<(u64, u32)>,
    buses: u32,
    /// Result-calendar entries (a power of two).
    window: u64,
    schedulers: usize,
    sub_core: bool,
    /// Collector steps a cycle (`operand_collectors.bank_reads_per_cycle`).
    ports: u64,
}

/// Where an instruction went on its way to its unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entered {
    /// The cycle its unit took it (GPGPU-Sim's `execute`).
    pub cycle: u64,
    /// The unit instance.
    pub unit: usize,
}

impl AluPath {
    pub fn new(cfg: &GpuConfig) -> AluPath {
        let slowest = cfg.latency.slowest() as u64;
        let window = (slowest + 1).next_power_of_two().clamp(64, MAX_WINDOW);
        let p = &cfg.pipeline;
        let class = |i: usize, pipes: [u32; 3]| {
            let fp32 = pipes[0].max(1) as usize;
            let own = |n: u32, base: usize| match n {
                0 => (0, fp32),
                n => (base, n as usize),
            };
            let int = own(pipes[1], fp32);
            let fp64 = own(pipes[2], fp32 + pipes[1] as usize);
            let units = fp32 + pipes[1] as usize + pipes[2] as usize;
            Class {
                id_oc: vec![0; p.id_oc[i].max(1) as usize],
                oc_ex: vec![0; p.oc_ex[i].max(1) as usize],
                unit_free: vec![0; units],
                unit_done: vec![0; units * window as usize],
                pipes: [(0, fp32), int, fp64],
            }
        };
        let u = &cfg.units;
        // Double precision on the SFU (`dp_on_sfu`) is an SFU instruction, not an SP pipe.
        let dp = if u.dp_on_sfu { 0 } else { u.dp };
        let mut tensor = class(0, [u.tensor, 0, 0]);
        tensor.id_oc = vec![0; p.id_oc_tensor.max(1) as usize];
        tensor.oc_ex = vec![0; p.oc_ex_tensor.max(1) as usize];
        AluPath {
            classes: [class(0, [u.sp, u.int, dp]), class(1, [u.sfu, 0, 0]), tensor],
            bus: vec![(0, 0); window as usize],
            buses: cfg.pipeline.result_buses.max(1),
            window,
            schedulers: cfg.sm.schedulers.max(1) as usize,
            sub_core: cfg.sm.sub_core,
            ports: cfg.operand_collectors.bank_reads_per_cycle.max(1) as u64,
        }
    }

    /// The entries of a class's `n` registers or instances scheduler `sched` may use.
    #[inline]
    fn mine(&self, n: usize, sched: SchedId) -> impl Iterator<Item = usize> {
        let (s, k) = (self.schedulers, sched.index());
        let private = self.sub_core && n >= s;
        (0..n).filter(move |&i| !private || i % s == k)
    }

    /// An ID/OC register of `unit`'s class (SP or SFU) that scheduler `sched` can issue into
    /// at cycle `now`.
    #[inline]
    pub fn id_oc_free(&self, unit: Unit, sched: SchedId, now: u64) -> Option<usize> {
        let c = &self.classes[class(unit)];
        self.mine(c.id_oc.len(), sched).find(|&i| c.id_oc[i] <= now)
    }

    /// ID/OC register `reg` takes an instruction again from cycle `cycle` (its instruction
    /// moved into a collector in that cycle's collector steps, which run before issue).
    #[inline]
    pub fn release_id_oc(&mut self, unit: Unit, reg: usize, cycle: u64) {
        self.classes[class(unit)].id_oc[reg] = cycle;
    }

    /// A collector that finished its reads in time for step `ready` dispatches into scheduler
    /// `sched`'s first free OC/EX register of `unit`'s class: `(register, step)`.
    #[inline]
    pub fn dispatch(&self, unit: Unit, sched: SchedId, ready: u64) -> (usize, u64) {
        let c = &self.classes[class(unit)];
        self.mine(c.oc_ex.len(), sched)
            .map(|i| (i, c.oc_ex[i].max(ready)))
            .min_by_key(|&(i, at)| (at, i))
            .expect("every scheduler has an OC/EX register")
    }

    /// The instruction in OC/EX register `reg` (there from cycle `from`) enters a unit
    /// instance of its class (`unit`) and `pipe` that scheduler `sched` may use, in the first cycle from `from` on
    /// in which the instance's dispatch register is empty and its result, `latency` cycles
    /// later, meets neither another result of that instance nor full result buses. The
    /// instance is then busy for `interval` cycles; the register takes a dispatch again in the
    /// collector steps of that cycle, which run after the units.
    pub fn enter(
        &mut self,
        (unit, pipe): (Unit, Pipe),
        sched: SchedId,
        reg: usize,
        from: u64,
        latency: u32,
        interval: u32,
    ) -> Entered {
        let latency = latency.max(1) as u64;
        let checked = latency < self.window;
        let ci = class(unit);
        let (base, n) = self.classes[ci].pipes[pipe as usize];
        let mut x = from;
        let entered = loop {
            let done = x + latency;
            let bus_free = !checked || {
                let (tag, count) = self.bus[(done & (self.window - 1)) as usize];
                tag != done + 1 || count < self.buses
            };
            if bus_free {
                let c = &self.classes[ci];
                let w = self.window;
                let slot = (done & (w - 1)) as usize;
                if let Some(i) = self.mine(n, sched).map(|i| base + i).find(|&i| {
                    c.unit_free[i] <= x
                        && (!checked || c.unit_done[i * w as usize + slot] != done + 1)
                }) {
                    break Entered { cycle: x, unit: i };
                }
            }
            x += 1;
        };
        let done = entered.cycle + latency;
        let c = &mut self.classes[ci];
        c.unit_free[entered.unit] = entered.cycle + interval.max(1) as u64;
        c.oc_ex[reg] = entered.cycle * self.ports;
        if checked {
            let w = self.window as usize;
            let slot = (done & (self.window - 1)) as usize;
            c.unit_done[entered.unit * w + slot] = done + 1;
            let b = &mut self.bus[slot];
            *b = if b.0 == done + 1 {
                (done + 1, b.1 + 1)
            } else {
                (done + 1, 1)
            };
        }
        entered
    }
}

/// The index of `unit`'s class in [`AluPath::classes`]. LD/ST instructions never come here
/// (`units.rs`, `memory.rs`); were one to, it would take the SP class's registers.
#[inline]
fn class(unit: Unit) -> usize {
    match unit {
        Unit::Sp | Unit::Ldst => 0,
        Unit::Sfu => 1,
        Unit::Tensor => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(preset: &str, overrides: &[&str]) -> AluPath {
        let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
        AluPath::new(&GpuConfig::load_with(preset, &o).unwrap())
    }

    #[test]
    fn results_of_one_instance_never_leave_in_the_same_cycle() {
        // gtx480: two SP instances. A mad (latency 5) enters instance 0 at 10; an add
        // (latency 4) from the next register at 11 would leave with it: it takes instance 1.
        let mut p = path("gtx480", &[]);
        let s = SchedId(0);
        let a = p.enter((Unit::Sp, Pipe::Fp32), s, 0, 10, 5, 1);
        assert_eq!(a, Entered { cycle: 10, unit: 0 });
        let b = p.enter((Unit::Sp, Pipe::Fp32), s, 1, 11, 4, 1);
        assert_eq!(b, Entered { cycle: 11, unit: 1 });
        // A third, latency 3 from 12: instance 0 would finish at 15 with the mad; instance 1 at
        // 15 with the add. It waits a cycle (16: then the result buses have room too).
        let c = p.enter((Unit::Sp, Pipe::Fp32), s, 0, 12, 3, 1);
        assert_eq!(c, Entered { cycle: 13, unit: 0 });
    }

    #[test]
    fn result_buses_limit_the_results_of_a_cycle() {
        // One result bus: an SP add (4) and an SFU op (latency 3) cannot both leave at 14.
        let mut p = path("gtx480", &["pipeline.result_buses=1"]);
        let s = SchedId(0);
        assert_eq!(p.enter((Unit::Sp, Pipe::Fp32), s, 0, 10, 4, 1).cycle, 10);
        assert_eq!(p.enter((Unit::Sfu, Pipe::Fp32), s, 0, 11, 3, 1).cycle, 12);
        // Two buses (the preset): it goes at 11.
        let mut p = path("gtx480", &[]);
        assert_eq!(p.enter((Unit::Sp, Pipe::Fp32), s, 0, 10, 4, 1).cycle, 10);
        assert_eq!(p.enter((Unit::Sfu, Pipe::Fp32), s, 0, 11, 3, 1).cycle, 11);
    }

    #[test]
    fn an_instance_takes_one_instruction_per_initiation_interval() {
        // gtx480: one SFU instance, interval 8.
        let mut p = path("gtx480", &[]);
        let s = SchedId(1);
        assert_eq!(p.enter((Unit::Sfu, Pipe::Fp32), s, 0, 20, 8, 8).cycle, 20);
        assert_eq!(p.enter((Unit::Sfu, Pipe::Fp32), s, 0, 21, 8, 8).cycle, 28);
    }

    #[test]
    fn registers_free_when_their_instruction_moves_on() {
        let mut p = path("gtx480", &[]);
        let s = SchedId(0);
        // gtx480: two SP ID/OC registers, one SFU one, shared by both schedulers.
        assert_eq!(p.id_oc_free(Unit::Sp, s, 5), Some(0));
        p.release_id_oc(Unit::Sp, 0, 7);
        p.release_id_oc(Unit::Sp, 1, 6);
        assert_eq!(p.id_oc_free(Unit::Sp, SchedId(1), 5), None);
        assert_eq!(p.id_oc_free(Unit::Sp, SchedId(1), 6), Some(1));
        assert_eq!(p.id_oc_free(Unit::Sfu, s, 5), Some(0));
        // OC/EX: a dispatch waits for the register the unit empties.
        let e = p.enter((Unit::Sp, Pipe::Fp32), s, 0, 10, 4, 1);
        assert_eq!(p.dispatch(Unit::Sp, s, 3), (1, 3));
        assert_eq!(e.cycle, 10);
    }

    #[test]
    fn sub_cores_own_their_registers_and_instances() {
        // titanx-pascal: four schedulers, four SP instances and ID/OC, OC/EX registers each.
        let mut p = path("titanx-pascal", &[]);
        p.release_id_oc(Unit::Sp, 2, 9);
        assert_eq!(p.id_oc_free(Unit::Sp, SchedId(2), 8), None);
        assert_eq!(p.id_oc_free(Unit::Sp, SchedId(3), 8), Some(3));
        let e = p.enter((Unit::Sp, Pipe::Fp32), SchedId(2), 2, 10, 4, 1);
        assert_eq!(e.unit, 2);
        // Scheduler 2's next instruction waits for its own instance, not scheduler 1's.
        let f = p.enter((Unit::Sp, Pipe::Fp32), SchedId(2), 2, 10, 4, 1);
        assert_eq!(f, Entered { cycle: 11, unit: 2 });
        assert_eq!(p.dispatch(Unit::Sp, SchedId(2), 0), (2, 22));
    }

    #[test]
    fn volta_int_and_fp64_instructions_take_their_own_units() {
        // qv100: per scheduler one FP32, one INT and one FP64 instance (instances 0-3, 4-7,
        // 8-11), initiation 2 for fp32/int, 4 for fp64. Scheduler 1: an fp32 add enters its FP32
        // instance (1) at 10; an int add from 10 does not wait for it (INT instance 5, at 10:
        // its result leaves at 14 beside the fp32 one, two of the 8 buses).
        let mut p = path("qv100", &[]);
        let s = SchedId(1);
        let a = p.enter((Unit::Sp, Pipe::Fp32), s, 1, 10, 4, 2);
        assert_eq!(a, Entered { cycle: 10, unit: 1 });
        let b = p.enter((Unit::Sp, Pipe::Int), s, 1, 10, 4, 2);
        assert_eq!(b, Entered { cycle: 10, unit: 5 });
        // A dp fma (latency 8, interval 4) at 10 on FP64 instance 9; the next waits its
        // interval: 14.
        assert_eq!(
            p.enter((Unit::Sp, Pipe::Fp64), s, 1, 10, 8, 4),
            Entered { cycle: 10, unit: 9 }
        );
        assert_eq!(
            p.enter((Unit::Sp, Pipe::Fp64), s, 1, 11, 8, 4),
            Entered { cycle: 14, unit: 9 }
        );
        // A second fp32 add from 11 waits for instance 1's interval (2 cycles): 12.
        assert_eq!(p.enter((Unit::Sp, Pipe::Fp32), s, 1, 11, 4, 2).cycle, 12);
        // Without INT units (units.int=0) the int add shares the FP32 instance: 10 + 2 = 12.
        let mut q = path("qv100", &["units.int=0"]);
        assert_eq!(q.enter((Unit::Sp, Pipe::Fp32), s, 1, 10, 4, 2).cycle, 10);
        assert_eq!(
            q.enter((Unit::Sp, Pipe::Int), s, 1, 10, 4, 2),
            Entered { cycle: 12, unit: 1 }
        );
    }
}
