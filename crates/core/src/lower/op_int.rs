//! Decoders of the integer ALU and bit instructions, and of the arithmetic opcodes that exist
//! in both integer and floating-point flavours (`add`, `mul`, `mad`, `div`, `abs`, `min`…),
//! which pick their `Op` from the type.

use super::opcode::{
    is_f32_f64, is_float, is_int, require, wide, Decoded, Suffixes, FLOAT_ROUNDING, K,
};
use crate::error::LoadError;
use crate::ir::{Mods, Op, Rounding, Ty};

type R = Result<Decoded, LoadError>;

/// `.lo` / `.hi` / `.wide` of multiplies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Half {
    Lo,
    Hi,
    Wide,
}
const HALF: &[(&str, Half)] = &[("lo", Half::Lo), ("hi", Half::Hi), ("wide", Half::Wide)];

/// Rounding, `.ftz` and `.sat` of a floating-point arithmetic instruction.
fn float_mods(s: &mut Suffixes) -> Mods {
    Mods {
        rounding: s.pick(FLOAT_ROUNDING).unwrap_or_default(),
        ftz: s.has("ftz"),
        sat: s.has("sat"),
        ..Mods::default()
    }
}

/// Rejects float-only modifiers on an integer instruction.
fn no_float_mods(s: &Suffixes, m: &Mods) -> Result<(), LoadError> {
    if m.rounding != Rounding::None || m.ftz {
        return Err(s.invalid("has a floating-point modifier on an integer type"));
    }
    Ok(())
}

/// `add`/`sub`: float incl. half types (rounding, ftz, sat) or integer (`.sat` on s32, `.cc` carry-out).
pub(super) fn add_sub(s: &mut Suffixes, is_sub: bool) -> R {
    let mut m = float_mods(s);
    m.cc = s.has("cc");
    let ty = s.one_type()?;
    s.done()?;
    if is_float(ty) && !m.cc {
        let op = if is_sub { Op::FSub } else { Op::FAdd };
        return Ok(Decoded::alu(op, ty, m, 2));
    }
    require(s, ty, is_int(ty))?;
    no_float_mods(s, &m)?;
    if m.sat && ty != Ty::S32 {
        return Err(s.invalid("allows .sat only on .s32"));
    }
    let op = if is_sub { Op::ISub } else { Op::IAdd };
    Ok(Decoded::alu(op, ty, m, 2))
}

/// `addc`/`subc[.cc]`: add/subtract with carry-in.
pub(super) fn carry(s: &mut Suffixes, op: Op) -> R {
    let m = Mods {
        cc: s.has("cc"),
        ..Mods::default()
    };
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, is_int(ty) && ty.bits() >= 32)?;
    Ok(Decoded::alu(op, ty, m, 2))
}

/// `mul`: float (half types included), or integer `.lo/.hi/.wide`.
pub(super) fn mul(s: &mut Suffixes) -> R {
    let half = s.pick(HALF);
    let m = float_mods(s);
    let ty = s.one_type()?;
    s.done()?;
    if is_float(ty) && half.is_none() {
        return Ok(Decoded::alu(Op::FMul, ty, m, 2));
    }
    require(s, ty, is_int(ty))?;
    no_float_mods(s, &m)?;
    if m.sat {
        return Err(s.invalid("does not take .sat"));
    }
    match half {
        Some(Half::Lo) => Ok(Decoded::alu(Op::IMulLo, ty, m, 2)),
        Some(Half::Hi) => Ok(Decoded::alu(Op::IMulHi, ty, m, 2)),
        Some(Half::Wide) => {
            let w = wide(ty).ok_or_else(|| s.unsupported())?;
            Ok(Decoded::alu(Op::IMulWide, ty, m, 2).with_dst(&[K::V(w)]))
        }
        None => Err(s.invalid("needs .lo, .hi or .wide")),
    }
}

/// `mad`: float (= fma), or integer `.lo[.cc]/.hi[.sat]/.wide`.
pub(super) fn mad(s: &mut Suffixes) -> R {
    let half = s.pick(HALF);
    let mut m = float_mods(s);
    m.cc = s.has("cc");
    let ty = s.one_type()?;
    s.done()?;
    if is_f32_f64(ty) && half.is_none() && !m.cc {
        return Ok(Decoded::alu(Op::FFma, ty, m, 3));
    }
    require(s, ty, is_int(ty))?;
    no_float_mods(s, &m)?;
    match half {
        Some(Half::Lo) if !m.sat => Ok(Decoded::alu(Op::IMadLo, ty, m, 3)),
        Some(Half::Hi) if !m.cc && (!m.sat || ty == Ty::S32) => {
            Ok(Decoded::alu(Op::IMadHi, ty, m, 3))
        }
        Some(Half::Wide) if !m.cc && !m.sat => {
            let w = wide(ty).ok_or_else(|| s.unsupported())?;
            Ok(Decoded::alu(Op::IMadWide, ty, m, 3)
                .with_dst(&[K::V(w)])
                .with_src(&[K::V(ty), K::V(ty), K::V(w)]))
        }
        None => Err(s.invalid("needs .lo, .hi or .wide")),
        _ => Err(s.unsupported()),
    }
}

/// `madc.lo/.hi[.cc]`: multiply-add with carry-in.
pub(super) fn madc(s: &mut Suffixes) -> R {
    let half = s.pick(HALF);
    let m = Mods {
        cc: s.has("cc"),
        hi: half == Some(Half::Hi),
        ..Mods::default()
    };
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, is_int(ty) && ty.bits() >= 32)?;
    match half {
        Some(Half::Lo | Half::Hi) => Ok(Decoded::alu(Op::IMadC, ty, m, 3)),
        _ => Err(s.invalid("needs .lo or .hi")),
    }
}

/// `mul24.lo/.hi` and `mad24.lo/.hi[.sat]` on u32/s32.
pub(super) fn mul24(s: &mut Suffixes, is_mad: bool) -> R {
    let half = s.pick(HALF);
    let m = Mods {
        hi: half == Some(Half::Hi),
        sat: is_mad && s.has("sat"),
        ..Mods::default()
    };
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, matches!(ty, Ty::U32 | Ty::S32))?;
    if !matches!(half, Some(Half::Lo | Half::Hi)) {
        return Err(s.invalid("needs .lo or .hi"));
    }
    Ok(if is_mad {
        Decoded::alu(Op::IMad24, ty, m, 3)
    } else {
        Decoded::alu(Op::IMul24, ty, m, 2)
    })
}

/// `div`: integer, or float `.rn…/.approx/.full[.ftz]` (`.full` is approximate too).
pub(super) fn div(s: &mut Suffixes) -> R {
    let mut m = float_mods(s);
    m.approx = s.has("approx") | s.has("full");
    let ty = s.one_type()?;
    s.done()?;
    if is_f32_f64(ty) {
        return Ok(Decoded::alu(Op::FDiv, ty, m, 2));
    }
    require(s, ty, is_int(ty))?;
    no_float_mods(s, &m)?;
    if m.approx || m.sat {
        return Err(s.invalid("has a floating-point modifier on an integer type"));
    }
    Ok(Decoded::alu(Op::IDiv, ty, m, 2))
}

/// A plain two-source integer instruction (`rem`).
pub(super) fn int_binary(s: &mut Suffixes, op: Op) -> R {
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, is_int(ty))?;
    Ok(Decoded::alu(op, ty, Mods::default(), 2))
}

/// `abs`/`neg`: integer, or float (half types included) with `.ftz`.
pub(super) fn abs_neg(s: &mut Suffixes, int_op: Op, float_op: Op) -> R {
    let m = Mods {
        ftz: s.has("ftz"),
        ..Mods::default()
    };
    let ty = s.one_type()?;
    s.done()?;
    if is_float(ty) {
        return Ok(Decoded::alu(float_op, ty, m, 1));
    }
    require(s, ty, is_int(ty) && !m.ftz)?;
    Ok(Decoded::alu(int_op, ty, m, 1))
}

/// `min`/`max`: integer, or float (half types included) with `.ftz`.
pub(super) fn min_max(s: &mut Suffixes, int_op: Op, float_op: Op) -> R {
    let m = Mods {
        ftz: s.has("ftz"),
        ..Mods::default()
    };
    let ty = s.one_type()?;
    s.done()?;
    if is_float(ty) {
        return Ok(Decoded::alu(float_op, ty, m, 2));
    }
    require(s, ty, is_int(ty) && !m.ftz)?;
    Ok(Decoded::alu(int_op, ty, m, 2))
}

/// `popc`/`clz.b32/.b64`: the result is a u32 count.
pub(super) fn count(s: &mut Suffixes, op: Op) -> R {
    let ty = bits_32_64(s)?;
    Ok(Decoded::alu(op, ty, Mods::default(), 1).with_dst(&[K::V(Ty::U32)]))
}

/// `brev.b32/.b64`.
pub(super) fn brev(s: &mut Suffixes) -> R {
    let ty = bits_32_64(s)?;
    Ok(Decoded::alu(Op::Brev, ty, Mods::default(), 1))
}

/// `bfind[.shiftamt].{u,s}{32,64}`: the result is a u32 bit position.
pub(super) fn bfind(s: &mut Suffixes) -> R {
    let m = Mods {
        shiftamt: s.has("shiftamt"),
        ..Mods::default()
    };
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, matches!(ty, Ty::U32 | Ty::S32 | Ty::U64 | Ty::S64))?;
    Ok(Decoded::alu(Op::Bfind, ty, m, 1).with_dst(&[K::V(Ty::U32)]))
}

/// `bfe.{u,s}{32,64} d, a, pos, len`.
pub(super) fn bfe(s: &mut Suffixes) -> R {
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, matches!(ty, Ty::U32 | Ty::S32 | Ty::U64 | Ty::S64))?;
    Ok(Decoded::alu(Op::Bfe, ty, Mods::default(), 3).with_src(&[
        K::V(ty),
        K::V(Ty::U32),
        K::V(Ty::U32),
    ]))
}

/// `bfi.b32/.b64 d, field, base, pos, len`.
pub(super) fn bfi(s: &mut Suffixes) -> R {
    let ty = bits_32_64(s)?;
    let src = [K::V(ty), K::V(ty), K::V(Ty::U32), K::V(Ty::U32)];
    Ok(Decoded::alu(Op::Bfi, ty, Mods::default(), 4).with_src(&src))
}

/// `prmt.b32[.mode] d, a, b, selector`.
pub(super) fn prmt(s: &mut Suffixes) -> R {
    const MODES: &[(&str, u8)] = &[
        ("f4e", 1),
        ("b4e", 2),
        ("rc8", 3),
        ("ecl", 4),
        ("ecr", 5),
        ("rc16", 6),
    ];
    let m = Mods {
        prmt_mode: s.pick(MODES).unwrap_or(0),
        ..Mods::default()
    };
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, ty == Ty::B32)?;
    Ok(Decoded::alu(Op::Prmt, ty, m, 3))
}

/// `sad.ty d, a, b, c`: |a − b| + c.
pub(super) fn sad(s: &mut Suffixes) -> R {
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, is_int(ty))?;
    Ok(Decoded::alu(Op::Sad, ty, Mods::default(), 3))
}

/// `and/or/xor/not` on integer bits or predicates.
pub(super) fn logic(s: &mut Suffixes, op: Op, n: usize) -> R {
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, is_int(ty) || ty == Ty::Pred)?;
    Ok(Decoded::alu(op, ty, Mods::default(), n))
}

/// `cnot.b16/32/64`: d = (a == 0).
pub(super) fn cnot(s: &mut Suffixes) -> R {
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, is_int(ty))?;
    Ok(Decoded::alu(Op::Cnot, ty, Mods::default(), 1))
}

/// `shl`/`shr d, a, amount`: the amount is a u32.
pub(super) fn shift(s: &mut Suffixes, op: Op) -> R {
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, is_int(ty))?;
    Ok(Decoded::alu(op, ty, Mods::default(), 2).with_src(&[K::V(ty), K::V(Ty::U32)]))
}

/// `shf.l/.r[.clamp/.wrap].b32 d, a, b, amount` (funnel shift; `mods.hi` means right).
pub(super) fn shf(s: &mut Suffixes) -> R {
    let dir = s.pick(&[("l", false), ("r", true)]);
    let clamp = s.pick(&[("clamp", true), ("wrap", false)]).unwrap_or(false);
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, is_int(ty) && ty.bits() >= 32)?;
    let right = dir.ok_or_else(|| s.invalid("needs .l or .r"))?;
    let m = Mods {
        hi: right,
        clamp,
        ..Mods::default()
    };
    Ok(Decoded::alu(Op::Shf, ty, m, 3).with_src(&[K::V(ty), K::V(ty), K::V(Ty::U32)]))
}

/// `bmsk.{clamp,wrap}.b32 d, a, b` (sm_70+; the mode is required).
pub(super) fn bmsk(s: &mut Suffixes) -> R {
    let clamp = s.pick(&[("clamp", true), ("wrap", false)]);
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, ty == Ty::B32)?;
    let clamp = clamp.ok_or_else(|| s.invalid("needs .clamp or .wrap"))?;
    let m = Mods {
        clamp,
        ..Mods::default()
    };
    Ok(Decoded::alu(Op::Bmsk, ty, m, 2).with_src(&[K::V(Ty::U32), K::V(Ty::U32)]))
}

/// A `.b32` or `.b64` type and nothing else.
fn bits_32_64(s: &mut Suffixes) -> Result<Ty, LoadError> {
    let ty = s.one_type()?;
    s.done()?;
    require(
        s,
        ty,
        matches!(
            ty,
            Ty::B32 | Ty::B64 | Ty::U32 | Ty::U64 | Ty::S32 | Ty::S64
        ),
    )
}
