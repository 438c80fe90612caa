//! baws_fwt: BAWS "FWT" — dyadic convolution through the fast Walsh-Hadamard transform, as the
//! CUDA SDK sample computes it: forward transforms of the data and the kernel (one batched
//! pass), their pointwise product, inverse transform. Each transform is radix-4 passes in
//! global memory for the strides >= 2048, then one shared-memory kernel (2048-element chunks,
//! a barrier per radix-4 stage) for the lower 11 levels.
//!
//! Sizes: the paper-size input is one signal of 2^21 (five radix-4 global passes, then the
//! shared-memory kernel). The small size is a batch of 23 signals of 2^13 convolved with the
//! same kernel (the SDK's kernels take the batch in blockIdx.y), so that, as at the SDK's
//! sizes near 2^11, the shared-memory kernel does most levels (11 of 13; one global radix-4
//! pass) and each chunk launch still fills the GPU twice (96 and 92 CTAs on 15 SMs x 3). A
//! single signal long enough to fill the GPU (2^18) would need four global passes per
//! transform and take several times longer to simulate.

use warpsim_core::device::{Arg, DevPtr, Device, Dim3};

use super::scalar_prod::gamma_f32;
use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "baws_fwt";
pub(crate) const PTX: &str = kernel_file!(baws_fwt, "ptx");
const GLOBAL_R4: &str = "_Z11fwtGlobalR4Pfii";
const GLOBAL_R2: &str = "_Z11fwtGlobalR2Pfii";
const CHUNK: &str = "_Z8fwtChunkPfi";
const MODULATE: &str = "_Z11fwtModulatePfPKfif";
/// FWT_THREADS and FWT_CHUNK in the .cu.
const THREADS: usize = 512;
const CHUNK_LEN: usize = 2048;
/// Non-zero taps of the convolution kernel (the SDK sample's kernel is short too).
const TAPS: usize = 128;

/// The in-place transform of `batch` vectors of length n = 2^log2n, n apart at `data`.
fn transform(ctx: &mut Ctx, data: DevPtr, log2n: u32, batch: u32) -> Result<(), SuiteError> {
    let n = 1usize << log2n;
    let (r4, r2, chunk) = (
        ctx.kernel(GLOBAL_R4)?,
        ctx.kernel(GLOBAL_R2)?,
        ctx.kernel(CHUNK)?,
    );
    let block = Dim3::new(THREADS as u32, 1, 1);
    let mut stride = CHUNK_LEN;
    while stride < n {
        let args = [Arg::Ptr(data), Arg::I32(n as i32), Arg::I32(stride as i32)];
        if stride * 4 <= n {
            ctx.launch(
                r4,
                Dim3::new((n / 4).div_ceil(THREADS) as u32, batch, 1),
                block,
                0,
                &args,
            )?;
            stride *= 4;
        } else {
            ctx.launch(
                r2,
                Dim3::new((n / 2).div_ceil(THREADS) as u32, batch, 1),
                block,
                0,
                &args,
            )?;
            stride *= 2;
        }
    }
    ctx.launch(
        chunk,
        Dim3::new((n / CHUNK_LEN) as u32, batch, 1),
        block,
        0,
        &[Arg::Ptr(data), Arg::I32(n as i32)],
    )
}

/// Walsh-Hadamard transform (natural order), exact in integers.
fn wht(v: &mut [i64]) {
    let mut h = 1;
    while h < v.len() {
        for i in (0..v.len()).step_by(2 * h) {
            for j in i..i + h {
                let (x, y) = (v[j], v[j + h]);
                v[j] = x + y;
                v[j + h] = x - y;
            }
        }
        h *= 2;
    }
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: a batch of 23 signals of 2^13, each convolved with the same kernel: one radix-4
    // global pass per transform and the shared-memory kernel for the other 11 levels; the
    // batched forward pass has 24 x 4 = 96 chunk CTAs and the inverse 92 (2 fills of 15 SMs x
    // 3). Paper: one signal of 2^21 (1024 chunk CTAs per vector; 5 radix-4 global passes).
    let (log2n, signals) = size.pick((13u32, 23usize), (21, 1));
    let n = 1usize << log2n;
    let mut r = rng::rng(NAME, 0);
    // Small integers: the forward transforms are exact in f32 (|F| <= 8n <= 2^24) and can be
    // compared exactly.
    let data: Vec<i64> = rng::i32s(&mut r, signals * n, -8, 8)
        .into_iter()
        .map(i64::from)
        .collect();
    let mut kern = vec![0i64; n];
    for (t, v) in rng::i32s(&mut r, TAPS, -4, 4).into_iter().enumerate() {
        kern[t] = v as i64;
    }

    let mut fd = data.clone();
    fd.chunks_exact_mut(n).for_each(wht);
    let mut fk = kern.clone();
    wht(&mut fk);
    // Dyadic convolution of every signal: conv[j] = Σ_m kern[m] · data[m ^ j] (exact integers).
    let kern_ref = &kern;
    let conv: Vec<f64> = data
        .chunks_exact(n)
        .flat_map(|d| {
            (0..n).map(move |j| (0..TAPS).map(|m| kern_ref[m] * d[m ^ j]).sum::<i64>() as f64)
        })
        .collect();
    // Device: P_i = fl(Fd_i · Fk_i) · 2^-log2n (one rounding, the scale is exact), then a
    // transform of depth log2n: |got - conv| <= γ(log2n + 1) · Σ|Fd_i Fk_i| / n per signal.
    let bound: Vec<f64> = fd
        .chunks_exact(n)
        .flat_map(|f| {
            let spectrum_abs: f64 = f
                .iter()
                .zip(&fk)
                .map(|(&a, &b)| (a as f64 * b as f64).abs())
                .sum();
            std::iter::repeat_n(gamma_f32(log2n as usize + 1) * spectrum_abs / n as f64, n)
        })
        .collect();

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    // The signals, then the kernel, each n apart: one batched forward transform.
    let mut all: Vec<f32> = data.iter().map(|&v| v as f32).collect();
    all.extend(kern.iter().map(|&v| v as f32));
    let dall = ctx.upload(&all)?;
    let dkern = dall.offset((signals * n * 4) as u64);
    transform(&mut ctx, dall, log2n, signals as u32 + 1)?;
    let spectra = ctx.download::<f32>(dall, (signals + 1) * n)?;
    let exp_fd: Vec<f32> = fd.iter().map(|&v| v as f32).collect();
    let exp_fk: Vec<f32> = fk.iter().map(|&v| v as f32).collect();
    ctx.exact(
        "forward transforms of the signals",
        &spectra[..signals * n],
        &exp_fd,
    )?;
    ctx.exact(
        "forward transform of the kernel",
        &spectra[signals * n..],
        &exp_fk,
    )?;

    let modulate = ctx.kernel(MODULATE)?;
    ctx.launch(
        modulate,
        Dim3::new(n.div_ceil(THREADS) as u32, signals as u32, 1),
        Dim3::new(THREADS as u32, 1, 1),
        0,
        &[
            Arg::Ptr(dall),
            Arg::Ptr(dkern),
            Arg::I32(n as i32),
            Arg::F32(1.0 / n as f32),
        ],
    )?;
    transform(&mut ctx, dall, log2n, signals as u32)?;
    let got = ctx.download::<f32>(dall, signals * n)?;
    ctx.bounded("convolutions", &got, &conv, &bound)?;
    ctx.finish("")
}
