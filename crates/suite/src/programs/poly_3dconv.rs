//! poly_3dconv: a 3-D convolution in PolyBench-GPU's 3DCONV shape (the KAWS paper's Table 2:
//! 254 kernels of 256 CTAs at 256³), written here: one `conv3dPlane` launch per interior
//! i-plane over the whole j x k plane, one thread per point in 32 x 8 CTAs, an 11-tap sum
//! (see the .cu) for every interior point; the volume's faces stay zero.
//!
//! The sum is one round-to-nearest multiply and fused multiply-adds in a fixed order, so the
//! whole output volume compares bit for bit with the host's f32 repetition below.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "poly_3dconv";
pub(crate) const PTX: &str = kernel_file!(poly_3dconv, "ptx");
const KERNEL: &str = "_Z11conv3dPlanePKfPfiii";
/// C3D_TX x C3D_TY in the .cu (PolyBench-GPU's 32 x 8 blocks).
const TX: usize = 32;
const TY: usize = 8;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::xy(KERNEL, TX as u32, TY as u32)],
    barriers: "none",
    small: "8 x 256 x 256 volume: 8 of the paper's planes (6 launches of 256 CTAs)",
    paper: "256 x 256 x 256 volume, PolyBench's standard size (254 launches of 256 CTAs)",
};

/// The kernel's taps as (plane offset, row offset, column offset, weight), in its order; the
/// first is a plain multiply, the rest fused multiply-adds.
const TAPS: [(isize, isize, isize, f32); 11] = [
    (0, 0, 0, 0.5),
    (0, -1, 0, -0.125),
    (0, 1, 0, 0.25),
    (0, 0, -1, -0.375),
    (0, 0, 1, 0.3),
    (-1, 0, 0, 0.2),
    (-1, -1, -1, -0.6),
    (-1, 1, 1, 0.7),
    (1, 0, 0, 0.4),
    (1, -1, -1, -0.9),
    (1, 1, 1, 0.1),
];

/// The convolved volume, zero on the faces.
fn convolve(a: &[f32], ni: usize, nj: usize, nk: usize) -> Vec<f32> {
    let mut b = vec![0.0f32; ni * nj * nk];
    let at = |i: usize, j: usize, k: usize, t: (isize, isize, isize, f32)| {
        let (ii, jj, kk) = (i as isize + t.0, j as isize + t.1, k as isize + t.2);
        a[(ii as usize * nj + jj as usize) * nk + kk as usize]
    };
    for i in 1..ni - 1 {
        for j in 1..nj - 1 {
            for k in 1..nk - 1 {
                let mut acc = TAPS[0].3 * at(i, j, k, TAPS[0]);
                for &t in &TAPS[1..] {
                    acc = t.3.mul_add(at(i, j, k, t), acc);
                }
                b[(i * nj + j) * nk + k] = acc;
            }
        }
    }
    b
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    run_ptx(dev, size, PTX)
}

/// [`run`] with the kernels of `ptx` (the committed PTX, or a corrupted copy in the tests).
fn run_ptx(dev: &mut Device, size: Size, ptx: &str) -> Result<Outcome, SuiteError> {
    let (ni, nj, nk) = size.pick((8usize, 256usize, 256usize), (256, 256, 256));
    let a = rng::f32s(&mut rng::rng(NAME, 0), ni * nj * nk, -1.0, 1.0);
    let want = convolve(&a, ni, nj, nk);

    let mut ctx = Ctx::new(dev, NAME, ptx)?;
    let k = ctx.kernel(KERNEL)?;
    let da = ctx.upload(&a)?;
    let db = ctx.zeroed::<f32>(ni * nj * nk)?;
    let grid = Dim3::new(div_up(nk, TX), div_up(nj, TY), 1);
    let block = Dim3::new(TX as u32, TY as u32, 1);
    for i in 1..ni - 1 {
        let args = [
            Arg::Ptr(da),
            Arg::Ptr(db),
            Arg::I32(nj as i32),
            Arg::I32(nk as i32),
            Arg::I32(i as i32),
        ];
        ctx.launch(k, grid, block, 0, &args)?;
    }
    let got = ctx.download::<f32>(db, ni * nj * nk)?;
    ctx.exact("B", &got, &want)?;
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
