//! `ld`, `st`, `atom`, `red`: per-lane address computation, state-space resolution, bounds and
//! alignment checks.

use super::context::{LaunchCtx, MemCtx};
use super::fault::{FaultKind, Near};
use super::global::{Deferred, DeferredOp};
use super::memory::{load_le, store_le};
use super::operands::{
    classify_generic, gather, reg_lanes, reg_lanes_mut, reg_pair, rel_base, scatter, source, Lanes,
    Window,
};
use super::scalar_access;
use super::warp::{lanes, Frame, Warp, WARP_SIZE};
use crate::alu;
use crate::ir::{AddrRel, AtomOp, Function, Inst, Mods, Op, Opnd, RegId, Rounding, Space, Ty};

/// Per-lane addresses of a memory operand (`[reg+imm]` + relative base) of an access to
/// `space`.
///
/// PTX's address-size rule: shared and local addresses are 32-bit offsets into their window,
/// so the sum is taken modulo 2³² (nvcc emits `[%r+k]` with `%r` = `base − k`, a negative
/// intermediate, and the hardware wraps). Generic, global and const addresses are 64-bit
/// (warpsim's `.const` variables live in the global image, so a const address is a global
/// one) and do not wrap: a carry out of them is an out-of-bounds address.
#[inline]
pub fn addresses(
    k: &LaunchCtx,
    m: &MemCtx,
    w: &Warp,
    f: &Frame,
    o: &Opnd,
    space: Space,
    out: &mut Lanes,
) {
    let wrap = if matches!(space, Space::Shared | Space::Local) {
        u64::from(u32::MAX)
    } else {
        u64::MAX
    };
    match *o {
        Opnd::Addr {
            base: Some(r),
            rel,
            offset,
        } => {
            // One pass over the base register, read in place.
            let add = rel_base(k, f, rel).wrapping_add(offset as u64);
            let base = reg_lanes(w, f, r);
            for (v, b) in out.iter_mut().zip(base) {
                *v = b.wrapping_add(add) & wrap;
            }
        }
        Opnd::Addr {
            base: None,
            rel,
            offset,
        } => *out = [rel_base(k, f, rel).wrapping_add(offset as u64) & wrap; WARP_SIZE],
        _ => {
            gather(k, m, w, f, o, out);
            for v in out.iter_mut() {
                *v &= wrap;
            }
        }
    }
}

/// Resolves a generic address to its concrete space.
#[inline]
fn resolve(space: Space, addr: u64) -> (Space, u64) {
    match space {
        Space::Generic => match classify_generic(addr) {
            Window::Global(a) => (Space::Global, a),
            Window::Shared(a) => (Space::Shared, a),
            Window::Local(a) => (Space::Local, a),
        },
        s => (s, addr),
    }
}

/// Reads (`value` None) or writes `size` bytes for one lane. Returns the value read.
#[inline(always)]
// Per lane of every access: the values in registers, not a struct built and torn down per lane.
#[allow(clippy::too_many_arguments)]
pub fn access(
    k: &LaunchCtx,
    m: &mut MemCtx,
    w: &mut Warp,
    lane: usize,
    space: Space,
    addr: u64,
    size: u32,
    value: Option<u64>,
) -> Result<u64, FaultKind> {
    let write = value.is_some();
    let (sp, a) = resolve(space, addr);
    let oob = || FaultKind::OutOfBounds {
        space: sp,
        address: addr,
        size,
        write,
        near: Near::Unknown,
        lanes: 0,
        active: 0,
    };
    if a % size as u64 != 0 {
        return Err(FaultKind::Misaligned {
            space: sp,
            address: addr,
            size,
            write,
            lanes: 0,
            active: 0,
        });
    }
    let in_range = |len: u64| a.checked_add(size as u64).is_some_and(|end| end <= len);
    match sp {
        Space::Global | Space::Const | Space::Generic => match value {
            None => m.global.read_uint(a, size).map_err(|_| oob()),
            Some(v) => m
                .global
                .write_uint(a, size, v)
                .map(|_| 0)
                .map_err(|_| oob()),
        },
        Space::Shared => {
            if !in_range(m.shared.len() as u64) {
                return Err(oob());
            }
            let s = &mut m.shared[a as usize..];
            match value {
                None => Ok(load_le(s, size)),
                Some(v) => {
                    store_le(s, size, v);
                    Ok(0)
                }
            }
        }
        Space::Local => {
            if !in_range(w.local_top as u64) {
                return Err(oob());
            }
            let s = &mut w.lane_local_mut(lane)[a as usize..];
            match value {
                None => Ok(load_le(s, size)),
                Some(v) => {
                    store_le(s, size, v);
                    Ok(0)
                }
            }
        }
        Space::KernelParam => {
            if write || !in_range(k.params.len() as u64) {
                return Err(oob());
            }
            Ok(load_le(&k.params[a as usize..], size))
        }
    }
}

/// Whether [`access`] of `size` bytes at `addr` by `lane` would fault (nothing is read or
/// written). `elems` > 1: a vector access of that many elements, aligned as a whole.
// The per-access arguments of `access`, unbundled to keep this hot check free of a struct.
#[allow(clippy::too_many_arguments)]
fn would_fault(
    k: &LaunchCtx,
    m: &MemCtx,
    w: &Warp,
    space: Space,
    addr: u64,
    size: u32,
    elems: usize,
    write: bool,
) -> bool {
    (0..elems).any(|i| {
        let (sp, a) = resolve(space, addr.wrapping_add(i as u64 * size as u64));
        let in_range = |len: u64| a.checked_add(size as u64).is_some_and(|end| end <= len);
        (i == 0 && a % (size as u64 * elems as u64) != 0)
            || match sp {
                Space::Global | Space::Const | Space::Generic => !m.global.contains(a, size as u64),
                Space::Shared => !in_range(m.shared.len() as u64),
                Space::Local => !in_range(w.local_top as u64),
                Space::KernelParam => write || !in_range(k.params.len() as u64),
            }
    })
}

/// Completes the fault of `lane`, the first lane of `active` whose access faulted: what the
/// address is near, and which lanes of `active` from `lane` on fault too. Cold: it runs once,
/// when a launch fails.
#[cold]
#[inline(never)]
// The faulted access as its callers hold it (`access`'s arguments, the lanes and the fault).
#[allow(clippy::too_many_arguments)]
fn located(
    k: &LaunchCtx,
    m: &MemCtx,
    w: &Warp,
    space: Space,
    addr: &Lanes,
    size: u32,
    elems: usize,
    active: u32,
    lane: usize,
    mut e: FaultKind,
) -> (usize, FaultKind) {
    let from_lane = active & (u32::MAX << lane);
    let write = matches!(
        e,
        FaultKind::OutOfBounds { write: true, .. } | FaultKind::Misaligned { write: true, .. }
    );
    let faulting = lanes(from_lane)
        .filter(|&l| l == lane || would_fault(k, m, w, space, addr[l], size, elems, write))
        .fold(0u32, |acc, l| acc | 1 << l);
    match &mut e {
        FaultKind::OutOfBounds {
            space: sp,
            address,
            size,
            near,
            lanes: l,
            active: a,
            ..
        } => {
            let (_, off) = resolve(space, *address);
            *near = match *sp {
                Space::Global | Space::Const | Space::Generic => {
                    Near::Global(m.global.nearby(off, *size as u64))
                }
                Space::Shared => Near::Window {
                    offset: off,
                    size: m.shared.len() as u64,
                },
                Space::Local => Near::Window {
                    offset: off,
                    size: w.local_top as u64,
                },
                Space::KernelParam => Near::Window {
                    offset: off,
                    size: k.params.len() as u64,
                },
            };
            (*l, *a) = (faulting, active);
        }
        FaultKind::Misaligned {
            lanes: l,
            active: a,
            ..
        } => (*l, *a) = (faulting, active),
        _ => {}
    }
    (lane, e)
}

/// Sign-extends a loaded value of type `ty` to a register of `reg_bits` when `ty` is signed.
#[inline]
fn extend(v: u64, ty: Ty, reg_bits: u8) -> u64 {
    if ty.is_signed() && (ty.bits() as u8) < reg_bits {
        let s = alu::sext(v, ty) as u64;
        if reg_bits >= 64 {
            s
        } else {
            s & ((1u64 << reg_bits) - 1)
        }
    } else {
        v
    }
}

fn vec_regs(o: &Opnd) -> ([u32; 4], usize) {
    match *o {
        Opnd::Vec { regs, n } => (regs, n as usize),
        Opnd::Reg(r) => ([r, 0, 0, 0], 1),
        _ => ([u32::MAX; 4], 1),
    }
}

/// The per-lane rest of a scalar load into the register at `at`: the lanes of `mask` from
/// `first` on, each through [`access`], which reports a fault exactly.
// The scalar load's values as `ld` and `ld_based` hold them, passed on to `access` per lane.
#[allow(clippy::too_many_arguments)]
fn ld_lanes(
    k: &LaunchCtx,
    m: &mut MemCtx,
    w: &mut Warp,
    inst: &Inst,
    addr: &Lanes,
    mask: u32,
    first: usize,
    at: usize,
) -> Result<(), (usize, FaultKind)> {
    let size = inst.ty.bytes().max(1);
    for lane in lanes(mask & (u32::MAX << first)) {
        w.regs[at + lane] = access(k, m, w, lane, inst.mods.space, addr[lane], size, None)
            .map_err(|e| located(k, m, w, inst.mods.space, addr, size, 1, mask, lane, e))?;
    }
    Ok(())
}

/// Sign-extends the loaded lanes of `mask` in the register at `at` (`reg_bits` wide) when
/// the load's type is signed and narrower than the register.
#[inline]
fn extend_lanes(w: &mut Warp, ty: Ty, reg_bits: u8, at: usize, mask: u32) {
    if ty.is_signed() && ty.bits() < u32::from(reg_bits) {
        for lane in lanes(mask) {
            w.regs[at + lane] = extend(w.regs[at + lane], ty, reg_bits);
        }
    }
}

/// A scalar `ld` of `[%base + offset]` (plus the `rel` base) into another register `dst` of
/// `reg_bits` bits: the common load, which `exec::decoded` resolves at load time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LdBased {
    pub dst: RegId,
    pub base: RegId,
    pub rel: AddrRel,
    pub offset: i64,
    pub reg_bits: u8,
}

impl LdBased {
    /// The form of `inst`, when it is such a load (`reg_bits`: the function's register widths).
    pub fn of(inst: &Inst, reg_bits: &[u8]) -> Option<LdBased> {
        match (inst.op, inst.dst[0], inst.src[0]) {
            (
                Op::Ld,
                Opnd::Reg(dst),
                Opnd::Addr {
                    base: Some(base),
                    rel,
                    offset,
                },
            ) if base != dst => Some(LdBased {
                dst,
                base,
                rel,
                offset,
                reg_bits: reg_bits.get(dst as usize).copied().unwrap_or(64),
            }),
            _ => None,
        }
    }
}

/// [`ld`] of an [`LdBased`] form: the addresses summed as the lanes load, reading the base
/// register in place (still intact for the per-lane rest), straight into the destination (a
/// lane that faults ends the launch, so lanes written before it are never seen); the lanes
/// the warp-wide path leaves, per lane.
pub fn ld_based(
    k: &LaunchCtx,
    m: &mut MemCtx,
    w: &mut Warp,
    f: &Frame,
    inst: &Inst,
    l: &LdBased,
    mask: u32,
) -> Result<(), (usize, FaultKind)> {
    let size = inst.ty.bytes().max(1);
    let at = f.reg_base + l.dst as usize * WARP_SIZE;
    let add = rel_base(k, f, l.rel).wrapping_add(l.offset as u64);
    let (base, out) = reg_pair(w, f, l.base, l.dst);
    if let Err(first) = scalar_access::load_based(m, inst.mods.space, base, add, mask, size, out) {
        let mut addr = [0u64; WARP_SIZE];
        addresses(k, m, w, f, &inst.src[0], inst.mods.space, &mut addr);
        ld_lanes(k, m, w, inst, &addr, mask, first, at)?;
    }
    extend_lanes(w, inst.ty, l.reg_bits, at, mask);
    Ok(())
}

/// `ld` in the warp's current frame `f`: returns the first faulting lane.
pub fn ld(
    k: &LaunchCtx,
    m: &mut MemCtx,
    w: &mut Warp,
    f: &Frame,
    func: &Function,
    inst: &Inst,
    mask: u32,
) -> Result<(), (usize, FaultKind)> {
    let f = *f;
    let size = inst.ty.bytes().max(1);
    let (regs, n) = vec_regs(&inst.dst[0]);
    if n == 1 && regs[0] != u32::MAX {
        // Scalar load: the common case. The warp-wide path first, straight into the
        // destination register (a lane that faults ends the launch, so lanes written before
        // it are never seen); the lanes it leaves (from the first that may fault, or all of
        // them in the spaces it does not handle) per lane.
        let r = regs[0];
        let bits = func.reg_bits.get(r as usize).copied().unwrap_or(64);
        let at = f.reg_base + r as usize * WARP_SIZE;
        match inst.src[0] {
            // `[%r+imm]` into another register: the addresses summed as the lanes load,
            // reading the base register in place (still intact for the per-lane rest).
            Opnd::Addr {
                base: Some(b),
                rel,
                offset,
            } if b != r => {
                return ld_based(
                    k,
                    m,
                    w,
                    &f,
                    inst,
                    &LdBased {
                        dst: r,
                        base: b,
                        rel,
                        offset,
                        reg_bits: bits,
                    },
                    mask,
                );
            }
            // One address for every lane (a kernel parameter, a variable) outside per-thread
            // local memory: one access gives every lane its value, or the first lane its fault.
            Opnd::Addr {
                base: None,
                rel,
                offset,
            } if !matches!(inst.mods.space, Space::Local | Space::Generic) => {
                let wrap = if inst.mods.space == Space::Shared {
                    u64::from(u32::MAX)
                } else {
                    u64::MAX
                };
                let a = rel_base(k, &f, rel).wrapping_add(offset as u64) & wrap;
                let lane = mask.trailing_zeros() as usize;
                let v = access(k, m, w, lane, inst.mods.space, a, size, None).map_err(|e| {
                    located(
                        k,
                        m,
                        w,
                        inst.mods.space,
                        &[a; WARP_SIZE],
                        size,
                        1,
                        mask,
                        lane,
                        e,
                    )
                })?;
                let out = reg_lanes_mut(w, &f, r);
                for l in lanes(mask) {
                    out[l] = v;
                }
            }
            // Otherwise the addresses first (the destination may be the address register).
            _ => {
                let mut addr = [0u64; WARP_SIZE];
                addresses(k, m, w, &f, &inst.src[0], inst.mods.space, &mut addr);
                if let Err(first) = scalar_access::load(
                    m,
                    inst.mods.space,
                    &addr,
                    mask,
                    size,
                    reg_lanes_mut(w, &f, r),
                ) {
                    ld_lanes(k, m, w, inst, &addr, mask, first, at)?;
                }
            }
        }
        extend_lanes(w, inst.ty, bits, at, mask);
        return Ok(());
    }
    let mut addr = [0u64; WARP_SIZE];
    addresses(k, m, w, &f, &inst.src[0], inst.mods.space, &mut addr);
    if n == 1 {
        // A load into the sink `_`: the accesses only (they may fault).
        for lane in lanes(mask) {
            access(k, m, w, lane, inst.mods.space, addr[lane], size, None)
                .map_err(|e| located(k, m, w, inst.mods.space, &addr, size, 1, mask, lane, e))?;
        }
        return Ok(());
    }
    // Vector load: the warp-wide path first, each lane's elements into a staging array (the
    // destination registers may include the address register: all addresses are taken
    // already, and registers are written only after the loads, lane by lane as before); the
    // lanes it leaves (from the first that may fault), per lane.
    let mut vals = [[0u64; WARP_SIZE]; 4];
    let (done, rest) =
        match super::vector_access::load(m, inst.mods.space, &addr, mask, size, n, &mut vals) {
            Ok(()) => (mask, 0),
            Err(first) => (mask & !(u32::MAX << first), mask & (u32::MAX << first)),
        };
    for (i, &r) in regs.iter().enumerate().take(n) {
        if r != u32::MAX {
            let bits = func.reg_bits.get(r as usize).copied().unwrap_or(64);
            let at = f.reg_base + r as usize * WARP_SIZE;
            for lane in lanes(done) {
                w.regs[at + lane] = extend(vals[i][lane], inst.ty, bits);
            }
        }
    }
    for lane in lanes(rest) {
        if addr[lane] % (size as u64 * n as u64) != 0 {
            let (sp, _) = resolve(inst.mods.space, addr[lane]);
            let e = FaultKind::Misaligned {
                space: sp,
                address: addr[lane],
                size: size * n as u32,
                write: false,
                lanes: 0,
                active: 0,
            };
            return Err(located(
                k,
                m,
                w,
                inst.mods.space,
                &addr,
                size,
                n,
                mask,
                lane,
                e,
            ));
        }
        for (i, &r) in regs.iter().enumerate().take(n) {
            let v = access(
                k,
                m,
                w,
                lane,
                inst.mods.space,
                addr[lane].wrapping_add(i as u64 * size as u64),
                size,
                None,
            )
            .map_err(|e| located(k, m, w, inst.mods.space, &addr, size, n, mask, lane, e))?;
            if r != u32::MAX {
                let bits = func.reg_bits.get(r as usize).copied().unwrap_or(64);
                w.regs[f.reg_base + r as usize * WARP_SIZE + lane] = extend(v, inst.ty, bits);
            }
        }
    }
    Ok(())
}

/// `st`.
pub fn st(
    k: &LaunchCtx,
    m: &mut MemCtx,
    w: &mut Warp,
    inst: &Inst,
    mask: u32,
) -> Result<(), (usize, FaultKind)> {
    let f = w.frame();
    let mut addr = [0u64; WARP_SIZE];
    addresses(k, m, w, &f, &inst.src[0], inst.mods.space, &mut addr);
    let size = inst.ty.bytes().max(1);
    // Scalar stores: the warp-wide path with the values read in place; the per-lane path
    // below takes the lanes it leaves (from the first that may fault), in lane order.
    let mut rest = mask;
    if !matches!(inst.src[1], Opnd::Vec { .. }) {
        let mut tmp = None;
        let vals = source(k, m, w, &f, &inst.src[1], &mut tmp);
        rest = match scalar_access::store(m, inst.mods.space, &addr, mask, size, vals) {
            Ok(()) => return Ok(()),
            Err(first) => mask & (u32::MAX << first),
        };
    }
    let mut vals = [[0u64; WARP_SIZE]; 4];
    let n = match inst.src[1] {
        Opnd::Vec { regs, n } => {
            for i in 0..n as usize {
                gather(k, m, w, &f, &Opnd::Reg(regs[i]), &mut vals[i]);
            }
            n as usize
        }
        ref o => {
            gather(k, m, w, &f, o, &mut vals[0]);
            1
        }
    };
    if n > 1 {
        // Vector store: the warp-wide path, then the lanes it leaves per lane.
        if let Err(first) =
            super::vector_access::store(m, inst.mods.space, &addr, rest, size, n, &vals)
        {
            rest &= u32::MAX << first;
        } else {
            return Ok(());
        }
    }
    for lane in lanes(rest) {
        if n > 1 && addr[lane] % (size as u64 * n as u64) != 0 {
            let (sp, _) = resolve(inst.mods.space, addr[lane]);
            let e = FaultKind::Misaligned {
                space: sp,
                address: addr[lane],
                size: size * n as u32,
                write: true,
                lanes: 0,
                active: 0,
            };
            return Err(located(
                k,
                m,
                w,
                inst.mods.space,
                &addr,
                size,
                n,
                mask,
                lane,
                e,
            ));
        }
        for (i, v) in vals.iter().enumerate().take(n) {
            access(
                k,
                m,
                w,
                lane,
                inst.mods.space,
                addr[lane].wrapping_add(i as u64 * size as u64),
                size,
                Some(v[lane]),
            )
            .map_err(|e| located(k, m, w, inst.mods.space, &addr, size, n, mask, lane, e))?;
        }
    }
    Ok(())
}

/// The new value an atomic stores, given the old one.
fn atom_apply(op: AtomOp, ty: Ty, old: u64, b: u64, c: u64) -> u64 {
    let mask = ty.mask();
    let (old, b) = (old & mask, b & mask);
    let rn = Mods {
        rounding: Rounding::Rn,
        ..Mods::default()
    };
    let v = match op {
        AtomOp::Add if ty.is_float() => alu::float_binary(Op::FAdd, ty, &rn, old, b),
        AtomOp::Add => old.wrapping_add(b),
        AtomOp::Inc => {
            if old >= b {
                0
            } else {
                old + 1
            }
        }
        AtomOp::Dec => {
            if old == 0 || old > b {
                b
            } else {
                old - 1
            }
        }
        AtomOp::Exch => b,
        AtomOp::Cas => {
            if old == b {
                c
            } else {
                old
            }
        }
        AtomOp::Min | AtomOp::Max if ty.is_float() => alu::float_binary(
            if op == AtomOp::Min {
                Op::FMin
            } else {
                Op::FMax
            },
            ty,
            &Mods::default(),
            old,
            b,
        ),
        AtomOp::Min | AtomOp::Max => {
            let less = if ty.is_signed() {
                alu::sext(old, ty) < alu::sext(b, ty)
            } else {
                old < b
            };
            if less == (op == AtomOp::Min) {
                old
            } else {
                b
            }
        }
        AtomOp::And => old & b,
        AtomOp::Or => old | b,
        AtomOp::Xor => old ^ b,
        AtomOp::MbarInit => super::mbarrier::init(b),
        AtomOp::MbarArrive => super::mbarrier::arrive(old, b),
        AtomOp::MbarInval => 0,
        AtomOp::MbarTest | AtomOp::MbarTestParity | AtomOp::MbarKeep => old,
    };
    v & mask
}

/// `atom` and `red` (and the `mbarrier` instructions, lowered to them): lanes are applied in
/// lane order, each a read-modify-write. Under a staged view of global memory (the timing
/// model, `global.rs`) the lanes with a global address are checked here and applied at the
/// cycle's commit ([`atom_commit`]), their old values written to the destination then.
pub fn atom(
    k: &LaunchCtx,
    m: &mut MemCtx,
    w: &mut Warp,
    inst: &Inst,
    mask: u32,
) -> Result<(), (usize, FaultKind)> {
    let f = w.frame();
    let mut addr = [0u64; WARP_SIZE];
    let (mut b, mut c) = ([0u64; WARP_SIZE], [0u64; WARP_SIZE]);
    addresses(k, m, w, &f, &inst.src[0], inst.mods.space, &mut addr);
    gather(k, m, w, &f, &inst.src[1], &mut b);
    gather(k, m, w, &f, &inst.src[2], &mut c);
    let size = inst.ty.bytes().max(1);
    let staged = m.global.journal().is_some();
    let mut old = [0u64; WARP_SIZE];
    let mut deferred = 0u32;
    for lane in lanes(mask) {
        let o = access(k, m, w, lane, inst.mods.space, addr[lane], size, None)
            .map_err(|e| located(k, m, w, inst.mods.space, &addr, size, 1, mask, lane, e))?;
        if staged && is_global(inst.mods.space, addr[lane]) {
            deferred |= 1 << lane; // checked: applied at the commit
            continue;
        }
        let (n, reg) = atom_lane(inst.mods.atom, inst.ty, o, b[lane], c[lane]);
        access(k, m, w, lane, inst.mods.space, addr[lane], size, Some(n))
            .map_err(|e| located(k, m, w, inst.mods.space, &addr, size, 1, mask, lane, e))?;
        old[lane] = reg;
    }
    if inst.op == Op::Atom {
        scatter(w, &f, &inst.dst[0], mask & !deferred, &old);
    }
    if let (true, Some(journal)) = (deferred != 0, m.global.journal()) {
        let op = DeferredOp::Atom {
            op: inst.op,
            atom: inst.mods.atom,
            ty: inst.ty,
            space: inst.mods.space,
            size,
            dst: inst.dst[0],
            addr,
            b,
            c,
        };
        journal.defer(f, deferred, op);
    }
    Ok(())
}

/// The value an atomic lane stores and the one its destination receives, from the old value
/// `o` and the operands `b`, `c`.
#[inline]
fn atom_lane(op: AtomOp, ty: Ty, o: u64, b: u64, c: u64) -> (u64, u64) {
    let n = atom_apply(op, ty, o, b, c);
    let reg = match op {
        AtomOp::MbarTest => super::mbarrier::completed(o, b) as u64,
        AtomOp::MbarTestParity => super::mbarrier::parity_completed(o, b) as u64,
        _ => o,
    };
    (n, reg)
}

/// Whether a lane's address in `space` lies in global memory.
#[inline]
fn is_global(space: Space, addr: u64) -> bool {
    matches!(
        resolve(space, addr).0,
        Space::Global | Space::Const | Space::Generic
    )
}

/// The commit of a deferred atomic ([`atom`] under a staged view): its lanes in lane order,
/// against global memory as the commit has it so far.
pub(crate) fn atom_commit(
    k: &LaunchCtx,
    m: &mut MemCtx,
    w: &mut Warp,
    d: &Deferred,
) -> Result<(), (usize, FaultKind)> {
    let DeferredOp::Atom {
        op,
        atom,
        ty,
        space,
        size,
        dst,
        addr,
        b,
        c,
    } = &d.op
    else {
        return Ok(());
    };
    let mut old = [0u64; WARP_SIZE];
    for lane in lanes(d.mask) {
        let o = access(k, m, w, lane, *space, addr[lane], *size, None)
            .map_err(|e| located(k, m, w, *space, addr, *size, 1, d.mask, lane, e))?;
        let (n, reg) = atom_lane(*atom, *ty, o, b[lane], c[lane]);
        access(k, m, w, lane, *space, addr[lane], *size, Some(n))
            .map_err(|e| located(k, m, w, *space, addr, *size, 1, d.mask, lane, e))?;
        old[lane] = reg;
    }
    if *op == Op::Atom {
        scatter(w, &d.frame, dst, d.mask, &old);
    }
    Ok(())
}

/// Reads a NUL-terminated string at a generic address for `lane` (printf formats, assert
/// messages); stops at 64 KiB or at the first byte that cannot be read.
pub fn read_cstr(k: &LaunchCtx, m: &mut MemCtx, w: &mut Warp, lane: usize, addr: u64) -> String {
    let mut bytes = Vec::new();
    while bytes.len() < 65536 {
        match access(
            k,
            m,
            w,
            lane,
            Space::Generic,
            addr.wrapping_add(bytes.len() as u64),
            1,
            None,
        ) {
            Ok(0) | Err(_) => break,
            Ok(b) => bytes.push(b as u8),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}
