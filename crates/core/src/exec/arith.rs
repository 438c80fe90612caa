//! Lane loops for the arithmetic, comparison and data-movement ops; per-lane semantics come
//! from [`crate::alu`].

use super::context::{LaunchCtx, MemCtx};
use super::operands::{gather, pred_mask, scatter, write_pred, write_reg, Lanes};
use super::step::combine;
use super::warp::{lanes, Warp, WARP_SIZE};
use crate::alu;
use crate::ir::{layout, CmpOp, Inst, Op, Opnd, Space, Ty};

fn is_carry(inst: &Inst) -> bool {
    match inst.op {
        Op::IAddC | Op::ISubC | Op::IMadC => true,
        Op::IAdd | Op::ISub | Op::IMadLo | Op::IMadHi => inst.mods.cc,
        _ => false,
    }
}

/// Executes an arithmetic/compare/move instruction for the lanes in `exec`.
pub fn execute(k: &LaunchCtx, m: &MemCtx, w: &mut Warp, inst: &Inst, exec: u32, s: [&mut Lanes; 4]) {
    let f = w.frame();
    let [a, b, c, d] = s;
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
        Op::Mov => return mov(k, m, w, inst, exec, a, d),
        Op::Setp | Op::Set => {
            gather(k, m, w, &f, &inst.src[0], a);
            gather(k, m, w, &f, &inst.src[1], b);
            let cmp_ty = if op == Op::Setp { ty } else { inst.ty2 };
            let pc = if mods.boolop.is_some() { pred_mask(w, &f, &inst.src[2]) } else { 0 };
            let (mut p, mut q) = (0u32, 0u32);
            for l in lanes(exec) {
                let r = alu::compare_ftz(mods.cmp, cmp_ty, mods.ftz, a[l], b[l]);
                let cl = (pc >> l) & 1 != 0;
                p |= (combine(mods.boolop, r, cl) as u32) << l;
                q |= (combine(mods.boolop, !r, cl) as u32) << l;
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
            gather(k, m, w, &f, &inst.src[0], a);
            gather(k, m, w, &f, &inst.src[1], b);
            let p = pred_mask(w, &f, &inst.src[2]);
            for l in lanes(exec) {
                d[l] = if (p >> l) & 1 != 0 { a[l] } else { b[l] } & ty.mask();
            }
        }
        Op::Slct => {
            gather(k, m, w, &f, &inst.src[0], a);
            gather(k, m, w, &f, &inst.src[1], b);
            gather(k, m, w, &f, &inst.src[2], c);
            for l in lanes(exec) {
                let ge = alu::compare_ftz(CmpOp::Ge, inst.ty2, mods.ftz, c[l], 0);
                d[l] = if ge { a[l] } else { b[l] } & ty.mask();
            }
        }
        Op::Cvt => {
            gather(k, m, w, &f, &inst.src[0], a);
            if matches!(ty, Ty::F16x2 | Ty::BF16x2) && inst.src[1] != Opnd::None {
                // cvt.f16x2.f32 d, a, b: a goes to the upper half, b to the lower.
                gather(k, m, w, &f, &inst.src[1], b);
                let half = if ty == Ty::F16x2 { Ty::F16 } else { Ty::BF16 };
                for l in lanes(exec) {
                    let hi = alu::cvt(half, inst.ty2, mods.rounding, mods.ftz, mods.sat, a[l]) & 0xffff;
                    let lo = alu::cvt(half, inst.ty2, mods.rounding, mods.ftz, mods.sat, b[l]) & 0xffff;
                    d[l] = hi << 16 | lo;
                }
            } else {
                for l in lanes(exec) {
                    d[l] = alu::cvt(ty, inst.ty2, mods.rounding, mods.ftz, mods.sat, a[l]);
                }
            }
        }
        Op::Cvta => {
            gather(k, m, w, &f, &inst.src[0], a);
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
            gather(k, m, w, &f, &inst.src[0], a);
            gather(k, m, w, &f, &inst.src[1], b);
            gather(k, m, w, &f, &inst.src[2], c);
            for l in lanes(exec) {
                d[l] = alu::float_op(op, ty, mods, [a[l], b[l], c[l]]);
            }
        }
        _ => {
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
fn mov(k: &LaunchCtx, m: &MemCtx, w: &mut Warp, inst: &Inst, exec: u32, a: &mut Lanes, d: &mut Lanes) {
    let f = w.frame();
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
            gather(k, m, w, &f, &src, a);
            let mask = ty.mask();
            for l in lanes(exec) {
                d[l] = a[l] & mask;
            }
            scatter(w, &f, &dst, exec, d);
        }
    }
}
