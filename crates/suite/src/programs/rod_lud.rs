//! rod_lud: blocked LU decomposition without pivoting (Rodinia `lud`): per diagonal block a
//! diagonal-tile kernel, a perimeter kernel and a trailing-update kernel.
//!
//! The kernels round every float operation explicitly, so the reference repeats the blocked
//! algorithm in f32 in the same order and the factored matrix is compared bit for bit; an
//! independent backward-error check `|L U - A| <= γ(n) |L| |U|` guards against a reference
//! that shares a kernel's mistake.

use warpsim_core::device::{Arg, Device, Dim3};

use super::scalar_prod::gamma_f32;
use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "rod_lud";
pub(crate) const PTX: &str = kernel_file!(rod_lud, "ptx");

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::xy(DIAGONAL, 16, 16), KernelShape::x(PERIMETER, 32), KernelShape::xy(INTERNAL, 16, 16)],
    barriers:
        "ludDiagonal: 2 per column step (one CTA per block step); ludPerimeter, ludInternal: 1 after staging tiles",
    small: "192 x 192 matrix (12 x 12 blocks; the first trailing update has 121 CTAs)",
    paper: "512 x 512 matrix",
};
const DIAGONAL: &str = "_Z11ludDiagonalPfii";
const PERIMETER: &str = "_Z12ludPerimeterPfii";
const INTERNAL: &str = "_Z11ludInternalPfii";
/// LUD_B in the .cu.
const B: usize = 16;

/// The kernels' blocked factorisation, in place, in their operation order.
fn lud_blocked(a: &mut [f32], n: usize) {
    let nb = n / B;
    for d in 0..nb {
        let o = d * B;
        // ludDiagonal.
        for k in 0..B - 1 {
            for i in k + 1..B {
                a[(o + i) * n + o + k] /= a[(o + k) * n + o + k];
            }
            for i in k + 1..B {
                for j in k + 1..B {
                    a[(o + i) * n + o + j] -= a[(o + i) * n + o + k] * a[(o + k) * n + o + j];
                }
            }
        }
        let dia: Vec<f32> = (0..B * B).map(|t| a[(o + t / B) * n + o + t % B]).collect();
        // ludPerimeter: columns of U_db, rows of L_bd.
        for b in d + 1..nb {
            for jj in 0..B {
                let mut col: Vec<f32> = (0..B).map(|i| a[(o + i) * n + b * B + jj]).collect();
                for i in 1..B {
                    for k in 0..i {
                        col[i] -= dia[i * B + k] * col[k];
                    }
                }
                for i in 0..B {
                    a[(o + i) * n + b * B + jj] = col[i];
                }
            }
            for r in 0..B {
                let row0 = (b * B + r) * n + o;
                let mut row: Vec<f32> = a[row0..row0 + B].to_vec();
                for j in 0..B {
                    for k in 0..j {
                        row[j] -= row[k] * dia[k * B + j];
                    }
                    row[j] /= dia[j * B + j];
                }
                a[row0..row0 + B].copy_from_slice(&row);
            }
        }
        // ludInternal.
        for bi in d + 1..nb {
            for bj in d + 1..nb {
                for i in 0..B {
                    for j in 0..B {
                        let mut s = 0.0f32;
                        for k in 0..B {
                            s += a[(bi * B + i) * n + o + k] * a[(o + k) * n + bj * B + j];
                        }
                        a[(bi * B + i) * n + bj * B + j] -= s;
                    }
                }
            }
        }
    }
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 192 x 192 (12 x 12 blocks: the first trailing update has 121 CTAs of 8 warps).
    // Paper: 512 x 512, one of Rodinia's standard inputs.
    let n = size.pick(192usize, 512usize);
    let nb = n / B;
    let mut r = rng::rng(NAME, 0);
    // Diagonally dominant, so the factorisation needs no pivoting.
    let mut a0 = rng::f32s(&mut r, n * n, -1.0, 1.0);
    for i in 0..n {
        a0[i * n + i] += n as f32;
    }
    let mut want = a0.clone();
    lud_blocked(&mut want, n);

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (kd, kp, ki) = (
        ctx.kernel(DIAGONAL)?,
        ctx.kernel(PERIMETER)?,
        ctx.kernel(INTERNAL)?,
    );
    let da = ctx.upload(&a0)?;
    let tile = Dim3::new(B as u32, B as u32, 1);
    for d in 0..nb {
        let args = [Arg::Ptr(da), Arg::I32(n as i32), Arg::I32(d as i32)];
        ctx.launch(kd, Dim3::new(1, 1, 1), tile, 0, &args)?;
        let rest = (nb - 1 - d) as u32;
        if rest > 0 {
            ctx.launch(
                kp,
                Dim3::new(rest, 1, 1),
                Dim3::new(2 * B as u32, 1, 1),
                0,
                &args,
            )?;
            ctx.launch(ki, Dim3::new(rest, rest, 1), tile, 0, &args)?;
        }
    }
    let got = ctx.download::<f32>(da, n * n)?;
    ctx.exact("LU", &got, &want)?;

    // Backward error of the device's factors: |(L U)_ij - a_ij| <= γ(n) (|L| |U|)_ij.
    let gamma = gamma_f32(n);
    let (mut lu, mut bound) = (vec![0.0f64; n * n], vec![0.0f64; n * n]);
    let expected: Vec<f64> = a0.iter().map(|&v| v as f64).collect();
    for i in 0..n {
        for j in 0..n {
            let (mut s, mut s_abs) = (0.0f64, 0.0f64);
            for k in 0..=i.min(j) {
                let l = if k == i { 1.0 } else { got[i * n + k] as f64 };
                let t = l * got[k * n + j] as f64;
                s += t;
                s_abs += t.abs();
            }
            lu[i * n + j] = s;
            bound[i * n + j] = gamma * s_abs;
        }
    }
    ctx.bounded("L U - A", &lu, &expected, &bound)?;
    ctx.finish("")
}
