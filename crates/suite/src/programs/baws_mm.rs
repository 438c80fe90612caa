//! baws_mm: BAWS "MM" — tiled SGEMM, 16 x 16 CTAs, two barriers per K-tile, the CUDA SDK's
//! fully unrolled 16-step inner product. Capped with `__maxnreg__(24)`, nvcc 13.5's floor
//! (23 registers used), it runs at 5 CTAs/SM on the GTX 480 instead of Table 2's 6: the one
//! deviation recorded in `crate::occupancy::BAWS_TABLE2`.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "baws_mm";
pub(crate) const PTX: &str = kernel_file!(baws_mm, "ptx");
const KERNEL: &str = "_Z7mmTiledPfPKfS1_iii";
/// MM_TILE in the .cu.
const TILE: usize = 16;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 24 x 20 = 480 CTAs (6.4 fills of 15 SMs x 5), 4 K-tiles. Paper: 512^3 (1024
    // CTAs, 32 K-tiles).
    let (m, n, k) = size.pick((384usize, 320usize, 64usize), (512, 512, 512));
    let mut r = rng::rng(NAME, 0);
    let a = rng::f32s(&mut r, m * k, -1.0, 1.0);
    let b = rng::f32s(&mut r, k * n, -1.0, 1.0);

    let (expected, bound) = super::matmul::reference(&a, &b, m, n, k);

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
