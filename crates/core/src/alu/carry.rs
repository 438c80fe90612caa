//! Extended-precision arithmetic with the condition-code carry flag CC.CF.
//!
//! The flag is modelled the way NVIDIA hardware implements it: one carry bit that every `.cc`
//! instruction writes with the carry-out of an n-bit unsigned addition.
//!
//! * `add.cc`: a + b → CF = carry-out. `addc[.cc]`: a + b + CF.
//! * `sub.cc`: computed as a + ~b + 1 → CF = carry-out of that addition, i.e. CF = 1 when there
//!   was **no** borrow (a ≥ b unsigned). `subc[.cc]`: a + ~b + CF = a − b − (1 − CF).
//!   The manual writes subc as `d = a − (b + CC.CF)` with CF read as a borrow; for chains of
//!   sub.cc/subc/subc.cc both readings give identical results, and the carry reading is the
//!   one that also matches hardware when add and sub carries are mixed (e.g. `sub.cc` then
//!   `addc x, 0, 0` gives x = 1 exactly when no borrow occurred).
//! * `mad.lo.cc` / `mad.hi.cc`: (a·b).lo/.hi + c → CF = carry-out of that addition.
//!   `madc.lo/.hi[.cc]`: (a·b).lo/.hi + c + CF. The .hi half is the signed or unsigned high
//!   half by type; the addition and its carry are always unsigned n-bit.

use super::int::{self, low_mask, width};
use crate::ir::{Mods, Op, Ty};

/// n-bit sum x + y + cin: (result, carry-out).
#[inline]
fn add_carry(w: u32, x: u64, y: u64, cin: bool) -> (u64, bool) {
    let m = low_mask(w);
    let s = (x & m) as u128 + (y & m) as u128 + cin as u128;
    ((s as u64) & m, (s >> w) != 0)
}

/// Executes a carry-chain instruction: `IAdd`/`ISub` (with `mods.cc`: `add.cc`, `sub.cc`),
/// `IAddC` (`addc`), `ISubC` (`subc`), `IMadLo`/`IMadHi` (with `mods.cc`: `mad.lo.cc`,
/// `mad.hi.cc`), `IMadC` (`madc.lo`, `madc.hi` with `mods.hi`) on u32/s32/u64/s64 (any width
/// up to 64 works). `c` is the addend of the mad forms (ignored otherwise), `carry_in` is CC.CF.
///
/// Returns (result, CC.CF after the instruction): the instruction's carry-out when `mods.cc`
/// is set, else `carry_in` unchanged. Any other op (and `IAdd ISub IMadLo IMadHi` without
/// `mods.cc`, e.g. `add.sat`) is executed by [`int::int_op`] and leaves the flag unchanged.
#[inline]
pub fn carry_op(
    op: Op,
    ty: Ty,
    mods: &Mods,
    a: u64,
    b: u64,
    c: u64,
    carry_in: bool,
) -> (u64, bool) {
    if !mods.cc && matches!(op, Op::IAdd | Op::ISub | Op::IMadLo | Op::IMadHi) {
        return (int::int_op(op, ty, mods, [a, b, c, 0]), carry_in);
    }
    let w = width(ty);
    let m = low_mask(w);
    let (r, cout) = match op {
        Op::IAdd => add_carry(w, a, b, false),
        Op::IAddC => add_carry(w, a, b, carry_in),
        Op::ISub => add_carry(w, a, !b & m, true),
        Op::ISubC => add_carry(w, a, !b & m, carry_in),
        Op::IMadLo => add_carry(w, int::mul_lo(ty, a, b), c, false),
        Op::IMadHi => add_carry(w, int::mul_hi(ty, a, b), c, false),
        Op::IMadC => {
            let p = if mods.hi {
                int::mul_hi(ty, a, b)
            } else {
                int::mul_lo(ty, a, b)
            };
            add_carry(w, p, c, carry_in)
        }
        _ => return (int::int_op(op, ty, mods, [a, b, c, 0]), carry_in),
    };
    (r, if mods.cc { cout } else { carry_in })
}
