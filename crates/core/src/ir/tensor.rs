//! Tensor-core instructions (`wmma.*`, `mma.sync`, `ldmatrix`): their forms and fragment
//! registers. A fragment is up to 8 registers per operand and `mma` has four operands, more
//! than [`Inst`](super::Inst)'s operand slots hold, so each such instruction's form lives in
//! [`Function::tensor`](super::Function::tensor) and its `Inst::target` indexes it. The
//! address and stride of `wmma.load`/`wmma.store` and the address of `ldmatrix` stay in
//! `Inst::src[0]`/`src[1]`, with the state space in `Inst::mods.space`, so the executor's
//! address code serves them as it serves `ld`.

use super::inst::RegId;

/// The element type of one matrix operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    F16,
    Bf16,
    /// An f32 register of which the multiply uses the top 19 bits (sign, 8 exponent bits,
    /// 10 fraction bits); the low 13 bits are ignored.
    Tf32,
    F32,
    S8,
    U8,
    S32,
}

impl Elem {
    /// Bits one element takes in a register.
    pub fn bits(self) -> u32 {
        match self {
            Elem::F16 | Elem::Bf16 => 16,
            Elem::Tf32 | Elem::F32 | Elem::S32 => 32,
            Elem::S8 | Elem::U8 => 8,
        }
    }

    /// Elements packed in one 32-bit register.
    pub fn per_reg(self) -> u32 {
        32 / self.bits()
    }

    /// The PTX spelling, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Elem::F16 => "f16",
            Elem::Bf16 => "bf16",
            Elem::Tf32 => "tf32",
            Elem::F32 => "f32",
            Elem::S8 => "s8",
            Elem::U8 => "u8",
            Elem::S32 => "s32",
        }
    }
}

/// Row- or column-major: of a matrix in memory (`wmma.load/store`), or of an `mma` operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Major {
    Row,
    Col,
}

/// Which matrix a fragment holds. D has C's layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Matrix {
    A,
    B,
    C,
}

/// What the instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TensorKind {
    /// `wmma.load.{a,b,c}`: memory → fragment `d`.
    WmmaLoad(Matrix),
    /// `wmma.store.d`: fragment `c` (the D fragment being stored) → memory.
    WmmaStore,
    /// `wmma.mma`: d = a·b + c with warpsim's wmma fragment layout.
    WmmaMma,
    /// `mma.sync`: d = a·b + c with the PTX ISA's per-lane fragment layout.
    Mma,
    /// `ldmatrix.sync.aligned.m8n8.xN[.trans].shared.b16`: `count` 8×8 b16 matrices → `d`.
    Ldmatrix { count: u8, trans: bool },
}

/// One tensor-core instruction's form and fragment registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorInst {
    pub kind: TensorKind,
    /// The shape `m·n·k` (ldmatrix: 8·8·0).
    pub m: u8,
    pub n: u8,
    pub k: u8,
    /// `wmma.load/store`: the matrix's layout in memory. `wmma.mma`/`mma`: A's layout.
    pub major_a: Major,
    /// `wmma.mma`/`mma`: B's layout.
    pub major_b: Major,
    /// Element types. `wmma.load/store` use `a` for the fragment's element type.
    pub a: Elem,
    pub b: Elem,
    pub c: Elem,
    pub d: Elem,
    /// `.satfinite` of integer `mma`/`wmma.mma`: clamp the s32 result instead of wrapping.
    pub satfinite: bool,
    /// Fragment registers: `d_regs` written (loads, mma, ldmatrix), `c_regs` read (mma, and
    /// the fragment a `wmma.store` writes to memory).
    pub d_regs: Vec<RegId>,
    pub a_regs: Vec<RegId>,
    pub b_regs: Vec<RegId>,
    pub c_regs: Vec<RegId>,
    /// The opcode as written, for the messages that refuse it (timing mode).
    pub name: String,
}
