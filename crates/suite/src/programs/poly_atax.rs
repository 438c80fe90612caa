//! poly_atax: y = Aᵀ(A x), PolyBench-GPU's ATAX (the MOTRR paper's Table 2), written here from
//! its description: `ataxRowDot` (tmp = A x, one thread per row, uncoalesced row walks) then
//! `ataxColDot` (y = Aᵀ tmp, one thread per column, coalesced), 256-thread CTAs.
//!
//! Both kernels sum with explicit fused multiply-adds in index order, so `tmp` and `y` compare
//! bit for bit with [`crate::cpu::matvec`] (its tests bound that reference against f64).

use warpsim_core::device::{Arg, Device, Dim3};

use crate::cpu::matvec::{cols_fma, rows_fma};
use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "poly_atax";
pub(crate) const PTX: &str = kernel_file!(poly_atax, "ptx");
const ROW_DOT: &str = "_Z10ataxRowDotPKfS0_Pfii";
const COL_DOT: &str = "_Z10ataxColDotPKfS0_Pfii";
/// ATAX_THREADS in the .cu (PolyBench-GPU's 256 x 1 blocks).
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
    let (nx, ny) = size.pick((1024usize, 1024usize), (4096, 4096));
    let mut r = rng::rng(NAME, 0);
    let a = rng::f32s(&mut r, nx * ny, -1.0, 1.0);
    let x = rng::f32s(&mut r, ny, -1.0, 1.0);
    let want_tmp = rows_fma(&a, nx, ny, &x, &vec![0.0; nx]);
    let want_y = cols_fma(&a, nx, ny, &want_tmp, &vec![0.0; ny]);

    let mut ctx = Ctx::new(dev, NAME, ptx)?;
    let (k_rows, k_cols) = (ctx.kernel(ROW_DOT)?, ctx.kernel(COL_DOT)?);
    let (da, dx) = (ctx.upload(&a)?, ctx.upload(&x)?);
    let (dtmp, dy) = (ctx.zeroed::<f32>(nx)?, ctx.zeroed::<f32>(ny)?);
    let block = Dim3::new(THREADS as u32, 1, 1);
    let (nx32, ny32) = (Arg::I32(nx as i32), Arg::I32(ny as i32));
    ctx.launch(
        k_rows,
        Dim3::new(div_up(nx, THREADS), 1, 1),
        block,
        0,
        &[
            Arg::Ptr(da),
            Arg::Ptr(dx),
            Arg::Ptr(dtmp),
            nx32.clone(),
            ny32.clone(),
        ],
    )?;
    ctx.launch(
        k_cols,
        Dim3::new(div_up(ny, THREADS), 1, 1),
        block,
        0,
        &[Arg::Ptr(da), Arg::Ptr(dtmp), Arg::Ptr(dy), nx32, ny32],
    )?;
    let got_tmp = ctx.download::<f32>(dtmp, nx)?;
    ctx.exact("tmp", &got_tmp, &want_tmp)?;
    let got_y = ctx.download::<f32>(dy, ny)?;
    ctx.exact("y", &got_y, &want_y)?;
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
