//! The memory a fragment load or store touches, for the timing model: `wmma.load`,
//! `wmma.store` and `ldmatrix` as *waves*, each one warp-wide access of one address per lane
//! (the same shape as an `ld`'s), so the timing model coalesces global ones into lines and
//! counts shared-memory bank conflicts as it does for any load or store. The addresses are
//! those the executor reads or writes (`wmma_move`, `ldmatrix::execute`), computed by the same
//! rule; nothing is read or written here.
//!
//! - `wmma.load`/`store`: one wave per fragment register holding distinct matrix elements (the
//!   copies wmma's f16 fragments carry are not fetched again), each lane at the address of its
//!   register's first element, `per_reg × size` bytes — or, where a register's elements are
//!   not consecutive in memory for every lane (a column-major f16 A read row-wise), one wave
//!   per element.
//! - `ldmatrix`: one wave per 8×8 matrix: the 8 rows of 16 bytes its lanes `8j … 8j+7`
//!   address, as 32 words (lane `4r + q` of the wave at row `r`'s address `+ 4q`), whatever
//!   the mask (every supplying lane's row is read).

use super::{dims, layout};
use crate::exec::context::{LaunchCtx, MemCtx};
use crate::exec::mem_ops::addresses;
use crate::exec::operands::{gather, Lanes};
use crate::exec::warp::{lanes, Frame, Warp, WARP_SIZE};
use crate::ir::{Inst, Major, Matrix, Opnd, TensorInst, TensorKind};

/// The most waves one instruction makes: 8 registers of 2 f16, or 4 registers of 4 s8, one
/// wave per element.
pub const MAX_WAVES: usize = 16;

/// One instruction's waves (see the module doc). Fixed-size: built at every issue of a
/// fragment load or store without allocating.
pub struct Waves {
    /// Per wave, each lane's address (meaningful for the lanes of `mask`).
    pub addrs: [Lanes; MAX_WAVES],
    /// Per wave, the lanes that access memory.
    pub mask: [u32; MAX_WAVES],
    /// Per wave, the bytes each lane accesses from its address.
    pub size: [u32; MAX_WAVES],
    /// Waves in use.
    pub n: usize,
}

impl Default for Waves {
    fn default() -> Self {
        Waves {
            addrs: [[0; WARP_SIZE]; MAX_WAVES],
            mask: [0; MAX_WAVES],
            size: [0; MAX_WAVES],
            n: 0,
        }
    }
}

impl Waves {
    /// The waves in use: (addresses, lane mask, bytes per lane).
    pub fn iter(&self) -> impl Iterator<Item = (&Lanes, u32, u32)> {
        (0..self.n).map(|i| (&self.addrs[i], self.mask[i], self.size[i]))
    }
}

/// Fills `out` with the waves of the fragment load or store `inst` (form `t`) executed by
/// the lanes of `exec`; an instruction that moves no memory (`mma`) leaves none.
// The executor's context, the instruction and its form, side by side.
#[allow(clippy::too_many_arguments)]
pub fn waves(
    k: &LaunchCtx,
    m: &MemCtx,
    w: &Warp,
    f: &Frame,
    inst: &Inst,
    t: &TensorInst,
    exec: u32,
    out: &mut Waves,
) {
    out.n = 0;
    let mut base: Lanes = [0; WARP_SIZE];
    match t.kind {
        TensorKind::WmmaLoad(matrix) => {
            addresses(k, m, w, f, &inst.src[0], inst.mods.space, &mut base);
            wmma_waves(k, m, w, f, inst, t, matrix, exec, &base, out);
        }
        TensorKind::WmmaStore => {
            addresses(k, m, w, f, &inst.src[0], inst.mods.space, &mut base);
            wmma_waves(k, m, w, f, inst, t, Matrix::C, exec, &base, out);
        }
        TensorKind::Ldmatrix { count, .. } => {
            addresses(k, m, w, f, &inst.src[0], inst.mods.space, &mut base);
            for j in 0..(count as usize).min(4) {
                let wave = &mut out.addrs[j];
                for (l, a) in wave.iter_mut().enumerate() {
                    *a = base[8 * j + l / 4].wrapping_add(4 * (l % 4) as u64);
                }
                out.mask[j] = u32::MAX;
                out.size[j] = 4;
            }
            out.n = (count as usize).min(4);
        }
        TensorKind::WmmaMma | TensorKind::Mma => {}
    }
}

/// The stride (in elements) of a `wmma.load/store` in each lane: its operand, or the matrix's
/// own row length (row-major) or column length (column-major).
pub(super) fn strides(
    k: &LaunchCtx,
    m: &MemCtx,
    w: &Warp,
    f: &Frame,
    inst: &Inst,
    t: &TensorInst,
    matrix: Matrix,
) -> Lanes {
    let (rows, cols) = dims(t, matrix);
    let mut stride: Lanes = [0; WARP_SIZE];
    match inst.src[1] {
        Opnd::None => {
            stride = [if t.major_a == Major::Row { cols } else { rows } as u64; WARP_SIZE]
        }
        ref o => gather(k, m, w, f, o, &mut stride),
    }
    stride
}

/// The address of element `e` of `lane`'s fragment of `matrix` in a `wmma.load/store` from
/// `base` with stride `stride` (elements): element (r, c) lies at `base + (r·stride + c)·size`
/// row-major, `base + (c·stride + r)·size` column-major.
#[inline]
pub(super) fn element_addr(
    t: &TensorInst,
    matrix: Matrix,
    base: u64,
    stride: u64,
    lane: usize,
    e: usize,
) -> u64 {
    let (rows, cols) = dims(t, matrix);
    let (r, c) = layout::wmma(matrix, rows, cols, lane, e);
    let (major, minor) = if t.major_a == Major::Row {
        (r, c)
    } else {
        (c, r)
    };
    let ld = stride & 0xFFFF_FFFF;
    let index = (major as u64).wrapping_mul(ld).wrapping_add(minor as u64);
    base.wrapping_add(index.wrapping_mul(u64::from(t.a.bits() / 8)))
}

/// The waves of a `wmma.load`/`store` of `matrix` from the lanes' `base` addresses.
#[allow(clippy::too_many_arguments)]
fn wmma_waves(
    k: &LaunchCtx,
    m: &MemCtx,
    w: &Warp,
    f: &Frame,
    inst: &Inst,
    t: &TensorInst,
    matrix: Matrix,
    exec: u32,
    base: &Lanes,
    out: &mut Waves,
) {
    let stride = strides(k, m, w, f, inst, t, matrix);
    let (rows, cols) = dims(t, matrix);
    let size = t.a.bits() / 8;
    let per = t.a.per_reg() as usize;
    let distinct = rows * cols / WARP_SIZE;
    let at = |lane: usize, e: usize| element_addr(t, matrix, base[lane], stride[lane], lane, e);
    for reg in 0..distinct.div_ceil(per) {
        let first = reg * per;
        let n = per.min(distinct - first);
        // One wave when every lane's elements of this register follow one another.
        let consecutive = lanes(exec).all(|l| {
            (1..n).all(|j| at(l, first + j) == at(l, first).wrapping_add(j as u64 * size as u64))
        });
        let (waves, bytes) = if consecutive { (1, n) } else { (n, 1) };
        for j in 0..waves {
            if out.n == MAX_WAVES {
                debug_assert!(false, "more than {MAX_WAVES} waves");
                return;
            }
            let i = out.n;
            for l in lanes(exec) {
                out.addrs[i][l] = at(l, first + j);
            }
            out.mask[i] = exec;
            out.size[i] = bytes as u32 * size;
            out.n += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Elem, TensorKind};

    fn form(kind: TensorKind, major: Major, e: Elem) -> TensorInst {
        TensorInst {
            kind,
            m: 16,
            n: 16,
            k: 16,
            major_a: major,
            major_b: Major::Row,
            a: e,
            b: e,
            c: e,
            d: e,
            satfinite: false,
            d_regs: Vec::new(),
            a_regs: Vec::new(),
            b_regs: Vec::new(),
            c_regs: Vec::new(),
            name: String::new(),
        }
    }

    #[test]
    fn element_addresses_follow_the_fragment_layout_and_the_stride() {
        // A row-major f16 A at 0x1000, stride 16: lane 5 holds (row 1, columns 2 and 3) of
        // the first 8×8 tile, so its element 1 is at 0x1000 + (1·16 + 3)·2.
        let t = form(TensorKind::WmmaLoad(Matrix::A), Major::Row, Elem::F16);
        assert_eq!(
            element_addr(&t, Matrix::A, 0x1000, 16, 5, 1),
            0x1000 + 19 * 2
        );
        // Column-major: (row 1, column 3) is at (3·16 + 1)·2.
        let t = form(TensorKind::WmmaLoad(Matrix::A), Major::Col, Elem::F16);
        assert_eq!(
            element_addr(&t, Matrix::A, 0x1000, 16, 5, 1),
            0x1000 + 49 * 2
        );
    }
}
