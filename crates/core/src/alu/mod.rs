//! Per-lane arithmetic semantics of PTX, as the PTX ISA manual defines them.
//!
//! Every function here is pure, allocation-free and never panics, whatever its inputs. The
//! executor calls them once per active lane.
//!
//! # Value convention
//!
//! Values are raw bits in a `u64`. An operand of type `ty` is the low `ty.bits()` bits (higher
//! bits are ignored; signed types are sign-extended internally). Results are zero-extended to
//! 64 bits — an s32 result −1 is `0x0000_0000_FFFF_FFFF` — with these exceptions:
//! `mul.wide`/`mad.wide` return the double-width result; `cvt` to s8/s16 returns the value
//! sign-extended to 64 bits (see [`cvt()`]). f16/bf16 values are 16 bits, f32 32 bits, f64 64
//! bits; f16x2/bf16x2 are two 16-bit lanes (lane 0 in bits 15..0). Predicates are `bool`.
//!
//! # Op → function
//!
//! | `Op` | function | notes (mods used) |
//! |---|---|---|
//! | `IAdd ISub` | [`int_binary`] | `sat` (signed: clamp). With `cc`: [`carry_op`] |
//! | `IAddC ISubC` | [`carry_op`] | carry-in/out CC.CF; `cc` writes CF |
//! | `IMulLo IMulHi IMulWide` | [`int_binary`] | wide: `ty` = source type, 2n-bit result |
//! | `IMul24` | [`int_binary`] | `hi`: bits 47..16, else 31..0 of the 48-bit product |
//! | `IDiv IRem IMin IMax` | [`int_binary`] | x/0 = all ones, x%0 = x, MIN/−1 = MIN |
//! | `And Or Xor Shl Shr` | [`int_binary`] | shift amount = low 32 bits of b, ≥ width clamps |
//! | `Bmsk` | [`int_binary`] | `clamp` (else `.wrap`); b32 only |
//! | `IAbs INeg Not Cnot Popc Clz Brev Bfind` | [`int_unary`] | `shiftamt` (bfind) |
//! | `IMadLo IMadHi IMadWide IMad24 Sad Bfe Prmt Shf` | [`int_ternary`] | `sat` (mad.hi/mad24.hi s32), `hi`, `prmt_mode`, `hi`=shf.r + `clamp` |
//! | `IMadLo IMadHi` with `cc`, `IMadC` | [`carry_op`] | `hi` selects madc.hi |
//! | `Bfi` | [`int_op`] (4 sources) or [`bits::bfi`] | |
//! | any integer op | [`int_op`]`(op, ty, mods, [a, b, c, d])` | routes to the above |
//! | `FAdd FSub FMul FDiv FMin FMax Copysign` | [`float_binary`] | `rounding` (None = rn), `ftz`, `sat`, `approx` (div) |
//! | `FFma` | [`float_fma`] | `rounding`, `ftz`, `sat` |
//! | `FAbs FNeg FRcp FSqrt FRsqrt FEx2 FLg2 FSin FCos FTanh` | [`float_unary`] | `approx`, `rounding`, `ftz` |
//! | any float op | [`float_op`]`(op, ty, mods, [a, b, c])` | routes to the above |
//! | `Testp` | [`testp`]`(mods.testp, ty, a)` | → bool |
//! | `Setp` / `Set` (the comparison) | [`compare_ftz`]`(mods.cmp, ty2/ty, mods.ftz, a, b)` | → bool; combine with [`bool_combine`] |
//! | `Set` (the written value) | [`set_value`]`(ty, p)` | all ones (ints) / 1.0 (floats) / 0 |
//! | `Cvt` | [`cvt()`]`(ty, ty2, mods.rounding, mods.ftz, mods.sat, a)` | |
//! | `Slct` | `if `[`compare_ftz`]`(CmpOp::Ge, ty2, mods.ftz, c, 0) { a } else { b }` | −0 ≥ 0; NaN → b |
//!
//! Float ops take f16, bf16, f32, f64 and (lane by lane) f16x2/bf16x2. [`carry_op`] returns
//! `(result, CF after)`: the carry-out when `mods.cc` is set, else the incoming CF unchanged.
//! `cvt`: float → int always saturates (NaN → 0) and defaults to `.rzi` without a modifier;
//! int → float and narrowing float → float default to `.rn`. Unknown op/type combinations
//! return 0 rather than panic.
//!
//! # Semantic choices (where the manual says "unspecified" or is silent)
//!
//! * Integer division by zero: all ones (unsigned max, signed −1); remainder by zero: the
//!   dividend. Signed MIN / −1 = MIN, MIN % −1 = 0 (two's complement wrap). abs(MIN) = MIN.
//! * Carry flag: hardware carry semantics; for subtraction CF = 1 means "no borrow"
//!   (see [`carry`]).
//! * NaN results: f32, f16 and bf16 results are always the canonical NaN (0x7FFFFFFF, 0x7FFF);
//!   f64 results propagate the first NaN operand's payload (quieted) and invalid operations
//!   produce 0xFFF8_0000_0000_0000 (CUDA's `CUDART_NAN`). `abs`, `neg`, `copysign` are sign-bit
//!   operations and keep a NaN's payload.
//! * `min`/`max`: one NaN operand → the other operand; both NaN → default NaN; −0 < +0.
//! * `.ftz` (f32 and f16; ignored for f64): subnormal inputs and subnormal results (judged after
//!   rounding) become zero of the same sign. `.sat`: clamp to [+0, 1]; NaN and −0 → +0.
//! * Directed rounding (`.rz .rm .rp`) is exact for add, sub, mul, fma, div, rcp, sqrt and
//!   cvt: results come from exact 128-bit integer arithmetic on the significands (see
//!   [`fcore`]); round-to-nearest f32/f64 uses the host's IEEE arithmetic (same bits).
//! * `.approx` functions are evaluated in f64 and rounded (see [`approx`]); `div.approx.f32` is
//!   a·(1/b) in f32 with the manual's 2^126 < |b| < 2^128 → 0 rule. `Mods` cannot tell
//!   `div.full` from `div.approx`; both take the approx path ([`approx::div_full`] exists
//!   for when it can).
//!
//! # Not covered
//!
//! `min/max` `.NaN`, `.xorsign.abs` and `.relu`; packed integer types (`u16x2`, `s16x2`);
//! `cvt` packed/fp8/fp6/fp4/tf32 forms, `.rna`, `.rs`, `.relu`, `.satfinite`; sm_1x `mad.f32`
//! (truncating mul then add). Ptxas's contraction of a separate `mul.f32` + `add.f32` into one
//! FFMA (which hardware results reflect) is not modelled: the ALU executes what the PTX says.

pub mod approx;
pub mod bits;
pub mod carry;
pub mod compare;
pub mod cvt;
pub mod fcore;
pub mod float;
pub mod int;
pub mod round;

pub use carry::carry_op;
pub use compare::{bool_combine, compare, compare_ftz, set_value, testp};
pub use cvt::cvt;
pub use float::{float_binary, float_fma, float_op, float_unary};
pub use int::{int_binary, int_op, int_ternary, int_unary, sext, sext_bits, zext};
pub use round::{Fmt, RMode};
