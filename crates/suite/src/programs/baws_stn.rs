//! baws_stn: BAWS "STN" — Jacobi sweeps in one persistent kernel, the sweeps separated by a
//! grid-wide barrier built from global atomics and a volatile spin.
//!
//! A grid barrier needs every CTA of the grid resident at once. The grid is 30 CTAs: the
//! GTX 480's 15 SMs x 2 CTAs/SM (the kernel's occupancy), which warpsim's functional executor
//! (up to 120 resident CTAs, interleaved in slices) also keeps resident. The spinning warp's
//! instructions count in the statistics, so STN's instruction counts depend on how the
//! executor interleaves CTAs (deterministically): at Small the spin is about 8% of the warp
//! instructions in functional mode (1 203 624 with 30 CTAs against 1 110 116 for the same
//! work on one CTA, whose barrier never waits).
//!
//! Sizes: the domain is 256 columns wide and a power of two rows high, as stencil inputs
//! usually are: 1024 rows and 2 sweeps at Small, 4096 rows and 10 sweeps at Paper. Bands are
//! dealt out grid-stride, so a height that is not a multiple of 30 bands leaves some CTAs one
//! band more per sweep than the others, and those others wait for them at the grid barrier:
//! at Small 64 bands give CTAs 0-3 three bands and CTAs 4-29 two; at Paper 256 bands give
//! CTAs 0-15 nine and CTAs 16-29 eight. (Small used to be 480 rows, exactly one band per
//! CTA: under LRR every CTA then reached the grid barrier within a few hundred cycles of the
//! others and barrier time was 8% of the warp cycles.)

use warpsim_core::device::{Arg, Device, Dim3};

use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "baws_stn";
pub(crate) const PTX: &str = kernel_file!(baws_stn, "ptx");
const KERNEL: &str = "_Z13stnPersistentPfS_Pjii";
/// STN_THREADS, STN_W and STN_ROWS in the .cu.
const THREADS: u32 = 512;
const W: usize = 256;
const BAND: usize = 16;
/// Co-resident CTAs on the GTX 480: 15 SMs x 2.
const CTAS: u32 = 30;

/// One sweep, in the kernel's f32 operation order.
fn sweep(src: &[f32], dst: &mut [f32], rows: usize) {
    for r in 0..rows {
        for c in 0..W {
            let i = r * W + c;
            dst[i] = if r > 0 && r < rows - 1 && c > 0 && c < W - 1 {
                0.2f32 * ((((src[i] + src[i - W]) + src[i + W]) + src[i - 1]) + src[i + 1])
            } else {
                src[i]
            };
        }
    }
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 1024 rows = 64 bands (2-3 per CTA), 2 sweeps (2 grid barriers). Paper: 4096 rows
    // (8-9 bands per CTA), 10 sweeps.
    let (rows, sweeps) = size.pick((1024usize, 2usize), (4096, 10));
    assert_eq!(rows % BAND, 0, "the kernel works on whole bands");
    let mut r = rng::rng(NAME, 0);
    let init = rng::f32s(&mut r, rows * W, 0.0, 1.0);

    let mut a = init.clone();
    let mut b = init.clone();
    for s in 0..sweeps {
        if s % 2 == 0 {
            sweep(&a, &mut b, rows);
        } else {
            sweep(&b, &mut a, rows);
        }
    }
    let (last, other) = if sweeps % 2 == 1 { (&b, &a) } else { (&a, &b) };

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k = ctx.kernel(KERNEL)?;
    let da = ctx.upload(&init)?;
    let db = ctx.upload(&init)?;
    let dbar = ctx.zeroed::<u32>(2)?;
    ctx.launch(
        k,
        Dim3::new(CTAS, 1, 1),
        Dim3::new(THREADS, 1, 1),
        0,
        &[
            Arg::Ptr(da),
            Arg::Ptr(db),
            Arg::Ptr(dbar),
            Arg::I32(rows as i32),
            Arg::I32(sweeps as i32),
        ],
    )?;
    let (dlast, dother) = if sweeps % 2 == 1 { (db, da) } else { (da, db) };
    let got_last = ctx.download::<f32>(dlast, rows * W)?;
    let got_other = ctx.download::<f32>(dother, rows * W)?;
    // Bit-exact: the kernel rounds each add and the product explicitly, in this order.
    ctx.exact("final grid", &got_last, last)?;
    ctx.exact("previous grid", &got_other, other)?;
    // The barrier is left reset, its generation counted once per sweep.
    let bar = ctx.download::<u32>(dbar, 2)?;
    ctx.exact(
        "grid barrier (count, generation)",
        &bar,
        &[0, sweeps as u32],
    )?;
    ctx.finish("")
}
