//! ispass_lps: Jacobi iteration of the 3-D Laplace equation, one step per launch, 32 x 4-thread
//! CTAs marching up the grid's columns with the current plane staged in a shared tile: the
//! PRO paper's Table II "LPS" (`GPU_laplace3d`, 100 CTAs on a 100^3 grid), an application of
//! GPGPU-Sim's ISPASS-2009 suite, written here from its description.
//!
//! The kernel sums the six neighbours in a fixed order with round-to-nearest intrinsics and
//! multiplies by the f32 constant 1/6; the host repeats that in f32, so every step compares
//! bit for bit (the host ping-pongs the two grids as the launches do).

use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "ispass_lps";
pub(crate) const PTX: &str = kernel_file!(ispass_lps, "ptx");
const KERNEL: &str = "_Z13GPU_laplace3dPKfPfiii";
/// LPS_BX and LPS_BY in the .cu.
const BX: usize = 32;
const BY: usize = 4;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::xy(KERNEL, BX as u32, BY as u32)],
    barriers:
        "2 per plane: after staging the plane's tile with its halo, and before it is overwritten",
    small:
        "80 x 64 x 24 grid, 2 steps (2 launches of 3 x 16 = 48 CTAs, the last CTA column partial)",
    paper: "100 x 100 x 100 grid, 2 steps (2 launches of 4 x 25 = 100 CTAs: Table II)",
};

/// One Jacobi step on the host, in the kernel's order of operations.
fn step(u: &[f32], nx: usize, ny: usize, nz: usize) -> Vec<f32> {
    let sixth = 1.0f32 / 6.0;
    let mut out = u.to_vec();
    let (row, plane) = (nx, nx * ny);
    for k in 1..nz.saturating_sub(1) {
        for j in 1..ny.saturating_sub(1) {
            for i in 1..nx.saturating_sub(1) {
                let c = k * plane + j * row + i;
                let s = u[c - 1] + u[c + 1] + u[c - row] + u[c + row] + u[c - plane] + u[c + plane];
                out[c] = s * sixth;
            }
        }
    }
    out
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    let (nx, ny, nz, steps) = size.pick((80usize, 64usize, 24usize, 2usize), (100, 100, 100, 2));
    let n = nx * ny * nz;
    let u0 = rng::f32s(&mut rng::rng(NAME, 0), n, 0.0, 1.0);
    let mut want = u0.clone();
    for _ in 0..steps {
        want = step(&want, nx, ny, nz);
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k = ctx.kernel(KERNEL)?;
    let mut bufs = [ctx.upload(&u0)?, ctx.zeroed::<f32>(n)?];
    for _ in 0..steps {
        ctx.launch(
            k,
            Dim3::new(div_up(nx, BX), div_up(ny, BY), 1),
            Dim3::new(BX as u32, BY as u32, 1),
            0,
            &[
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
    ctx.exact("u", &got, &want)?;
    ctx.finish("")
}
