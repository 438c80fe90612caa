//! Fragment layouts: which matrix element (row, column) element `e` of lane `lane`'s fragment
//! holds. Element `e` of a fragment lives in register `e / per_reg`, at bits
//! `(e % per_reg) · bits` (the low half of a `.f16x2` register is the lower-numbered element).
//!
//! `mma.sync`: the PTX ISA defines the layout per lane, and these are its formulas (PTX ISA
//! §9.7.14.5.7 "Matrix Fragments for mma.m16n8k8", §9.7.14.5.8 "… mma.m16n8k16 with
//! floating point type", §9.7.14.5.9 "… mma.m16n8k16 with integer type", §9.7.14.5.10
//! "… mma.m16n8k32"), with `groupID = laneid >> 2` and `threadID_in_group = laneid % 4`.
//!
//! `wmma`: the ISA leaves the layout unspecified ("Matrix Fragments for WMMA": the mapping of
//! elements to threads is implementation-defined), so a program sees the matrix only through
//! `wmma.load`/`store`/`mma` and element-wise code such as `fill_fragment`. warpsim's choice,
//! one rule for every shape and type: the matrix is cut into 8×8 tiles, taken in column-major
//! order of tiles; within a tile lane `l` holds two neighbouring elements, (row `l>>2`,
//! columns `2(l%4)`, `+1`) of A and C, and (rows `2(l%4)`, `+1`, column `l>>2`) of B. That
//! is the `mma.m16n8k16` layout, tile for tile: a 16×16×16 wmma is the two m16n8k16 mmas
//! sm_80 compiles it into, the A fragment shared and B and C split at column 8. Where a
//! fragment has more elements than `rows·cols/32` (wmma's f16 multiplicands are always 8
//! registers, PTX ISA "Matrix Fragments for WMMA"), element `e` holds the same matrix element
//! as `e mod rows·cols/32`: the extra ones are copies.

use crate::ir::{Elem, Matrix};

/// (row, column) of element `e` of `lane`'s wmma fragment of a `rows × cols` matrix.
pub fn wmma(matrix: Matrix, rows: usize, cols: usize, lane: usize, e: usize) -> (usize, usize) {
    let distinct = rows * cols / 32;
    let e = e % distinct;
    let (tile, j) = (e / 2, e % 2);
    let (g, q) = (lane >> 2, lane & 3);
    let tile_rows = rows / 8;
    let (tr, tc) = (tile % tile_rows, tile / tile_rows);
    let (r, c) = if matrix == Matrix::B {
        (q * 2 + j, g)
    } else {
        (g, q * 2 + j)
    };
    (tr * 8 + r, tc * 8 + c)
}

/// (row, column) of element `e` of `lane`'s `mma.sync` fragment (m16n8kK) of `matrix` with
/// multiplicands of type `input`.
pub fn mma(matrix: Matrix, input: Elem, lane: usize, e: usize) -> (usize, usize) {
    let (g, q) = (lane >> 2, lane & 3);
    match (matrix, input) {
        // c0..c3: row groupID (+8 for c2, c3), column 2·threadID_in_group + (i & 1).
        (Matrix::C, _) => (g + 8 * (e >> 1), q * 2 + (e & 1)),
        // .f16/.bf16, k8 and k16: row groupID for a0, a1, a4, a5, +8 otherwise; column
        // 2·threadID_in_group + (i & 1), +8 for i ≥ 4.
        (Matrix::A, Elem::F16 | Elem::Bf16) => {
            (g + 8 * ((e >> 1) & 1), q * 2 + (e & 1) + 8 * (e >> 2))
        }
        // row 2·threadID_in_group + (i & 1), +8 for i ≥ 2; column groupID.
        (Matrix::B, Elem::F16 | Elem::Bf16) => (q * 2 + (e & 1) + 8 * (e >> 1), g),
        // .tf32 (k8): row groupID for a0, a2, +8 for a1, a3; column threadID_in_group for
        // a0, a1, +4 for a2, a3.
        (Matrix::A, Elem::Tf32) => (g + 8 * (e & 1), q + 4 * (e >> 1)),
        // row threadID_in_group for b0, +4 for b1; column groupID.
        (Matrix::B, Elem::Tf32) => (q + 4 * e, g),
        // .s8/.u8, k16 and k32: row groupID for a0..a3 and a8..a11, +8 otherwise; column
        // 4·threadID_in_group + (i & 3), +16 for i ≥ 8.
        (Matrix::A, _) => (g + 8 * ((e >> 2) & 1), q * 4 + (e & 3) + 16 * (e >> 3)),
        // row 4·threadID_in_group + (i & 3), +16 for i ≥ 4; column groupID.
        (Matrix::B, _) => (q * 4 + (e & 3) + 16 * (e >> 2), g),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every element of the matrix is held by exactly `copies` (lane, element) pairs.
    fn covers(
        rows: usize,
        cols: usize,
        per_lane: usize,
        at: impl Fn(usize, usize) -> (usize, usize),
    ) {
        let mut seen = vec![0usize; rows * cols];
        for lane in 0..32 {
            for e in 0..per_lane {
                let (r, c) = at(lane, e);
                assert!(r < rows && c < cols, "lane {lane} element {e}: ({r}, {c})");
                seen[r * cols + c] += 1;
            }
        }
        let copies = per_lane * 32 / (rows * cols);
        assert!(seen.iter().all(|&n| n == copies), "{seen:?}");
    }

    #[test]
    fn wmma_layouts_cover_each_matrix() {
        for (m, n, k) in [(16, 16, 16), (32, 8, 16), (8, 32, 16), (16, 16, 8)] {
            covers(m, k, 16, |l, e| wmma(Matrix::A, m, k, l, e));
            covers(k, n, 16, |l, e| wmma(Matrix::B, k, n, l, e));
            covers(m, n, 8, |l, e| wmma(Matrix::C, m, n, l, e));
        }
    }

    #[test]
    fn mma_layouts_cover_each_matrix() {
        for (input, k) in [
            (Elem::F16, 8),
            (Elem::F16, 16),
            (Elem::Tf32, 8),
            (Elem::S8, 16),
            (Elem::S8, 32),
        ] {
            covers(16, k, 16 * k / 32, |l, e| mma(Matrix::A, input, l, e));
            covers(k, 8, 8 * k / 32, |l, e| mma(Matrix::B, input, l, e));
        }
        covers(16, 8, 4, |l, e| mma(Matrix::C, Elem::F16, l, e));
    }

    #[test]
    fn wmma_m16n16k16_is_two_m16n8k16_tiles() {
        for lane in 0..32 {
            for e in 0..8 {
                assert_eq!(
                    wmma(Matrix::A, 16, 16, lane, e),
                    mma(Matrix::A, Elem::F16, lane, e)
                );
            }
            for e in 0..4 {
                let (r, c) = mma(Matrix::C, Elem::F16, lane, e);
                assert_eq!(wmma(Matrix::C, 16, 16, lane, e), (r, c));
                assert_eq!(wmma(Matrix::C, 16, 16, lane, e + 4), (r, c + 8));
                let (r, c) = mma(Matrix::B, Elem::F16, lane, e);
                assert_eq!(wmma(Matrix::B, 16, 16, lane, e + 4), (r, c + 8));
            }
        }
    }
}
