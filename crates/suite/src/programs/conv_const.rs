//! conv_const: separable Gaussian blur (rows pass, then columns pass) with the taps in a
//! `__constant__` array the host fills through the module's `c_filter` symbol.

use warpsim_core::device::{Arg, Device, Dim3};

use super::scalar_prod::gamma_f32;
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "conv_const";
pub(crate) const PTX: &str = kernel_file!(conv_const, "ptx");
const ROWS: &str = "_Z8convRowsPfPKfiii";
const COLS: &str = "_Z8convColsPfPKfiii";
const SYMBOL: &str = "c_filter";
/// Must match MAX_TAPS in the .cu.
const MAX_TAPS: usize = 33;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    let (w, h, radius) = size.pick((67usize, 41usize, 4usize), (514, 386, 8));
    let (bx, by) = (32u32, 4u32);
    let taps = 2 * radius + 1;
    let sigma = radius as f64 / 2.0;
    let raw: Vec<f64> = (0..taps)
        .map(|k| (-((k as f64 - radius as f64).powi(2)) / (2.0 * sigma * sigma)).exp())
        .collect();
    let total: f64 = raw.iter().sum();
    let filter: Vec<f32> = raw.iter().map(|v| (v / total) as f32).collect();
    let mut r = rng::rng(NAME, 0);
    let img = rng::f32s(&mut r, w * h, 0.0, 1.0);

    // Reference in f64 with the same f32 taps, edge-clamped like the kernels. Filter and
    // image are non-negative, so relative bounds compose: one pass is a chain of `taps`
    // fmas, each rounding once: relative error <= γ(taps). The column pass reads the row
    // pass's rounded results: relative error <= γ(2·taps) overall (γ(a)+γ(b) <= γ(a+b)).
    let clamp = |v: isize, hi: usize| v.clamp(0, hi as isize - 1) as usize;
    let mut rows = vec![0f64; w * h];
    for y in 0..h {
        for x in 0..w {
            rows[y * w + x] = (0..taps)
                .map(|k| {
                    filter[k] as f64
                        * img[y * w + clamp(x as isize + k as isize - radius as isize, w)] as f64
                })
                .sum();
        }
    }
    let mut out = vec![0f64; w * h];
    for y in 0..h {
        for x in 0..w {
            out[y * w + x] = (0..taps)
                .map(|k| {
                    filter[k] as f64
                        * rows[clamp(y as isize + k as isize - radius as isize, h) * w + x]
                })
                .sum();
        }
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k_rows = ctx.kernel(ROWS)?;
    let k_cols = ctx.kernel(COLS)?;
    let (addr, bytes) = ctx.dev.symbol(ctx.module, SYMBOL)?;
    if bytes != (MAX_TAPS * 4) as u64 {
        return Err(ctx.invalid(format!(
            "symbol `{SYMBOL}` is {bytes} bytes, expected {}",
            MAX_TAPS * 4
        )));
    }
    ctx.dev.write_slice(addr, &filter)?;
    let din = ctx.upload(&img)?;
    let dtmp = ctx.zeroed::<f32>(w * h)?;
    let dout = ctx.zeroed::<f32>(w * h)?;
    let grid = Dim3::new(div_up(w, bx as usize), div_up(h, by as usize), 1);
    let block = Dim3::new(bx, by, 1);
    let args = |dst, src| {
        [
            Arg::Ptr(dst),
            Arg::Ptr(src),
            Arg::I32(w as i32),
            Arg::I32(h as i32),
            Arg::I32(radius as i32),
        ]
    };
    ctx.launch(k_rows, grid, block, 0, &args(dtmp, din))?;
    ctx.launch(k_cols, grid, block, 0, &args(dout, dtmp))?;

    let got = ctx.download::<f32>(dtmp, w * h)?;
    ctx.close("rows pass", &got, &rows, gamma_f32(taps), 0.0)?;
    let got = ctx.download::<f32>(dout, w * h)?;
    ctx.close("output", &got, &out, gamma_f32(2 * taps), 0.0)?;
    ctx.finish("")
}
