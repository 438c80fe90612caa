//! scalar_prod: `pairs` dot products of length `len`, one CTA of 256 threads per pair.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "scalar_prod";
pub(crate) const PTX: &str = kernel_file!(scalar_prod, "ptx");
const KERNEL: &str = "_Z10scalarProdPfPKfS1_ii";
/// Must match SP_THREADS in the .cu.
const THREADS: usize = 256;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // `len` is deliberately not a multiple of the CTA size.
    let (pairs, len) = size.pick((24usize, 600usize), (512, 4100));
    let mut r = rng::rng(NAME, 0);
    let a = rng::f32s(&mut r, pairs * len, -1.0, 1.0);
    let b = rng::f32s(&mut r, pairs * len, -1.0, 1.0);

    // Reference: products of two f32 are exact in f64 and the f64 sum's own error is
    // negligible next to the device's f32 error.
    //
    // Device error: each thread sums m = ceil(len / 256) terms with one rounding per step
    // (fma), then a log2(256) = 8-level tree adds partials, one rounding per level. Every
    // term passes through at most m + 8 roundings, so |got - exact| <= γ(m+8) · Σ|a_i b_i|,
    // γ(k) = k·u / (1 - k·u), u = 2^-24.
    let m = len.div_ceil(THREADS);
    let gamma = gamma_f32(m + 8);
    let mut expected = Vec::with_capacity(pairs);
    let mut bound = Vec::with_capacity(pairs);
    for p in 0..pairs {
        let (va, vb) = (&a[p * len..(p + 1) * len], &b[p * len..(p + 1) * len]);
        let (mut s, mut s_abs) = (0.0f64, 0.0f64);
        for (&x, &y) in va.iter().zip(vb) {
            let t = x as f64 * y as f64;
            s += t;
            s_abs += t.abs();
        }
        expected.push(s);
        bound.push(gamma * s_abs);
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k = ctx.kernel(KERNEL)?;
    let da = ctx.upload(&a)?;
    let db = ctx.upload(&b)?;
    let dout = ctx.zeroed::<f32>(pairs)?;
    ctx.launch(
        k,
        Dim3::new(pairs as u32, 1, 1),
        Dim3::new(THREADS as u32, 1, 1),
        0,
        &[
            Arg::Ptr(dout),
            Arg::Ptr(da),
            Arg::Ptr(db),
            Arg::I32(pairs as i32),
            Arg::I32(len as i32),
        ],
    )?;
    let got = ctx.download::<f32>(dout, pairs)?;
    ctx.bounded("dot", &got, &expected, &bound)?;
    ctx.finish("")
}

/// γ(k) = k·u / (1 - k·u) with u = 2^-24: the classic bound on k successive f32 roundings.
pub(crate) fn gamma_f32(k: usize) -> f64 {
    let ku = k as f64 * f32::EPSILON as f64 / 2.0;
    ku / (1.0 - ku)
}
