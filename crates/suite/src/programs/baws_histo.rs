//! baws_histo: BAWS "HISTO" — 4096-bin histogram: per-CTA sub-histograms with shared-memory
//! atomics (each CTA a contiguous slice of the input), then a merge kernel (8 bins per CTA,
//! the 90 partial rows summed by a shared-memory tree) that also writes the 8-bit saturated
//! histogram image.
//!
//! Sizes: paper 4M values; small 144 000 values on the same 90 CTAs (two fills of 15 SMs x 3).
//! At the small size the 90 x 4096 partial counts outweigh the input, so the merge (512 CTAs)
//! is about three quarters of the warp cycles; at the paper size the sub-histogram kernel is.

use rand::Rng;
use warpsim_core::device::{Arg, Device, Dim3};

use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "baws_histo";
pub(crate) const PTX: &str = kernel_file!(baws_histo, "ptx");
const LOCAL: &str = "_Z10histoLocalPKjPji";
const MERGE: &str = "_Z10histoMergePjPhPKji";
/// HISTO_THREADS and HISTO_BINS in the .cu.
const THREADS: u32 = 512;
const BINS: usize = 4096;
/// HISTO_MERGE_BINS in the .cu: bins per merge CTA.
const MERGE_BINS: usize = 8;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 144 000 values on 90 CTAs (2 fills of 15 SMs x 3), 1600 per CTA: three passes of
    // 512 threads and a last one of 64. Paper: 4M values.
    let (n, ctas) = size.pick((144_000usize, 90u32), (1 << 22, 90));
    let mut r = rng::rng(NAME, 0);
    // Like an image's histogram: a few narrow peaks (bins far over 255, so the saturation
    // matters, and heavily contended shared-memory atomics) over a uniform floor.
    let peaks: Vec<f64> = (0..4).map(|_| r.gen_range(200.0..3900.0)).collect();
    let input: Vec<u32> = (0..n)
        .map(|_| {
            if r.gen_bool(0.6) {
                let p = peaks[r.gen_range(0..peaks.len())];
                // Sum of uniforms: roughly normal, sd ~ 20 bins.
                let off: f64 = (0..4).map(|_| r.gen_range(-17.0..17.0)).sum();
                (p + off).clamp(0.0, (BINS - 1) as f64) as u32
            } else {
                r.gen_range(0..BINS as u32)
            }
        })
        .collect();

    let mut hist = vec![0u32; BINS];
    for &v in &input {
        hist[v as usize] += 1;
    }
    let image: Vec<u8> = hist.iter().map(|&c| c.min(255) as u8).collect();
    // Each CTA's sub-histogram: CTA b takes the contiguous slice [b * per, (b + 1) * per).
    let per = n.div_ceil(ctas as usize);
    let mut partial = vec![0u32; ctas as usize * BINS];
    for (i, &v) in input.iter().enumerate() {
        let b = i / per;
        partial[b * BINS + v as usize] += 1;
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (local, merge) = (ctx.kernel(LOCAL)?, ctx.kernel(MERGE)?);
    let din = ctx.upload(&input)?;
    let dpartial = ctx.zeroed::<u32>(ctas as usize * BINS)?;
    let dhist = ctx.zeroed::<u32>(BINS)?;
    let dimage = ctx.zeroed::<u8>(BINS)?;
    let block = Dim3::new(THREADS, 1, 1);
    ctx.launch(
        local,
        Dim3::new(ctas, 1, 1),
        block,
        0,
        &[Arg::Ptr(din), Arg::Ptr(dpartial), Arg::I32(n as i32)],
    )?;
    ctx.launch(
        merge,
        Dim3::new((BINS / MERGE_BINS) as u32, 1, 1),
        block,
        0,
        &[
            Arg::Ptr(dhist),
            Arg::Ptr(dimage),
            Arg::Ptr(dpartial),
            Arg::I32(ctas as i32),
        ],
    )?;
    let got_partial = ctx.download::<u32>(dpartial, ctas as usize * BINS)?;
    ctx.exact("sub-histograms", &got_partial, &partial)?;
    let got_hist = ctx.download::<u32>(dhist, BINS)?;
    ctx.exact("histogram", &got_hist, &hist)?;
    let got_image = ctx.download::<u8>(dimage, BINS)?;
    ctx.exact("saturated image", &got_image, &image)?;
    ctx.finish("")
}
