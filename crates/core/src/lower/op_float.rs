//! Decoders of the floating-point-only instructions: fma, rcp/sqrt, the `.approx` special
//! functions, testp and copysign. (add/sub/mul/mad/div/abs/neg/min/max are shared with the
//! integer ALU in `op_int`.)

use super::opcode::{is_f32_f64, is_float, require, Decoded, Suffixes, FLOAT_ROUNDING, K};
use crate::error::LoadError;
use crate::ir::{Mods, Op, Ty};

type R = Result<Decoded, LoadError>;

/// `fma.rnd[.ftz][.sat].ty`, f32/f64 and the half types.
pub(super) fn fma(s: &mut Suffixes) -> R {
    let m = Mods {
        rounding: s.pick(FLOAT_ROUNDING).unwrap_or_default(),
        ftz: s.has("ftz"),
        sat: s.has("sat"),
        ..Mods::default()
    };
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, is_float(ty))?;
    Ok(Decoded::alu(Op::FFma, ty, m, 3))
}

/// `rcp`/`sqrt`: IEEE-rounded (`.rn…`) or `.approx`, optionally `.ftz`.
pub(super) fn rounded_unary(s: &mut Suffixes, op: Op) -> R {
    let m = Mods {
        rounding: s.pick(FLOAT_ROUNDING).unwrap_or_default(),
        approx: s.has("approx"),
        ftz: s.has("ftz"),
        ..Mods::default()
    };
    let ty = float_type(s)?;
    Ok(Decoded::alu(op, ty, m, 1))
}

/// `rsqrt/ex2/lg2/sin/cos/tanh.approx[.ftz]`: approximate by definition.
pub(super) fn approx_unary(s: &mut Suffixes, op: Op) -> R {
    let approx = s.has("approx");
    let m = Mods {
        approx: true,
        ftz: s.has("ftz"),
        ..Mods::default()
    };
    let ty = float_type(s)?;
    if !approx {
        return Err(s.invalid("needs .approx"));
    }
    Ok(Decoded::alu(op, ty, m, 1))
}

/// `testp.kind.ty p, a`.
pub(super) fn testp(s: &mut Suffixes) -> R {
    const KINDS: &[(&str, u8)] = &[
        ("finite", 0),
        ("infinite", 1),
        ("number", 2),
        ("notanumber", 3),
        ("normal", 4),
        ("subnormal", 5),
    ];
    let kind = s.pick(KINDS);
    let ty = float_type(s)?;
    let kind = kind.ok_or_else(|| s.invalid("needs a test such as .finite"))?;
    let m = Mods {
        testp: kind,
        ..Mods::default()
    };
    Ok(Decoded::alu(Op::Testp, ty, m, 1).with_dst(&[K::V(Ty::Pred)]))
}

/// `copysign.ty d, a, b`: `b` with the sign of `a`.
pub(super) fn copysign(s: &mut Suffixes) -> R {
    let ty = float_type(s)?;
    Ok(Decoded::alu(Op::Copysign, ty, Mods::default(), 2))
}

/// The last step of every decoder here: one `.f32`/`.f64` type, no leftover modifiers.
fn float_type(s: &mut Suffixes) -> Result<Ty, LoadError> {
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, is_f32_f64(ty))
}
