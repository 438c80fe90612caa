//! rod_hotspot: transient thermal simulation of a chip (Rodinia `hotspot`): a 5-point
//! stencil with power input and ambient leakage, advanced several time steps per launch with
//! the ghost-zone pyramid scheme, host loop ping-ponging two temperature grids.
//!
//! The per-launch loop is Rodinia's: after the last step the CTA writes its cells straight
//! from the new-values tile, without the copy back and its barrier (4 barriers per CTA at the
//! pyramid height of 2 instead of 5).
//!
//! Every float operation in the kernel is an explicit round-to-nearest intrinsic, so the
//! per-cell f32 reference below (same formula, same order) matches bit for bit; the pyramid
//! only changes which CTA computes a cell, not how.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "rod_hotspot";
pub(crate) const PTX: &str = kernel_file!(rod_hotspot, "ptx");

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::xy(KERNEL, 16, 16)],
    barriers: "1 after loading the tile, then 2 per time step but 1 after the last (2 steps per launch: 4)",
    small: "192 x 192 grid, 4 time steps (2 launches of 256 CTAs)",
    paper: "512 x 512 grid, 20 time steps (10 launches of 1849 CTAs)",
};
pub(crate) const KERNEL: &str = "_Z11hotspotStepPKfS0_Pfiiifffff";
/// HS_B in the .cu.
const B: usize = 16;
/// Time steps per launch (Rodinia's pyramid height).
const STEPS: usize = 2;

/// Model coefficients from the physical constants of a 16 mm x 16 mm, 0.5 mm thick silicon
/// chip (the constants Rodinia's hotspot uses).
struct Coeffs {
    sdc: f32,
    rx: f32,
    ry: f32,
    rz: f32,
    amb: f32,
}

fn coeffs(rows: usize, cols: usize) -> Coeffs {
    const T_CHIP: f64 = 0.0005;
    const CHIP_H: f64 = 0.016;
    const CHIP_W: f64 = 0.016;
    const K_SI: f64 = 100.0;
    const SPEC_HEAT_SI: f64 = 1.75e6;
    const FACTOR_CHIP: f64 = 0.5;
    const MAX_PD: f64 = 3.0e6;
    const PRECISION: f64 = 0.001;
    let gh = CHIP_H / rows as f64;
    let gw = CHIP_W / cols as f64;
    let cap = FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP * gw * gh;
    let rx = gw / (2.0 * K_SI * T_CHIP * gh);
    let ry = gh / (2.0 * K_SI * T_CHIP * gw);
    let rz = T_CHIP / (K_SI * gh * gw);
    let step = PRECISION / (MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI));
    Coeffs {
        sdc: (step / cap) as f32,
        rx: (1.0 / rx) as f32,
        ry: (1.0 / ry) as f32,
        rz: (1.0 / rz) as f32,
        amb: 80.0,
    }
}

/// One time step on the host, in the kernel's operation order.
fn step(t: &[f32], p: &[f32], rows: usize, cols: usize, k: &Coeffs) -> Vec<f32> {
    let mut out = vec![0.0f32; rows * cols];
    for r in 0..rows {
        for c in 0..cols {
            let tc = t[r * cols + c];
            let tn = t[r.saturating_sub(1) * cols + c];
            let ts = t[(r + 1).min(rows - 1) * cols + c];
            let tw = t[r * cols + c.saturating_sub(1)];
            let te = t[r * cols + (c + 1).min(cols - 1)];
            let two_t = 2.0f32 * tc;
            let mut v = ((ts + tn) - two_t) * k.ry;
            v += p[r * cols + c]; // the kernel's p + v: addition commutes exactly
            v += ((te + tw) - two_t) * k.rx;
            v += (k.amb - tc) * k.rz;
            out[r * cols + c] = tc + k.sdc * v;
        }
    }
    out
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 192 x 192 cells, 4 steps (2 launches of 16 x 16 = 256 CTAs). Paper: Rodinia's
    // 512 x 512 grid, 20 steps (10 launches of 43 x 43 CTAs).
    let (rows, cols, iters) = size.pick((192usize, 192usize, 4usize), (512, 512, 20));
    hotspot(dev, NAME, rows, cols, iters)
}

/// `iters` time steps on a `rows` x `cols` chip, inputs drawn from `name`'s seed (also
/// rod_hotspot_kaws's driver).
pub(crate) fn hotspot(
    dev: &mut Device,
    name: &'static str,
    rows: usize,
    cols: usize,
    iters: usize,
) -> Result<Outcome, SuiteError> {
    let mut r = rng::rng(name, 0);
    let temp = rng::f32s(&mut r, rows * cols, 323.0, 343.0);
    let power = rng::f32s(&mut r, rows * cols, 0.0, 0.01);
    let k = coeffs(rows, cols);

    let mut ctx = Ctx::new(dev, name, PTX)?;
    let kernel = ctx.kernel(KERNEL)?;
    let dpower = ctx.upload(&power)?;
    let mut bufs = [ctx.upload(&temp)?, ctx.zeroed::<f32>(rows * cols)?];
    let mut want = temp;
    let mut done = 0;
    while done < iters {
        let s = STEPS.min(iters - done);
        let inner = B - 2 * s;
        ctx.launch(
            kernel,
            Dim3::new(div_up(cols, inner), div_up(rows, inner), 1),
            Dim3::new(B as u32, B as u32, 1),
            0,
            &[
                Arg::Ptr(dpower),
                Arg::Ptr(bufs[0]),
                Arg::Ptr(bufs[1]),
                Arg::I32(rows as i32),
                Arg::I32(cols as i32),
                Arg::I32(s as i32),
                Arg::F32(k.sdc),
                Arg::F32(k.rx),
                Arg::F32(k.ry),
                Arg::F32(k.rz),
                Arg::F32(k.amb),
            ],
        )?;
        bufs.swap(0, 1);
        for _ in 0..s {
            want = step(&want, &power, rows, cols, &k);
        }
        done += s;
    }
    let got = ctx.download::<f32>(bufs[0], rows * cols)?;
    ctx.exact("temperature", &got, &want)?;
    ctx.finish("")
}
