//! sdk_convsep: separable convolution of an image with a 17-tap filter (radius 8) held in
//! `__constant__` memory, in the CUDA SDK's convolutionSeparable shape: a row pass then a
//! column pass, each staging a tile with its halo in shared memory behind one barrier (the
//! PRO paper's Table II "convolutionSeparable").
//!
//! CTA counts. Rows: a 16 × 4 CTA computes 8 outputs per thread 16 apart, i.e. 128 × 4
//! pixels, so the grid is (W / 128) × (H / 4); on the SDK's 3072 × 3072 image that is
//! 24 × 768 = 18432 CTAs. Columns: a 16 × 8 CTA computes 8 outputs per thread 8 apart, i.e.
//! 16 × 64 pixels, so (W / 16) × (H / 64) = 192 × 48 = 9216 CTAs. Both match Table II. The
//! sides must therefore be multiples of 128 and 64, which the driver checks.
//!
//! Check: each output is an fmaf chain over the taps in the kernel's order (j = -8 ... 8, zero
//! outside the image), repeated here with `f32::mul_add`, so both passes compare bit for bit
//! (the column pass from the device's own row pass output, after that was checked).

use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "sdk_convsep";
pub(crate) const PTX: &str = kernel_file!(sdk_convsep, "ptx");
const ROWS: &str = "_Z21convolutionRowsKernelPfPKfii";
const COLS: &str = "_Z24convolutionColumnsKernelPfPKfii";
const SYMBOL: &str = "c_taps";
/// RADIUS, the CTA shapes and the outputs per thread (*_STEPS) in the .cu.
const RADIUS: usize = 8;
const TAPS: usize = 2 * RADIUS + 1;
const ROWS_X: u32 = 16;
const ROWS_Y: u32 = 4;
const COLS_X: u32 = 16;
const COLS_Y: u32 = 8;
const STEPS: u32 = 8;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[
        KernelShape::xy(ROWS, ROWS_X, ROWS_Y),
        KernelShape::xy(COLS, COLS_X, COLS_Y),
    ],
    barriers: "1 per CTA, after the tile and its halo are staged",
    small: "384 x 320 image: 240 row CTAs, 120 column CTAs",
    paper: "3072 x 3072 image (the SDK's): 18432 row CTAs, 9216 column CTAs (Table II)",
};

/// One pass of the kernels' convolution in f32, along x when `rows`, else along y.
fn convolve(src: &[f32], w: usize, h: usize, taps: &[f32; TAPS], rows: bool) -> Vec<f32> {
    let mut dst = vec![0f32; w * h];
    for y in 0..h {
        for x in 0..w {
            let mut sum = 0f32;
            for j in -(RADIUS as isize)..=RADIUS as isize {
                let (sx, sy) = if rows {
                    (x as isize + j, y as isize)
                } else {
                    (x as isize, y as isize + j)
                };
                let v = if sx < 0 || sy < 0 || sx >= w as isize || sy >= h as isize {
                    0.0
                } else {
                    src[sy as usize * w + sx as usize]
                };
                sum = taps[(RADIUS as isize - j) as usize].mul_add(v, sum);
            }
            dst[y * w + x] = sum;
        }
    }
    dst
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    let (w, h) = size.pick((384usize, 320usize), (3072, 3072));
    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (row_span, col_span) = ((ROWS_X * STEPS) as usize, (COLS_Y * STEPS) as usize);
    if w % row_span != 0 || h % col_span != 0 {
        return Err(ctx.invalid(format!(
            "image {w} x {h}: sides must be multiples of {row_span} and {col_span}"
        )));
    }
    let mut r = rng::rng(NAME, 0);
    let img = rng::f32s(&mut r, w * h, 0.0, 1.0);
    let taps: [f32; TAPS] = std::array::from_fn(|_| rand::Rng::gen_range(&mut r, -1.0f32..1.0));

    let (k_rows, k_cols) = (ctx.kernel(ROWS)?, ctx.kernel(COLS)?);
    let (addr, bytes) = ctx.dev.symbol(ctx.module, SYMBOL)?;
    if bytes != (TAPS * 4) as u64 {
        return Err(ctx.invalid(format!(
            "symbol `{SYMBOL}` is {bytes} bytes, expected {}",
            TAPS * 4
        )));
    }
    ctx.dev.write_slice(addr, &taps)?;
    let din = ctx.upload(&img)?;
    let dtmp = ctx.zeroed::<f32>(w * h)?;
    let dout = ctx.zeroed::<f32>(w * h)?;
    let args = |dst, src| {
        [
            Arg::Ptr(dst),
            Arg::Ptr(src),
            Arg::I32(w as i32),
            Arg::I32(h as i32),
        ]
    };
    ctx.launch(
        k_rows,
        Dim3::new((w / row_span) as u32, h as u32 / ROWS_Y, 1),
        Dim3::new(ROWS_X, ROWS_Y, 1),
        0,
        &args(dtmp, din),
    )?;
    ctx.launch(
        k_cols,
        Dim3::new(w as u32 / COLS_X, (h / col_span) as u32, 1),
        Dim3::new(COLS_X, COLS_Y, 1),
        0,
        &args(dout, dtmp),
    )?;

    let got_rows = ctx.download::<f32>(dtmp, w * h)?;
    let want_rows = convolve(&img, w, h, &taps, true);
    ctx.exact("row pass", &got_rows, &want_rows)?;
    let got = ctx.download::<f32>(dout, w * h)?;
    ctx.exact(
        "column pass",
        &got,
        &convolve(&got_rows, w, h, &taps, false),
    )?;
    ctx.finish("")
}
