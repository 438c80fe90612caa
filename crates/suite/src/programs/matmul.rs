//! matmul: C (M x N) = A (M x K) · B (K x N), 16x16 shared-memory tiles.

use warpsim_core::device::{Arg, Device, Dim3};

use super::scalar_prod::gamma_f32;
use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "matmul";
pub(crate) const PTX: &str = kernel_file!(matmul, "ptx");
const KERNEL: &str = "_Z11matmulTiledPfPKfS1_iii";
/// Must match TILE in the .cu.
const TILE: usize = 16;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Non-square, every dimension a multiple of the tile.
    let (m, n, k) = size.pick((48usize, 64usize, 80usize), (256, 384, 320));
    let mut r = rng::rng(NAME, 0);
    let a = rng::f32s(&mut r, m * k, -1.0, 1.0);
    let b = rng::f32s(&mut r, k * n, -1.0, 1.0);

    let (expected, bound) = reference(&a, &b, m, n, k);

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let kern = ctx.kernel(KERNEL)?;
    let da = ctx.upload(&a)?;
    let db = ctx.upload(&b)?;
    let dc = ctx.zeroed::<f32>(m * n)?;
    ctx.launch(
        kern,
        Dim3::new((n / TILE) as u32, (m / TILE) as u32, 1),
        Dim3::new(TILE as u32, TILE as u32, 1),
        0,
        &[
            Arg::Ptr(dc),
            Arg::Ptr(da),
            Arg::Ptr(db),
            Arg::I32(m as i32),
            Arg::I32(n as i32),
            Arg::I32(k as i32),
        ],
    )?;
    let got = ctx.download::<f32>(dc, m * n)?;
    ctx.bounded("C", &got, &expected, &bound)?;
    ctx.finish("")
}

/// The f64 product `a (m×k) · b (k×n)` and, per element, the error bound of an f32 kernel that
/// computes each element as a chain of k fmas in k order: at most k roundings per term, so
/// |got − exact| ≤ γ(k) · Σ_k |a_ik b_kj| (products are exact in f64).
pub(super) fn reference(
    a: &[f32],
    b: &[f32],
    m: usize,
    n: usize,
    k: usize,
) -> (Vec<f64>, Vec<f64>) {
    let gamma = gamma_f32(k);
    let mut expected = vec![0.0f64; m * n];
    let mut bound = vec![0.0f64; m * n];
    for i in 0..m {
        for j in 0..n {
            let (mut s, mut s_abs) = (0.0f64, 0.0f64);
            for kk in 0..k {
                let t = a[i * k + kk] as f64 * b[kk * n + j] as f64;
                s += t;
                s_abs += t.abs();
            }
            expected[i * n + j] = s;
            bound[i * n + j] = gamma * s_abs;
        }
    }
    (expected, bound)
}
