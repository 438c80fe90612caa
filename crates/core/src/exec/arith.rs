//! Lane loops for the arithmetic, comparison and data-movement ops; per-lane semantics come
//! from [`crate::alu`].

use super::context::{LaunchCtx, MemCtx};
use super::operands::{dst_and_regs, gather, pred_mask, scatter, source, write_pred, write_reg, Lanes};
use super::step::combine;
use super::warp::{lanes, Frame, Warp, WARP_SIZE};
use crate::alu;
use crate::ir::{layout, CmpOp, Inst, Op, Opnd, Space, Ty};

fn is_carry(inst: &Inst) -> bool {
    match inst.op {
        Op::IAddC | Op::ISubC | Op::IMadC => true,
        Op::IAdd | Op::ISub | Op::IMadLo | Op::IMadHi => inst.mods.cc,
        _ => false,
    }
}

/// Executes an arithmetic/compare/move instruction for the lanes in `exec`, in the warp's
/// current frame `f` (the caller's copy: these instructions do not change frames).
pub fn execute(k: &LaunchCtx, m: &MemCtx, w: &mut Warp, f: &Frame, inst: &Inst, exec: u32) {
    let f = *f;
    if exec == u32::MAX {
        if let Opnd::Reg(r) = inst.dst[0] {
            if in_place(w, &f, inst, r) {
                return;
            }
        }
    }
    // Scratch: sources that are not registers (`source` fills these only then), and `gather`
    // copies for the per-lane paths, declared in the arms that use them.
    let (mut ta, mut tb, mut tc) = (None, None, None);
    let d: &mut Lanes = &mut [0; WARP_SIZE];
    let op = inst.op;
    let ty = inst.ty;
    let mods = &inst.mods;

    // Predicate logic works on masks directly.
    if ty == Ty::Pred && matches!(op, Op::And | Op::Or | Op::Xor | Op::Not | Op::Cnot | Op::Mov) {
        let pa = pred_mask(w, &f, &inst.src[0]);
        let pb = pred_mask(w, &f, &inst.src[1]);
        let r = match op {
            Op::And => pa & pb,
            Op::Or => pa | pb,
            Op::Xor => pa ^ pb,
            Op::Not | Op::Cnot => !pa,
            _ => pa,
        };
        if let Opnd::Pred { id, .. } = inst.dst[0] {
            write_pred(w, &f, id, exec, r);
        }
        return;
    }

    match op {
        Op::Mov => return mov(k, m, w, inst, exec, d),
        Op::Setp | Op::Set => {
            let cmp_ty = if op == Op::Setp { ty } else { inst.ty2 };
            let (mut p, mut q) = (0u32, 0u32);
            {
                let a = source(k, m, w, &f, &inst.src[0], &mut ta);
                let b = source(k, m, w, &f, &inst.src[1], &mut tb);
                // Every lane compares (pure, total); the writes below keep only `exec`'s.
                let r = compare_lanes(mods.cmp, cmp_ty, mods.ftz, a, b);
                match mods.boolop {
                    None => (p, q) = (r, !r),
                    Some(_) => {
                        let pc = pred_mask(w, &f, &inst.src[2]);
                        for l in 0..WARP_SIZE {
                            let (rl, cl) = ((r >> l) & 1 != 0, (pc >> l) & 1 != 0);
                            p |= (combine(mods.boolop, rl, cl) as u32) << l;
                            q |= (combine(mods.boolop, !rl, cl) as u32) << l;
                        }
                    }
                }
            }
            if op == Op::Setp {
                if let Opnd::Pred { id, .. } = inst.dst[0] {
                    write_pred(w, &f, id, exec, p);
                }
                if let Opnd::Pred { id, .. } = inst.dst[1] {
                    write_pred(w, &f, id, exec, q);
                }
            } else {
                for l in lanes(exec) {
                    d[l] = alu::set_value(ty, (p >> l) & 1 != 0);
                }
                scatter(w, &f, &inst.dst[0], exec, d);
            }
            return;
        }
        Op::Testp => {
            let a = &mut [0; WARP_SIZE];
            gather(k, m, w, &f, &inst.src[0], a);
            let mut p = 0u32;
            for l in lanes(exec) {
                p |= (alu::testp(mods.testp, ty, a[l]) as u32) << l;
            }
            if let Opnd::Pred { id, .. } = inst.dst[0] {
                write_pred(w, &f, id, exec, p);
            }
            return;
        }
        Op::Selp => {
            // Every lane selects (the writes keep only `exec`'s).
            let a = source(k, m, w, &f, &inst.src[0], &mut ta);
            let b = source(k, m, w, &f, &inst.src[1], &mut tb);
            let (p, mask) = (pred_mask(w, &f, &inst.src[2]), ty.mask());
            for l in 0..WARP_SIZE {
                d[l] = if (p >> l) & 1 != 0 { a[l] } else { b[l] } & mask;
            }
        }
        Op::Slct => {
            let (a, b, c) = (&mut [0; WARP_SIZE], &mut [0; WARP_SIZE], &mut [0; WARP_SIZE]);
            gather(k, m, w, &f, &inst.src[0], a);
            gather(k, m, w, &f, &inst.src[1], b);
            gather(k, m, w, &f, &inst.src[2], c);
            for l in lanes(exec) {
                let ge = alu::compare_ftz(CmpOp::Ge, inst.ty2, mods.ftz, c[l], 0);
                d[l] = if ge { a[l] } else { b[l] } & ty.mask();
            }
        }
        Op::Cvt => {
            let a = source(k, m, w, &f, &inst.src[0], &mut ta);
            if matches!(ty, Ty::F16x2 | Ty::BF16x2) && inst.src[1] != Opnd::None {
                // cvt.f16x2.f32 d, a, b: a goes to the upper half, b to the lower.
                let b = &mut [0; WARP_SIZE];
                gather(k, m, w, &f, &inst.src[1], b);
                let half = if ty == Ty::F16x2 { Ty::F16 } else { Ty::BF16 };
                for l in lanes(exec) {
                    let hi = alu::cvt(half, inst.ty2, mods.rounding, mods.ftz, mods.sat, a[l]) & 0xffff;
                    let lo = alu::cvt(half, inst.ty2, mods.rounding, mods.ftz, mods.sat, b[l]) & 0xffff;
                    d[l] = hi << 16 | lo;
                }
            } else {
                cvt_lanes(ty, inst.ty2, mods, a, d);
            }
        }
        Op::Cvta => {
            let a = source(k, m, w, &f, &inst.src[0], &mut ta);
            let window = match mods.space {
                Space::Shared => layout::SHARED_WINDOW,
                Space::Local => layout::LOCAL_WINDOW,
                _ => 0,
            };
            for l in lanes(exec) {
                let v = if mods.to_space { a[l].wrapping_sub(window) } else { a[l].wrapping_add(window) };
                d[l] = v & ty.mask();
            }
        }
        _ if is_carry(inst) => {
            let (a, b, c) = (&mut [0; WARP_SIZE], &mut [0; WARP_SIZE], &mut [0; WARP_SIZE]);
            gather(k, m, w, &f, &inst.src[0], a);
            gather(k, m, w, &f, &inst.src[1], b);
            gather(k, m, w, &f, &inst.src[2], c);
            let mut carry = w.carry;
            for l in lanes(exec) {
                let (v, cf) = alu::carry_op(op, ty, mods, a[l], b[l], c[l], (carry >> l) & 1 != 0);
                d[l] = v;
                carry = (carry & !(1 << l)) | ((cf as u32) << l);
            }
            w.carry = carry;
        }
        _ if op_is_float(op) => {
            if let Some(fast) = alu::float::f32_fast(op, ty, mods) {
                let a = source(k, m, w, &f, &inst.src[0], &mut ta);
                let b = source(k, m, w, &f, &inst.src[1], &mut tb);
                let c = source(k, m, w, &f, &inst.src[2], &mut tc);
                f32_lanes(fast, a, b, c, d);
                scatter(w, &f, &inst.dst[0], exec, d);
                return;
            }
            let (a, b, c) = (&mut [0; WARP_SIZE], &mut [0; WARP_SIZE], &mut [0; WARP_SIZE]);
            gather(k, m, w, &f, &inst.src[0], a);
            gather(k, m, w, &f, &inst.src[1], b);
            gather(k, m, w, &f, &inst.src[2], c);
            for l in lanes(exec) {
                d[l] = alu::float_op(op, ty, mods, [a[l], b[l], c[l]]);
            }
        }
        _ => {
            if inst.src[3] == Opnd::None {
                let a = source(k, m, w, &f, &inst.src[0], &mut ta);
                let b = source(k, m, w, &f, &inst.src[1], &mut tb);
                let c = source(k, m, w, &f, &inst.src[2], &mut tc);
                if int_lanes(op, ty, mods, a, b, c, d) {
                    scatter(w, &f, &inst.dst[0], exec, d);
                    return;
                }
            }
            let (a, b, c) = (&mut [0; WARP_SIZE], &mut [0; WARP_SIZE], &mut [0; WARP_SIZE]);
            gather(k, m, w, &f, &inst.src[0], a);
            gather(k, m, w, &f, &inst.src[1], b);
            gather(k, m, w, &f, &inst.src[2], c);
            if inst.src[3] != Opnd::None {
                let mut e = [0u64; WARP_SIZE];
                gather(k, m, w, &f, &inst.src[3], &mut e);
                for l in lanes(exec) {
                    d[l] = alu::int_op(op, ty, mods, [a[l], b[l], c[l], e[l]]);
                }
            } else {
                for l in lanes(exec) {
                    d[l] = alu::int_op(op, ty, mods, [a[l], b[l], c[l], 0]);
                }
            }
        }
    }
    scatter(w, &f, &inst.dst[0], exec, d);
}

/// A full warp's whole-warp loop (the ones below that compute every lane) written straight
/// into destination register `r`, with no scratch array and no copy: what `execute`'s own
/// arms would compute for these ops, as they call the same loops. False, nothing written,
/// for an op without such a loop (then `execute` goes on as for a partial warp).
fn in_place(w: &mut Warp, f: &Frame, inst: &Inst, r: crate::ir::RegId) -> bool {
    let (op, ty, mods) = (inst.op, inst.ty, &inst.mods);
    let [s0, s1, s2, s3] = &inst.src;
    if ty == Ty::Pred || is_carry(inst) || *s3 != Opnd::None {
        return false;
    }
    match op {
        Op::Mov | Op::Cvt if *s1 != Opnd::None => false,
        Op::Mov => match dst_and_regs(w, f, r, [s0, &Opnd::None, &Opnd::None]) {
            Some((d, [a, _, _])) => {
                let mask = ty.mask();
                map1(a, d, |x| x & mask);
                true
            }
            None => false,
        },
        Op::Cvt => match dst_and_regs(w, f, r, [s0, &Opnd::None, &Opnd::None]) {
            Some((d, [a, _, _])) => {
                cvt_lanes(ty, inst.ty2, mods, a, d);
                true
            }
            None => false,
        },
        Op::Setp | Op::Set | Op::Testp | Op::Selp | Op::Slct | Op::Cvta => false,
        _ if op_is_float(op) => match (alu::float::f32_fast(op, ty, mods), dst_and_regs(w, f, r, [s0, s1, s2])) {
            (Some(fast), Some((d, [a, b, c]))) => {
                f32_lanes(fast, a, b, c, d);
                true
            }
            _ => false,
        },
        // `int_lanes` writes nothing for an op it leaves to the per-lane path.
        _ => match dst_and_regs(w, f, r, [s0, s1, s2]) {
            Some((d, [a, b, c])) => int_lanes(op, ty, mods, a, b, c, d),
            None => false,
        },
    }
}

/// An [`alu::float::F32Fast`] operation over all 32 lanes. Inactive lanes compute too (the
/// functions are pure and total, and `scatter` writes only the executing lanes): a loop
/// without a mask test, which the compiler vectorises.
fn f32_lanes(op: alu::float::F32Fast, a: &Lanes, b: &Lanes, c: &Lanes, d: &mut Lanes) {
    use alu::float::{f32_add, f32_mul, f32_sub, F32Fast};
    match op {
        F32Fast::Add => map2(a, b, d, f32_add),
        F32Fast::Sub => map2(a, b, d, f32_sub),
        F32Fast::Mul => map2(a, b, d, f32_mul),
        F32Fast::Fma => fma_lanes(a, b, c, d),
    }
}

/// [`alu::cvt`] over all 32 lanes. The integer widenings and narrowings without `.sat` that
/// index arithmetic is full of (`cvt.s64.s32`…) have the two types fixed per loop, so the
/// conversion folds to a shift or a mask; the rest take the general function per lane.
fn cvt_lanes(ty: Ty, ty2: Ty, mods: &crate::ir::Mods, a: &Lanes, d: &mut Lanes) {
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

#[inline(always)]
fn map1(a: &Lanes, d: &mut Lanes, f: impl Fn(u64) -> u64) {
    for l in 0..WARP_SIZE {
        d[l] = f(a[l]);
    }
}

/// `alu::compare_ftz` over all 32 lanes as a lane mask, with the comparison and the common
/// types fixed per loop (each arm its own loop over the same function, so the per-lane
/// matches fold away); other types take the general loop.
fn compare_lanes(cmp: CmpOp, ty: Ty, ftz: bool, a: &Lanes, b: &Lanes) -> u32 {
    #[inline(always)]
    fn lanes_with(a: &Lanes, b: &Lanes, f: impl Fn(u64, u64) -> bool) -> u32 {
        let mut r = 0u32;
        for l in 0..WARP_SIZE {
            r |= (f(a[l], b[l]) as u32) << l;
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
                Ty::F32 if !ftz => lanes_with(a, b, |x, y| alu::compare_ftz($cmp, Ty::F32, false, x, y)),
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

#[inline(always)]
fn map2(a: &Lanes, b: &Lanes, d: &mut Lanes, f: impl Fn(u64, u64) -> u64) {
    for l in 0..WARP_SIZE {
        d[l] = f(a[l], b[l]);
    }
}

#[inline(always)]
fn map3(a: &Lanes, b: &Lanes, c: &Lanes, d: &mut Lanes, f: impl Fn(u64, u64, u64) -> u64) {
    for l in 0..WARP_SIZE {
        d[l] = f(a[l], b[l], c[l]);
    }
}

/// `fma.rn.f32` over a warp. Without the CPU feature in the build, Rust's `mul_add` is a call
/// to the C library's `fmaf` per lane; where the CPU has FMA and AVX2 (checked once at run
/// time) the same loop is compiled with them, so four lanes are a few vector instructions
/// (AVX2 narrows the 64-bit lanes to f32 and back). Same bits either way.
fn fma_lanes(a: &Lanes, b: &Lanes, c: &Lanes, d: &mut Lanes) {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "fma,avx2")]
        unsafe fn with_fma(a: &Lanes, b: &Lanes, c: &Lanes, d: &mut Lanes) {
            map3(a, b, c, d, alu::float::f32_fma)
        }
        if std::arch::is_x86_feature_detected!("fma") && std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports FMA and AVX2 (checked just above).
            return unsafe { with_fma(a, b, c, d) };
        }
    }
    map3(a, b, c, d, alu::float::f32_fma)
}

/// The common integer ops over all 32 lanes, with the op chosen once per instruction rather
/// than per lane (each arm is its own loop over the same [`alu::int`] / [`alu::bits`] function
/// [`alu::int_op`] routes the op to; a test checks the two agree). Inactive lanes compute too:
/// the functions are pure and total. Returns false for ops left to the per-lane path.
///
/// The common types are fixed per copy of the loops, so the functions' matches on the type
/// fold away instead of running in every lane.
fn int_lanes(op: Op, ty: Ty, mods: &crate::ir::Mods, a: &Lanes, b: &Lanes, c: &Lanes, d: &mut Lanes) -> bool {
    match ty {
        Ty::S32 => int_lanes_of(op, Ty::S32, mods, a, b, c, d),
        Ty::U32 => int_lanes_of(op, Ty::U32, mods, a, b, c, d),
        Ty::B32 => int_lanes_of(op, Ty::B32, mods, a, b, c, d),
        Ty::S64 => int_lanes_of(op, Ty::S64, mods, a, b, c, d),
        Ty::U64 => int_lanes_of(op, Ty::U64, mods, a, b, c, d),
        Ty::B64 => int_lanes_of(op, Ty::B64, mods, a, b, c, d),
        _ => int_lanes_of(op, ty, mods, a, b, c, d),
    }
}

#[inline(always)]
fn int_lanes_of(op: Op, ty: Ty, mods: &crate::ir::Mods, a: &Lanes, b: &Lanes, c: &Lanes, d: &mut Lanes) -> bool {
    use alu::{bits, int};
    let mask = ty.mask();
    match op {
        // `.sat` fixed per loop too, so the per-lane branch on it folds away.
        Op::IAdd if !mods.sat => map2(a, b, d, |x, y| int::add(ty, false, x, y)),
        Op::IAdd => map2(a, b, d, |x, y| int::add(ty, true, x, y)),
        Op::ISub if !mods.sat => map2(a, b, d, |x, y| int::sub(ty, false, x, y)),
        Op::ISub => map2(a, b, d, |x, y| int::sub(ty, true, x, y)),
        Op::IMulLo => map2(a, b, d, |x, y| int::mul_lo(ty, x, y)),
        Op::IMulHi => map2(a, b, d, |x, y| int::mul_hi(ty, x, y)),
        Op::IMulWide => map2(a, b, d, |x, y| int::mul_wide(ty, x, y)),
        Op::IMin => map2(a, b, d, |x, y| int::min_max(ty, false, x, y)),
        Op::IMax => map2(a, b, d, |x, y| int::min_max(ty, true, x, y)),
        Op::And => map2(a, b, d, |x, y| (x & y) & mask),
        Op::Or => map2(a, b, d, |x, y| (x | y) & mask),
        Op::Xor => map2(a, b, d, |x, y| (x ^ y) & mask),
        Op::Shl => map2(a, b, d, |x, y| bits::shl(ty, x, y as u32)),
        Op::Shr => map2(a, b, d, |x, y| bits::shr(ty, x, y as u32)),
        Op::IMadLo => map3(a, b, c, d, |x, y, z| int::mad_lo(ty, x, y, z)),
        Op::IMadWide => map3(a, b, c, d, |x, y, z| int::mad_wide(ty, x, y, z)),
        Op::Bfe => map3(a, b, c, d, |x, y, z| bits::bfe(ty, x, y, z)),
        Op::Prmt => map3(a, b, c, d, |x, y, z| bits::prmt(mods.prmt_mode, x, y, z)),
        Op::Shf => map3(a, b, c, d, |x, y, z| bits::shf(ty, mods.hi, mods.clamp, x, y, z)),
        _ => return false,
    }
    true
}

fn op_is_float(op: Op) -> bool {
    matches!(
        op,
        Op::FAdd
            | Op::FSub
            | Op::FMul
            | Op::FFma
            | Op::FDiv
            | Op::FAbs
            | Op::FNeg
            | Op::FMin
            | Op::FMax
            | Op::FRcp
            | Op::FSqrt
            | Op::FRsqrt
            | Op::FEx2
            | Op::FLg2
            | Op::FSin
            | Op::FCos
            | Op::FTanh
            | Op::Copysign
    )
}

/// `mov`: plain, pack (`{a, b}` source) or unpack (`{a, b}` destination).
fn mov(k: &LaunchCtx, m: &MemCtx, w: &mut Warp, inst: &Inst, exec: u32, d: &mut Lanes) {
    let f = w.frame();
    let a = &mut [0; WARP_SIZE];
    let ty = inst.ty;
    match (inst.dst[0], inst.src[0]) {
        (Opnd::Vec { regs, n }, src) => {
            gather(k, m, w, &f, &src, a);
            let eb = ty.bits() / n.max(1) as u32;
            let em = if eb >= 64 { u64::MAX } else { (1u64 << eb) - 1 };
            for (i, &r) in regs.iter().enumerate().take(n as usize) {
                if r == u32::MAX {
                    continue;
                }
                for l in lanes(exec) {
                    d[l] = (a[l] >> (i as u32 * eb)) & em;
                }
                write_reg(w, &f, r, exec, d);
            }
        }
        (dst, Opnd::Vec { regs, n }) => {
            let eb = ty.bits() / n.max(1) as u32;
            let em = if eb >= 64 { u64::MAX } else { (1u64 << eb) - 1 };
            *d = [0; WARP_SIZE];
            for (i, &r) in regs.iter().enumerate().take(n as usize) {
                gather(k, m, w, &f, &Opnd::Reg(r), a);
                for l in lanes(exec) {
                    d[l] |= (a[l] & em) << (i as u32 * eb);
                }
            }
            scatter(w, &f, &dst, exec, d);
        }
        (dst, src) => {
            let mut t = None;
            let a = source(k, m, w, &f, &src, &mut t);
            let mask = ty.mask();
            for l in 0..WARP_SIZE {
                d[l] = a[l] & mask;
            }
            scatter(w, &f, &dst, exec, d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Mods;

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
            Op::IAdd, Op::ISub, Op::IMulLo, Op::IMulHi, Op::IMulWide, Op::IMin, Op::IMax, Op::And, Op::Or, Op::Xor,
            Op::Shl, Op::Shr, Op::IMadLo, Op::IMadWide, Op::Bfe, Op::Prmt, Op::Shf,
        ];
        let tys = [Ty::U16, Ty::S16, Ty::U32, Ty::S32, Ty::B32, Ty::U64, Ty::S64, Ty::B64];
        for op in ops {
            for ty in tys {
                for (sat, hi, clamp, prmt_mode) in [(false, false, false, 0), (true, true, true, 3)] {
                    let mods = Mods { sat, hi, clamp, prmt_mode, ..Mods::default() };
                    for seed in 0..20 {
                        let (a, b, c) = (lanes_of(seed), lanes_of(seed + 100), lanes_of(seed + 200));
                        let mut d = [0; WARP_SIZE];
                        assert!(int_lanes(op, ty, &mods, &a, &b, &c, &mut d), "{op:?} has a whole-warp loop");
                        for l in 0..WARP_SIZE {
                            let want = alu::int_op(op, ty, &mods, [a[l], b[l], c[l], 0]);
                            assert_eq!(d[l], want, "{op:?}.{ty:?} {mods:?} lane {l}: {:#x} {:#x} {:#x}", a[l], b[l], c[l]);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn whole_warp_conversions_agree_with_the_per_lane_function() {
        let tys = [Ty::S8, Ty::U16, Ty::S16, Ty::S32, Ty::U32, Ty::B32, Ty::S64, Ty::U64, Ty::B64, Ty::F32, Ty::F64];
        for to in tys {
            for from in tys {
                for sat in [false, true] {
                    let mods = Mods { sat, rounding: if to.is_float() { crate::ir::Rounding::Rn } else { crate::ir::Rounding::Rzi }, ..Mods::default() };
                    for seed in 0..20 {
                        let a = lanes_of(seed);
                        let mut d = [0; WARP_SIZE];
                        cvt_lanes(to, from, &mods, &a, &mut d);
                        for l in 0..WARP_SIZE {
                            let want = alu::cvt(to, from, mods.rounding, mods.ftz, sat, a[l]);
                            assert_eq!(d[l], want, "cvt.{to:?}.{from:?} sat {sat} lane {l}: {:#x}", a[l]);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn whole_warp_comparisons_agree_with_the_per_lane_function() {
        let cmps = [
            CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge, CmpOp::Lo, CmpOp::Hs, CmpOp::Equ, CmpOp::Nan,
        ];
        let tys = [Ty::S32, Ty::U32, Ty::S64, Ty::U64, Ty::B32, Ty::S16, Ty::F32, Ty::F64];
        for cmp in cmps {
            for ty in tys {
                for ftz in [false, true] {
                    for seed in 0..20 {
                        let (a, b) = (lanes_of(seed), lanes_of(seed + 50));
                        let r = compare_lanes(cmp, ty, ftz, &a, &b);
                        for l in 0..WARP_SIZE {
                            assert_eq!(r >> l & 1 != 0, alu::compare_ftz(cmp, ty, ftz, a[l], b[l]), "{cmp:?}.{ty:?} ftz {ftz} lane {l}");
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
            0, 0x8000_0000, 0x3f80_0000, 0xbf80_0000, 0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 0x7f80_0001, 0x0000_0001,
            0x0080_0000, 0x7f7f_ffff, 0xffff_ffff,
        ];
        for (op, fast) in [(Op::FAdd, F32Fast::Add), (Op::FSub, F32Fast::Sub), (Op::FMul, F32Fast::Mul), (Op::FFma, F32Fast::Fma)] {
            let mods = Mods::default();
            assert_eq!(f32_fast(op, Ty::F32, &mods), Some(fast));
            assert_eq!(f32_fast(op, Ty::F32, &Mods { ftz: true, ..Mods::default() }), None);
            assert_eq!(f32_fast(op, Ty::F64, &mods), None);
            for seed in 0..50u64 {
                let pick = |s: u64| -> Lanes {
                    let r = lanes_of(s);
                    std::array::from_fn(|l| if l % 3 == 0 { SPECIAL[(l + s as usize) % SPECIAL.len()] as u64 } else { r[l] as u32 as u64 })
                };
                let (a, b, c) = (pick(seed), pick(seed + 7), pick(seed + 13));
                let mut d = [0; WARP_SIZE];
                f32_lanes(fast, &a, &b, &c, &mut d);
                for l in 0..WARP_SIZE {
                    let want = alu::float_op(op, Ty::F32, &mods, [a[l], b[l], c[l]]);
                    assert_eq!(d[l], want, "{op:?} lane {l}: {:#x} {:#x} {:#x}", a[l], b[l], c[l]);
                }
            }
        }
    }
}
