//! rod_srad: speckle-reducing anisotropic diffusion v1 (Rodinia `srad_v1`): per iteration
//! the image statistics come from a prepare kernel and a reduction relaunched on its own
//! results until one value is left; then the diffusion-coefficient and update kernels run
//! over the column-major image with neighbour index arrays.
//!
//! Every float operation is explicitly rounded in the kernels, so the reference repeats them
//! in f32 in the same order: every iteration's total sums and the final image, derivatives and
//! coefficients are compared bit for bit.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "rod_srad";
pub(crate) const PTX: &str = kernel_file!(rod_srad, "ptx");

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[
        KernelShape::x(PREPARE, T as u32),
        KernelShape::x(REDUCE, T as u32),
        KernelShape::x(COEFF, T as u32),
        KernelShape::x(UPDATE, T as u32),
    ],
    barriers: "sradReduce: 1 after staging + 1 per tree level (8); the per-pixel kernels: none",
    small: "256 x 256 image (256 CTAs per pixel kernel), 2 iterations",
    paper: "502 x 458 image (899 CTAs), 10 iterations",
};
const PREPARE: &str = "_Z11sradPreparePKfPfS1_i";
const REDUCE: &str = "_Z10sradReducePKfS0_PfS1_i";
const COEFF: &str = "_Z9sradCoeffPKfPKiS2_S2_S2_PfS3_S3_S3_S3_iif";
const UPDATE: &str = "_Z10sradUpdatePfPKiS1_PKfS3_S3_S3_S3_iif";
/// SR_T in the .cu.
const T: usize = 256;
const LAMBDA: f32 = 0.5;

/// The reduction's launches on the host: tree sums of 256-chunks until one value is left.
fn reduce(mut v: Vec<f32>) -> f32 {
    loop {
        v = v
            .chunks(T)
            .map(|c| {
                let mut s = c.to_vec();
                s.resize(T, 0.0);
                let mut stride = T / 2;
                while stride > 0 {
                    for t in 0..stride {
                        s[t] += s[t + stride];
                    }
                    stride /= 2;
                }
                s[0]
            })
            .collect();
        if v.len() == 1 {
            return v[0];
        }
    }
}

struct Fields {
    dn: Vec<f32>,
    ds: Vec<f32>,
    dw: Vec<f32>,
    de: Vec<f32>,
    c: Vec<f32>,
}

/// sradCoeff and sradUpdate on the host (column-major, k = col * rows + row).
fn step(j: &mut [f32], rows: usize, cols: usize, q0sqr: f32) -> Fields {
    let n = rows * cols;
    let mut f = Fields {
        dn: vec![0.0; n],
        ds: vec![0.0; n],
        dw: vec![0.0; n],
        de: vec![0.0; n],
        c: vec![0.0; n],
    };
    for col in 0..cols {
        for row in 0..rows {
            let k = col * rows + row;
            let jc = j[k];
            let n_ = j[col * rows + row.saturating_sub(1)] - jc;
            let s = j[col * rows + (row + 1).min(rows - 1)] - jc;
            let w = j[col.saturating_sub(1) * rows + row] - jc;
            let e = j[(col + 1).min(cols - 1) * rows + row] - jc;
            let g2 = ((((n_ * n_) + (s * s)) + (w * w)) + (e * e)) / (jc * jc);
            let l = (((n_ + s) + w) + e) / jc;
            let num = 0.5f32 * g2 - 0.0625f32 * (l * l);
            let den = 1.0f32 + 0.25f32 * l;
            let qsqr = num / (den * den);
            let den = (qsqr - q0sqr) / (q0sqr * (1.0f32 + q0sqr));
            let c = 1.0f32 / (1.0f32 + den);
            f.dn[k] = n_;
            f.ds[k] = s;
            f.dw[k] = w;
            f.de[k] = e;
            // fminf(fmaxf(c, 0), 1): maps NaN to 0 like CUDA's fmaxf, unlike clamp.
            #[allow(clippy::manual_clamp)]
            let c = c.max(0.0).min(1.0);
            f.c[k] = c;
        }
    }
    for col in 0..cols {
        for row in 0..rows {
            let k = col * rows + row;
            let cs = f.c[col * rows + (row + 1).min(rows - 1)];
            let ce = f.c[(col + 1).min(cols - 1) * rows + row];
            let d = (((f.c[k] * f.dn[k]) + (cs * f.ds[k])) + (f.c[k] * f.dw[k])) + (ce * f.de[k]);
            j[k] += (0.25f32 * LAMBDA) * d;
        }
    }
    f
}

/// Rodinia's host statistics: q0^2 = var / mean^2 in f32.
fn q0sqr(sum: f32, sum2: f32, n: usize) -> f32 {
    let mean = sum / n as f32;
    let mean2 = mean * mean;
    let var = sum2 / n as f32 - mean2;
    var / mean2
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 256 x 256 pixels (256 CTAs per pixel kernel), 2 iterations. Paper: Rodinia's
    // 502 x 458 image, 10 iterations.
    let (rows, cols, iters) = size.pick((256usize, 256usize, 2usize), (502, 458, 10));
    let n = rows * cols;
    let mut r = rng::rng(NAME, 0);
    // Rodinia works on exp(pixel / 255) of an ultrasound image; these values lie in that range.
    let image: Vec<f32> = rng::f32s(&mut r, n, 0.0, 1.0)
        .into_iter()
        .map(f32::exp)
        .collect();
    let i_n: Vec<i32> = (0..rows as i32).map(|i| (i - 1).max(0)).collect();
    let i_s: Vec<i32> = (0..rows as i32)
        .map(|i| (i + 1).min(rows as i32 - 1))
        .collect();
    let j_w: Vec<i32> = (0..cols as i32).map(|j| (j - 1).max(0)).collect();
    let j_e: Vec<i32> = (0..cols as i32)
        .map(|j| (j + 1).min(cols as i32 - 1))
        .collect();

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (kp, kr, kc, ku) = (
        ctx.kernel(PREPARE)?,
        ctx.kernel(REDUCE)?,
        ctx.kernel(COEFF)?,
        ctx.kernel(UPDATE)?,
    );
    let dj = ctx.upload(&image)?;
    let (din, dis, djw, dje) = (
        ctx.upload(&i_n)?,
        ctx.upload(&i_s)?,
        ctx.upload(&j_w)?,
        ctx.upload(&j_e)?,
    );
    let mut sums = [
        (ctx.zeroed::<f32>(n)?, ctx.zeroed::<f32>(n)?),
        (ctx.zeroed::<f32>(n)?, ctx.zeroed::<f32>(n)?),
    ];
    let fields: Vec<_> = (0..5)
        .map(|_| ctx.zeroed::<f32>(n))
        .collect::<Result<_, _>>()?;
    let (grid, block) = (Dim3::new(div_up(n, T), 1, 1), Dim3::new(T as u32, 1, 1));
    let mut j = image.clone();
    let mut last = None;
    for it in 0..iters {
        ctx.launch(
            kp,
            grid,
            block,
            0,
            &[
                Arg::Ptr(dj),
                Arg::Ptr(sums[0].0),
                Arg::Ptr(sums[0].1),
                Arg::I32(n as i32),
            ],
        )?;
        let mut count = n;
        while count > 1 {
            let ctas = div_up(count, T);
            ctx.launch(
                kr,
                Dim3::new(ctas, 1, 1),
                block,
                0,
                &[
                    Arg::Ptr(sums[0].0),
                    Arg::Ptr(sums[0].1),
                    Arg::Ptr(sums[1].0),
                    Arg::Ptr(sums[1].1),
                    Arg::I32(count as i32),
                ],
            )?;
            sums.swap(0, 1);
            count = ctas as usize;
        }
        let got = [
            ctx.download::<f32>(sums[0].0, 1)?[0],
            ctx.download::<f32>(sums[0].1, 1)?[0],
        ];
        let want = [reduce(j.clone()), reduce(j.iter().map(|v| v * v).collect())];
        ctx.exact(&format!("image sums, iteration {it}"), &got, &want)?;
        let q0 = q0sqr(got[0], got[1], n);
        let mut args = vec![
            Arg::Ptr(dj),
            Arg::Ptr(din),
            Arg::Ptr(dis),
            Arg::Ptr(djw),
            Arg::Ptr(dje),
        ];
        args.extend(fields.iter().map(|&p| Arg::Ptr(p)));
        args.extend([Arg::I32(rows as i32), Arg::I32(cols as i32), Arg::F32(q0)]);
        ctx.launch(kc, grid, block, 0, &args)?;
        let mut args = vec![Arg::Ptr(dj), Arg::Ptr(dis), Arg::Ptr(dje)];
        args.extend(fields.iter().map(|&p| Arg::Ptr(p)));
        args.extend([
            Arg::I32(rows as i32),
            Arg::I32(cols as i32),
            Arg::F32(LAMBDA),
        ]);
        ctx.launch(ku, grid, block, 0, &args)?;
        last = Some(step(&mut j, rows, cols, q0));
    }
    let got = ctx.download::<f32>(dj, n)?;
    ctx.exact("J", &got, &j)?;
    if let Some(f) = last {
        for (what, p, want) in [
            ("dN", 0, &f.dn),
            ("dS", 1, &f.ds),
            ("dW", 2, &f.dw),
            ("dE", 3, &f.de),
            ("c", 4, &f.c),
        ] {
            let got = ctx.download::<f32>(fields[p], n)?;
            ctx.exact(&format!("{what} (last iteration)"), &got, want)?;
        }
    }
    ctx.finish("")
}
