//! poly_mvt: x1 += A y1 and x2 += Aᵀ y2, PolyBench-GPU's MVT (the MOTRR paper's Table 2),
//! written here from its description: `mvtRowDot` (one thread per row, uncoalesced row walks)
//! then `mvtColDot` (one thread per column, coalesced), 256-thread CTAs.
//!
//! Both kernels add with explicit fused multiply-adds in index order from the thread's x value,
//! so `x1` and `x2` compare bit for bit with [`crate::cpu::matvec`] (its tests bound that
//! reference against f64).

use warpsim_core::device::{Arg, Device, Dim3};

use crate::cpu::matvec::{cols_fma, rows_fma};
use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "poly_mvt";
pub(crate) const PTX: &str = kernel_file!(poly_mvt, "ptx");
const ROW_DOT: &str = "_Z9mvtRowDotPKfS0_Pfi";
const COL_DOT: &str = "_Z9mvtColDotPKfS0_Pfi";
/// MVT_THREADS in the .cu (PolyBench-GPU's 256 x 1 blocks).
const THREADS: usize = 256;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[
        KernelShape::x(ROW_DOT, THREADS as u32),
        KernelShape::x(COL_DOT, THREADS as u32),
    ],
    barriers: "none",
    small: "1024 x 1024 matrix (2 launches of 4 CTAs)",
    paper: "4096 x 4096 matrix, PolyBench's standard size (2 launches of 16 CTAs)",
};

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    run_ptx(dev, size, PTX)
}

/// [`run`] with the kernels of `ptx` (the committed PTX, or a corrupted copy in the tests).
fn run_ptx(dev: &mut Device, size: Size, ptx: &str) -> Result<Outcome, SuiteError> {
    let n = size.pick(1024usize, 4096);
    let mut r = rng::rng(NAME, 0);
    let a = rng::f32s(&mut r, n * n, -1.0, 1.0);
    let x1 = rng::f32s(&mut r, n, -1.0, 1.0);
    let x2 = rng::f32s(&mut r, n, -1.0, 1.0);
    let y1 = rng::f32s(&mut r, n, -1.0, 1.0);
    let y2 = rng::f32s(&mut r, n, -1.0, 1.0);
    let want_x1 = rows_fma(&a, n, n, &y1, &x1);
    let want_x2 = cols_fma(&a, n, n, &y2, &x2);

    let mut ctx = Ctx::new(dev, NAME, ptx)?;
    let (k_rows, k_cols) = (ctx.kernel(ROW_DOT)?, ctx.kernel(COL_DOT)?);
    let da = ctx.upload(&a)?;
    let (dx1, dy1) = (ctx.upload(&x1)?, ctx.upload(&y1)?);
    let (dx2, dy2) = (ctx.upload(&x2)?, ctx.upload(&y2)?);
    let (grid, block) = (
        Dim3::new(div_up(n, THREADS), 1, 1),
        Dim3::new(THREADS as u32, 1, 1),
    );
    ctx.launch(
        k_rows,
        grid,
        block,
        0,
        &[
            Arg::Ptr(da),
            Arg::Ptr(dy1),
            Arg::Ptr(dx1),
            Arg::I32(n as i32),
        ],
    )?;
    ctx.launch(
        k_cols,
        grid,
        block,
        0,
        &[
            Arg::Ptr(da),
            Arg::Ptr(dy2),
            Arg::Ptr(dx2),
            Arg::I32(n as i32),
        ],
    )?;
    let got_x1 = ctx.download::<f32>(dx1, n)?;
    ctx.exact("x1", &got_x1, &want_x1)?;
    let got_x2 = ctx.download::<f32>(dx2, n)?;
    ctx.exact("x2", &got_x2, &want_x2)?;
    ctx.finish("")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checks catch a kernel that computes slightly wrong values: a fused multiply-add rounding toward zero.
    #[test]
    fn a_corrupted_kernel_fails_verification() {
        let ptx = crate::program::corrupted(PTX, "fma.rn.f32", "fma.rz.f32");
        let err = run_ptx(&mut Device::new(), Size::Small, &ptx).unwrap_err();
        assert!(matches!(err, SuiteError::Mismatch { .. }), "{err}");
    }
}
