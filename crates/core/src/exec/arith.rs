//! The arithmetic, comparison and data-movement ops: the whole-warp loop of a decoded
//! [`LaneInst`], and the general path for the rest; per-lane semantics come from
//! [`crate::alu`], the loops from [`super::lane_loops`].

use super::context::{LaunchCtx, MemCtx};
use super::decoded::{is_carry, LaneInst, Routine, Src};
use super::lane_loops::{compare_lanes, cvt_lanes, f32_lanes, map1, Source, Uniform};
use super::operands::{gather, pred_mask, scatter, source, write_pred, write_reg, Lanes};
use super::step::combine;
use super::warp::{lanes, Frame, Warp, WARP_SIZE};
use crate::alu;
use crate::ir::{layout, CmpOp, Inst, Op, Opnd, Space, Ty};

/// Executes a [`LaneInst`] (an instruction `exec::decoded` resolved at load time) for the
/// lanes in `exec`: one whole-warp loop over its sources, written straight into the
/// destination register for a full warp (no scratch array, no copy) and through a scratch
/// array under the mask otherwise. An immediate second source is passed to the loop as one
/// value; a source that is the destination itself is copied first, so every lane reads it
/// before the loop writes it.
pub fn execute_lanes(
    k: &LaunchCtx,
    m: &MemCtx,
    w: &mut Warp,
    f: &Frame,
    inst: &Inst,
    li: &LaneInst,
    exec: u32,
) {
    // Staged sources: lane arrays for the operands not read in place (filled only then:
    // declaring `None` costs one store, zeroing 256 bytes thirty-two).
    let mut staged: [Option<Lanes>; 3] = [None, None, None];
    for (i, (s, t)) in li
        .src
        .iter()
        .zip(staged.iter_mut())
        .enumerate()
        .filter(|_| li.staged)
    {
        match *s {
            Src::Reg(_) | Src::Zero => {}
            Src::Imm(_) if i == 1 => {}
            Src::Imm(v) => *t = Some([v; WARP_SIZE]),
            Src::Dst => *t = Some(*super::operands::reg_lanes(w, f, li.dst)),
            Src::Gather => gather(k, m, w, f, &inst.src[i], t.insert([0; WARP_SIZE])),
        }
    }
    let d0 = f.reg_base + li.dst as usize * WARP_SIZE;
    let (lo, rest) = w.regs.split_at_mut(d0);
    let (out, hi) = rest.split_at_mut(WARP_SIZE);
    let out = <&mut Lanes>::try_from(out).expect("a 32-lane slice");
    let (lo, hi) = (&*lo, &*hi);
    let view = |i: usize| source_view(li.src[i], &staged[i], f.reg_base, d0, lo, hi);
    let (a, c) = (view(0), view(2));
    if exec == u32::MAX {
        match li.src[1] {
            Src::Imm(v) => run_routine(li.routine, inst, a, Uniform(v), c, out),
            _ => run_routine(li.routine, inst, a, view(1), c, out),
        }
    } else {
        let mut d = [0; WARP_SIZE];
        match li.src[1] {
            Src::Imm(v) => run_routine(li.routine, inst, a, Uniform(v), c, &mut d),
            _ => run_routine(li.routine, inst, a, view(1), c, &mut d),
        }
        for l in lanes(exec) {
            out[l] = d[l];
        }
    }
}

/// Source `s`'s lanes: a register other than the destination (whose lanes start at `d0`)
/// from the register file below (`lo`) or above (`hi`) the destination, a staged array, or
/// zeros.
#[inline(always)]
fn source_view<'a>(
    s: Src,
    staged: &'a Option<Lanes>,
    reg_base: usize,
    d0: usize,
    lo: &'a [u64],
    hi: &'a [u64],
) -> &'a Lanes {
    match (s, staged) {
        (Src::Reg(r), _) => {
            let s0 = reg_base + r as usize * WARP_SIZE;
            let lanes = if s0 < d0 {
                &lo[s0..s0 + WARP_SIZE]
            } else {
                &hi[s0 - d0 - WARP_SIZE..s0 - d0]
            };
            <&Lanes>::try_from(lanes).expect("a 32-lane slice")
        }
        (_, Some(t)) => t,
        _ => &super::operands::ZERO_LANES,
    }
}

/// One [`Routine`] over all 32 lanes into `d`.
#[inline(always)]
fn run_routine(routine: Routine, inst: &Inst, a: &Lanes, b: impl Source, c: &Lanes, d: &mut Lanes) {
    match routine {
        Routine::Mov { mask } => map1(a, d, |x| x & mask),
        Routine::Cvt => cvt_lanes(inst.ty, inst.ty2, &inst.mods, a, d),
        Routine::F32(fast) => f32_lanes(fast, a, b, c, d),
        Routine::Int(lp) => lp.run(inst.ty, a, b, c, d),
    }
}

/// Executes a `setp` whose sources `exec::decoded` resolved (see [`Decoded::Setp`]): an
/// immediate second source is compared as one value, registers in place.
///
/// [`Decoded::Setp`]: super::decoded::Decoded::Setp
pub fn execute_setp(
    k: &LaunchCtx,
    m: &MemCtx,
    w: &mut Warp,
    f: &Frame,
    inst: &Inst,
    src: [Src; 2],
    exec: u32,
) {
    let (p, q) = {
        let mut ta = None;
        let a = staged_lanes(k, m, w, f, inst, 0, src[0], &mut ta);
        match src[1] {
            Src::Imm(v) => compare_masks(w, f, inst, a, Uniform(v)),
            s => {
                let mut tb = None;
                compare_masks(w, f, inst, a, staged_lanes(k, m, w, f, inst, 1, s, &mut tb))
            }
        }
    };
    write_setp(w, f, inst, exec, p, q);
}

/// Source `i` (decoded as `s`) for all 32 lanes: a register in place, anything else in `tmp`.
#[inline(always)]
// Inlined per source operand: the step's context in registers, not a struct built per operand.
#[allow(clippy::too_many_arguments)]
fn staged_lanes<'a>(
    k: &LaunchCtx,
    m: &MemCtx,
    w: &'a Warp,
    f: &Frame,
    inst: &Inst,
    i: usize,
    s: Src,
    tmp: &'a mut Option<Lanes>,
) -> &'a Lanes {
    match s {
        Src::Reg(r) => super::operands::reg_lanes(w, f, r),
        Src::Zero => &super::operands::ZERO_LANES,
        Src::Imm(v) => tmp.insert([v; WARP_SIZE]),
        Src::Dst | Src::Gather => {
            let t = tmp.insert([0; WARP_SIZE]);
            gather(k, m, w, f, &inst.src[i], t);
            t
        }
    }
}

/// `setp`'s and `set`'s two lane masks: the comparison of `a` and `b` (every lane compares:
/// pure and total; the writes keep only the executing lanes'), and its complement, each
/// combined with the optional boolean operand.
#[inline(always)]
fn compare_masks(w: &Warp, f: &Frame, inst: &Inst, a: &Lanes, b: impl Source) -> (u32, u32) {
    let mods = &inst.mods;
    let cmp_ty = if inst.op == Op::Setp {
        inst.ty
    } else {
        inst.ty2
    };
    let r = compare_lanes(mods.cmp, cmp_ty, mods.ftz, a, b);
    match mods.boolop {
        None => (r, !r),
        Some(_) => {
            let (mut p, mut q) = (0u32, 0u32);
            let pc = pred_mask(w, f, &inst.src[2]);
            for l in 0..WARP_SIZE {
                let (rl, cl) = ((r >> l) & 1 != 0, (pc >> l) & 1 != 0);
                p |= (combine(mods.boolop, rl, cl) as u32) << l;
                q |= (combine(mods.boolop, !rl, cl) as u32) << l;
            }
            (p, q)
        }
    }
}

/// Writes `setp`'s masks to its predicate destinations.
#[inline(always)]
fn write_setp(w: &mut Warp, f: &Frame, inst: &Inst, exec: u32, p: u32, q: u32) {
    if let Opnd::Pred { id, .. } = inst.dst[0] {
        write_pred(w, f, id, exec, p);
    }
    if let Opnd::Pred { id, .. } = inst.dst[1] {
        write_pred(w, f, id, exec, q);
    }
}

/// Executes an arithmetic/compare/move instruction that `exec::decoded` left to the general
/// path (predicate logic, comparisons, carry chains, the ops without a whole-warp loop, odd
/// operand forms) for the lanes in `exec`, in the warp's current frame `f` (the caller's
/// copy: these instructions do not change frames).
pub fn execute(k: &LaunchCtx, m: &MemCtx, w: &mut Warp, f: &Frame, inst: &Inst, exec: u32) {
    let f = *f;
    // Scratch: sources that are not registers (`source` fills these only then), and `gather`
    // copies for the per-lane paths, declared in the arms that use them.
    let (mut ta, mut tb) = (None, None);
    let d: &mut Lanes = &mut [0; WARP_SIZE];
    let op = inst.op;
    let ty = inst.ty;
    let mods = &inst.mods;

    // Predicate logic works on masks directly.
    if ty == Ty::Pred
        && matches!(
            op,
            Op::And | Op::Or | Op::Xor | Op::Not | Op::Cnot | Op::Mov
        )
    {
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
            let (p, q) = {
                let a = source(k, m, w, &f, &inst.src[0], &mut ta);
                let b = source(k, m, w, &f, &inst.src[1], &mut tb);
                compare_masks(w, &f, inst, a, b)
            };
            if op == Op::Setp {
                write_setp(w, &f, inst, exec, p, q);
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
            let (a, b, c) = (
                &mut [0; WARP_SIZE],
                &mut [0; WARP_SIZE],
                &mut [0; WARP_SIZE],
            );
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
                    let hi =
                        alu::cvt(half, inst.ty2, mods.rounding, mods.ftz, mods.sat, a[l]) & 0xffff;
                    let lo =
                        alu::cvt(half, inst.ty2, mods.rounding, mods.ftz, mods.sat, b[l]) & 0xffff;
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
                let v = if mods.to_space {
                    a[l].wrapping_sub(window)
                } else {
                    a[l].wrapping_add(window)
                };
                d[l] = v & ty.mask();
            }
        }
        _ if is_carry(inst) => {
            let (a, b, c) = (
                &mut [0; WARP_SIZE],
                &mut [0; WARP_SIZE],
                &mut [0; WARP_SIZE],
            );
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
            let (a, b, c) = (
                &mut [0; WARP_SIZE],
                &mut [0; WARP_SIZE],
                &mut [0; WARP_SIZE],
            );
            gather(k, m, w, &f, &inst.src[0], a);
            gather(k, m, w, &f, &inst.src[1], b);
            gather(k, m, w, &f, &inst.src[2], c);
            for l in lanes(exec) {
                d[l] = alu::float_op(op, ty, mods, [a[l], b[l], c[l]]);
            }
        }
        _ => {
            let (a, b, c) = (
                &mut [0; WARP_SIZE],
                &mut [0; WARP_SIZE],
                &mut [0; WARP_SIZE],
            );
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
