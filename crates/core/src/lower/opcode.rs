//! Opcode and modifier decoding: `add.sat.s32` → `Op::IAdd`, `ty: S32`, `mods.sat`, plus the
//! operand roles the instruction expects.
//!
//! Decoding looks at the opcode and its modifiers only; operands are lowered afterwards from
//! the roles in [`Decoded`]. Each opcode's decoder consumes the modifiers it understands from
//! [`Suffixes`]; any modifier left over is reported as unsupported, naming it, so that a new
//! PTX feature fails loudly instead of being silently misread.

use ptx::ast::{Instruction, ScalarType};

use super::{op_cmp, op_float, op_int, op_mem, op_sync, op_tensor, op_tex};
use crate::error::LoadError;
use crate::ir::{Mods, Op, Opnd, Ty};

/// The role of one operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum K {
    /// A register or immediate of this type (a destination: a register or `_`). With
    /// `Ty::Pred`, a predicate register (`!`-negatable as a source) or `0`/`1`.
    V(Ty),
    /// ld/st data: a scalar when the count is 1, else a braced vector of that many registers.
    Data(Ty, u8),
    /// mov: a scalar, or a braced vector to pack from or unpack into.
    Movable(Ty),
    /// `[address]`.
    Mem,
    /// `d` or `d|p`: a value register with an optional predicate second destination.
    RegPred(Ty),
    /// `p` or `p|q`: setp's destinations.
    PredPair,
}

/// Instructions whose operands do not follow the plain `dst…, src…` pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Special {
    None,
    /// `bra target`.
    Bra,
    /// `brx.idx index, table`.
    BrxIdx,
    /// `call (rets), callee, (args)[, prototype]`.
    Call,
    /// `bar.red.op d, a{, b}, {!}c`: the optional operand sits in the middle.
    BarRed,
    /// `fence.proxy… [a], n`: operands accepted and ignored (ordering only).
    IgnoreOperands,
    /// `tex`/`tld4`/`suld`/`sust`: a `[handle, {coordinates}]` operand (`op_tex`).
    Tex,
    /// `wmma`/`mma`/`ldmatrix`: fragments of registers (`op_tensor`); the form is in
    /// `Decoded::tensor`.
    Tensor,
}

/// A decoded opcode and the operands it expects.
#[derive(Clone, Debug)]
pub(super) struct Decoded {
    pub op: Op,
    pub ty: Ty,
    pub ty2: Ty,
    pub mods: Mods,
    pub dst: Vec<K>,
    pub src: Vec<K>,
    /// How many trailing entries of `src` may be left out (bar.sync's thread count…).
    pub optional: usize,
    /// Sources the opcode implies: (slot, value), e.g. the full member mask of legacy `vote`.
    pub implied: Vec<(usize, Opnd)>,
    /// `.param` was written: whether that means the kernel parameter buffer or the frame is
    /// decided by what the address names.
    pub param_space: bool,
    /// Trailing operands accepted and dropped (the policy operand of `.L2::cache_hint`).
    pub dropped: usize,
    pub special: Special,
    /// A tensor-core instruction's form, its fragments still to bind.
    pub tensor: Option<Box<crate::ir::TensorInst>>,
}

impl Decoded {
    /// An instruction with no operands yet; `ty2` equals `ty`.
    pub fn new(op: Op, ty: Ty) -> Decoded {
        Decoded {
            op,
            ty,
            ty2: ty,
            mods: Mods::default(),
            dst: Vec::new(),
            src: Vec::new(),
            optional: 0,
            implied: Vec::new(),
            param_space: false,
            dropped: 0,
            special: Special::None,
            tensor: None,
        }
    }

    /// `op.ty d, a[, b…]`: one destination and `n` sources, all of type `ty`.
    pub fn alu(op: Op, ty: Ty, mods: Mods, n: usize) -> Decoded {
        Decoded {
            mods,
            dst: vec![K::V(ty)],
            src: vec![K::V(ty); n],
            ..Decoded::new(op, ty)
        }
    }

    pub fn with_dst(mut self, dst: &[K]) -> Decoded {
        self.dst = dst.to_vec();
        self
    }

    pub fn with_src(mut self, src: &[K]) -> Decoded {
        self.src = src.to_vec();
        self
    }

    pub fn with_mods(mut self, mods: Mods) -> Decoded {
        self.mods = mods;
        self
    }
}

/// The modifiers of one instruction, each consumed at most once by its decoder.
pub(super) struct Suffixes<'a> {
    words: &'a [String],
    used: Vec<bool>,
    /// The opcode as written, for messages: `ld.global.nc.v4.f32`.
    pub full: String,
    pub line: u32,
}

impl<'a> Suffixes<'a> {
    pub fn new(inst: &'a Instruction) -> Suffixes<'a> {
        let mut full = inst.opcode.clone();
        for m in &inst.modifiers {
            full.push('.');
            full.push_str(m);
        }
        Suffixes {
            words: &inst.modifiers,
            used: vec![false; inst.modifiers.len()],
            full,
            line: inst.span.line,
        }
    }

    /// Consumes `word` if it is present.
    pub fn has(&mut self, word: &str) -> bool {
        self.take(|w| w == word).is_some()
    }

    /// Consumes the first modifier found in `table` and returns its value.
    pub fn pick<T: Copy>(&mut self, table: &[(&str, T)]) -> Option<T> {
        let i = self.take(|w| table.iter().any(|(name, _)| *name == w))?;
        table
            .iter()
            .find(|(name, _)| *name == self.words[i])
            .map(|(_, v)| *v)
    }

    /// Consumes every modifier `accept` says yes to; returns how many there were.
    pub fn skip_all(&mut self, accept: impl Fn(&str) -> bool) -> usize {
        let mut n = 0;
        while self.take(&accept).is_some() {
            n += 1;
        }
        n
    }

    /// Consumes every type modifier, in order.
    pub fn types(&mut self) -> Vec<Ty> {
        let mut out = Vec::new();
        while let Some(i) = self.take(|w| ScalarType::from_suffix(w).is_some()) {
            out.push(Ty::from_ast(
                ScalarType::from_suffix(&self.words[i]).expect("checked"),
            ));
        }
        out
    }

    /// Exactly one type modifier.
    pub fn one_type(&mut self) -> Result<Ty, LoadError> {
        match self.types()[..] {
            [t] => Ok(t),
            [] => Err(self.invalid("is missing its type")),
            _ => Err(self.unsupported()),
        }
    }

    /// Exactly two type modifiers (destination, source), as cvt/set/slct have.
    pub fn two_types(&mut self) -> Result<(Ty, Ty), LoadError> {
        match self.types()[..] {
            [a, b] => Ok((a, b)),
            [] | [_] => Err(self.invalid("needs two types")),
            _ => Err(self.unsupported()),
        }
    }

    /// Fails on the first modifier no decoder consumed.
    pub fn done(&self) -> Result<(), LoadError> {
        match self.used.iter().position(|u| !u) {
            None => Ok(()),
            Some(i) => Err(LoadError::Unsupported {
                what: format!("modifier .{} in {}", self.words[i], self.full),
                line: self.line,
            }),
        }
    }

    /// The whole instruction is not something warpsim executes.
    pub fn unsupported(&self) -> LoadError {
        LoadError::Unsupported {
            what: self.full.clone(),
            line: self.line,
        }
    }

    /// The instruction is not valid PTX; `msg` completes "`opcode` …".
    pub fn invalid(&self, msg: &str) -> LoadError {
        LoadError::Invalid {
            message: format!("`{}` {msg}", self.full),
            line: self.line,
        }
    }

    fn take(&mut self, accept: impl Fn(&str) -> bool) -> Option<usize> {
        let i = (0..self.words.len()).find(|&i| !self.used[i] && accept(&self.words[i]))?;
        self.used[i] = true;
        Some(i)
    }
}

/// Decodes one instruction's opcode and modifiers.
pub(super) fn decode(opcode: &str, s: &mut Suffixes) -> Result<Decoded, LoadError> {
    use Op::*;
    match opcode {
        "add" => op_int::add_sub(s, false),
        "sub" => op_int::add_sub(s, true),
        "addc" => op_int::carry(s, IAddC),
        "subc" => op_int::carry(s, ISubC),
        "mul" => op_int::mul(s),
        "mad" => op_int::mad(s),
        "madc" => op_int::madc(s),
        "mul24" => op_int::mul24(s, false),
        "mad24" => op_int::mul24(s, true),
        "div" => op_int::div(s),
        "rem" => op_int::int_binary(s, IRem),
        "abs" => op_int::abs_neg(s, IAbs, FAbs),
        "neg" => op_int::abs_neg(s, INeg, FNeg),
        "min" => op_int::min_max(s, IMin, FMin),
        "max" => op_int::min_max(s, IMax, FMax),
        "popc" => op_int::count(s, Popc),
        "clz" => op_int::count(s, Clz),
        "brev" => op_int::brev(s),
        "bfind" => op_int::bfind(s),
        "bfe" => op_int::bfe(s),
        "bfi" => op_int::bfi(s),
        "prmt" => op_int::prmt(s),
        "sad" => op_int::sad(s),
        "and" => op_int::logic(s, And, 2),
        "or" => op_int::logic(s, Or, 2),
        "xor" => op_int::logic(s, Xor, 2),
        "not" => op_int::logic(s, Not, 1),
        "cnot" => op_int::cnot(s),
        "shl" => op_int::shift(s, Shl),
        "shr" => op_int::shift(s, Shr),
        "shf" => op_int::shf(s),
        "bmsk" => op_int::bmsk(s),
        "fma" => op_float::fma(s),
        "rcp" => op_float::rounded_unary(s, FRcp),
        "sqrt" => op_float::rounded_unary(s, FSqrt),
        "rsqrt" => op_float::approx_unary(s, FRsqrt),
        "ex2" => op_float::approx_unary(s, FEx2),
        "lg2" => op_float::approx_unary(s, FLg2),
        "sin" => op_float::approx_unary(s, FSin),
        "cos" => op_float::approx_unary(s, FCos),
        "tanh" => op_float::approx_unary(s, FTanh),
        "testp" => op_float::testp(s),
        "copysign" => op_float::copysign(s),
        "setp" => op_cmp::setp(s),
        "set" => op_cmp::set(s),
        "selp" => op_cmp::selp(s),
        "slct" => op_cmp::slct(s),
        "mov" => op_cmp::mov(s),
        "cvt" => op_cmp::cvt(s),
        "ld" => op_mem::ld(s),
        "st" => op_mem::st(s),
        "atom" => op_mem::atom(s, Atom),
        "red" => op_mem::atom(s, Red),
        "cvta" => op_mem::cvta(s),
        "prefetch" | "prefetchu" => op_mem::prefetch(s),
        "discard" => op_mem::discard(s),
        "cp" => op_mem::cp(s),
        "mbarrier" => op_mem::mbarrier(s),
        "bra" => op_sync::bra(s),
        "brx" => op_sync::brx(s),
        "call" => op_sync::call(s),
        "ret" => op_sync::simple(s, Ret, &["uni"]),
        "exit" => op_sync::simple(s, Exit, &[]),
        "trap" => op_sync::simple(s, Trap, &[]),
        "bar" | "barrier" => op_sync::bar(s),
        "membar" => op_sync::membar(s),
        "fence" => op_sync::fence(s),
        "nanosleep" => op_sync::nanosleep(s),
        "griddepcontrol" => op_sync::griddepcontrol(s),
        "shfl" => op_sync::shfl(s),
        "vote" => op_sync::vote(s),
        "activemask" => op_sync::activemask(s),
        "match" => op_sync::match_(s),
        "redux" => op_sync::redux(s),
        "tex" => op_tex::tex(s, false),
        "tld4" => op_tex::tex(s, true),
        "suld" => op_tex::surface(s, false),
        "sust" => op_tex::surface(s, true),
        "wmma" => op_tensor::wmma(s),
        "mma" => op_tensor::mma(s),
        "ldmatrix" => op_tensor::ldmatrix(s),
        _ => Err(s.unsupported()),
    }
}

// ---- type classes shared by the decoders ----

/// 16/32/64-bit integer types (`b`, `u` and `s`): the ALU's integer operand types.
pub(super) fn is_int(t: Ty) -> bool {
    use Ty::*;
    matches!(t, B16 | B32 | B64 | U16 | U32 | U64 | S16 | S32 | S64)
}

/// The full-precision floating-point types (every float instruction takes these).
pub(super) fn is_f32_f64(t: Ty) -> bool {
    matches!(t, Ty::F32 | Ty::F64)
}

/// Every floating-point type: f32/f64 plus the half types (`.f16`, `.bf16` and their packed
/// `x2` forms), which add/sub/mul/fma/min/max/abs/neg also accept.
pub(super) fn is_float(t: Ty) -> bool {
    t.is_float()
}

/// The unsigned type twice as wide (`mul.wide` results).
pub(super) fn wide(t: Ty) -> Option<Ty> {
    use Ty::*;
    Some(match t {
        U16 | B16 => U32,
        S16 => S32,
        U32 | B32 => U64,
        S32 => S64,
        _ => return None,
    })
}

/// `.rn/.rz/.rm/.rp` of floating-point results.
pub(super) const FLOAT_ROUNDING: &[(&str, crate::ir::Rounding)] = {
    use crate::ir::Rounding::*;
    &[("rn", Rn), ("rz", Rz), ("rm", Rm), ("rp", Rp)]
};

/// Checks a decoder's type and returns it, or reports the whole opcode as unsupported.
pub(super) fn require(s: &Suffixes, ty: Ty, ok: bool) -> Result<Ty, LoadError> {
    if ok {
        Ok(ty)
    } else {
        Err(s.unsupported())
    }
}
