//! ispass_cp: Coulombic potential of a set of atoms on a 2-D slice of a lattice by direct
//! summation, atoms in `__constant__` memory, 16 x 8-thread CTAs of 8 points per thread: the
//! PRO paper's Table II "CP" (`cenergy`, 256 CTAs), an application of GPGPU-Sim's ISPASS-2009
//! suite (from VMD's ion placement), written here from its description.
//!
//! The reference sums the same terms in f64 from the same f32 inputs (lattice coordinates
//! rounded to f32 as the kernel rounds them). The kernel rounds each term a handful of times
//! (dx, two fmas for r^2, `rsqrt.approx` at 2^-22.9 relative error, the fma into the sum) and
//! the running sum once per atom, so every point is within γ(natoms + 12) · Σ|q_i / r_i|.

use rand::Rng;
use warpsim_core::device::{Arg, Device, Dim3};

use super::scalar_prod::gamma_f32;
use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "ispass_cp";
pub(crate) const PTX: &str = kernel_file!(ispass_cp, "ptx");
const KERNEL: &str = "_Z7cenergyPfiifi";
const SYMBOL: &str = "cp_atoms";
/// CP_MAXATOMS, CP_BX, CP_BY and CP_UNROLL in the .cu.
const MAX_ATOMS: usize = 1024;
const BX: usize = 16;
const BY: usize = 8;
const UNROLL: usize = 8;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::xy(KERNEL, BX as u32, BY as u32)],
    barriers: "none (constant-memory broadcast of each atom, rsqrt per point)",
    small: "240 x 560 slice (the second CTA column partial), 32 atoms (2 x 70 = 140 CTAs)",
    paper: "512 x 512 slice, 128 atoms (4 x 64 = 256 CTAs: Table II)",
};

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    let (nx, ny, natoms) = size.pick((240usize, 560usize, 32usize), (512, 512, 128));
    // Lattice spacing 0.1 Å; atoms anywhere over the slice in x and y, 0.5–8 Å above or below
    // it (so no term is singular), charges in [-1, 1].
    let spacing = 0.1f32;
    let mut r = rng::rng(NAME, 0);
    let (w, h) = (nx as f32 * spacing, ny as f32 * spacing);
    let atoms: Vec<[f32; 4]> = (0..natoms)
        .map(|_| {
            let dz: f32 = r.gen_range(0.5..8.0);
            [
                r.gen_range(0.0..w),
                r.gen_range(0.0..h),
                dz * dz,
                r.gen_range(-1.0..1.0),
            ]
        })
        .collect();

    let mut want = vec![0f64; nx * ny];
    let mut bound = vec![0f64; nx * ny];
    let gamma = gamma_f32(natoms + 12);
    for y in 0..ny {
        let py = spacing * y as f32;
        for x in 0..nx {
            let px = spacing * x as f32;
            let (mut e, mut e_abs) = (0f64, 0f64);
            for a in &atoms {
                let (dx, dy) = (px as f64 - a[0] as f64, py as f64 - a[1] as f64);
                let t = a[3] as f64 / (dx * dx + dy * dy + a[2] as f64).sqrt();
                e += t;
                e_abs += t.abs();
            }
            want[y * nx + x] = e;
            bound[y * nx + x] = gamma * e_abs;
        }
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k = ctx.kernel(KERNEL)?;
    let (addr, bytes) = ctx.dev.symbol(ctx.module, SYMBOL)?;
    if bytes != (MAX_ATOMS * 16) as u64 {
        return Err(ctx.invalid(format!(
            "symbol `{SYMBOL}` is {bytes} bytes, expected {}",
            MAX_ATOMS * 16
        )));
    }
    ctx.dev.write_slice(addr, &atoms)?;
    let denergy = ctx.zeroed::<f32>(nx * ny)?;
    ctx.launch(
        k,
        Dim3::new(div_up(nx, BX * UNROLL), div_up(ny, BY), 1),
        Dim3::new(BX as u32, BY as u32, 1),
        0,
        &[
            Arg::Ptr(denergy),
            Arg::I32(nx as i32),
            Arg::I32(ny as i32),
            Arg::F32(spacing),
            Arg::I32(natoms as i32),
        ],
    )?;
    let got = ctx.download::<f32>(denergy, nx * ny)?;
    ctx.bounded("energy", &got, &want, &bound)?;
    ctx.finish("")
}
