//! Tensor-core instructions, functionally: `wmma.load/store` move a fragment between memory
//! and registers, `wmma.mma`/`mma.sync` multiply and accumulate across the warp's fragments
//! (`mma.rs`), `ldmatrix` loads 8×8 b16 matrices from rows whose addresses the lanes supply
//! (`ldmatrix.rs`). Fragment layouts: `layout.rs`; the memory a fragment load or store
//! touches, for the timing model: `footprint.rs`.
//!
//! These are `.sync.aligned` warp-collective instructions: PTX requires every lane of the warp
//! to execute them together, with the same operands' shapes. warpsim reads the fragments (or
//! row addresses) of all 32 lanes, whatever the mask, and writes results to the executing
//! lanes only; a program that runs one with lanes missing is outside the ISA, and sees the
//! registers those lanes happened to hold.

pub mod footprint;
pub mod layout;
mod ldmatrix;
mod mma;

use super::context::{LaunchCtx, MemCtx};
use super::fault::FaultKind;
use super::mem_ops::{access, addresses};
use super::operands::Lanes;
use super::warp::{lanes, Frame, Warp, WARP_SIZE};
use crate::ir::{Elem, Function, Inst, Matrix, RegId, TensorInst, TensorKind};

/// Executes the tensor-core instruction `inst` (its form in `func.tensor`) for the lanes of
/// `exec`. Returns the first faulting lane of a memory access.
pub fn execute(
    k: &LaunchCtx,
    m: &mut MemCtx,
    w: &mut Warp,
    func: &Function,
    inst: &Inst,
    exec: u32,
) -> Result<(), (usize, FaultKind)> {
    let t = &func.tensor[inst.target as usize];
    match t.kind {
        TensorKind::WmmaLoad(matrix) => wmma_move(k, m, w, inst, t, matrix, exec, false),
        TensorKind::WmmaStore => wmma_move(k, m, w, inst, t, Matrix::C, exec, true),
        TensorKind::WmmaMma | TensorKind::Mma => {
            mma::execute(w, t, exec);
            Ok(())
        }
        TensorKind::Ldmatrix { count, trans } => {
            ldmatrix::execute(k, m, w, inst, &t.d_regs, count, trans, exec)
        }
    }
}

/// Rows and columns of `matrix` in `t`'s shape.
fn dims(t: &TensorInst, matrix: Matrix) -> (usize, usize) {
    let (m, n, k) = (t.m as usize, t.n as usize, t.k as usize);
    match matrix {
        Matrix::A => (m, k),
        Matrix::B => (k, n),
        Matrix::C => (m, n),
    }
}

/// One lane's register `r`.
fn reg(w: &Warp, f: &Frame, r: RegId, lane: usize) -> u64 {
    w.regs[f.reg_base + r as usize * WARP_SIZE + lane]
}

fn set_reg(w: &mut Warp, f: &Frame, r: RegId, lane: usize, v: u64) {
    w.regs[f.reg_base + r as usize * WARP_SIZE + lane] = v;
}

/// Element `e` of a fragment of `e_ty` elements held in `regs` (see `layout`).
fn element(w: &Warp, f: &Frame, regs: &[RegId], e_ty: Elem, lane: usize, e: usize) -> u32 {
    let per = e_ty.per_reg() as usize;
    let bits = e_ty.bits();
    let v = reg(w, f, regs[e / per], lane) >> ((e % per) as u32 * bits);
    (v & ((1u64 << bits) - 1)) as u32
}

/// `wmma.load` (`store` false: memory → `t.d_regs`) or `wmma.store` (`t.c_regs` → memory).
/// Element (r, c) of the matrix is at `address + (r·stride + c)·size` for a row-major matrix
/// and `address + (c·stride + r)·size` for a column-major one; the stride (in elements)
/// defaults to the matrix's own row length (row-major) or column length (column-major).
/// Every lane moves its own fragment through its own address and stride: PTX requires them
/// to be the same in every lane, and then so is the result.
// One call per instruction: the context, the form and the direction side by side.
#[allow(clippy::too_many_arguments)]
fn wmma_move(
    k: &LaunchCtx,
    m: &mut MemCtx,
    w: &mut Warp,
    inst: &Inst,
    t: &TensorInst,
    matrix: Matrix,
    exec: u32,
    store: bool,
) -> Result<(), (usize, FaultKind)> {
    let f = w.frame();
    let space = inst.mods.space;
    let mut addr: Lanes = [0; WARP_SIZE];
    addresses(k, m, w, &f, &inst.src[0], space, &mut addr);
    let stride = footprint::strides(k, m, w, &f, inst, t, matrix);
    let e_ty = t.a;
    let size = e_ty.bits() / 8;
    let regs = if store { &t.c_regs } else { &t.d_regs };
    let per = e_ty.per_reg() as usize;
    for lane in lanes(exec) {
        // A fragment is at most 8 registers (the lowering checks each form's count).
        let mut vals = [0u64; 8];
        for e in 0..regs.len().min(8) * per {
            let a = footprint::element_addr(t, matrix, addr[lane], stride[lane], lane, e);
            if store {
                let v = element(w, &f, regs, e_ty, lane, e);
                access(k, m, w, lane, space, a, size, Some(u64::from(v))).map_err(|e| (lane, e))?;
            } else {
                let v = access(k, m, w, lane, space, a, size, None).map_err(|e| (lane, e))?;
                let mask = (1u64 << e_ty.bits()) - 1;
                vals[e / per] |= (v & mask) << ((e % per) as u32 * e_ty.bits());
            }
        }
        if !store {
            for (&r, &v) in regs.iter().zip(&vals) {
                set_reg(w, &f, r, lane, v);
            }
        }
    }
    Ok(())
}
