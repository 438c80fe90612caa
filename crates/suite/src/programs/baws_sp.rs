//! baws_sp: BAWS "SP" — scalar products of vector pairs, 512-thread CTAs, grid-stride over
//! pairs, shared-memory tree reduction with a barrier per level.

use warpsim_core::device::{Arg, Device, Dim3};

use super::scalar_prod::gamma_f32;
use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "baws_sp";
pub(crate) const PTX: &str = kernel_file!(baws_sp, "ptx");
const KERNEL: &str = "_Z5spDotPfPKfS1_ii";
/// SP_THREADS in the .cu.
const THREADS: usize = 512;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 180 pairs on 90 CTAs (2 fills of 15 SMs x 3 CTAs, two pairs per CTA); `len` not a
    // multiple of the CTA. Paper: the CUDA SDK's 256 pairs of 4096 on a 128-CTA grid.
    let (pairs, len, ctas) = size.pick((180usize, 1000usize, 90u32), (256, 4096, 128));
    let mut r = rng::rng(NAME, 0);
    let a = rng::f32s(&mut r, pairs * len, -1.0, 1.0);
    let b = rng::f32s(&mut r, pairs * len, -1.0, 1.0);

    // Each thread sums m = ceil(len / 512) products with fmaf (one rounding per term), then a
    // 9-level tree adds the partials (one rounding per level): every term passes through at
    // most m + 9 roundings, so |got - exact| <= γ(m + 9) · Σ|a_i b_i|. The f64 reference
    // (exact products) has negligible error of its own.
    let gamma = gamma_f32(len.div_ceil(THREADS) + 9);
    let (mut expected, mut bound) = (Vec::with_capacity(pairs), Vec::with_capacity(pairs));
    for p in 0..pairs {
        let (mut s, mut s_abs) = (0.0f64, 0.0f64);
        for i in p * len..(p + 1) * len {
            let t = a[i] as f64 * b[i] as f64;
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
        Dim3::new(ctas, 1, 1),
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
