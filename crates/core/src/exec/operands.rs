//! Reading operands for all 32 lanes at once and writing results back under a lane mask.

use super::context::{LaunchCtx, MemCtx};
use super::warp::{lanes, Frame, Warp, WARP_SIZE};
use crate::ir::{layout, AddrRel, Opnd, RegId, Sreg};

pub type Lanes = [u64; WARP_SIZE];

/// The base an [`AddrRel`] adds, for the warp's current frame.
#[inline]
pub fn rel_base(k: &LaunchCtx, f: &Frame, rel: AddrRel) -> u64 {
    match rel {
        AddrRel::Absolute => 0,
        AddrRel::Frame => f.local_base as u64,
        AddrRel::DynShared => k.dyn_shared_base as u64,
        AddrRel::ModuleGlobals => k.globals_base,
    }
}

/// Thread index (x, y, z) of `lane` in warp `warp` of a CTA of shape `block`.
#[inline]
pub fn thread_index(block: [u32; 3], warp: u32, lane: usize) -> [u32; 3] {
    let linear = warp * WARP_SIZE as u32 + lane as u32;
    let (bx, by) = (block[0].max(1), block[1].max(1));
    [linear % bx, (linear / bx) % by, linear / (bx * by)]
}

fn sreg(k: &LaunchCtx, m: &MemCtx, w: &Warp, s: Sreg, lane: usize) -> u64 {
    let tid = || thread_index(k.block, w.index, lane);
    let warps_per_cta = (k.block[0] * k.block[1] * k.block[2]).div_ceil(WARP_SIZE as u32);
    match s {
        Sreg::TidX => tid()[0] as u64,
        Sreg::TidY => tid()[1] as u64,
        Sreg::TidZ => tid()[2] as u64,
        Sreg::NtidX => k.block[0] as u64,
        Sreg::NtidY => k.block[1] as u64,
        Sreg::NtidZ => k.block[2] as u64,
        Sreg::CtaidX => m.cta[0] as u64,
        Sreg::CtaidY => m.cta[1] as u64,
        Sreg::CtaidZ => m.cta[2] as u64,
        Sreg::NctaidX => k.grid[0] as u64,
        Sreg::NctaidY => k.grid[1] as u64,
        Sreg::NctaidZ => k.grid[2] as u64,
        Sreg::Laneid => lane as u64,
        Sreg::Warpid => w.index as u64,
        Sreg::Nwarpid => warps_per_cta as u64,
        Sreg::Smid => k.smid as u64,
        Sreg::Nsmid => k.num_sms as u64,
        Sreg::Gridid => k.gridid,
        Sreg::Clock => m.clock as u32 as u64,
        Sreg::ClockHi => m.clock >> 32,
        Sreg::Clock64 | Sreg::GlobalTimer => m.clock,
        Sreg::GlobalTimerLo => m.clock as u32 as u64,
        Sreg::GlobalTimerHi => m.clock >> 32,
        Sreg::LanemaskEq => 1u64 << lane,
        Sreg::LanemaskLt => (1u64 << lane) - 1,
        Sreg::LanemaskLe => (1u64 << (lane + 1)) - 1,
        Sreg::LanemaskGt => (!((1u64 << (lane + 1)) - 1)) & 0xffff_ffff,
        Sreg::LanemaskGe => (!((1u64 << lane) - 1)) & 0xffff_ffff,
        Sreg::TotalSmemSize => m.shared.len() as u64,
        Sreg::AggrSmemSize => m.shared.len() as u64,
        Sreg::DynamicSmemSize => k.dyn_shared_bytes as u64,
        Sreg::PerfCounter
        | Sreg::CurrentGraphExec
        | Sreg::ClusterZero
        | Sreg::IsExplicitCluster => 0,
        Sreg::ClusterOne => 1,
        Sreg::ClusteridX => m.cta[0] as u64,
        Sreg::ClusteridY => m.cta[1] as u64,
        Sreg::ClusteridZ => m.cta[2] as u64,
        Sreg::NclusteridX => k.grid[0] as u64,
        Sreg::NclusteridY => k.grid[1] as u64,
        Sreg::NclusteridZ => k.grid[2] as u64,
        // What CUDA's driver passes there for cooperative groups: the grid-sync workspace.
        Sreg::Envreg(1) => k.grid_workspace >> 32,
        Sreg::Envreg(2) => k.grid_workspace & 0xffff_ffff,
        Sreg::Envreg(_) => 0,
    }
}

/// Whether special register `s` differs between the lanes of a warp (the thread index, the
/// lane and its masks); every other one [`sreg`] gives the same value for every lane.
fn varies_by_lane(s: Sreg) -> bool {
    matches!(
        s,
        Sreg::TidX
            | Sreg::TidY
            | Sreg::TidZ
            | Sreg::Laneid
            | Sreg::LanemaskEq
            | Sreg::LanemaskLt
            | Sreg::LanemaskLe
            | Sreg::LanemaskGt
            | Sreg::LanemaskGe
    )
}

/// Reads a source operand for every lane (inactive lanes get harmless values).
#[inline]
pub fn gather(k: &LaunchCtx, m: &MemCtx, w: &Warp, f: &Frame, o: &Opnd, out: &mut Lanes) {
    match *o {
        Opnd::Reg(r) => {
            let b = f.reg_base + r as usize * WARP_SIZE;
            out.copy_from_slice(&w.regs[b..b + WARP_SIZE]);
        }
        Opnd::Imm(v) => *out = [v; WARP_SIZE],
        Opnd::Pred { id, negated } => {
            let bits = w.preds[f.pred_base + id as usize] ^ if negated { u32::MAX } else { 0 };
            for (l, v) in out.iter_mut().enumerate() {
                *v = ((bits >> l) & 1) as u64;
            }
        }
        Opnd::Sreg(s) if varies_by_lane(s) => {
            for (l, v) in out.iter_mut().enumerate() {
                *v = sreg(k, m, w, s, l);
            }
        }
        // The same for every lane (`%ctaid`, `%ntid`…): read once.
        Opnd::Sreg(s) => *out = [sreg(k, m, w, s, 0); WARP_SIZE],
        Opnd::SymAddr { rel, offset } => {
            *out = [rel_base(k, f, rel).wrapping_add(offset as u64); WARP_SIZE]
        }
        Opnd::Addr { .. } | Opnd::Vec { .. } | Opnd::None | Opnd::Sink => *out = [0; WARP_SIZE],
    }
}

/// A source operand's 32 lane values without copying a register: a register operand is
/// borrowed from the warp's register file, anything else is [`gather`]ed into `tmp` (filled
/// only then: declaring `None` costs one store, zeroing 256 bytes thirty-two).
#[inline]
pub fn source<'a>(
    k: &LaunchCtx,
    m: &MemCtx,
    w: &'a Warp,
    f: &Frame,
    o: &Opnd,
    tmp: &'a mut Option<Lanes>,
) -> &'a Lanes {
    match *o {
        Opnd::Reg(r) => return reg_lanes(w, f, r),
        Opnd::None => return &ZERO_LANES,
        _ => {}
    }
    let t = tmp.insert([0; WARP_SIZE]);
    gather(k, m, w, f, o, t);
    t
}

/// 32 zero lanes: the value of an absent source operand, without filling a scratch array.
pub static ZERO_LANES: Lanes = [0; WARP_SIZE];

/// The destination register `dst`'s lanes to write in place and the lanes of three sources,
/// when each source is another register (read in place) or absent ([`ZERO_LANES`]); `None`
/// when a source is an immediate, a special register or `dst` itself (the caller then goes
/// through a scratch array). For whole-warp loops that compute every lane: the result goes
/// straight into the register file, with no scratch array to fill and copy.
#[inline(always)]
pub fn dst_and_regs<'a>(
    w: &'a mut Warp,
    f: &Frame,
    dst: RegId,
    srcs: [&Opnd; 3],
) -> Option<(&'a mut Lanes, [&'a Lanes; 3])> {
    const ABSENT: usize = usize::MAX;
    let mut at = [ABSENT; 3];
    for (a, o) in at.iter_mut().zip(srcs) {
        match *o {
            Opnd::Reg(r) if r != dst => *a = f.reg_base + r as usize * WARP_SIZE,
            Opnd::None => {}
            _ => return None,
        }
    }
    let d0 = f.reg_base + dst as usize * WARP_SIZE;
    let (lo, rest) = w.regs.split_at_mut(d0);
    let (out, hi) = rest.split_at_mut(WARP_SIZE);
    let (lo, hi) = (&*lo, &*hi);
    let view = |s0: usize| -> &'a Lanes {
        if s0 == ABSENT {
            return &ZERO_LANES;
        }
        let lanes = if s0 < d0 {
            &lo[s0..s0 + WARP_SIZE]
        } else {
            &hi[s0 - d0 - WARP_SIZE..s0 - d0]
        };
        <&Lanes>::try_from(lanes).expect("a 32-lane slice")
    };
    Some((
        <&mut Lanes>::try_from(out).expect("a 32-lane slice"),
        [view(at[0]), view(at[1]), view(at[2])],
    ))
}

/// Register `r`'s 32 lane values, in place.
#[inline]
pub fn reg_lanes<'a>(w: &'a Warp, f: &Frame, r: RegId) -> &'a Lanes {
    let b = f.reg_base + r as usize * WARP_SIZE;
    <&Lanes>::try_from(&w.regs[b..b + WARP_SIZE]).expect("a 32-lane slice")
}

/// Register `r`'s 32 lane values, to write in place.
#[inline]
pub fn reg_lanes_mut<'a>(w: &'a mut Warp, f: &Frame, r: RegId) -> &'a mut Lanes {
    let b = f.reg_base + r as usize * WARP_SIZE;
    <&mut Lanes>::try_from(&mut w.regs[b..b + WARP_SIZE]).expect("a 32-lane slice")
}

/// Register `src`'s 32 lane values to read and register `dst`'s (a different register) to
/// write, both in place: an instruction reading one register and writing another needs no
/// copy of either.
#[inline]
pub fn reg_pair<'a>(
    w: &'a mut Warp,
    f: &Frame,
    src: RegId,
    dst: RegId,
) -> (&'a Lanes, &'a mut Lanes) {
    debug_assert_ne!(src, dst);
    let (s, d) = (
        f.reg_base + src as usize * WARP_SIZE,
        f.reg_base + dst as usize * WARP_SIZE,
    );
    let (read, write) = if s < d {
        let (lo, hi) = w.regs.split_at_mut(d);
        (&lo[s..s + WARP_SIZE], &mut hi[..WARP_SIZE])
    } else {
        let (lo, hi) = w.regs.split_at_mut(s);
        (&hi[..WARP_SIZE], &mut lo[d..d + WARP_SIZE])
    };
    (
        <&Lanes>::try_from(read).expect("a 32-lane slice"),
        <&mut Lanes>::try_from(write).expect("a 32-lane slice"),
    )
}

/// Reads a predicate operand as a lane mask.
#[inline]
pub fn pred_mask(w: &Warp, f: &Frame, o: &Opnd) -> u32 {
    match *o {
        Opnd::Pred { id, negated } => {
            w.preds[f.pred_base + id as usize] ^ if negated { u32::MAX } else { 0 }
        }
        Opnd::Imm(v) if v != 0 => u32::MAX,
        _ => 0,
    }
}

/// Writes `vals` to register `r` for the lanes in `mask`.
#[inline]
pub fn write_reg(w: &mut Warp, f: &Frame, r: RegId, mask: u32, vals: &Lanes) {
    let b = f.reg_base + r as usize * WARP_SIZE;
    let dst = &mut w.regs[b..b + WARP_SIZE];
    if mask == u32::MAX {
        dst.copy_from_slice(vals);
    } else {
        for l in lanes(mask) {
            dst[l] = vals[l];
        }
    }
}

/// Writes a destination operand (register or predicate; sinks are ignored).
#[inline]
pub fn scatter(w: &mut Warp, f: &Frame, o: &Opnd, mask: u32, vals: &Lanes) {
    match *o {
        Opnd::Reg(r) => write_reg(w, f, r, mask, vals),
        Opnd::Pred { id, .. } => {
            let mut bits = 0u32;
            for l in lanes(mask) {
                bits |= ((vals[l] != 0) as u32) << l;
            }
            write_pred(w, f, id, mask, bits);
        }
        _ => {}
    }
}

/// Sets predicate `id` to `bits` in the lanes of `mask`.
#[inline]
pub fn write_pred(w: &mut Warp, f: &Frame, id: u16, mask: u32, bits: u32) {
    let p = &mut w.preds[f.pred_base + id as usize];
    *p = (*p & !mask) | (bits & mask);
}

/// Generic address → (window, offset) classification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    Global(u64),
    Shared(u64),
    Local(u64),
}

#[inline]
pub fn classify_generic(addr: u64) -> Window {
    if (layout::SHARED_WINDOW..layout::SHARED_WINDOW + layout::WINDOW_SIZE).contains(&addr) {
        Window::Shared(addr - layout::SHARED_WINDOW)
    } else if (layout::LOCAL_WINDOW..layout::LOCAL_WINDOW + layout::WINDOW_SIZE).contains(&addr) {
        Window::Local(addr - layout::LOCAL_WINDOW)
    } else {
        Window::Global(addr)
    }
}
