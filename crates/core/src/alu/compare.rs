//! `setp`/`set` comparisons, the predicate combining operators and `testp`.

use super::int::sext;
use super::round::{flush_in, to_f64, Fmt};
use crate::ir::{BoolOp, CmpOp, Ty};

/// `setp.CMP.ty` without `.ftz`: see [`compare_ftz`].
#[inline]
pub fn compare(cmp: CmpOp, ty: Ty, a: u64, b: u64) -> bool {
    compare_ftz(cmp, ty, false, a, b)
}

/// Compares a and b of type `ty`.
///
/// Integers: signed for s8..s64 (sign-extended from `ty.bits()`), unsigned otherwise (b/u
/// types); `Lo/Ls/Hi/Hs` are the unsigned spellings of `Lt/Le/Gt/Ge`; the float-only operators
/// map to their ordered forms (`Equ`→`Eq`…), `Num` is true and `Nan` false.
///
/// Floats (f16, bf16, f32, f64; packed types compare their low lane): the ordered operators
/// `Eq Ne Lt Le Gt Ge` are false when either operand is NaN, the unordered `Equ Neu Ltu Leu
/// Gtu Geu` true; `Num` = neither is NaN, `Nan` = either is NaN; −0 == +0. `Lo/Ls/Hi/Hs` act as
/// `Lt/Le/Gt/Ge`. With `ftz` (ignored for f64) subnormal operands compare as zeros.
pub fn compare_ftz(cmp: CmpOp, ty: Ty, ftz: bool, a: u64, b: u64) -> bool {
    use std::cmp::Ordering::*;
    if let Some(fmt) = Fmt::of(ty) {
        let ftz = ftz && fmt != Fmt::F64;
        let a = flush_in(fmt, a & fmt.mask(), ftz);
        let b = flush_in(fmt, b & fmt.mask(), ftz);
        let (x, y) = (to_f64(fmt, a), to_f64(fmt, b));
        let Some(ord) = x.partial_cmp(&y) else {
            return matches!(
                cmp,
                CmpOp::Equ
                    | CmpOp::Neu
                    | CmpOp::Ltu
                    | CmpOp::Leu
                    | CmpOp::Gtu
                    | CmpOp::Geu
                    | CmpOp::Nan
            );
        };
        return match cmp {
            CmpOp::Eq | CmpOp::Equ => ord == Equal,
            CmpOp::Ne | CmpOp::Neu => ord != Equal,
            CmpOp::Lt | CmpOp::Ltu | CmpOp::Lo => ord == Less,
            CmpOp::Le | CmpOp::Leu | CmpOp::Ls => ord != Greater,
            CmpOp::Gt | CmpOp::Gtu | CmpOp::Hi => ord == Greater,
            CmpOp::Ge | CmpOp::Geu | CmpOp::Hs => ord != Less,
            CmpOp::Num => true,
            CmpOp::Nan => false,
        };
    }
    let ord = if ty.is_signed() {
        sext(a, ty).cmp(&sext(b, ty))
    } else {
        (a & ty.mask()).cmp(&(b & ty.mask()))
    };
    match cmp {
        CmpOp::Eq | CmpOp::Equ => ord == Equal,
        CmpOp::Ne | CmpOp::Neu => ord != Equal,
        CmpOp::Lt | CmpOp::Ltu => ord == Less,
        CmpOp::Le | CmpOp::Leu => ord != Greater,
        CmpOp::Gt | CmpOp::Gtu => ord == Greater,
        CmpOp::Ge | CmpOp::Geu => ord != Less,
        CmpOp::Lo => (a & ty.mask()) < (b & ty.mask()),
        CmpOp::Ls => (a & ty.mask()) <= (b & ty.mask()),
        CmpOp::Hi => (a & ty.mask()) > (b & ty.mask()),
        CmpOp::Hs => (a & ty.mask()) >= (b & ty.mask()),
        CmpOp::Num => true,
        CmpOp::Nan => false,
    }
}

/// The `.and/.or/.xor` combining operator of `setp`/`set`/predicate logic.
#[inline]
pub fn bool_combine(op: BoolOp, a: bool, b: bool) -> bool {
    match op {
        BoolOp::And => a & b,
        BoolOp::Or => a | b,
        BoolOp::Xor => a ^ b,
    }
}

/// `testp.kind.ty` (kind as in `Mods::testp`): 0 finite, 1 infinite, 2 number, 3 notanumber,
/// 4 normal, 5 subnormal. Zero is finite but neither normal nor subnormal. Unknown kinds and
/// non-float types give false.
#[inline]
pub fn testp(kind: u8, ty: Ty, a: u64) -> bool {
    let Some(fmt) = Fmt::of(ty) else { return false };
    let a = a & fmt.mask();
    let nan = fmt.is_nan(a);
    let inf = fmt.is_inf(a);
    match kind {
        0 => !nan && !inf,
        1 => inf,
        2 => !nan,
        3 => nan,
        4 => !nan && !inf && !fmt.is_zero(a) && !fmt.is_subnormal(a),
        5 => fmt.is_subnormal(a),
        _ => false,
    }
}

/// The value `set.CMP.dtype` writes for a comparison result `p`: for integer (b/u/s) types all
/// ones (masked to the type) or 0; for float types 1.0 or +0.0 (f16x2/bf16x2: 1.0 in both
/// lanes). Other types (`Pred`) give 1 or 0.
#[inline]
pub fn set_value(ty: Ty, p: bool) -> u64 {
    if !p {
        return 0;
    }
    match ty {
        Ty::F16x2 | Ty::BF16x2 => {
            let one = Fmt::of(ty).map_or(0, |f| f.one());
            one | (one << 16)
        }
        Ty::Pred => 1,
        _ => match Fmt::of(ty) {
            Some(fmt) => fmt.one(),
            None => ty.mask(),
        },
    }
}
