//! baws_srad2: BAWS "SRAD2" — speckle-reducing anisotropic diffusion (Rodinia's v2 scheme):
//! per iteration a ROI-statistics reduction (finished on the host into q0^2), then the
//! derivative/coefficient kernel and the divergence/update kernel on 16 x 16 shared tiles.
//!
//! The kernels round every float operation explicitly, so the reference below repeats them
//! in the same order in f32 and every output is compared bit for bit, including the
//! per-CTA partial sums of every iteration.
//!
//! Sizes: small is a 320 x 320 image, 2 iterations (400 CTAs per tiled launch, the GPU's
//! 15 x 6 CTA slots filled 4.4 times, so most CTAs start in slots freed by earlier ones);
//! paper is 512 x 512, 10 iterations.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "baws_srad2";
pub(crate) const PTX: &str = kernel_file!(baws_srad2, "ptx");
const SUMS: &str = "_Z8sradSumsPKfPfiiiii";
const SRAD1: &str = "_Z5srad1PKfPfS1_S1_S1_S1_iif";
const SRAD2: &str = "_Z5srad2PfPKfS1_S1_S1_S1_iif";
/// SRAD_T and SRAD_THREADS in the .cu.
const T: usize = 16;
const THREADS: usize = 256;
/// CTAs of the ROI reduction.
const SUM_CTAS: usize = 8;
const LAMBDA: f32 = 0.5;

struct Roi {
    r1: usize,
    c1: usize,
    w: usize,
    h: usize,
}

/// sradSums, CTA by CTA, in the kernel's order: (sum, sum of squares) per CTA.
fn roi_partials(j: &[f32], cols: usize, roi: &Roi) -> Vec<f32> {
    let size = roi.w * roi.h;
    let mut out = Vec::with_capacity(2 * SUM_CTAS);
    for b in 0..SUM_CTAS {
        let mut s = vec![0.0f32; THREADS];
        let mut s2 = vec![0.0f32; THREADS];
        for t in 0..THREADS {
            let mut i = b * THREADS + t;
            while i < size {
                let v = j[(roi.r1 + i / roi.w) * cols + roi.c1 + i % roi.w];
                s[t] += v;
                s2[t] += v * v;
                i += SUM_CTAS * THREADS;
            }
        }
        let mut stride = THREADS / 2;
        while stride > 0 {
            for t in 0..stride {
                s[t] += s[t + stride];
                s2[t] += s2[t + stride];
            }
            stride /= 2;
        }
        out.push(s[0]);
        out.push(s2[0]);
    }
    out
}

/// The host's part of the statistics: q0^2 = var / mean^2 over the ROI (in f64, rounded).
fn q0sqr(partials: &[f32], roi: &Roi) -> f32 {
    let n = (roi.w * roi.h) as f64;
    let sum: f64 = partials.iter().step_by(2).map(|&v| v as f64).sum();
    let sum2: f64 = partials.iter().skip(1).step_by(2).map(|&v| v as f64).sum();
    let mean = sum / n;
    let var = sum2 / n - mean * mean;
    (var / (mean * mean)) as f32
}

/// Outputs of srad1: dN, dS, dW, dE, c.
struct Derivatives {
    dn: Vec<f32>,
    ds: Vec<f32>,
    dw: Vec<f32>,
    de: Vec<f32>,
    c: Vec<f32>,
}

fn srad1(j: &[f32], rows: usize, cols: usize, q0sqr: f32) -> Derivatives {
    let n = rows * cols;
    let mut d = Derivatives {
        dn: vec![0.0; n],
        ds: vec![0.0; n],
        dw: vec![0.0; n],
        de: vec![0.0; n],
        c: vec![0.0; n],
    };
    for i in 0..rows {
        for x in 0..cols {
            let k = i * cols + x;
            let jc = j[k];
            let n_ = j[i.saturating_sub(1) * cols + x] - jc;
            let s = j[(i + 1).min(rows - 1) * cols + x] - jc;
            let w = j[i * cols + x.saturating_sub(1)] - jc;
            let e = j[i * cols + (x + 1).min(cols - 1)] - jc;
            let g2 = (((n_ * n_) + (s * s)) + (w * w)) + (e * e);
            let sum = ((n_ + s) + w) + e;
            let g2 = g2 / (jc * jc);
            let l = sum / jc;
            let num = 0.5f32 * g2 - 0.0625f32 * (l * l);
            let den = 1.0f32 + 0.25f32 * l;
            let qsqr = num / (den * den);
            let den = (qsqr - q0sqr) / (q0sqr * (1.0f32 + q0sqr));
            let c = 1.0f32 / (1.0f32 + den);
            d.dn[k] = n_;
            d.ds[k] = s;
            d.dw[k] = w;
            d.de[k] = e;
            // fminf(fmaxf(c, 0), 1): unlike clamp, maps NaN to 0, as CUDA's fmaxf does.
            #[allow(clippy::manual_clamp)]
            let c = c.max(0.0).min(1.0);
            d.c[k] = c;
        }
    }
    d
}

fn srad2(j: &mut [f32], d: &Derivatives, rows: usize, cols: usize) {
    for i in 0..rows {
        for x in 0..cols {
            let k = i * cols + x;
            let cc = d.c[k];
            let cs = d.c[(i + 1).min(rows - 1) * cols + x];
            let ce = d.c[i * cols + (x + 1).min(cols - 1)];
            let div = (((cc * d.dn[k]) + (cs * d.ds[k])) + (cc * d.dw[k])) + (ce * d.de[k]);
            j[k] += (0.25f32 * LAMBDA) * div;
        }
    }
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 320 x 320 (20 x 20 = 400 CTAs per tiled kernel, 4.4 times the GTX 480's 90 CTA
    // slots), 2 iterations. Paper: 512 x 512 (1024 CTAs), 10 iterations. The ROI is the
    // top-left corner, as in Rodinia's runs. Small used to be 144 x 160 (90 CTAs, exactly one
    // wave): every CTA then started at cycle 0 and, under LRR, ran in step with the others, so
    // its warps reached each barrier almost together (13.6% barrier + exit wait under LRR);
    // with several waves, CTAs dispatched into freed slots share an SM with CTAs in other
    // phases and their warps' loads return further apart.
    let (rows, cols, iters) = size.pick((320usize, 320usize, 2usize), (512, 512, 10));
    let roi = Roi {
        r1: 0,
        c1: 0,
        w: cols / 2,
        h: rows / 2,
    };
    let mut r = rng::rng(NAME, 0);
    // Rodinia loads an ultrasound image and works on exp(pixel / 255); ours is random.
    let image: Vec<f32> = rng::f32s(&mut r, rows * cols, 0.0, 1.0)
        .into_iter()
        .map(f32::exp)
        .collect();

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (ksums, k1, k2) = (ctx.kernel(SUMS)?, ctx.kernel(SRAD1)?, ctx.kernel(SRAD2)?);
    let dj = ctx.upload(&image)?;
    let n = rows * cols;
    let (dn, ds, dw, de, dc) = (
        ctx.zeroed::<f32>(n)?,
        ctx.zeroed::<f32>(n)?,
        ctx.zeroed::<f32>(n)?,
        ctx.zeroed::<f32>(n)?,
        ctx.zeroed::<f32>(n)?,
    );
    let dpartials = ctx.zeroed::<f32>(2 * SUM_CTAS)?;
    let tiles = Dim3::new((cols / T) as u32, (rows / T) as u32, 1);
    let tile = Dim3::new(T as u32, T as u32, 1);

    let mut j = image.clone();
    let mut last = None;
    for it in 0..iters {
        ctx.launch(
            ksums,
            Dim3::new(SUM_CTAS as u32, 1, 1),
            Dim3::new(THREADS as u32, 1, 1),
            0,
            &[
                Arg::Ptr(dj),
                Arg::Ptr(dpartials),
                Arg::I32(cols as i32),
                Arg::I32(roi.r1 as i32),
                Arg::I32(roi.c1 as i32),
                Arg::I32(roi.w as i32),
                Arg::I32((roi.w * roi.h) as i32),
            ],
        )?;
        let got_partials = ctx.download::<f32>(dpartials, 2 * SUM_CTAS)?;
        let want_partials = roi_partials(&j, cols, &roi);
        ctx.exact(
            &format!("ROI partial sums, iteration {it}"),
            &got_partials,
            &want_partials,
        )?;
        let q0 = q0sqr(&got_partials, &roi);
        let deriv = [
            Arg::Ptr(dn),
            Arg::Ptr(ds),
            Arg::Ptr(dw),
            Arg::Ptr(de),
            Arg::Ptr(dc),
        ];
        let mut args = vec![Arg::Ptr(dj)];
        args.extend_from_slice(&deriv);
        args.extend_from_slice(&[Arg::I32(rows as i32), Arg::I32(cols as i32), Arg::F32(q0)]);
        ctx.launch(k1, tiles, tile, 0, &args)?;
        args[8] = Arg::F32(LAMBDA);
        ctx.launch(k2, tiles, tile, 0, &args)?;

        let d = srad1(&j, rows, cols, q0);
        srad2(&mut j, &d, rows, cols);
        last = Some(d);
    }
    let got_j = ctx.download::<f32>(dj, n)?;
    ctx.exact("J", &got_j, &j)?;
    if let Some(d) = last {
        for (what, p, want) in [
            ("dN", dn, &d.dn),
            ("dS", ds, &d.ds),
            ("dW", dw, &d.dw),
            ("dE", de, &d.de),
            ("c", dc, &d.c),
        ] {
            let got = ctx.download::<f32>(p, n)?;
            ctx.exact(&format!("{what} (last iteration)"), &got, want)?;
        }
    }
    ctx.finish("")
}
