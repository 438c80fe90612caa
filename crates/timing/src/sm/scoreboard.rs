//! Scoreboard: per warp, the cycle each register slot / predicate of every live frame becomes
//! readable (RAW) and writable (WAW). An entry holds `ready << 1 | long`, where `long` marks
//! the result of a global/local load (two-level scheduling demotes on those). An entry is
//! released at writeback simply by time passing its ready cycle, or — for results whose
//! latency is not known at issue (an asynchronous memory system) — reserved with
//! [`PENDING`] and released explicitly by [`Scoreboard::release`] (then call `Sm::recheck`).

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

/// Ready cycle meaning "until released" (see [`Scoreboard::release`]).
pub const PENDING: u64 = u64::MAX >> 2;

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

    pub fn clear(&mut self) {
        self.regs.iter_mut().for_each(|r| *r = 0);
        self.preds.iter_mut().for_each(|p| *p = 0);
    }

    /// RAW on every source register and predicate (the guard included), WAW on every
    /// destination, given the frame's register slot base (`reg_base / WARP_SIZE`) and
    /// predicate base.
    #[inline]
    pub fn check_at(&self, uses: RegUse, rb: usize, pb: usize, now: u64) -> Hazard {
        let mut worst = 0u64; // bit 0: blocked, bit 1: long
        let mut until = 0u64;
        // `counts`: 2 where a pending long result marks the wait long, 0 where it does not.
        let mut look = |e: u64, counts: u64| {
            if e >> 1 > now {
                worst |= 1 | (e & 1) << 1 & counts;
                until = until.max(e >> 1);
            }
        };
        // Only the input operands make a wait long (GPGPU-Sim's two-level scheduler asks
        // `islongop` of `in[]` alone): not an address base, a destination or a predicate.
        for (i, &r) in uses.regs.iter().enumerate() {
            let counts = ((i < uses.in_operands) as u64) << 1;
            look(self.regs.get(rb + r as usize).copied().unwrap_or(0), counts);
        }
        for &p in uses.preds {
            look(self.preds.get(pb + p as usize).copied().unwrap_or(0), 0);
        }
        if worst & 1 == 1 {
            Hazard::Blocked {
                long: worst & 2 != 0,
                until,
            }
        } else {
            Hazard::None
        }
    }

    /// Reserves every destination until `ready`.
    pub fn reserve(&mut self, inst: &Inst, f: &Frame, ready: u64, long: bool) {
        let e = ready << 1 | long as u64;
        for o in inst.dst.iter() {
            let (regs, preds) = (&mut self.regs, &mut self.preds);
            visit_opnd(
                o,
                f,
                |i| {
                    if let Some(x) = regs.get_mut(i) {
                        *x = e;
                    }
                },
                |i| {
                    if let Some(x) = preds.get_mut(i) {
                        *x = e;
                    }
                },
            );
        }
    }

    /// Reserves registers `regs` of the frame whose register slots start at `rb` until
    /// `ready`: a tensor-core instruction's destination fragment (up to 8 registers), which
    /// its `Inst` does not name (`RegUse::dsts` lists it). Released again by calling this
    /// with the release cycle.
    pub fn reserve_regs(&mut self, regs: &[RegId], rb: usize, ready: u64, long: bool) {
        let e = ready << 1 | long as u64;
        for &r in regs {
            self.set_reg(rb + r as usize, e);
        }
    }

    /// Releases every destination of `inst` (reserved with [`PENDING`]) as ready from `at`.
    pub fn release(&mut self, inst: &Inst, f: &Frame, at: u64) {
        self.reserve(inst, f, at, false);
    }

    /// [`Scoreboard::release`] with the frame's register slot base and predicate base given
    /// directly (as recorded when the instruction issued; the warp may have called since).
    pub fn release_at(&mut self, inst: &Inst, rb: usize, pb: usize, at: u64) {
        let e = at << 1;
        for o in inst.dst.iter() {
            match *o {
                Opnd::Reg(r) => self.set_reg(rb + r as usize, e),
                Opnd::Pred { id, .. } => {
                    if let Some(x) = self.preds.get_mut(pb + id as usize) {
                        *x = e;
                    }
                }
                Opnd::Vec { regs, n } => {
                    for &r in &regs[..n as usize] {
                        self.set_reg(rb + r as usize, e);
                    }
                }
                _ => {}
            }
        }
    }

    #[inline]
    fn set_reg(&mut self, i: usize, e: u64) {
        if let Some(x) = self.regs.get_mut(i) {
            *x = e;
        }
    }
}

#[cfg(test)]
mod tests {
    //! The scoreboard alone, on instructions of a small PTX kernel: which cycles a reserved
    //! register or predicate blocks a reader or a writer, what `Hazard::Blocked` reports, and
    //! how explicit releases and the board's size change that.
    use super::{Hazard, Scoreboard, PENDING};
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
        sb.reserve(k.inst(MOV_R1), &frame0(), 10, false);
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
        sb.reserve(k.inst(MOV_R1), &frame0(), 12, false);
        assert_eq!(k.check(&sb, WRITE_R1, 0, 0, 11), blocked(false, 12));
        assert_eq!(k.check(&sb, WRITE_R1, 0, 0, 12), Hazard::None);
        // The second writer issues at 12 with its result ready at 15: readers now wait for 15.
        sb.reserve(k.inst(WRITE_R1), &frame0(), 15, false);
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
        sb.reserve(k.inst(MOV_R1), &frame0(), 30, false);
        sb.reserve(k.inst(LOAD_R3), &frame0(), 20, true);
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
        sb.reserve(k.inst(LOAD_R3), &frame0(), 20, true);
        sb.reserve(k.inst(LOAD_RD1), &frame0(), 25, true);
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
        sb.reserve(k.inst(LOAD_R3), &frame0(), PENDING, true);
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
        sb.reserve(k.inst(LOAD_R3), &frame(4, 2), PENDING, true);
        // Frame 0's %r3 is free; the callee frame's is pending.
        assert_eq!(k.check(&sb, READ_R1_R3, 0, 0, 5), Hazard::None);
        assert_eq!(k.check(&sb, READ_R1_R3, 4, 2, 5), blocked(true, PENDING));
        sb.release_at(k.inst(LOAD_R3), 4, 2, 40);
        assert_eq!(k.check(&sb, READ_R1_R3, 4, 2, 39), blocked(false, 40));
        assert_eq!(k.check(&sb, READ_R1_R3, 4, 2, 40), Hazard::None);
        // The same for a predicate destination, at its frame's predicate base.
        sb.reserve(k.inst(SETP), &frame(4, 2), PENDING, false);
        assert_eq!(k.check(&sb, GUARDED, 0, 0, 5), Hazard::None);
        assert_eq!(k.check(&sb, GUARDED, 4, 2, 5), blocked(false, PENDING));
        sb.release_at(k.inst(SETP), 4, 2, 44);
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
        sb.reserve(k.inst(SETP), &frame0(), 8, false);
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
        sb.reserve(k.inst(MOV_R1), &frame0(), 10, false);
        assert_eq!(k.check(&sb, READ_R1, 0, 0, 0), Hazard::None, "no slots yet");
        sb.fit(8, 2);
        sb.reserve(k.inst(MOV_R1), &frame0(), 10, false);
        assert_eq!(k.check(&sb, READ_R1, 0, 0, 0), blocked(false, 10));
        // A callee frame at slot 8 is past the board until it grows (a call fits it).
        sb.reserve(k.inst(MOV_R1), &frame(8, 2), 20, false);
        assert_eq!(k.check(&sb, READ_R1, 8, 2, 0), Hazard::None);
        sb.fit(16, 4);
        sb.fit(4, 1);
        sb.reserve(k.inst(MOV_R1), &frame(8, 2), 20, false);
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
}
