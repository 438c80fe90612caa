//! Whole-warp lane loops: one op, chosen before the loop, over all 32 lanes. Inactive lanes
//! compute too (every function here is pure and total; callers write only the executing
//! lanes), so the loops have no mask test and vectorise. Per-lane semantics come from
//! [`crate::alu`]; each loop is checked against the per-lane function in the tests below.

use super::operands::Lanes;
use super::warp::WARP_SIZE;
use crate::alu;
use crate::ir::{CmpOp, Mods, Op, Ty};

/// A source of a lane loop: a register's 32 lanes, or one value every lane reads (an
/// immediate), which keeps the loop free of a 32-lane fill and lets LLVM hoist what depends
/// only on it (`shl` by a constant: the range test on the shift amount).
pub trait Source: Copy {
    fn lane(self, l: usize) -> u64;
    /// The value of every lane, when it is one value.
    fn uniform(self) -> Option<u64>;
}

impl Source for &Lanes {
    #[inline(always)]
    fn lane(self, l: usize) -> u64 {
        self[l]
    }
    #[inline(always)]
    fn uniform(self) -> Option<u64> {
        None
    }
}

/// The same value in every lane.
#[derive(Clone, Copy, Debug)]
pub struct Uniform(pub u64);

impl Source for Uniform {
    #[inline(always)]
    fn lane(self, _: usize) -> u64 {
        self.0
    }
    #[inline(always)]
    fn uniform(self) -> Option<u64> {
        Some(self.0)
    }
}

#[inline(always)]
pub fn map1(a: &Lanes, d: &mut Lanes, f: impl Fn(u64) -> u64) {
    for l in 0..WARP_SIZE {
        d[l] = f(a[l]);
    }
}

#[inline(always)]
fn map2(a: &Lanes, b: impl Source, d: &mut Lanes, f: impl Fn(u64, u64) -> u64) {
    for l in 0..WARP_SIZE {
        d[l] = f(a[l], b.lane(l));
    }
}

#[inline(always)]
fn map3(a: &Lanes, b: impl Source, c: &Lanes, d: &mut Lanes, f: impl Fn(u64, u64, u64) -> u64) {
    for l in 0..WARP_SIZE {
        d[l] = f(a[l], b.lane(l), c[l]);
    }
}

/// An [`alu::float::F32Fast`] operation over all 32 lanes.
pub fn f32_lanes(op: alu::float::F32Fast, a: &Lanes, b: impl Source, c: &Lanes, d: &mut Lanes) {
    use alu::float::{f32_add, f32_mul, f32_sub, F32Fast};
    match op {
        F32Fast::Add => map2(a, b, d, f32_add),
        F32Fast::Sub => map2(a, b, d, f32_sub),
        F32Fast::Mul => map2(a, b, d, f32_mul),
        F32Fast::Fma => fma_lanes(a, b, c, d),
    }
}

/// `fma.rn.f32` over a warp. Without the CPU feature in the build, Rust's `mul_add` is a call
/// to the C library's `fmaf` per lane; where the CPU has FMA and AVX2 (checked once at run
/// time) the same loop is compiled with them, so four lanes are a few vector instructions
/// (AVX2 narrows the 64-bit lanes to f32 and back). Same bits either way.
fn fma_lanes(a: &Lanes, b: impl Source, c: &Lanes, d: &mut Lanes) {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "fma,avx2")]
        unsafe fn with_fma(a: &Lanes, b: impl Source, c: &Lanes, d: &mut Lanes) {
            map3(a, b, c, d, alu::float::f32_fma)
        }
        if std::arch::is_x86_feature_detected!("fma") && std::arch::is_x86_feature_detected!("avx2")
        {
            // SAFETY: the CPU supports FMA and AVX2 (checked just above).
            return unsafe { with_fma(a, b, c, d) };
        }
    }
    map3(a, b, c, d, alu::float::f32_fma)
}

/// [`alu::cvt`] over all 32 lanes. The integer widenings and narrowings without `.sat` that
/// index arithmetic is full of (`cvt.s64.s32`…) have the two types fixed per loop, so the
/// conversion folds to a shift or a mask; the rest take the general function per lane.
pub fn cvt_lanes(ty: Ty, ty2: Ty, mods: &Mods, a: &Lanes, d: &mut Lanes) {
    use alu::cvt::int_to_int;
    macro_rules! ints {
        ($($to:ident <- $from:ident),*) => {
            match (ty, ty2, mods.sat) {
                $((Ty::$to, Ty::$from, false) => map1(a, d, |x| int_to_int(Ty::$to, Ty::$from, false, x)),)*
                _ => map1(a, d, |x| alu::cvt(ty, ty2, mods.rounding, mods.ftz, mods.sat, x)),
            }
        };
    }
    ints!(S64 <- S32, U64 <- U32, S64 <- U32, U64 <- S32, S32 <- S64, U32 <- U64, U32 <- S64, S32 <- U64)
}

/// `alu::compare_ftz` over all 32 lanes as a lane mask, with the comparison and the common
/// types fixed per loop (each arm its own loop over the same function, so the per-lane
/// matches fold away); other types take the general loop.
pub fn compare_lanes(cmp: CmpOp, ty: Ty, ftz: bool, a: &Lanes, b: impl Source) -> u32 {
    // Plain x86-64 has no 64-bit vector comparison, so the loops stay scalar there; where
    // the CPU has AVX2 (checked once at run time) the same loops are compiled with it.
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2")]
        unsafe fn with_avx2(cmp: CmpOp, ty: Ty, ftz: bool, a: &Lanes, b: impl Source) -> u32 {
            compare_lanes_of(cmp, ty, ftz, a, b)
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above).
            return unsafe { with_avx2(cmp, ty, ftz, a, b) };
        }
    }
    compare_lanes_of(cmp, ty, ftz, a, b)
}

#[inline(always)]
fn compare_lanes_of(cmp: CmpOp, ty: Ty, ftz: bool, a: &Lanes, b: impl Source) -> u32 {
    #[inline(always)]
    fn lanes_with(a: &Lanes, b: impl Source, f: impl Fn(u64, u64) -> bool) -> u32 {
        let mut r = 0u32;
        // The lane is also the result's bit position, so an index loop reads plainest.
        #[allow(clippy::needless_range_loop)]
        for l in 0..WARP_SIZE {
            r |= (f(a[l], b.lane(l)) as u32) << l;
        }
        r
    }
    macro_rules! by_type {
        ($cmp:expr) => {
            match ty {
                Ty::S32 => lanes_with(a, b, |x, y| alu::compare_ftz($cmp, Ty::S32, false, x, y)),
                Ty::U32 => lanes_with(a, b, |x, y| alu::compare_ftz($cmp, Ty::U32, false, x, y)),
                Ty::S64 => lanes_with(a, b, |x, y| alu::compare_ftz($cmp, Ty::S64, false, x, y)),
                Ty::U64 => lanes_with(a, b, |x, y| alu::compare_ftz($cmp, Ty::U64, false, x, y)),
                Ty::F32 if !ftz => {
                    lanes_with(a, b, |x, y| alu::compare_ftz($cmp, Ty::F32, false, x, y))
                }
                _ => lanes_with(a, b, |x, y| alu::compare_ftz($cmp, ty, ftz, x, y)),
            }
        };
    }
    match cmp {
        CmpOp::Eq => by_type!(CmpOp::Eq),
        CmpOp::Ne => by_type!(CmpOp::Ne),
        CmpOp::Lt => by_type!(CmpOp::Lt),
        CmpOp::Le => by_type!(CmpOp::Le),
        CmpOp::Gt => by_type!(CmpOp::Gt),
        CmpOp::Ge => by_type!(CmpOp::Ge),
        _ => lanes_with(a, b, |x, y| alu::compare_ftz(cmp, ty, ftz, x, y)),
    }
}

/// The integer ops with a whole-warp loop, each the [`alu::int`] / [`alu::bits`] function
/// [`alu::int_op`] routes its op to (a test checks the two agree), with the modifiers that
/// select a function fixed in the variant: chosen once per instruction (at load time, see
/// `exec::decoded`), not per lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntLoop {
    Add,
    AddSat,
    Sub,
    SubSat,
    MulLo,
    MulHi,
    MulWide,
    Min,
    Max,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    MadLo,
    MadWide,
    Bfe,
    Prmt(u8),
    Shf { hi: bool, clamp: bool },
}

impl IntLoop {
    /// The loop for `op` with `mods`, or `None` for an op left to the per-lane path. Carry
    /// forms (`.cc`) are the caller's to exclude.
    pub fn of(op: Op, mods: &Mods) -> Option<IntLoop> {
        Some(match op {
            Op::IAdd if mods.sat => IntLoop::AddSat,
            Op::IAdd => IntLoop::Add,
            Op::ISub if mods.sat => IntLoop::SubSat,
            Op::ISub => IntLoop::Sub,
            Op::IMulLo => IntLoop::MulLo,
            Op::IMulHi => IntLoop::MulHi,
            Op::IMulWide => IntLoop::MulWide,
            Op::IMin => IntLoop::Min,
            Op::IMax => IntLoop::Max,
            Op::And => IntLoop::And,
            Op::Or => IntLoop::Or,
            Op::Xor => IntLoop::Xor,
            Op::Shl => IntLoop::Shl,
            Op::Shr => IntLoop::Shr,
            Op::IMadLo => IntLoop::MadLo,
            Op::IMadWide => IntLoop::MadWide,
            Op::Bfe => IntLoop::Bfe,
            Op::Prmt => IntLoop::Prmt(mods.prmt_mode),
            Op::Shf => IntLoop::Shf {
                hi: mods.hi,
                clamp: mods.clamp,
            },
            _ => return None,
        })
    }

    /// Runs the loop on type `ty`. The common types are fixed per copy of the loops, so the
    /// functions' matches on the type fold away instead of running in every lane.
    pub fn run(self, ty: Ty, a: &Lanes, b: impl Source, c: &Lanes, d: &mut Lanes) {
        match ty {
            Ty::S32 => self.run_of(Ty::S32, a, b, c, d),
            Ty::U32 => self.run_of(Ty::U32, a, b, c, d),
            Ty::B32 => self.run_of(Ty::B32, a, b, c, d),
            Ty::S64 => self.run_of(Ty::S64, a, b, c, d),
            Ty::U64 => self.run_of(Ty::U64, a, b, c, d),
            Ty::B64 => self.run_of(Ty::B64, a, b, c, d),
            _ => self.run_of(ty, a, b, c, d),
        }
    }

    #[inline(always)]
    fn run_of(self, ty: Ty, a: &Lanes, b: impl Source, c: &Lanes, d: &mut Lanes) {
        use alu::{bits, int};
        let mask = ty.mask();
        match self {
            IntLoop::Add => map2(a, b, d, |x, y| int::add(ty, false, x, y)),
            IntLoop::AddSat => map2(a, b, d, |x, y| int::add(ty, true, x, y)),
            IntLoop::Sub => map2(a, b, d, |x, y| int::sub(ty, false, x, y)),
            IntLoop::SubSat => map2(a, b, d, |x, y| int::sub(ty, true, x, y)),
            IntLoop::MulLo => map2(a, b, d, |x, y| int::mul_lo(ty, x, y)),
            IntLoop::MulHi => map2(a, b, d, |x, y| int::mul_hi(ty, x, y)),
            IntLoop::MulWide => map2(a, b, d, |x, y| int::mul_wide(ty, x, y)),
            IntLoop::Min => map2(a, b, d, |x, y| int::min_max(ty, false, x, y)),
            IntLoop::Max => map2(a, b, d, |x, y| int::min_max(ty, true, x, y)),
            IntLoop::And => map2(a, b, d, |x, y| (x & y) & mask),
            IntLoop::Or => map2(a, b, d, |x, y| (x | y) & mask),
            IntLoop::Xor => map2(a, b, d, |x, y| (x ^ y) & mask),
            // A constant amount below the width: the functions' range test is decided here,
            // once, which leaves a plain shift that vectorises (LLVM kept a test per lane).
            IntLoop::Shl => match b.uniform() {
                Some(amt) if (amt as u32) < alu::int::width(ty) => {
                    map1(a, d, |x| bits::shl(ty, x, amt as u32))
                }
                _ => map2(a, b, d, |x, y| bits::shl(ty, x, y as u32)),
            },
            IntLoop::Shr => match b.uniform() {
                Some(amt) if (amt as u32) < alu::int::width(ty) => {
                    map1(a, d, |x| bits::shr(ty, x, amt as u32))
                }
                _ => map2(a, b, d, |x, y| bits::shr(ty, x, y as u32)),
            },
            IntLoop::MadLo => map3(a, b, c, d, |x, y, z| int::mad_lo(ty, x, y, z)),
            IntLoop::MadWide => map3(a, b, c, d, |x, y, z| int::mad_wide(ty, x, y, z)),
            IntLoop::Bfe => map3(a, b, c, d, |x, y, z| bits::bfe(ty, x, y, z)),
            IntLoop::Prmt(mode) => map3(a, b, c, d, |x, y, z| bits::prmt(mode, x, y, z)),
            IntLoop::Shf { hi, clamp } => {
                map3(a, b, c, d, |x, y, z| bits::shf(ty, hi, clamp, x, y, z))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values that reach the corners of every op: zero, ones, sign bits, shift amounts past
    /// the width, and pseudo-random bits.
    fn lanes_of(seed: u64) -> Lanes {
        const EDGES: [u64; 10] = [0, 1, 2, 31, 32, 63, 64, 0x8000_0000, 0xffff_ffff, u64::MAX];
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        std::array::from_fn(|l| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if l < EDGES.len() {
                EDGES[(l + seed as usize) % EDGES.len()]
            } else {
                x
            }
        })
    }

    #[test]
    fn whole_warp_integer_loops_agree_with_the_per_lane_routing() {
        let ops = [
            Op::IAdd,
            Op::ISub,
            Op::IMulLo,
            Op::IMulHi,
            Op::IMulWide,
            Op::IMin,
            Op::IMax,
            Op::And,
            Op::Or,
            Op::Xor,
            Op::Shl,
            Op::Shr,
            Op::IMadLo,
            Op::IMadWide,
            Op::Bfe,
            Op::Prmt,
            Op::Shf,
        ];
        let tys = [
            Ty::U16,
            Ty::S16,
            Ty::U32,
            Ty::S32,
            Ty::B32,
            Ty::U64,
            Ty::S64,
            Ty::B64,
        ];
        for op in ops {
            for ty in tys {
                for (sat, hi, clamp, prmt_mode) in [(false, false, false, 0), (true, true, true, 3)]
                {
                    let mods = Mods {
                        sat,
                        hi,
                        clamp,
                        prmt_mode,
                        ..Mods::default()
                    };
                    let lp = IntLoop::of(op, &mods)
                        .unwrap_or_else(|| panic!("{op:?} has a whole-warp loop"));
                    for seed in 0..20 {
                        let (a, b, c) =
                            (lanes_of(seed), lanes_of(seed + 100), lanes_of(seed + 200));
                        let mut d = [0; WARP_SIZE];
                        lp.run(ty, &a, &b, &c, &mut d);
                        // The second source as one value for every lane (an immediate).
                        let imm = b[seed as usize % WARP_SIZE];
                        let mut e = [0; WARP_SIZE];
                        lp.run(ty, &a, Uniform(imm), &c, &mut e);
                        for l in 0..WARP_SIZE {
                            let want = alu::int_op(op, ty, &mods, [a[l], b[l], c[l], 0]);
                            assert_eq!(
                                d[l], want,
                                "{op:?}.{ty:?} {mods:?} lane {l}: {:#x} {:#x} {:#x}",
                                a[l], b[l], c[l]
                            );
                            let want = alu::int_op(op, ty, &mods, [a[l], imm, c[l], 0]);
                            assert_eq!(
                                e[l], want,
                                "{op:?}.{ty:?} {mods:?} lane {l}, immediate: {:#x} {imm:#x} {:#x}",
                                a[l], c[l]
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn whole_warp_conversions_agree_with_the_per_lane_function() {
        let tys = [
            Ty::S8,
            Ty::U16,
            Ty::S16,
            Ty::S32,
            Ty::U32,
            Ty::B32,
            Ty::S64,
            Ty::U64,
            Ty::B64,
            Ty::F32,
            Ty::F64,
        ];
        for to in tys {
            for from in tys {
                for sat in [false, true] {
                    let mods = Mods {
                        sat,
                        rounding: if to.is_float() {
                            crate::ir::Rounding::Rn
                        } else {
                            crate::ir::Rounding::Rzi
                        },
                        ..Mods::default()
                    };
                    for seed in 0..20 {
                        let a = lanes_of(seed);
                        let mut d = [0; WARP_SIZE];
                        cvt_lanes(to, from, &mods, &a, &mut d);
                        for l in 0..WARP_SIZE {
                            let want = alu::cvt(to, from, mods.rounding, mods.ftz, sat, a[l]);
                            assert_eq!(
                                d[l], want,
                                "cvt.{to:?}.{from:?} sat {sat} lane {l}: {:#x}",
                                a[l]
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn whole_warp_comparisons_agree_with_the_per_lane_function() {
        let cmps = [
            CmpOp::Eq,
            CmpOp::Ne,
            CmpOp::Lt,
            CmpOp::Le,
            CmpOp::Gt,
            CmpOp::Ge,
            CmpOp::Lo,
            CmpOp::Hs,
            CmpOp::Equ,
            CmpOp::Nan,
        ];
        let tys = [
            Ty::S32,
            Ty::U32,
            Ty::S64,
            Ty::U64,
            Ty::B32,
            Ty::S16,
            Ty::F32,
            Ty::F64,
        ];
        for cmp in cmps {
            for ty in tys {
                for ftz in [false, true] {
                    for seed in 0..20 {
                        let (a, b) = (lanes_of(seed), lanes_of(seed + 50));
                        let r = compare_lanes(cmp, ty, ftz, &a, &b);
                        let imm = b[seed as usize % WARP_SIZE];
                        let s = compare_lanes(cmp, ty, ftz, &a, Uniform(imm));
                        for l in 0..WARP_SIZE {
                            assert_eq!(
                                r >> l & 1 != 0,
                                alu::compare_ftz(cmp, ty, ftz, a[l], b[l]),
                                "{cmp:?}.{ty:?} ftz {ftz} lane {l}"
                            );
                            assert_eq!(
                                s >> l & 1 != 0,
                                alu::compare_ftz(cmp, ty, ftz, a[l], imm),
                                "{cmp:?}.{ty:?} ftz {ftz} lane {l}, immediate"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn whole_warp_f32_loops_agree_with_the_per_lane_routing() {
        use alu::float::{f32_fast, F32Fast};
        const SPECIAL: [u32; 12] = [
            0,
            0x8000_0000,
            0x3f80_0000,
            0xbf80_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7f80_0001,
            0x0000_0001,
            0x0080_0000,
            0x7f7f_ffff,
            0xffff_ffff,
        ];
        for (op, fast) in [
            (Op::FAdd, F32Fast::Add),
            (Op::FSub, F32Fast::Sub),
            (Op::FMul, F32Fast::Mul),
            (Op::FFma, F32Fast::Fma),
        ] {
            let mods = Mods::default();
            assert_eq!(f32_fast(op, Ty::F32, &mods), Some(fast));
            assert_eq!(
                f32_fast(
                    op,
                    Ty::F32,
                    &Mods {
                        ftz: true,
                        ..Mods::default()
                    }
                ),
                None
            );
            assert_eq!(f32_fast(op, Ty::F64, &mods), None);
            for seed in 0..50u64 {
                let pick = |s: u64| -> Lanes {
                    let r = lanes_of(s);
                    std::array::from_fn(|l| {
                        if l % 3 == 0 {
                            SPECIAL[(l + s as usize) % SPECIAL.len()] as u64
                        } else {
                            r[l] as u32 as u64
                        }
                    })
                };
                let (a, b, c) = (pick(seed), pick(seed + 7), pick(seed + 13));
                let mut d = [0; WARP_SIZE];
                f32_lanes(fast, &a, &b, &c, &mut d);
                let imm = b[seed as usize % WARP_SIZE];
                let mut e = [0; WARP_SIZE];
                f32_lanes(fast, &a, Uniform(imm), &c, &mut e);
                for l in 0..WARP_SIZE {
                    let want = alu::float_op(op, Ty::F32, &mods, [a[l], b[l], c[l]]);
                    assert_eq!(
                        d[l], want,
                        "{op:?} lane {l}: {:#x} {:#x} {:#x}",
                        a[l], b[l], c[l]
                    );
                    let want = alu::float_op(op, Ty::F32, &mods, [a[l], imm, c[l]]);
                    assert_eq!(
                        e[l], want,
                        "{op:?} lane {l}, immediate: {:#x} {imm:#x} {:#x}",
                        a[l], c[l]
                    );
                }
            }
        }
    }
}
