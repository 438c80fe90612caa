//! sdk_montecarlo: Monte Carlo pricing of European call options: normal samples by Moro's
//! inverse cumulative normal (`inverseCNDKernel`, 128-thread CTAs, grid-stride), then one
//! 256-thread CTA per option summing payoffs and squared payoffs with shared-memory trees
//! (`MonteCarloOneBlockPerOption`): the PRO paper's Table II "MonteCarlo" (128 and 256 CTAs),
//! a CUDA SDK sample, written here from its description.
//!
//! Checks, each stage against an f64 reference from the stage's own f32 inputs (the option
//! kernel's reference uses the normal samples the device produced, so the bounds do not
//! compound):
//! - normals: Moro's rational function and Chebyshev series in f64. The f32 evaluation has
//!   condition numbers of at most ~30 (the alternating coefficients of the central rational
//!   function at |u - 1/2| < 0.42) over ~10 roundings, and in the tails `logf(-logf(u))`
//!   feeds a series of slope below 2: relative 1e-4 or absolute 1e-5 covers both with margin.
//! - prices: per path the exponent's rounding (`(|μT| + |σ√T z|) · 6u`), `expf` (2 ulps) and the
//!   product and difference (1 ulp each), then γ(paths/256 + 8) over the strided sums and the
//!   8-level tree; the mean, discount and confidence add a few ulps, and the confidence's
//!   square root turns an error δ in the variance into at most min(δ / 2√var, √δ).

use rand::Rng;
use warpsim_core::device::{Arg, Device, Dim3};

use super::scalar_prod::gamma_f32;
use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "sdk_montecarlo";
pub(crate) const PTX: &str = kernel_file!(sdk_montecarlo, "ptx");
const INVERSE_CND: &str = "_Z16inverseCNDKernelPfPKfi";
const ONE_BLOCK_PER_OPTION: &str = "_Z27MonteCarloOneBlockPerOptionPfS_PK8McOptionPKfi";
/// MC_CND_THREADS and MC_THREADS in the .cu.
const CND_THREADS: usize = 128;
const THREADS: usize = 256;
/// f32 unit roundoff.
const U: f64 = f32::EPSILON as f64 / 2.0;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[
        KernelShape::x(INVERSE_CND, CND_THREADS as u32),
        KernelShape::x(ONE_BLOCK_PER_OPTION, THREADS as u32),
    ],
    barriers:
        "inverseCND: none; one block per option: 1 after the partial sums + 1 per tree level (9)",
    small: "2048 paths (16 CTAs), 140 options (140 CTAs)",
    paper: "16384 paths (128 CTAs), 256 options (256 CTAs: Table II)",
};

/// `McOption` in the .cu: spot, strike, years, riskless rate, volatility.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct McOption {
    s: f32,
    x: f32,
    t: f32,
    r: f32,
    v: f32,
}

/// How far `inverseCNDKernel`'s f32 normals may be from [`moro_inv_cnd`]: relative or
/// absolute (see the module comment for the derivation).
pub(crate) const NORMAL_REL_TOL: f64 = 1e-4;
pub(crate) const NORMAL_ABS_TOL: f64 = 1e-5;

/// Moro's inverse cumulative normal, as the kernel evaluates it, in f64 (also the reference
/// of sdk_quasirandom, which launches the same kernel).
pub(crate) fn moro_inv_cnd(u: f64) -> f64 {
    const A: [f64; 4] = [
        2.50662823884,
        -18.61500062529,
        41.39119773534,
        -25.44106049637,
    ];
    const B: [f64; 4] = [
        -8.47351093090,
        23.08336743743,
        -21.06224101826,
        3.13082909833,
    ];
    const C: [f64; 9] = [
        0.3374754822726147,
        0.9761690190917186,
        0.1607979714918209,
        0.0276438810333863,
        0.0038405729373609,
        0.0003951896511919,
        0.0000321767881768,
        0.0000002888167364,
        0.0000003960315187,
    ];
    let y = u - 0.5;
    // The kernel's branch test is on the f32 difference; y is exact for u in (0, 1) either way.
    if (y.abs() as f32) < 0.42f32 {
        let r = y * y;
        let num = y * (((A[3] * r + A[2]) * r + A[1]) * r + A[0]);
        let den = (((B[3] * r + B[2]) * r + B[1]) * r + B[0]) * r + 1.0;
        return num / den;
    }
    let r = (-(if y < 0.0 { u } else { 1.0 - u }).ln()).ln();
    let x = C.iter().rev().fold(0.0, |acc, &c| acc * r + c);
    if y < 0.0 {
        -x
    } else {
        x
    }
}

/// The discounted mean payoff and 95% confidence half-width of `o` over `z`, in f64, with
/// their error bounds for the kernel's f32 evaluation (see the module comment).
fn price(o: &McOption, z: &[f32]) -> [(f64, f64); 2] {
    let (s, x, t, r, v) = (o.s as f64, o.x as f64, o.t as f64, o.r as f64, o.v as f64);
    let (mu_t, v_sqrt_t) = ((r - 0.5 * v * v) * t, v * t.sqrt());
    let n = z.len() as f64;
    let (mut sum, mut sum2, mut err, mut err2) = (0f64, 0f64, 0f64, 0f64);
    for &zi in z {
        let arg = v_sqrt_t * zi as f64 + mu_t;
        let p = s * arg.exp();
        let payoff = (p - x).max(0.0);
        let d_price = p * ((mu_t.abs() + (v_sqrt_t * zi as f64).abs()) * 6.0 * U + 4.0 * U);
        let d_payoff = if p > x {
            d_price + payoff * U
        } else {
            d_price.max(0.0).min((p + d_price - x).max(0.0))
        };
        sum += payoff;
        sum2 += payoff * payoff;
        err += d_payoff;
        err2 += (2.0 * payoff + d_payoff) * d_payoff;
    }
    let gamma = gamma_f32(z.len().div_ceil(THREADS) + 8);
    let (d_sum, d_sum2) = (err + gamma * sum, err2 + gamma * sum2);
    let disc = (-r * t).exp();
    let mean = sum / n;
    let d_mean = d_sum / n + mean * U;
    let var = (sum2 / n - mean * mean).max(0.0);
    let d_var =
        d_sum2 / n + (sum2 / n) * 2.0 * U + (2.0 * mean + d_mean) * d_mean + mean * mean * 2.0 * U;
    let d_sd = if var > 0.0 {
        (d_var / (2.0 * var.sqrt())).min(d_var.sqrt())
    } else {
        d_var.sqrt()
    };
    let conf = 1.96 * (var / n).sqrt();
    let expected = disc * mean;
    [
        (expected, disc * d_mean + expected * 6.0 * U),
        (
            disc * conf,
            disc * 1.96 * d_sd / n.sqrt() + disc * conf * 10.0 * U,
        ),
    ]
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    let (paths, cnd_ctas, noptions) = size.pick((2048usize, 16u32, 140usize), (16384, 128, 256));
    let mut rn = rng::rng(NAME, 0);
    // Uniform samples strictly inside (0, 1), so both tails are exercised but never infinite.
    let uniform: Vec<f32> = (0..paths)
        .map(|_| rn.gen_range(1e-6f32..1.0 - 1e-6))
        .collect();
    let options: Vec<McOption> = (0..noptions)
        .map(|_| McOption {
            s: rn.gen_range(5.0..50.0),
            x: rn.gen_range(10.0..25.0),
            t: rn.gen_range(1.0..10.0),
            r: 0.06,
            v: 0.10,
        })
        .collect();

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (kcnd, kopt) = (ctx.kernel(INVERSE_CND)?, ctx.kernel(ONE_BLOCK_PER_OPTION)?);
    let duni = ctx.upload(&uniform)?;
    let dnormal = ctx.zeroed::<f32>(paths)?;
    let dopt = ctx.upload(&options)?;
    let dexp = ctx.zeroed::<f32>(noptions)?;
    let dconf = ctx.zeroed::<f32>(noptions)?;
    ctx.launch(
        kcnd,
        Dim3::new(cnd_ctas, 1, 1),
        Dim3::new(CND_THREADS as u32, 1, 1),
        0,
        &[Arg::Ptr(dnormal), Arg::Ptr(duni), Arg::I32(paths as i32)],
    )?;
    ctx.launch(
        kopt,
        Dim3::new(noptions as u32, 1, 1),
        Dim3::new(THREADS as u32, 1, 1),
        0,
        &[
            Arg::Ptr(dexp),
            Arg::Ptr(dconf),
            Arg::Ptr(dopt),
            Arg::Ptr(dnormal),
            Arg::I32(paths as i32),
        ],
    )?;

    let normal = ctx.download::<f32>(dnormal, paths)?;
    let want_normal: Vec<f64> = uniform.iter().map(|&u| moro_inv_cnd(u as f64)).collect();
    ctx.close(
        "normal sample",
        &normal,
        &want_normal,
        NORMAL_REL_TOL,
        NORMAL_ABS_TOL,
    )?;

    let reference: Vec<[(f64, f64); 2]> = options.iter().map(|o| price(o, &normal)).collect();
    let column = |i: usize, j: usize| -> Vec<f64> {
        reference
            .iter()
            .map(|r| if j == 0 { r[i].0 } else { r[i].1 })
            .collect()
    };
    let got_exp = ctx.download::<f32>(dexp, noptions)?;
    let got_conf = ctx.download::<f32>(dconf, noptions)?;
    ctx.bounded(
        "expected call value",
        &got_exp,
        &column(0, 0),
        &column(0, 1),
    )?;
    ctx.bounded("confidence", &got_conf, &column(1, 0), &column(1, 1))?;
    ctx.finish("")
}
