//! rod_dwt2d: multi-level 2-D forward DWT with the reversible CDF 5/3 lifting scheme
//! (Rodinia `dwt2d`, JPEG 2000's lossless wavelet): per level a row kernel (shared memory,
//! barriers between the lifting steps) and a column kernel on the shrinking LL band.
//!
//! Integer arithmetic: the reference below repeats the lifting and the coefficients after
//! every level are compared exactly; the inverse transform of the device's final result must
//! also give back the input image.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "rod_dwt2d";
pub(crate) const PTX: &str = kernel_file!(rod_dwt2d, "ptx");

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::x(ROWS, T), KernelShape::xy(COLS, 32, 8)],
    barriers: "dwtRows: 2 (after staging the row, after the predict step); dwtCols: none",
    small: "256 x 256 image, 3 levels (first row pass: 256 CTAs)",
    paper: "1024 x 1024 image, 3 levels",
};
const ROWS: &str = "_Z7dwtRowsPKiPiii";
const COLS: &str = "_Z7dwtColsPKiPiiii";
/// DWT_T and DWT_MAXW in the .cu.
const T: u32 = 128;
const MAXW: usize = 1024;

/// Forward 5/3 lifting of one signal: returns s | d.
fn forward(x: &[i32]) -> Vec<i32> {
    let (n, half) = (x.len(), x.len() / 2);
    let d: Vec<i32> = (0..half)
        .map(|k| {
            x[2 * k + 1] - ((x[2 * k] + x[if 2 * k + 2 < n { 2 * k + 2 } else { n - 2 }]) >> 1)
        })
        .collect();
    let mut out: Vec<i32> = (0..half)
        .map(|k| x[2 * k] + ((d[k.saturating_sub(1)] + d[k] + 2) >> 2))
        .collect();
    out.extend_from_slice(&d);
    out
}

/// Inverse of [`forward`].
fn inverse(c: &[i32]) -> Vec<i32> {
    let (n, half) = (c.len(), c.len() / 2);
    let (s, d) = c.split_at(half);
    let mut x = vec![0i32; n];
    for k in 0..half {
        x[2 * k] = s[k] - ((d[k.saturating_sub(1)] + d[k] + 2) >> 2);
    }
    for k in 0..half {
        let right = if 2 * k + 2 < n {
            x[2 * k + 2]
        } else {
            x[n - 2]
        };
        x[2 * k + 1] = d[k] + ((x[2 * k] + right) >> 1);
    }
    x
}

/// Applies `f` to every row, then every column, of the top-left bw x bh band (or columns
/// first when `cols_first`, for the inverse).
fn band(
    a: &mut [i32],
    pitch: usize,
    bw: usize,
    bh: usize,
    f: fn(&[i32]) -> Vec<i32>,
    cols_first: bool,
) {
    let rows = |a: &mut [i32]| {
        for y in 0..bh {
            let out = f(&a[y * pitch..y * pitch + bw]);
            a[y * pitch..y * pitch + bw].copy_from_slice(&out);
        }
    };
    let cols = |a: &mut [i32]| {
        for x in 0..bw {
            let col: Vec<i32> = (0..bh).map(|y| a[y * pitch + x]).collect();
            for (y, v) in f(&col).into_iter().enumerate() {
                a[y * pitch + x] = v;
            }
        }
    };
    if cols_first {
        cols(a);
        rows(a);
    } else {
        rows(a);
        cols(a);
    }
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 256 x 256 image, 3 levels (the first row pass has 256 CTAs). Paper: 1024 x 1024
    // (Rodinia's larger input), 3 levels.
    let (w, h, levels) = size.pick((256usize, 256usize, 3usize), (1024, 1024, 3));
    let mut r = rng::rng(NAME, 0);
    let image: Vec<i32> = rng::i32s(&mut r, w * h, 0, 255);

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (kr, kc) = (ctx.kernel(ROWS)?, ctx.kernel(COLS)?);
    let da = ctx.upload(&image)?;
    let db = ctx.zeroed::<i32>(w * h)?;
    let mut want = image.clone();
    let (mut bw, mut bh) = (w, h);
    for level in 0..levels {
        if bw % 2 != 0 || bh % 2 != 0 || bw > MAXW {
            return Err(ctx.invalid(format!(
                "level {level}: band {bw} x {bh} is odd or wider than {MAXW}"
            )));
        }
        ctx.launch(
            kr,
            Dim3::new(bh as u32, 1, 1),
            Dim3::new(T, 1, 1),
            0,
            &[
                Arg::Ptr(da),
                Arg::Ptr(db),
                Arg::I32(w as i32),
                Arg::I32(bw as i32),
            ],
        )?;
        ctx.launch(
            kc,
            Dim3::new(div_up(bw, 32), div_up(bh / 2, 8), 1),
            Dim3::new(32, 8, 1),
            0,
            &[
                Arg::Ptr(db),
                Arg::Ptr(da),
                Arg::I32(w as i32),
                Arg::I32(bw as i32),
                Arg::I32(bh as i32),
            ],
        )?;
        band(&mut want, w, bw, bh, forward, false);
        let got = ctx.download::<i32>(da, w * h)?;
        ctx.exact(&format!("coefficients after level {level}"), &got, &want)?;
        bw /= 2;
        bh /= 2;
    }
    // The transform is lossless: undo the levels, smallest band first.
    let mut back = ctx.download::<i32>(da, w * h)?;
    for level in (0..levels).rev() {
        band(&mut back, w, w >> level, h >> level, inverse, true);
    }
    ctx.exact("inverse transform", &back, &image)?;
    ctx.finish("")
}
