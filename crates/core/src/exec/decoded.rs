//! The executor's pre-decoded form of an instruction, built once per function when a module
//! is lowered (`Function::decoded`, indexed by PC) so that `step` does not re-derive per
//! warp instruction what is fixed per instruction: which whole-warp lane loop an arithmetic
//! instruction runs and what kind each of its operands is.
//!
//! It is a faster encoding of the same [`Inst`], not a second interpreter: `step` still owns
//! every instruction's semantics, and an instruction this form does not cover decodes to
//! [`Decoded::General`], which `step` executes from the `Inst` as before.

use super::lane_loops::IntLoop;
use super::mem_ops::LdBased;
use crate::alu::float::{f32_fast, F32Fast};
use crate::ir::{Function, Inst, Op, Opnd, RegId, Ty};

/// One instruction, decoded for the executor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Decoded {
    /// A register result computed by a whole-warp lane loop (`arith::execute_lanes`).
    Lanes(LaneInst),
    /// A `setp` with its two compared sources resolved (`arith::execute_setp`).
    Setp([Src; 2]),
    /// A scalar `ld [%r+imm]` into another register (`mem_ops::ld_based`).
    LdBased(LdBased),
    /// Everything else: `step` matches on the instruction's `Op`.
    General,
}

/// An instruction whose result is one whole-warp loop over its sources, written to register
/// `dst` in the executing lanes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LaneInst {
    pub routine: Routine,
    pub dst: RegId,
    /// Sources in PTX order; [`Src::Zero`] where the instruction has fewer.
    pub src: [Src; 3],
    /// Whether a source needs a lane array filled before the loop (the destination itself,
    /// a gathered operand, an immediate other than the second source): false for the common
    /// all-registers case, which then skips the staging.
    pub staged: bool,
}

/// The loop a [`LaneInst`] runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Routine {
    /// `mov`: the source masked to the type's width.
    Mov {
        mask: u64,
    },
    /// `cvt` of one source (types and modifiers from the instruction).
    Cvt,
    F32(F32Fast),
    Int(IntLoop),
}

/// What a lane loop's source operand is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Src {
    /// A register other than the destination, read in place.
    Reg(RegId),
    /// The destination register itself (an accumulator, `add %r, %r, …`): its lanes are
    /// read before the loop writes them.
    Dst,
    /// An immediate: one value for every lane.
    Imm(u64),
    /// Absent: zeros.
    Zero,
    /// Anything else (a special register, a symbol's address, a predicate as a value):
    /// gathered per lane from the instruction's operand.
    Gather,
}

/// The decoded form of every instruction of `func`, indexed by PC.
pub fn decode_function(func: &Function) -> Vec<Decoded> {
    func.insts
        .iter()
        .map(|i| decode(i, &func.reg_bits))
        .collect()
}

/// The decoded form of one instruction of a function with register widths `reg_bits`.
pub fn decode(inst: &Inst, reg_bits: &[u8]) -> Decoded {
    if let Some(l) = lane_inst(inst) {
        return Decoded::Lanes(l);
    }
    if let Some(l) = LdBased::of(inst, reg_bits) {
        return Decoded::LdBased(l);
    }
    match (
        inst.op,
        inst.dst[0],
        source(&inst.src[0], None),
        source(&inst.src[1], None),
    ) {
        (Op::Setp, Opnd::Pred { .. }, Some(a), Some(b))
            if matches!(inst.dst[1], Opnd::None | Opnd::Pred { .. }) =>
        {
            Decoded::Setp([a, b])
        }
        _ => Decoded::General,
    }
}

/// A source operand's kind, `dst` being the instruction's destination register if any;
/// `None` for operands that are not one lane value (addresses, vectors).
fn source(o: &Opnd, dst: Option<RegId>) -> Option<Src> {
    Some(match *o {
        Opnd::Reg(r) if Some(r) == dst => Src::Dst,
        Opnd::Reg(r) => Src::Reg(r),
        Opnd::Imm(v) => Src::Imm(v),
        Opnd::None => Src::Zero,
        Opnd::Sreg(_) | Opnd::SymAddr { .. } | Opnd::Pred { .. } => Src::Gather,
        Opnd::Addr { .. } | Opnd::Vec { .. } | Opnd::Sink => return None,
    })
}

fn lane_inst(inst: &Inst) -> Option<LaneInst> {
    let Opnd::Reg(dst) = inst.dst[0] else {
        return None;
    };
    // Predicate logic, carry chains and four-source forms keep their own paths.
    if inst.ty == Ty::Pred
        || inst.dst[1] != Opnd::None
        || inst.src[3] != Opnd::None
        || is_carry(inst)
    {
        return None;
    }
    let one_source = inst.src[1] == Opnd::None && inst.src[2] == Opnd::None;
    let routine = match inst.op {
        // Pack (`{a, b}`), unpack and the two-source `cvt.f16x2.f32` are not one loop.
        Op::Mov if one_source => Routine::Mov {
            mask: inst.ty.mask(),
        },
        Op::Cvt if one_source => Routine::Cvt,
        op => match f32_fast(op, inst.ty, &inst.mods) {
            Some(fast) => Routine::F32(fast),
            None => Routine::Int(IntLoop::of(op, &inst.mods)?),
        },
    };
    let src = [
        source(&inst.src[0], Some(dst))?,
        source(&inst.src[1], Some(dst))?,
        source(&inst.src[2], Some(dst))?,
    ];
    let staged = src
        .iter()
        .enumerate()
        .any(|(i, s)| matches!((i, s), (_, Src::Dst | Src::Gather) | (0 | 2, Src::Imm(_))));
    Some(LaneInst {
        routine,
        dst,
        src,
        staged,
    })
}

/// Whether the instruction reads or writes the carry flag (`addc`, `add.cc`…): per lane, in
/// order, on `arith::execute`'s path.
pub fn is_carry(inst: &Inst) -> bool {
    match inst.op {
        Op::IAddC | Op::ISubC | Op::IMadC => true,
        Op::IAdd | Op::ISub | Op::IMadLo | Op::IMadHi => inst.mods.cc,
        _ => false,
    }
}
