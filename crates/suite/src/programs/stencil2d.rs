//! stencil2d: `iters` Jacobi sweeps of a 5-point stencil, ping-ponging two device buffers.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "stencil2d";
pub(crate) const PTX: &str = kernel_file!(stencil2d, "ptx");
const KERNEL: &str = "_Z7jacobi5PfPKfiiff";

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Not multiples of the 16 x 8 block: the bounds check matters.
    let (w, h, iters) = size.pick((70usize, 45usize, 6usize), (386, 258, 24));
    let (bx, by) = (16u32, 8u32);
    let c_center = 0.2f32;
    let c_neigh = 0.2f32;
    let mut r = rng::rng(NAME, 0);
    let init = rng::f32s(&mut r, w * h, 0.0, 1.0);

    // Reference in f64 with the same f32 coefficients. Values stay in [0, 1] (non-negative
    // weights summing to 1 ± u). One device sweep adds at most ~3.5u absolute error
    // (three adds on values <= 4: <= 8u; times 0.2: 1.6u; the product's and the fma's
    // roundings: <= 0.8u + 1u), and a sweep with non-negative weights summing to ~1 does not
    // amplify earlier errors, so after T sweeps |got - exact| <= 4u·T (u = 2^-24).
    let (cc, cn) = (c_center as f64, c_neigh as f64);
    let mut cur: Vec<f64> = init.iter().map(|&v| v as f64).collect();
    let mut next = cur.clone();
    for _ in 0..iters {
        for y in 1..h - 1 {
            for x in 1..w - 1 {
                let i = y * w + x;
                next[i] =
                    cc * cur[i] + cn * ((cur[i - 1] + cur[i + 1]) + (cur[i - w] + cur[i + w]));
            }
        }
        std::mem::swap(&mut cur, &mut next);
    }
    let tol = 4.0 * iters as f64 * f32::EPSILON as f64 / 2.0;

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k = ctx.kernel(KERNEL)?;
    let mut src = ctx.upload(&init)?;
    let mut dst = ctx.zeroed::<f32>(w * h)?;
    let grid = Dim3::new(div_up(w, bx as usize), div_up(h, by as usize), 1);
    for _ in 0..iters {
        ctx.launch(
            k,
            grid,
            Dim3::new(bx, by, 1),
            0,
            &[
                Arg::Ptr(dst),
                Arg::Ptr(src),
                Arg::I32(w as i32),
                Arg::I32(h as i32),
                Arg::F32(c_center),
                Arg::F32(c_neigh),
            ],
        )?;
        std::mem::swap(&mut src, &mut dst);
    }
    let got = ctx.download::<f32>(src, w * h)?;
    ctx.close("u", &got, &cur, 0.0, tol)?;
    ctx.finish("")
}
