//! poly_3mm: G = (A B)(C D), PolyBench-GPU's 3MM (the KAWS paper's Table 2: 3 kernels of 1024
//! CTAs), written here from its description: `mm3E` (E = A B), `mm3F` (F = C D), `mm3G`
//! (G = E F), one thread per output in 32 x 8 CTAs.
//!
//! Every product sums with explicit fused multiply-adds in index order, so E, F and G compare
//! bit for bit with the host's f32 chain (`G` from the host's own E and F, which equal the
//! device's once those have matched).

use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "poly_3mm";
pub(crate) const PTX: &str = kernel_file!(poly_3mm, "ptx");
const MM_E: &str = "_Z4mm3EPKfS0_Pfiii";
const MM_F: &str = "_Z4mm3FPKfS0_Pfiii";
const MM_G: &str = "_Z4mm3GPKfS0_Pfiii";
/// MM3_TX x MM3_TY in the .cu (PolyBench-GPU's 32 x 8 blocks).
const TX: usize = 32;
const TY: usize = 8;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[
        KernelShape::xy(MM_E, TX as u32, TY as u32),
        KernelShape::xy(MM_F, TX as u32, TY as u32),
        KernelShape::xy(MM_G, TX as u32, TY as u32),
    ],
    barriers: "none",
    small: "all matrices 128 x 128 (3 launches of 64 CTAs)",
    paper: "all matrices 512 x 512, PolyBench's standard size (3 launches of 1024 CTAs)",
};

/// `rows x inner` times `inner x cols`, each output a fused multiply-add chain in index order.
fn product(left: &[f32], right: &[f32], rows: usize, cols: usize, inner: usize) -> Vec<f32> {
    let mut out = vec![0.0f32; rows * cols];
    for i in 0..rows {
        for j in 0..cols {
            out[i * cols + j] = (0..inner).fold(0.0f32, |acc, k| {
                left[i * inner + k].mul_add(right[k * cols + j], acc)
            });
        }
    }
    out
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    run_ptx(dev, size, PTX)
}

/// [`run`] with the kernels of `ptx` (the committed PTX, or a corrupted copy in the tests).
fn run_ptx(dev: &mut Device, size: Size, ptx: &str) -> Result<Outcome, SuiteError> {
    // PolyBench's names: E is ni x nj, F is nj x nl, G is ni x nl; the inner sizes nk, nm.
    let (ni, nj, nk, nl, nm) = size.pick(
        (128usize, 128usize, 128usize, 128usize, 128usize),
        (512, 512, 512, 512, 512),
    );
    let mut r = rng::rng(NAME, 0);
    let a = rng::f32s(&mut r, ni * nk, -1.0, 1.0);
    let b = rng::f32s(&mut r, nk * nj, -1.0, 1.0);
    let c = rng::f32s(&mut r, nj * nm, -1.0, 1.0);
    let d = rng::f32s(&mut r, nm * nl, -1.0, 1.0);
    let want_e = product(&a, &b, ni, nj, nk);
    let want_f = product(&c, &d, nj, nl, nm);
    let want_g = product(&want_e, &want_f, ni, nl, nj);

    let mut ctx = Ctx::new(dev, NAME, ptx)?;
    let (ke, kf, kg) = (ctx.kernel(MM_E)?, ctx.kernel(MM_F)?, ctx.kernel(MM_G)?);
    let (da, db, dc, dd) = (
        ctx.upload(&a)?,
        ctx.upload(&b)?,
        ctx.upload(&c)?,
        ctx.upload(&d)?,
    );
    let (de, df, dg) = (
        ctx.zeroed::<f32>(ni * nj)?,
        ctx.zeroed::<f32>(nj * nl)?,
        ctx.zeroed::<f32>(ni * nl)?,
    );
    let block = Dim3::new(TX as u32, TY as u32, 1);
    let grid = |rows: usize, cols: usize| Dim3::new(div_up(cols, TX), div_up(rows, TY), 1);
    let dims =
        |x: usize, y: usize, z: usize| [Arg::I32(x as i32), Arg::I32(y as i32), Arg::I32(z as i32)];
    let [e0, e1, e2] = dims(ni, nj, nk);
    ctx.launch(
        ke,
        grid(ni, nj),
        block,
        0,
        &[Arg::Ptr(da), Arg::Ptr(db), Arg::Ptr(de), e0, e1, e2],
    )?;
    let [f0, f1, f2] = dims(nj, nl, nm);
    ctx.launch(
        kf,
        grid(nj, nl),
        block,
        0,
        &[Arg::Ptr(dc), Arg::Ptr(dd), Arg::Ptr(df), f0, f1, f2],
    )?;
    let [g0, g1, g2] = dims(ni, nl, nj);
    ctx.launch(
        kg,
        grid(ni, nl),
        block,
        0,
        &[Arg::Ptr(de), Arg::Ptr(df), Arg::Ptr(dg), g0, g1, g2],
    )?;
    let got_e = ctx.download::<f32>(de, ni * nj)?;
    ctx.exact("E", &got_e, &want_e)?;
    let got_f = ctx.download::<f32>(df, nj * nl)?;
    ctx.exact("F", &got_f, &want_f)?;
    let got_g = ctx.download::<f32>(dg, ni * nl)?;
    ctx.exact("G", &got_g, &want_g)?;
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
