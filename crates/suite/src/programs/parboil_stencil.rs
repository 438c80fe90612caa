//! parboil_stencil: iterated 7-point Jacobi stencil on a 3-D grid, Parboil's `stencil` (the
//! MOTRR paper's Table 2 "STC"), written here from its description, in the shape of Parboil's
//! `block2D_hybrid_coarsen_x`: 32 x 4-thread CTAs (Parboil 2.5's), each thread
//! coarsened to two points in x, marching up the columns in z with the current plane's tile in
//! shared memory; one launch per sweep, the host ping-ponging the two grids.
//!
//! The kernel evaluates (w + e + s + n + below + above)·c1 − centre·c0 with round-to-nearest
//! intrinsics in that order; the host repeats it in f32, so every sweep compares bit for bit.
//! Coefficients c0 = 1/6, c1 = 1/36 (Parboil's): the result is the mean of the neighbours minus
//! the centre, over 6.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "parboil_stencil";
pub(crate) const PTX: &str = kernel_file!(parboil_stencil, "ptx");
const KERNEL: &str = "_Z15stencilCoarsenXffPKfPfiii";
/// STC_TX and STC_TY in the .cu; a CTA covers 2 TX x TY points of a plane.
const TX: usize = 32;
const TY: usize = 4;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::xy(KERNEL, TX as u32, TY as u32)],
    barriers: "1 after staging the first plane's tile, then 2 per plane (tile read, tile rotated)",
    small: "128 x 128 x 10 grid, 2 sweeps (2 launches of 2 x 32 = 64 CTAs)",
    paper: "128 x 128 x 32 grid (Parboil's small input), 10 sweeps (10 launches of 64 CTAs)",
};

/// One sweep on the host, in the kernel's order of operations; boundary points keep `u`'s.
fn sweep(c0: f32, c1: f32, u: &[f32], nx: usize, ny: usize, nz: usize) -> Vec<f32> {
    let mut out = u.to_vec();
    let (row, plane) = (nx, nx * ny);
    for k in 1..nz.saturating_sub(1) {
        for j in 1..ny.saturating_sub(1) {
            for i in 1..nx.saturating_sub(1) {
                let c = k * plane + j * row + i;
                let s = u[c - 1] + u[c + 1] + u[c - row] + u[c + row] + u[c - plane] + u[c + plane];
                out[c] = s * c1 - u[c] * c0;
            }
        }
    }
    out
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    run_ptx(dev, size, PTX)
}

/// [`run`] with the kernels of `ptx` (the committed PTX, or a corrupted copy in the tests).
fn run_ptx(dev: &mut Device, size: Size, ptx: &str) -> Result<Outcome, SuiteError> {
    let (nx, ny, nz, sweeps) = size.pick((128usize, 128usize, 10usize, 2usize), (128, 128, 32, 10));
    let (c0, c1) = (1.0f32 / 6.0, 1.0f32 / 6.0 / 6.0);
    let n = nx * ny * nz;
    let u0 = rng::f32s(&mut rng::rng(NAME, 0), n, 0.0, 1.0);
    let mut want = u0.clone();
    for _ in 0..sweeps {
        want = sweep(c0, c1, &want, nx, ny, nz);
    }

    let mut ctx = Ctx::new(dev, NAME, ptx)?;
    let k = ctx.kernel(KERNEL)?;
    // Both grids start as the input: the boundary, never written, stays the input's.
    let mut bufs = [ctx.upload(&u0)?, ctx.upload(&u0)?];
    let grid = Dim3::new(div_up(nx, 2 * TX), div_up(ny, TY), 1);
    for _ in 0..sweeps {
        ctx.launch(
            k,
            grid,
            Dim3::new(TX as u32, TY as u32, 1),
            0,
            &[
                Arg::F32(c0),
                Arg::F32(c1),
                Arg::Ptr(bufs[0]),
                Arg::Ptr(bufs[1]),
                Arg::I32(nx as i32),
                Arg::I32(ny as i32),
                Arg::I32(nz as i32),
            ],
        )?;
        bufs.swap(0, 1);
    }
    let got = ctx.download::<f32>(bufs[0], n)?;
    ctx.exact("grid", &got, &want)?;
    ctx.finish("")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checks catch a kernel that computes slightly wrong values: an addition rounding toward zero.
    #[test]
    fn a_corrupted_kernel_fails_verification() {
        let ptx = crate::program::corrupted(PTX, "add.rn.f32", "add.rz.f32");
        let err = run_ptx(&mut Device::new(), Size::Small, &ptx).unwrap_err();
        assert!(matches!(err, SuiteError::Mismatch { .. }), "{err}");
    }
}
