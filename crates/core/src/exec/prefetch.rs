//! Software prefetch of the warp state a functional slice touches first. Hints only: nothing
//! here reads or writes architectural state, so results cannot depend on it.
//!
//! Why: the functional scheduler (`grid.rs`) visits up to 120 resident CTAs in a fixed order
//! (the order is part of the results: atomics, `printf`), each CTA one barrier phase a round.
//! A round's working set — every warp's register file (55 registers × 32 lanes × 8 bytes =
//! 14 KiB a warp in cuda-samples' `scan`), SIMT stack and frames — is ~13 MiB, far past the
//! L2, and each warp's slice (barrier to barrier, a handful of instructions) began with
//! cache misses on the warp's frame, its SIMT entry and its source registers (`perf`: the
//! first register load of the lane loops and the frame copy in `step` were a third of their
//! functions' time).
//!
//! The scheduler knows which CTAs come next, so it asks for their state ahead, in stages that
//! each read only what the stage before brought in a CTA earlier: a prefetch address that had
//! to wait for a missing pointer would stall as the miss it avoids does.

use super::context::LaunchCtx;
use super::cta::Cta;
use super::warp::{Warp, WARP_SIZE};
use crate::ir::Opnd;

/// Bytes a cache line holds on the machines warpsim runs on.
const LINE: usize = 64;
/// Instructions from a warp's PC whose registers [`registers`] asks for: a slice's first
/// few (straight-line; a branch among them costs a useless hint, never a wrong result).
const AHEAD: usize = 2;

/// A hint that the line holding `p` will be read soon.
#[inline(always)]
fn line<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `prefetcht0` never faults and changes no architectural state, whatever the
    // address; SSE is part of the x86-64 baseline.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Stage 1 (three CTAs ahead): the CTA's `Warp` structs.
#[inline]
pub fn warps(cta: &Cta) {
    let bytes = std::mem::size_of_val(cta.warps.as_slice());
    let base = cta.warps.as_ptr().cast::<u8>();
    for off in (0..bytes).step_by(LINE) {
        line(base.wrapping_add(off));
    }
}

/// Stage 2 (two CTAs ahead): each warp's top SIMT entry, innermost frame and predicates.
#[inline]
pub fn tops(cta: &Cta) {
    for w in &cta.warps {
        line(w.simt.as_ptr().wrapping_add(w.simt.len().saturating_sub(1)));
        line(
            w.frames
                .as_ptr()
                .wrapping_add(w.frames.len().saturating_sub(1)),
        );
        line(w.preds.as_ptr());
    }
}

/// Stage 3 (the next CTA): the registers the first [`AHEAD`] instructions of each warp's
/// slice name.
#[inline]
pub fn registers(k: &LaunchCtx, cta: &Cta) {
    for w in &cta.warps {
        let (Some(t), Some(f)) = (w.simt.last(), w.frames.last()) else {
            continue;
        };
        let Some(func) = k.module.functions.get(f.func as usize) else {
            continue;
        };
        let from = t.pc as usize;
        for inst in func.insts.iter().skip(from).take(AHEAD) {
            for o in inst.dst.iter().chain(&inst.src) {
                match *o {
                    Opnd::Reg(r) | Opnd::Addr { base: Some(r), .. } => register(w, f.reg_base, r),
                    Opnd::Vec { regs, n } => {
                        for &r in regs.iter().take(n as usize) {
                            register(w, f.reg_base, r);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

/// The lines of register `r`'s 32 lanes in a frame at `reg_base`.
#[inline(always)]
fn register(w: &Warp, reg_base: usize, r: u32) {
    let at = reg_base + r as usize * WARP_SIZE;
    if at + WARP_SIZE > w.regs.len() {
        return;
    }
    let p = w.regs.as_ptr().wrapping_add(at).cast::<u8>();
    for off in (0..WARP_SIZE * 8).step_by(LINE) {
        line(p.wrapping_add(off));
    }
}
