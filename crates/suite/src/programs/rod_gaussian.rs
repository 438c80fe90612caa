//! rod_gaussian: Gaussian elimination without pivoting (Rodinia `gaussian`): per pivot a
//! multiplier kernel (Fan1) and an elimination kernel over the trailing submatrix (Fan2),
//! back substitution on the host.
//!
//! The kernels round every float operation explicitly, so the host repeats the elimination
//! in f32 and the reduced matrix, right-hand side and multipliers are compared bit for bit.
//! The solution from the device's system must also satisfy the original one within the
//! backward-error bound of Gaussian elimination: |A x - b| <= 4 γ(3n) (|A| |x| + |b|) (the
//! factor 4 covers the growth factor, at most 2 for diagonally dominant matrices).

use warpsim_core::device::{Arg, Device, Dim3};

use super::scalar_prod::gamma_f32;
use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "rod_gaussian";
pub(crate) const PTX: &str = kernel_file!(rod_gaussian, "ptx");

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[
        KernelShape::x(FAN1, FAN1_THREADS as u32),
        KernelShape::xy(FAN2, 16, 16),
    ],
    barriers: "none",
    small: "144 x 144 system (286 launches; Fan2 starts at 9 x 9 CTAs)",
    paper: "512 x 512 system (1022 launches; Fan2 starts at 32 x 32 CTAs)",
};
const FAN1: &str = "_Z9gaussFan1PKfPfii";
const FAN2: &str = "_Z9gaussFan2PfS_PKfii";
const FAN1_THREADS: usize = 64;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 144 x 144 (the first Fan2 has 9 x 9 CTAs of 16 x 16; 286 launches). Paper:
    // 512 x 512 (32 x 32 CTAs at first, 1022 launches).
    let n = size.pick(144usize, 512usize);
    let mut r = rng::rng(NAME, 0);
    let mut a0 = rng::f32s(&mut r, n * n, -1.0, 1.0);
    for i in 0..n {
        a0[i * n + i] += n as f32; // diagonally dominant: no pivoting needed
    }
    let b0 = rng::f32s(&mut r, n, -1.0, 1.0);

    // Reference elimination, in the kernels' order.
    let (mut a, mut b, mut m) = (a0.clone(), b0.clone(), vec![0.0f32; n * n]);
    for t in 0..n - 1 {
        for i in t + 1..n {
            m[i * n + t] = a[i * n + t] / a[t * n + t];
        }
        for i in t + 1..n {
            let mult = m[i * n + t];
            for j in t..n {
                a[i * n + j] -= mult * a[t * n + j];
            }
            b[i] -= mult * b[t];
        }
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (k1, k2) = (ctx.kernel(FAN1)?, ctx.kernel(FAN2)?);
    let da = ctx.upload(&a0)?;
    let db = ctx.upload(&b0)?;
    let dm = ctx.zeroed::<f32>(n * n)?;
    for t in 0..n - 1 {
        let rest = n - 1 - t;
        ctx.launch(
            k1,
            Dim3::new(div_up(rest, FAN1_THREADS), 1, 1),
            Dim3::new(FAN1_THREADS as u32, 1, 1),
            0,
            &[
                Arg::Ptr(da),
                Arg::Ptr(dm),
                Arg::I32(n as i32),
                Arg::I32(t as i32),
            ],
        )?;
        ctx.launch(
            k2,
            Dim3::new(div_up(n - t, 16), div_up(rest, 16), 1),
            Dim3::new(16, 16, 1),
            0,
            &[
                Arg::Ptr(da),
                Arg::Ptr(db),
                Arg::Ptr(dm),
                Arg::I32(n as i32),
                Arg::I32(t as i32),
            ],
        )?;
    }
    let ga = ctx.download::<f32>(da, n * n)?;
    ctx.exact("reduced matrix", &ga, &a)?;
    let gb = ctx.download::<f32>(db, n)?;
    ctx.exact("reduced right-hand side", &gb, &b)?;
    let gm = ctx.download::<f32>(dm, n * n)?;
    ctx.exact("multipliers", &gm, &m)?;

    // Back substitution on the device's upper-triangular system (Rodinia does it on the host).
    let mut x = vec![0.0f64; n];
    for i in (0..n).rev() {
        let mut s = gb[i] as f64;
        for j in i + 1..n {
            s -= ga[i * n + j] as f64 * x[j];
        }
        x[i] = s / ga[i * n + i] as f64;
    }
    let gamma = 4.0 * gamma_f32(3 * n);
    let (mut ax, mut bound) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for i in 0..n {
        let (mut s, mut s_abs) = (0.0f64, b0[i].abs() as f64);
        for j in 0..n {
            s += a0[i * n + j] as f64 * x[j];
            s_abs += (a0[i * n + j] as f64 * x[j]).abs();
        }
        ax.push(s);
        bound.push(gamma * s_abs);
    }
    let want_b: Vec<f64> = b0.iter().map(|&v| v as f64).collect();
    ctx.bounded("A x (solution)", &ax, &want_b, &bound)?;
    ctx.finish("")
}
