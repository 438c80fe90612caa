//! Decoders of comparison, selection and data movement: setp, set, selp, slct, mov, cvt.

use super::opcode::{is_f32_f64, is_int, require, Decoded, Suffixes, K};
use crate::error::LoadError;
use crate::ir::{BoolOp, CmpOp, Mods, Op, Rounding, Ty};

type R = Result<Decoded, LoadError>;

const CMP: &[(&str, CmpOp)] = {
    use CmpOp::*;
    &[
        ("eq", Eq),
        ("ne", Ne),
        ("lt", Lt),
        ("le", Le),
        ("gt", Gt),
        ("ge", Ge),
        ("lo", Lo),
        ("ls", Ls),
        ("hi", Hi),
        ("hs", Hs),
        ("equ", Equ),
        ("neu", Neu),
        ("ltu", Ltu),
        ("leu", Leu),
        ("gtu", Gtu),
        ("geu", Geu),
        ("num", Num),
        ("nan", Nan),
    ]
};

const BOOL: &[(&str, BoolOp)] = &[
    ("and", BoolOp::And),
    ("or", BoolOp::Or),
    ("xor", BoolOp::Xor),
];

/// Every rounding `cvt` accepts: float results and round-to-integer.
const CVT_ROUNDING: &[(&str, Rounding)] = {
    use Rounding::*;
    &[
        ("rn", Rn),
        ("rz", Rz),
        ("rm", Rm),
        ("rp", Rp),
        ("rni", Rni),
        ("rzi", Rzi),
        ("rmi", Rmi),
        ("rpi", Rpi),
    ]
};

/// The comparison, the optional combining operator and `.ftz` of setp/set.
fn compare_mods(s: &mut Suffixes) -> Result<Mods, LoadError> {
    let cmp = s.pick(CMP);
    let boolop = s.pick(BOOL);
    let ftz = s.has("ftz");
    let cmp = cmp.ok_or_else(|| s.invalid("needs a comparison such as .lt"))?;
    Ok(Mods {
        cmp,
        boolop,
        ftz,
        ..Mods::default()
    })
}

/// Whether `ty` can be compared: integers and f32/f64.
fn comparable(ty: Ty) -> bool {
    is_int(ty) || is_f32_f64(ty)
}

/// `setp.cmp[.bool][.ftz].ty p[|q], a, b[, {!}c]`.
pub(super) fn setp(s: &mut Suffixes) -> R {
    let m = compare_mods(s)?;
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, comparable(ty))?;
    let mut src = vec![K::V(ty), K::V(ty)];
    if m.boolop.is_some() {
        src.push(K::V(Ty::Pred));
    }
    Ok(Decoded::new(Op::Setp, ty)
        .with_mods(m)
        .with_dst(&[K::PredPair])
        .with_src(&src))
}

/// `set.cmp[.bool][.ftz].dtype.stype d, a, b[, {!}c]`: `ty` is the result type, `ty2` the
/// compared one.
pub(super) fn set(s: &mut Suffixes) -> R {
    let m = compare_mods(s)?;
    let (dty, sty) = s.two_types()?;
    s.done()?;
    require(
        s,
        dty,
        matches!(dty, Ty::U32 | Ty::S32 | Ty::F32) && comparable(sty),
    )?;
    let mut src = vec![K::V(sty), K::V(sty)];
    if m.boolop.is_some() {
        src.push(K::V(Ty::Pred));
    }
    let d = Decoded {
        ty2: sty,
        ..Decoded::new(Op::Set, dty)
    };
    Ok(d.with_mods(m).with_dst(&[K::V(dty)]).with_src(&src))
}

/// `selp.ty d, a, b, c`: c ? a : b.
pub(super) fn selp(s: &mut Suffixes) -> R {
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, comparable(ty))?;
    Ok(Decoded::alu(Op::Selp, ty, Mods::default(), 3).with_src(&[
        K::V(ty),
        K::V(ty),
        K::V(Ty::Pred),
    ]))
}

/// `slct[.ftz].dtype.ctype d, a, b, c`: c >= 0 ? a : b, with c an s32 or f32.
pub(super) fn slct(s: &mut Suffixes) -> R {
    let m = Mods {
        ftz: s.has("ftz"),
        ..Mods::default()
    };
    let (dty, cty) = s.two_types()?;
    s.done()?;
    require(s, dty, comparable(dty) && matches!(cty, Ty::S32 | Ty::F32))?;
    let d = Decoded {
        ty2: cty,
        ..Decoded::alu(Op::Slct, dty, m, 3)
    };
    Ok(d.with_src(&[K::V(dty), K::V(dty), K::V(cty)]))
}

/// `mov.ty d, a`: a copy, a symbol's address, a special register, or a vector pack/unpack.
pub(super) fn mov(s: &mut Suffixes) -> R {
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, ty != Ty::B128)?;
    Ok(Decoded::new(Op::Mov, ty)
        .with_dst(&[K::Movable(ty)])
        .with_src(&[K::Movable(ty)]))
}

/// `cvt[.rnd][.ftz][.sat].dtype.atype d, a`; also `cvt.rn.f16x2.f32 d, a, b` (pack two).
pub(super) fn cvt(s: &mut Suffixes) -> R {
    let m = Mods {
        rounding: s.pick(CVT_ROUNDING).unwrap_or_default(),
        ftz: s.has("ftz"),
        sat: s.has("sat"),
        ..Mods::default()
    };
    let (dty, aty) = s.two_types()?;
    s.done()?;
    let packed = matches!(dty, Ty::F16x2 | Ty::BF16x2) && aty == Ty::F32;
    require(s, dty, packed || (convertible(dty) && convertible(aty)))?;
    let src: &[K] = if packed {
        &[K::V(aty), K::V(aty)]
    } else {
        &[K::V(aty)]
    };
    let d = Decoded {
        ty2: aty,
        ..Decoded::new(Op::Cvt, dty)
    };
    Ok(d.with_mods(m).with_dst(&[K::V(dty)]).with_src(src))
}

/// Scalar types `cvt` converts between: integers of every width and f16/bf16/f32/f64.
fn convertible(t: Ty) -> bool {
    use Ty::*;
    matches!(
        t,
        B8 | B16 | B32 | B64 | U8 | U16 | U32 | U64 | S8 | S16 | S32 | S64 | F16 | BF16 | F32 | F64
    )
}
