//! `ldmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans].shared.b16` (PTX ISA "Warp-level
//! matrix load instruction: ldmatrix"): `count` 8×8 matrices of 16-bit elements, matrix `j`'s
//! row `r` being the 16 bytes at the address held by lane `8j + r`. Lane `l` receives in its
//! register `j` the elements (row `l/4`, columns `2(l%4)` and `+1`) of matrix `j`, the lower
//! column in the low half; `.trans` delivers the transposed matrix: (rows `2(l%4)`, `+1`,
//! column `l/4`).

use super::set_reg;
use crate::exec::context::{LaunchCtx, MemCtx};
use crate::exec::fault::FaultKind;
use crate::exec::mem_ops::{access, addresses};
use crate::exec::operands::Lanes;
use crate::exec::warp::{lanes, Warp, WARP_SIZE};
use crate::ir::{Inst, RegId};

/// Loads the matrices into `regs` of the lanes of `exec`. A row address must be 16-byte
/// aligned. Every supplying lane's address is read, whether or not it executes (the
/// instruction is warp-collective); a fault names the lane that supplied the address.
// One call per instruction: the context and the form side by side.
#[allow(clippy::too_many_arguments)]
pub fn execute(
    k: &LaunchCtx,
    m: &mut MemCtx,
    w: &mut Warp,
    inst: &Inst,
    regs: &[RegId],
    count: u8,
    trans: bool,
    exec: u32,
) -> Result<(), (usize, FaultKind)> {
    let f = w.frame();
    let space = inst.mods.space;
    let mut addr: Lanes = [0; WARP_SIZE];
    addresses(k, m, w, &f, &inst.src[0], space, &mut addr);
    let mut mats = [[[0u16; 8]; 8]; 4];
    for (j, mat) in mats.iter_mut().enumerate().take(count as usize) {
        for (r, row) in mat.iter_mut().enumerate() {
            let lane = j * 8 + r;
            let a = addr[lane];
            if !a.is_multiple_of(16) {
                return Err((
                    lane,
                    FaultKind::Misaligned {
                        space,
                        address: a,
                        size: 16,
                        write: false,
                        lanes: 1 << lane,
                        active: exec,
                    },
                ));
            }
            for (c, v) in row.iter_mut().enumerate() {
                *v = access(k, m, w, lane, space, a.wrapping_add(2 * c as u64), 2, None)
                    .map_err(|e| (lane, e))? as u16;
            }
        }
    }
    for lane in lanes(exec) {
        let (g, q) = (lane / 4, 2 * (lane % 4));
        for (j, &r) in regs.iter().enumerate() {
            let mat = &mats[j];
            let (lo, hi) = if trans {
                (mat[q][g], mat[q + 1][g])
            } else {
                (mat[g][q], mat[g][q + 1])
            };
            set_reg(w, &f, r, lane, u64::from(lo) | u64::from(hi) << 16);
        }
    }
    Ok(())
}
