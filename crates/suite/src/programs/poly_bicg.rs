//! poly_bicg: s = Aᵀ r and q = A p, the BiCGStab sub-kernel of PolyBench-GPU's BICG (the MOTRR
//! paper's Table 2), written here from its description, kernels in PolyBench-GPU's order:
//! `bicgColDot` (one thread per column, coalesced) then `bicgRowDot` (one thread per row,
//! uncoalesced row walks), 256-thread CTAs.
//!
//! Both kernels sum with explicit fused multiply-adds in index order, so `s` and `q` compare
//! bit for bit with [`crate::cpu::matvec`] (its tests bound that reference against f64).

use warpsim_core::device::{Arg, Device, Dim3};

use crate::cpu::matvec::{cols_fma, rows_fma};
use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "poly_bicg";
pub(crate) const PTX: &str = kernel_file!(poly_bicg, "ptx");
const COL_DOT: &str = "_Z10bicgColDotPKfS0_Pfii";
const ROW_DOT: &str = "_Z10bicgRowDotPKfS0_Pfii";
/// BICG_THREADS in the .cu (PolyBench-GPU's 256 x 1 blocks).
const THREADS: usize = 256;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[
        KernelShape::x(COL_DOT, THREADS as u32),
        KernelShape::x(ROW_DOT, THREADS as u32),
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
    let mut rg = rng::rng(NAME, 0);
    let a = rng::f32s(&mut rg, nx * ny, -1.0, 1.0);
    let r = rng::f32s(&mut rg, nx, -1.0, 1.0);
    let p = rng::f32s(&mut rg, ny, -1.0, 1.0);
    let want_s = cols_fma(&a, nx, ny, &r, &vec![0.0; ny]);
    let want_q = rows_fma(&a, nx, ny, &p, &vec![0.0; nx]);

    let mut ctx = Ctx::new(dev, NAME, ptx)?;
    let (k_cols, k_rows) = (ctx.kernel(COL_DOT)?, ctx.kernel(ROW_DOT)?);
    let (da, dr, dp) = (ctx.upload(&a)?, ctx.upload(&r)?, ctx.upload(&p)?);
    let (ds, dq) = (ctx.zeroed::<f32>(ny)?, ctx.zeroed::<f32>(nx)?);
    let block = Dim3::new(THREADS as u32, 1, 1);
    let (nx32, ny32) = (Arg::I32(nx as i32), Arg::I32(ny as i32));
    ctx.launch(
        k_cols,
        Dim3::new(div_up(ny, THREADS), 1, 1),
        block,
        0,
        &[
            Arg::Ptr(da),
            Arg::Ptr(dr),
            Arg::Ptr(ds),
            nx32.clone(),
            ny32.clone(),
        ],
    )?;
    ctx.launch(
        k_rows,
        Dim3::new(div_up(nx, THREADS), 1, 1),
        block,
        0,
        &[Arg::Ptr(da), Arg::Ptr(dp), Arg::Ptr(dq), nx32, ny32],
    )?;
    let got_s = ctx.download::<f32>(ds, ny)?;
    ctx.exact("s", &got_s, &want_s)?;
    let got_q = ctx.download::<f32>(dq, nx)?;
    ctx.exact("q", &got_q, &want_q)?;
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
