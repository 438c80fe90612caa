//! Scoreboard: per warp, the cycle each register slot / predicate of every live frame becomes
//! readable (RAW) and writable (WAW). An entry holds `ready << SHIFT` and three flags:
//!
//! - `PENDING_LONG`: the result of an outstanding global/local/parameter/texture load, a long
//!   wait while it blocks (`policy.tls.long_marks = "pending"` demotes on those).
//! - `MARK` and `MARK_CLEARS`: GPGPU-Sim's long-operation mark (`Scoreboard::longopregs`,
//!   which its two-level scheduler asks `islongop` of; `policy.tls.long_marks = "sticky"`).
//!   GPGPU-Sim marks a load's destination registers at issue (`reserveRegisters`: global,
//!   local, parameter and texture loads, atomics) and erases a mark only in
//!   `releaseRegisters`, which the writeback of every unit but the LD/ST unit calls, and the
//!   LD/ST unit for an instruction its memory stage completes (constant-cache hits). A load
//!   whose data comes back through the LD/ST unit's writeback (`ldst_unit::writeback`,
//!   `L1_latency_queue_cycle`) releases its registers with `releaseRegister`, which leaves the
//!   mark: the register reads as a long operation after its data is back, until a later
//!   result that clears marks is written to it, and across the warps that use the slot
//!   later. `MARK_CLEARS` says the entry's writer erases the mark at its ready cycle.
//!
//! An entry is released at writeback simply by time passing its ready cycle, or — for results
//! whose latency is not known at issue (an asynchronous memory system) — reserved with
//! [`PENDING`] and released explicitly by [`Scoreboard::release_at`] (then call
//! `Sm::recheck`).

use crate::reg_use::RegUse;
use warpsim_core::exec::warp::{Frame, WARP_SIZE};
use warpsim_core::ir::{Inst, Opnd, RegId};

/// Result of checking an instruction against the scoreboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hazard {
    None,
    /// Blocked until cycle `until` (the latest blocking entry's ready cycle); `long` when a
    /// blocking entry is an outstanding global/local load.
    Blocked {
        long: bool,
        until: u64,
    },
}

/// An entry's ready cycle is `entry >> SHIFT`; below it, its flags.
const SHIFT: u32 = 3;
const PENDING_LONG: u64 = 1;
const MARK: u64 = 2;
const MARK_CLEARS: u64 = 4;

/// Ready cycle meaning "until released" (see [`Scoreboard::release_at`]).
pub const PENDING: u64 = u64::MAX >> SHIFT;

/// What a result does to the long-operation mark of the registers it writes (see the module
/// comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Write {
    /// A long-latency load: marked, and a long wait while pending.
    pub long: bool,
    /// Written back by a path that erases the mark (at the entry's ready cycle).
    pub clears: bool,
}

impl Write {
    /// A result of any unit but the LD/ST unit's writeback port (ALU, SFU, tensor math…): it
    /// erases the mark when it is written.
    pub const CLEARS: Write = Write {
        long: false,
        clears: true,
    };
    /// A load result the LD/ST unit writes back (shared memory): the mark stays as it was.
    pub const KEEPS: Write = Write {
        long: false,
        clears: false,
    };
    /// A long-latency load, marked at issue; whether its completion erases the mark is known
    /// when it completes ([`Scoreboard::release_at`]).
    pub const LONG: Write = Write {
        long: true,
        clears: false,
    };
}

/// Entry `e`'s long-operation mark at cycle `now`.
#[inline]
fn marked_at(e: u64, now: u64) -> bool {
    e & MARK != 0 && (e & MARK_CLEARS == 0 || e >> SHIFT > now)
}

/// The entry of a result ready at `ready`, written by `w`, over the entry `old` at `now`.
#[inline]
fn entry(old: u64, ready: u64, w: Write, now: u64) -> u64 {
    let mark = w.long || marked_at(old, now);
    let flags = if w.clears { MARK_CLEARS } else { 0 }
        | if mark { MARK } else { 0 }
        | if w.long { PENDING_LONG } else { 0 };
    (ready << SHIFT) | flags
}

/// One warp's scoreboard.
#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    regs: Vec<u64>,
    preds: Vec<u64>,
}

#[inline]
fn visit_opnd(o: &Opnd, f: &Frame, mut reg: impl FnMut(usize), mut pred: impl FnMut(usize)) {
    let rb = f.reg_base / WARP_SIZE;
    match *o {
        Opnd::Reg(r) => reg(rb + r as usize),
        Opnd::Addr { base: Some(r), .. } => reg(rb + r as usize),
        Opnd::Pred { id, .. } => pred(f.pred_base + id as usize),
        Opnd::Vec { regs, n } => {
            for &r in &regs[..n as usize] {
                reg(rb + r as usize);
            }
        }
        _ => {}
    }
}

impl Scoreboard {
    /// Sizes the board for the warp's current register file (grows on calls).
    pub fn fit(&mut self, reg_slots: usize, preds: usize) {
        if self.regs.len() < reg_slots {
            self.regs.resize(reg_slots, 0);
        }
        if self.preds.len() < preds {
            self.preds.resize(preds, 0);
        }
    }

    /// Frees every entry for the slot's next warp. GPGPU-Sim's long-operation marks stay:
    /// its `longopregs` belongs to the warp slot and nothing clears it when a warp starts.
    pub fn clear(&mut self) {
        self.regs.iter_mut().for_each(|r| {
            *r = if *r & (MARK | MARK_CLEARS) == MARK {
                MARK
            } else {
                0
            }
        });
        self.preds.iter_mut().for_each(|p| *p = 0);
    }

    /// RAW on every source register and predicate (the guard included), WAW on every
    /// destination, given the frame's register slot base (`reg_base / WARP_SIZE`) and
    /// predicate base.
    #[inline]
    pub fn check_at(&self, uses: RegUse, rb: usize, pb: usize, now: u64) -> Hazard {
        self.check_marked::<false>(uses, rb, pb, now).0
    }

    /// Until which cycle an input operand of `uses` carries a long-operation mark at `now`
    /// (GPGPU-Sim's `islongop` on `in[]`): `u64::MAX` for a mark nothing pending will erase,
    /// the ready cycle of the result that erases it, 0 when none is marked.
    pub fn marked_until(&self, uses: RegUse, rb: usize, now: u64) -> u64 {
        self.check_marked::<true>(uses, rb, 0, now).1
    }

    /// [`Scoreboard::check_at`], and with `MARKS` [`Scoreboard::marked_until`] too, from one
    /// walk over the operands (0 without `MARKS`).
    #[inline(always)]
    pub fn check_marked<const MARKS: bool>(
        &self,
        uses: RegUse,
        rb: usize,
        pb: usize,
        now: u64,
    ) -> (Hazard, u64) {
        let mut worst = 0u64; // bit 0: blocked, bit 1: long
        let (mut until, mut marked) = (0u64, 0u64);
        // `counts`: 2 where a pending long result marks the wait long, 0 where it does not.
        let mut look = |e: u64, counts: u64| {
            if e >> SHIFT > now {
                worst |= 1 | (e & PENDING_LONG) << 1 & counts;
                until = until.max(e >> SHIFT);
            }
        };
        // Only the input operands make a wait long (GPGPU-Sim's two-level scheduler asks
        // `islongop` of `in[]` alone): not an address base, a destination or a predicate.
        for (i, &r) in uses.regs.iter().enumerate() {
            let e = self.regs.get(rb + r as usize).copied().unwrap_or(0);
            let input = i < uses.in_operands;
            look(e, (input as u64) << 1);
            if MARKS && input && marked_at(e, now) {
                marked = marked.max(if e & MARK_CLEARS != 0 {
                    e >> SHIFT
                } else {
                    u64::MAX
                });
            }
        }
        for &p in uses.preds {
            look(self.preds.get(pb + p as usize).copied().unwrap_or(0), 0);
        }
        let hazard = if worst & 1 == 1 {
            Hazard::Blocked {
                long: worst & 2 != 0,
                until,
            }
        } else {
            Hazard::None
        };
        (hazard, marked)
    }

    /// Reserves every destination until `ready`, written by `w` (at cycle `now`).
    pub fn reserve(&mut self, inst: &Inst, f: &Frame, ready: u64, w: Write, now: u64) {
        let pred = ready << SHIFT;
        for o in inst.dst.iter() {
            let (regs, preds) = (&mut self.regs, &mut self.preds);
            visit_opnd(
                o,
                f,
                |i| {
                    if let Some(x) = regs.get_mut(i) {
                        *x = entry(*x, ready, w, now);
                    }
                },
                |i| {
                    if let Some(x) = preds.get_mut(i) {
                        *x = pred;
                    }
                },
            );
        }
    }

    /// Reserves registers `regs` of the frame whose register slots start at `rb` until
    /// `ready`, written by `w` (at `now`): a tensor-core instruction's destination fragment
    /// (up to 8 registers), which its `Inst` does not name (`RegUse::dsts` lists it).
    pub fn reserve_regs(&mut self, regs: &[RegId], rb: usize, ready: u64, w: Write, now: u64) {
        for &r in regs {
            if let Some(x) = self.regs.get_mut(rb + r as usize) {
                *x = entry(*x, ready, w, now);
            }
        }
    }

    /// Releases registers `regs` (reserved with [`PENDING`]) as ready from `at`; `clears`:
    /// the completion erases their long-operation mark (a constant-cache hit).
    pub fn release_regs(&mut self, regs: &[RegId], rb: usize, at: u64, clears: bool) {
        for &r in regs {
            if let Some(x) = self.regs.get_mut(rb + r as usize) {
                *x = released(*x, at, clears);
            }
        }
    }

    /// Releases every destination of `inst` (reserved with [`PENDING`]) as ready from `at`.
    pub fn release(&mut self, inst: &Inst, f: &Frame, at: u64) {
        self.release_at(inst, f.reg_base / WARP_SIZE, f.pred_base, at, false);
    }

    /// [`Scoreboard::release`] with the frame's register slot base and predicate base given
    /// directly (as recorded when the instruction issued; the warp may have called since);
    /// `clears`: the completion erases the registers' long-operation marks.
    pub fn release_at(&mut self, inst: &Inst, rb: usize, pb: usize, at: u64, clears: bool) {
        for o in inst.dst.iter() {
            match *o {
                Opnd::Reg(r) => self.release_reg(rb + r as usize, at, clears),
                Opnd::Pred { id, .. } => {
                    if let Some(x) = self.preds.get_mut(pb + id as usize) {
                        *x = at << SHIFT;
                    }
                }
                Opnd::Vec { regs, n } => {
                    for &r in &regs[..n as usize] {
                        self.release_reg(rb + r as usize, at, clears);
                    }
                }
                _ => {}
            }
        }
    }

    #[inline]
    fn release_reg(&mut self, i: usize, at: u64, clears: bool) {
        if let Some(x) = self.regs.get_mut(i) {
            *x = released(*x, at, clears);
        }
    }
}

/// A pending entry `e` released at `at`: its mark kept, erased at `at` when `clears`.
#[inline]
fn released(e: u64, at: u64, clears: bool) -> u64 {
    (at << SHIFT) | (e & MARK) | if clears { MARK_CLEARS } else { 0 }
}

#[cfg(test)]
mod tests {
    //! The scoreboard alone, on instructions of a small PTX kernel: which cycles a reserved
    //! register or predicate blocks a reader or a writer, what `Hazard::Blocked` reports, and
    //! how explicit releases and the board's size change that.
    use super::{Hazard, Scoreboard, Write, PENDING};
    use crate::reg_use::RegUseTable;
    use warpsim_core::exec::warp::{Frame, WARP_SIZE};
    use warpsim_core::ir::{Inst, Module};

    /// One instruction per line; the comments name what each reads and writes.
    const SRC: &str = ".version 9.5\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n\
        .reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .pred %p<4>;\n\
        mov.u32 %r1, 7;\n\
        add.u32 %r2, %r1, 1;\n\
        mov.u32 %r1, 3;\n\
        mov.u32 %r5, 9;\n\
        add.u32 %r4, %r1, %r3;\n\
        setp.lt.u32 %p1, %r2, 5;\n\
        @%p1 add.u32 %r6, %r6, 1;\n\
        ld.global.u32 %r3, [256];\n\
        ld.global.u64 %rd1, [264];\n\
        ld.global.u32 %r7, [%rd1];\n\
        ret;\n}\n";
    /// PCs of `SRC`'s instructions.
    const MOV_R1: u32 = 0; // writes %r1
    const READ_R1: u32 = 1; // reads %r1, writes %r2
    const WRITE_R1: u32 = 2; // writes %r1 again (WAW)
    const INDEPENDENT: u32 = 3; // writes %r5 only
    const READ_R1_R3: u32 = 4; // reads %r1 and %r3
    const SETP: u32 = 5; // reads %r2, writes %p1
    const GUARDED: u32 = 6; // guard %p1, reads and writes %r6
    const LOAD_R3: u32 = 7; // writes %r3
    const LOAD_RD1: u32 = 8; // writes %rd1
    const LOAD_THROUGH_RD1: u32 = 9; // address base %rd1, writes %r7

    struct Kernel {
        module: Module,
        uses: RegUseTable,
    }

    impl Kernel {
        fn new() -> Kernel {
            let module = warpsim_core::load_ptx(SRC).expect("kernel loads");
            let uses = RegUseTable::new(&module);
            Kernel { module, uses }
        }

        fn inst(&self, pc: u32) -> &Inst {
            &self.module.functions[0].insts[pc as usize]
        }

        /// `pc`'s check at cycle `now` against `sb`, frame bases `rb` (register slots) and `pb`.
        fn check(&self, sb: &Scoreboard, pc: u32, rb: usize, pb: usize, now: u64) -> Hazard {
            sb.check_at(self.uses.get(0, pc), rb, pb, now)
        }
    }

    /// The kernel frame: registers and predicates from slot 0.
    fn frame0() -> Frame {
        frame(0, 0)
    }

    /// A frame whose registers start at slot `rb` and predicates at `pb`.
    fn frame(rb: usize, pb: usize) -> Frame {
        Frame {
            func: 0,
            reg_base: rb * WARP_SIZE,
            pred_base: pb,
            local_base: 0,
            call_site: 0,
        }
    }

    /// A board big enough for the kernel.
    fn board() -> Scoreboard {
        let mut sb = Scoreboard::default();
        sb.fit(16, 8);
        sb
    }

    fn blocked(long: bool, until: u64) -> Hazard {
        Hazard::Blocked { long, until }
    }

    /// The kernel is what the constants say: the tests below rest on these PCs.
    #[test]
    fn the_kernel_has_the_instructions_the_tests_name() {
        let k = Kernel::new();
        let f = &k.module.functions[0];
        let reg = |n: &str| f.reg_names.iter().position(|x| x == n).unwrap() as u32;
        assert_eq!(k.uses.get(0, READ_R1).regs, &[reg("%r1"), reg("%r2")]);
        assert_eq!(k.uses.get(0, READ_R1).sources, 1);
        assert_eq!(
            k.uses.get(0, READ_R1_R3).regs,
            &[reg("%r1"), reg("%r3"), reg("%r4")]
        );
        assert_eq!(k.uses.get(0, GUARDED).preds.len(), 1, "the guard");
        assert_eq!(k.uses.get(0, SETP).preds.len(), 1, "the destination");
        assert_eq!(k.inst(LOAD_R3).op, warpsim_core::ir::Op::Ld);
    }

    /// RAW: a result reserved ready at cycle 10 blocks its reader at every cycle before 10,
    /// reporting `until: 10`, and not from cycle 10 on (the ready cycle is the first the
    /// reader may issue in); an instruction touching other registers is never blocked.
    #[test]
    fn a_reader_waits_until_exactly_the_ready_cycle() {
        let k = Kernel::new();
        let mut sb = board();
        sb.reserve(k.inst(MOV_R1), &frame0(), 10, Write::CLEARS, 0);
        assert_eq!(k.check(&sb, READ_R1, 0, 0, 0), blocked(false, 10));
        assert_eq!(k.check(&sb, READ_R1, 0, 0, 9), blocked(false, 10));
        assert_eq!(k.check(&sb, READ_R1, 0, 0, 10), Hazard::None);
        assert_eq!(k.check(&sb, READ_R1, 0, 0, 11), Hazard::None);
        assert_eq!(k.check(&sb, INDEPENDENT, 0, 0, 0), Hazard::None);
    }

    /// WAW: a second writer of the same register waits for the first's ready cycle too; a
    /// later reservation replaces the earlier one (the board holds one cycle per register).
    #[test]
    fn a_second_writer_waits_for_the_first() {
        let k = Kernel::new();
        let mut sb = board();
        sb.reserve(k.inst(MOV_R1), &frame0(), 12, Write::CLEARS, 0);
        assert_eq!(k.check(&sb, WRITE_R1, 0, 0, 11), blocked(false, 12));
        assert_eq!(k.check(&sb, WRITE_R1, 0, 0, 12), Hazard::None);
        // The second writer issues at 12 with its result ready at 15: readers now wait for 15.
        sb.reserve(k.inst(WRITE_R1), &frame0(), 15, Write::CLEARS, 0);
        assert_eq!(k.check(&sb, READ_R1, 0, 0, 12), blocked(false, 15));
        assert_eq!(k.check(&sb, READ_R1, 0, 0, 15), Hazard::None);
    }

    /// Of several blocking sources, the hazard reports the latest ready cycle, and `long`
    /// while any blocking one is a long (global/local) load: here `%r3` (a long load, ready at
    /// 20) and `%r1` (short, ready at 30) give `until: 30, long` before 20 and `until: 30`,
    /// not long, from 20 (the load no longer blocks).
    #[test]
    fn the_latest_blocking_source_and_any_long_load_are_reported() {
        let k = Kernel::new();
        let mut sb = board();
        sb.reserve(k.inst(MOV_R1), &frame0(), 30, Write::CLEARS, 0);
        sb.reserve(k.inst(LOAD_R3), &frame0(), 20, Write::LONG, 0);
        assert_eq!(k.check(&sb, READ_R1_R3, 0, 0, 19), blocked(true, 30));
        assert_eq!(k.check(&sb, READ_R1_R3, 0, 0, 20), blocked(false, 30));
        assert_eq!(k.check(&sb, READ_R1_R3, 0, 0, 30), Hazard::None);
    }

    /// Only an input operand's pending load makes the wait long (GPGPU-Sim's `islongop` on
    /// `in[]`): a second load of the same register (WAW) and a load through a loaded address
    /// (its base is `ar1`, not an input) wait just as long, but not as long waits.
    #[test]
    fn only_input_operands_make_a_wait_long() {
        let k = Kernel::new();
        let mut sb = board();
        sb.reserve(k.inst(LOAD_R3), &frame0(), 20, Write::LONG, 0);
        sb.reserve(k.inst(LOAD_RD1), &frame0(), 25, Write::LONG, 0);
        assert_eq!(k.check(&sb, READ_R1_R3, 0, 0, 5), blocked(true, 20));
        assert_eq!(k.check(&sb, LOAD_R3, 0, 0, 5), blocked(false, 20));
        assert_eq!(k.check(&sb, LOAD_THROUGH_RD1, 0, 0, 5), blocked(false, 25));
        assert_eq!(k.uses.get(0, LOAD_THROUGH_RD1).in_operands, 0);
        assert_eq!(k.uses.get(0, READ_R1_R3).in_operands, 2);
    }

    /// A result of unknown latency reserved `PENDING` (a long load in the memory system)
    /// blocks its reader however late, reporting `until: PENDING` and `long`; `release` at 50
    /// makes it an ordinary short result ready at 50 (`long` cleared).
    #[test]
    fn a_pending_load_blocks_until_released() {
        let k = Kernel::new();
        let mut sb = board();
        sb.reserve(k.inst(LOAD_R3), &frame0(), PENDING, Write::LONG, 0);
        assert_eq!(
            k.check(&sb, READ_R1_R3, 0, 0, 1 << 40),
            blocked(true, PENDING)
        );
        assert_eq!(k.check(&sb, READ_R1, 0, 0, 1 << 40), Hazard::None);
        sb.release(k.inst(LOAD_R3), &frame0(), 50);
        assert_eq!(k.check(&sb, READ_R1_R3, 0, 0, 49), blocked(false, 50));
        assert_eq!(k.check(&sb, READ_R1_R3, 0, 0, 50), Hazard::None);
    }

    /// `release_at` releases the slots of the frame the instruction issued in (register slot
    /// base 4, predicate base 2 here), whatever frame the warp is in now: the same register
    /// of another frame is untouched.
    #[test]
    fn release_at_releases_the_issuing_frames_slots() {
        let k = Kernel::new();
        let mut sb = board();
        sb.reserve(k.inst(LOAD_R3), &frame(4, 2), PENDING, Write::LONG, 0);
        // Frame 0's %r3 is free; the callee frame's is pending.
        assert_eq!(k.check(&sb, READ_R1_R3, 0, 0, 5), Hazard::None);
        assert_eq!(k.check(&sb, READ_R1_R3, 4, 2, 5), blocked(true, PENDING));
        sb.release_at(k.inst(LOAD_R3), 4, 2, 40, false);
        assert_eq!(k.check(&sb, READ_R1_R3, 4, 2, 39), blocked(false, 40));
        assert_eq!(k.check(&sb, READ_R1_R3, 4, 2, 40), Hazard::None);
        // The same for a predicate destination, at its frame's predicate base.
        sb.reserve(k.inst(SETP), &frame(4, 2), PENDING, Write::CLEARS, 0);
        assert_eq!(k.check(&sb, GUARDED, 0, 0, 5), Hazard::None);
        assert_eq!(k.check(&sb, GUARDED, 4, 2, 5), blocked(false, PENDING));
        sb.release_at(k.inst(SETP), 4, 2, 44, false);
        assert_eq!(k.check(&sb, GUARDED, 4, 2, 43), blocked(false, 44));
        assert_eq!(k.check(&sb, GUARDED, 4, 2, 44), Hazard::None);
    }

    /// Predicates are scoreboarded like registers: a `setp`'s result ready at 8 blocks an
    /// instruction guarded by it (RAW on the guard) and another `setp` writing it (WAW) until
    /// cycle 8.
    #[test]
    fn a_guard_predicate_in_flight_blocks_the_guarded_instruction() {
        let k = Kernel::new();
        let mut sb = board();
        sb.reserve(k.inst(SETP), &frame0(), 8, Write::CLEARS, 0);
        assert_eq!(k.check(&sb, GUARDED, 0, 0, 7), blocked(false, 8));
        assert_eq!(k.check(&sb, GUARDED, 0, 0, 8), Hazard::None);
        assert_eq!(k.check(&sb, SETP, 0, 0, 7), blocked(false, 8), "WAW");
        assert_eq!(k.check(&sb, READ_R1, 0, 0, 7), Hazard::None);
    }

    /// An empty board ignores reservations (nothing blocks); `fit` grows it to the warp's
    /// register file without losing what it holds and never shrinks it; `clear` frees every
    /// entry.
    #[test]
    fn fit_grows_the_board_and_clear_empties_it() {
        let k = Kernel::new();
        let mut sb = Scoreboard::default();
        sb.reserve(k.inst(MOV_R1), &frame0(), 10, Write::CLEARS, 0);
        assert_eq!(k.check(&sb, READ_R1, 0, 0, 0), Hazard::None, "no slots yet");
        sb.fit(8, 2);
        sb.reserve(k.inst(MOV_R1), &frame0(), 10, Write::CLEARS, 0);
        assert_eq!(k.check(&sb, READ_R1, 0, 0, 0), blocked(false, 10));
        // A callee frame at slot 8 is past the board until it grows (a call fits it).
        sb.reserve(k.inst(MOV_R1), &frame(8, 2), 20, Write::CLEARS, 0);
        assert_eq!(k.check(&sb, READ_R1, 8, 2, 0), Hazard::None);
        sb.fit(16, 4);
        sb.fit(4, 1);
        sb.reserve(k.inst(MOV_R1), &frame(8, 2), 20, Write::CLEARS, 0);
        assert_eq!(k.check(&sb, READ_R1, 8, 2, 0), blocked(false, 20));
        assert_eq!(
            k.check(&sb, READ_R1, 0, 0, 0),
            blocked(false, 10),
            "kept while growing, not shrunk"
        );
        sb.clear();
        assert_eq!(k.check(&sb, READ_R1, 0, 0, 0), Hazard::None);
        assert_eq!(k.check(&sb, READ_R1, 8, 2, 0), Hazard::None);
    }

    /// GPGPU-Sim's long-operation marks (`policy.tls.long_marks = "sticky"`): a load's
    /// destination stays marked after its data is back (released by the LD/ST unit's
    /// writeback), and no longer blocks; a later result that clears marks (an ALU's) erases
    /// the mark at its ready cycle, one that keeps them (a shared load's) does not; a
    /// constant-cache hit's release erases its own mark.
    #[test]
    fn a_load_result_stays_marked_until_a_clearing_write() {
        let k = Kernel::new();
        let r3 = k.module.functions[0]
            .reg_names
            .iter()
            .position(|x| x == "%r3")
            .unwrap() as u32;
        let reads = k.uses.get(0, READ_R1_R3);
        let mut sb = board();
        assert_eq!(sb.marked_until(reads, 0, 0), 0, "nothing marked");
        sb.reserve(k.inst(LOAD_R3), &frame0(), PENDING, Write::LONG, 5);
        assert_eq!(sb.marked_until(reads, 0, 10), u64::MAX);
        sb.release_at(k.inst(LOAD_R3), 0, 0, 50, false);
        assert_eq!(
            k.check(&sb, READ_R1_R3, 0, 0, 60),
            Hazard::None,
            "the data is back"
        );
        assert_eq!(
            sb.marked_until(reads, 0, 60),
            u64::MAX,
            "and the mark stays"
        );
        // Only input operands count: `%r3` as the load's own destination does not.
        assert_eq!(sb.marked_until(k.uses.get(0, LOAD_R3), 0, 60), 0);
        // A shared-memory load of `%r3` keeps the mark; an ALU result erases it when ready.
        sb.reserve_regs(&[r3], 0, 70, Write::KEEPS, 60);
        assert_eq!(sb.marked_until(reads, 0, 80), u64::MAX);
        sb.reserve_regs(&[r3], 0, 90, Write::CLEARS, 80);
        assert_eq!(
            sb.marked_until(reads, 0, 85),
            90,
            "marked until the ALU writes it"
        );
        assert_eq!(sb.marked_until(reads, 0, 90), 0);
        // A parameter load that hits the constant cache: marked while out, erased with it.
        sb.reserve(k.inst(LOAD_R3), &frame0(), PENDING, Write::LONG, 100);
        sb.release_at(k.inst(LOAD_R3), 0, 0, 104, true);
        assert_eq!(sb.marked_until(reads, 0, 101), 104);
        assert_eq!(sb.marked_until(reads, 0, 104), 0);
    }

    /// The marks belong to the warp slot (GPGPU-Sim never clears `longopregs`): `clear` for
    /// the slot's next warp frees every entry but keeps a mark nothing was going to erase.
    #[test]
    fn clear_keeps_the_slot_s_long_operation_marks() {
        let k = Kernel::new();
        let mut sb = board();
        sb.reserve(k.inst(LOAD_R3), &frame0(), PENDING, Write::LONG, 0);
        sb.release_at(k.inst(LOAD_R3), 0, 0, 20, false);
        // `%r1` as a parameter load's result that hit the constant cache at 30: erased then.
        sb.reserve(k.inst(MOV_R1), &frame0(), PENDING, Write::LONG, 0);
        sb.release_at(k.inst(MOV_R1), 0, 0, 30, true);
        assert_eq!(sb.marked_until(k.uses.get(0, READ_R1), 0, 10), 30);
        sb.clear();
        assert_eq!(k.check(&sb, READ_R1_R3, 0, 0, 0), Hazard::None);
        assert_eq!(sb.marked_until(k.uses.get(0, READ_R1_R3), 0, 0), u64::MAX);
        assert_eq!(sb.marked_until(k.uses.get(0, READ_R1), 0, 0), 0);
    }
}
