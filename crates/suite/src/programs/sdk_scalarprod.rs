//! sdk_scalarprod: dot products of vector pairs in the CUDA SDK's scalarProd shape: 256-thread
//! CTAs striding over the pairs, 1024 shared accumulators per CTA (4 per thread) summed by a
//! 10-level tree with a barrier per level (`scalarProdGPU`). The PRO paper's Table II
//! "scalarProd": 128 CTAs on 256 pairs of 4096 elements at paper size.
//!
//! Check: each accumulator sums ceil(len / 1024) products with one rounding per fma, then the
//! 10-level tree adds one rounding per level, so every product passes through at most
//! m + 10 roundings and |got - exact| <= γ(m + 10) · Σ|a_i b_i| (the f64 reference of exact
//! f32 products has negligible error of its own).

use warpsim_core::device::{Arg, Device, Dim3};

use super::scalar_prod::gamma_f32;
use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "sdk_scalarprod";
pub(crate) const PTX: &str = kernel_file!(sdk_scalarprod, "ptx");
const KERNEL: &str = "_Z13scalarProdGPUPfPKfS1_ii";
/// SP_THREADS and SP_ACCUM in the .cu.
const THREADS: usize = 256;
const ACCUM: usize = 1024;
/// log2(ACCUM): the tree's levels.
const TREE_LEVELS: usize = 10;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::x(KERNEL, THREADS as u32)],
    barriers:
        "per pair: 1 before the accumulators are written + 1 before each of the 10 tree levels",
    small: "256 pairs of 1500 elements, 128 CTAs",
    paper: "256 pairs of 4096 elements, 128 CTAs (Table II; the SDK's VECTOR_N and ELEMENT_N)",
};

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: the paper's grid on shorter vectors; 1500 is not a multiple of 1024, so some
    // accumulators get one term fewer.
    let (pairs, len, ctas) = size.pick((256usize, 1500usize, 128u32), (256, 4096, 128));
    let mut r = rng::rng(NAME, 0);
    let a = rng::f32s(&mut r, pairs * len, -1.0, 1.0);
    let b = rng::f32s(&mut r, pairs * len, -1.0, 1.0);

    let gamma = gamma_f32(len.div_ceil(ACCUM) + TREE_LEVELS);
    let (mut expected, mut bound) = (Vec::with_capacity(pairs), Vec::with_capacity(pairs));
    for p in 0..pairs {
        let (mut s, mut s_abs) = (0.0f64, 0.0f64);
        for (&x, &y) in a[p * len..(p + 1) * len]
            .iter()
            .zip(&b[p * len..(p + 1) * len])
        {
            let t = x as f64 * y as f64;
            s += t;
            s_abs += t.abs();
        }
        expected.push(s);
        bound.push(gamma * s_abs);
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k = ctx.kernel(KERNEL)?;
    let da = ctx.upload(&a)?;
    let db = ctx.upload(&b)?;
    let dc = ctx.zeroed::<f32>(pairs)?;
    ctx.launch(
        k,
        Dim3::new(ctas, 1, 1),
        Dim3::new(THREADS as u32, 1, 1),
        0,
        &[
            Arg::Ptr(dc),
            Arg::Ptr(da),
            Arg::Ptr(db),
            Arg::I32(pairs as i32),
            Arg::I32(len as i32),
        ],
    )?;
    let got = ctx.download::<f32>(dc, pairs)?;
    ctx.bounded("dot", &got, &expected, &bound)?;
    ctx.finish("")
}
