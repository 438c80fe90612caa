//! baws_mg: BAWS "MG" — MRI Cartesian gridding: bin the non-uniform samples (count, scan,
//! scatter), then grid them tile by tile with the samples staged in shared memory.

use rand::Rng;
use warpsim_core::device::{Arg, Device, Dim3};

use super::scalar_prod::gamma_f32;
use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "baws_mg";
pub(crate) const PTX: &str = kernel_file!(baws_mg, "ptx");
const BIN_COUNT: &str = "_Z10mgBinCountPK6SamplePiii";
const BIN_SCAN: &str = "_Z9mgBinScanPKiPiS1_i";
const BIN_SCATTER: &str = "_Z12mgBinScatterPK6SamplePS_Piii";
const GRID: &str = "_Z6mgGridPK6SamplePKiPfS4_S4_iiif";
/// MG_THREADS, MG_TX, MG_TY, MG_B and MG_R in the .cu.
const THREADS: u32 = 512;
const TX: usize = 32;
const TY: usize = 16;
const BIN: usize = 4;
const R: f32 = 2.0;

/// x, y, re, im: the kernel's `Sample`.
type Sample = [f32; 4];

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 192 x 192 grid (6 x 12 = 72 tiles), 1920 samples on 24 spokes. Paper: 512 x 512
    // (512 tiles), 200 000 samples on 400 spokes.
    let (g, spokes, per_spoke) = size.pick((192usize, 24usize, 80usize), (512, 400, 500));
    let mut r = rng::rng(NAME, 0);
    // Radial trajectory: samples evenly spaced along spokes through the centre, jittered, so
    // the density (and the gridding work) peaks at the centre.
    let mut samples: Vec<Sample> = Vec::with_capacity(spokes * per_spoke);
    let c = g as f32 / 2.0;
    let max = g as f32 - 1e-3;
    for s in 0..spokes {
        let theta = std::f32::consts::PI * (s as f32 + r.gen_range(0.0..0.5)) / spokes as f32;
        for i in 0..per_spoke {
            let rad = (i as f32 / per_spoke as f32 - 0.5) * (g as f32 - 2.0);
            let x = (c + rad * theta.cos() + r.gen_range(-0.3..0.3)).clamp(0.0, max);
            let y = (c + rad * theta.sin() + r.gen_range(-0.3..0.3)).clamp(0.0, max);
            samples.push([x, y, r.gen_range(-1.0..1.0), r.gen_range(-1.0..1.0)]);
        }
    }
    let n = samples.len();
    let bins_x = g / BIN;
    let bins = bins_x * bins_x;
    let bin_of = |s: &Sample| (s[1] as usize / BIN) * bins_x + s[0] as usize / BIN;

    // Binning reference: exclusive scan of the counts; each bin's samples as a sorted set.
    let mut counts = vec![0i32; bins];
    for s in &samples {
        counts[bin_of(s)] += 1;
    }
    let mut bin_start = vec![0i32; bins + 1];
    for b in 0..bins {
        bin_start[b + 1] = bin_start[b] + counts[b];
    }

    // Gridding reference in f64. The device's weight w is within ~13u of the exact one
    // (errors of dx, dy, d2 and t = 1 - d2/R^2 <= 6u absolute, then t^2), so each term
    // w·v is within 13u|v| + u|w v|, and k sequential adds cost γ(k)·Σ|w v|. Samples within
    // a relative 1e-5 of the cutoff may fall on either side; their weight is < 1e-10.
    //   |got - exact| <= 16u · Σ_{d2 < R^2 (1 + 1e-5)} |v| + γ(k + 1) · Σ |w v|
    let u = f32::EPSILON as f64 / 2.0;
    let r2 = (R * R) as f64;
    let mut sum = vec![[0.0f64; 3]; g * g];
    let mut abs_wv = vec![[0.0f64; 3]; g * g];
    let mut abs_v = vec![[0.0f64; 3]; g * g];
    let mut terms = vec![0usize; g * g];
    for s in &samples {
        let (x, y) = (s[0] as f64, s[1] as f64);
        let v = [s[2] as f64, s[3] as f64, 1.0];
        let (x0, x1) = (
            (x - 2.0).floor().max(0.0) as usize,
            ((x + 2.0).ceil() as usize).min(g - 1),
        );
        let (y0, y1) = (
            (y - 2.0).floor().max(0.0) as usize,
            ((y + 2.0).ceil() as usize).min(g - 1),
        );
        for py in y0..=y1 {
            for px in x0..=x1 {
                let d2 = (px as f64 - x).powi(2) + (py as f64 - y).powi(2);
                if d2 >= r2 * (1.0 + 1e-5) {
                    continue;
                }
                let p = py * g + px;
                terms[p] += 1;
                let w = if d2 < r2 {
                    (1.0 - d2 / r2).powi(2)
                } else {
                    0.0
                };
                for c in 0..3 {
                    sum[p][c] += w * v[c];
                    abs_wv[p][c] += (w * v[c]).abs();
                    abs_v[p][c] += v[c].abs();
                }
            }
        }
    }
    let expected = |c: usize| sum.iter().map(|s| s[c]).collect::<Vec<f64>>();
    let bound = |c: usize| {
        (0..g * g)
            .map(|p| 16.0 * u * abs_v[p][c] + gamma_f32(terms[p] + 1) * abs_wv[p][c])
            .collect::<Vec<f64>>()
    };

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (kcount, kscan, kscatter, kgrid) = (
        ctx.kernel(BIN_COUNT)?,
        ctx.kernel(BIN_SCAN)?,
        ctx.kernel(BIN_SCATTER)?,
        ctx.kernel(GRID)?,
    );
    let flat: Vec<f32> = samples.iter().flatten().copied().collect();
    let dsamples = ctx.upload(&flat)?;
    let dcount = ctx.zeroed::<i32>(bins)?;
    let dstart = ctx.zeroed::<i32>(bins + 1)?;
    let dcursor = ctx.zeroed::<i32>(bins)?;
    let dbinned = ctx.zeroed::<f32>(4 * n)?;
    let (dre, dim, dw) = (
        ctx.zeroed::<f32>(g * g)?,
        ctx.zeroed::<f32>(g * g)?,
        ctx.zeroed::<f32>(g * g)?,
    );
    let block = Dim3::new(THREADS, 1, 1);
    let per_sample = Dim3::new(n.div_ceil(THREADS as usize) as u32, 1, 1);
    let (ni, bx) = (n as i32, bins_x as i32);
    ctx.launch(
        kcount,
        per_sample,
        block,
        0,
        &[
            Arg::Ptr(dsamples),
            Arg::Ptr(dcount),
            Arg::I32(ni),
            Arg::I32(bx),
        ],
    )?;
    ctx.launch(
        kscan,
        Dim3::new(1, 1, 1),
        block,
        0,
        &[
            Arg::Ptr(dcount),
            Arg::Ptr(dstart),
            Arg::Ptr(dcursor),
            Arg::I32(bins as i32),
        ],
    )?;
    ctx.launch(
        kscatter,
        per_sample,
        block,
        0,
        &[
            Arg::Ptr(dsamples),
            Arg::Ptr(dbinned),
            Arg::Ptr(dcursor),
            Arg::I32(ni),
            Arg::I32(bx),
        ],
    )?;
    ctx.launch(
        kgrid,
        Dim3::new((g / TX) as u32, (g / TY) as u32, 1),
        block,
        0,
        &[
            Arg::Ptr(dbinned),
            Arg::Ptr(dstart),
            Arg::Ptr(dre),
            Arg::Ptr(dim),
            Arg::Ptr(dw),
            Arg::I32(g as i32),
            Arg::I32(bx),
            Arg::I32(bins_x as i32),
            Arg::F32(1.0 / (R * R)),
        ],
    )?;

    let got_count = ctx.download::<i32>(dcount, bins)?;
    ctx.exact("bin counts", &got_count, &counts)?;
    let got_start = ctx.download::<i32>(dstart, bins + 1)?;
    ctx.exact("bin starts", &got_start, &bin_start)?;
    // Every bin's slice of the binned array holds exactly that bin's samples (in some order).
    let got_binned = ctx.download::<f32>(dbinned, 4 * n)?;
    let key = |s: &[f32]| {
        [
            s[0].to_bits(),
            s[1].to_bits(),
            s[2].to_bits(),
            s[3].to_bits(),
        ]
    };
    let mut per_bin: Vec<Vec<[u32; 4]>> = vec![Vec::new(); bins];
    for s in &samples {
        per_bin[bin_of(s)].push(key(s));
    }
    for (b, want) in per_bin.iter_mut().enumerate() {
        let (lo, hi) = (bin_start[b] as usize, bin_start[b + 1] as usize);
        let mut got: Vec<[u32; 4]> = got_binned[4 * lo..4 * hi]
            .chunks_exact(4)
            .map(key)
            .collect();
        got.sort_unstable();
        want.sort_unstable();
        ctx.exact(
            &format!("samples of bin {b} (sorted bit patterns)"),
            &got,
            want,
        )?;
    }
    let got_re = ctx.download::<f32>(dre, g * g)?;
    let got_im = ctx.download::<f32>(dim, g * g)?;
    let got_w = ctx.download::<f32>(dw, g * g)?;
    ctx.bounded("grid re", &got_re, &expected(0), &bound(0))?;
    ctx.bounded("grid im", &got_im, &expected(1), &bound(1))?;
    ctx.bounded("grid weight", &got_w, &expected(2), &bound(2))?;
    ctx.finish("")
}
