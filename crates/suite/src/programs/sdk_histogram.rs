//! sdk_histogram: 64-bin and 256-bin histograms of one byte stream in the CUDA SDK's two-stage
//! shape, both pipelines in one program (the PRO paper's Table II "histogram"):
//! - `histogram64Kernel`: 64-thread CTAs, per-thread u8 counters in shared memory, each CTA
//!   owning 64 × 60 words = 15360 bytes, so 64 MB take ceil(67108864 / 15360) = 4370 CTAs (the
//!   last one 1024 bytes); `mergeHistogram64Kernel`: one 256-thread CTA per bin (64).
//! - `histogram256Kernel`: a fixed grid of 240 CTAs of 192 threads (6 warps, one shared
//!   sub-histogram each, shared atomics); `mergeHistogram256Kernel`: one CTA per bin (256).
//!
//! Checks: the partial histograms of every CTA and both final histograms, exactly, against
//! counts on the host (each CTA's byte range is known, for the fixed-grid kernel by its
//! grid stride).

use rand::Rng;
use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "sdk_histogram";
pub(crate) const PTX: &str = kernel_file!(sdk_histogram, "ptx");
const HIST64: &str = "_Z17histogram64KernelPjPKji";
const MERGE64: &str = "_Z22mergeHistogram64KernelPjPKji";
const HIST256: &str = "_Z18histogram256KernelPjPKji";
const MERGE256: &str = "_Z23mergeHistogram256KernelPjPKji";
/// H64_THREADS, H64_WORDS_PER_THREAD, H256_THREADS and MERGE_THREADS in the .cu.
const H64_THREADS: usize = 64;
const H64_WORDS_PER_CTA: usize = H64_THREADS * 60;
const H256_THREADS: usize = 192;
const MERGE_THREADS: u32 = 256;
/// The SDK's fixed partial-histogram count of the 256-bin pipeline.
const H256_CTAS: usize = 240;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[
        KernelShape::x(HIST64, H64_THREADS as u32),
        KernelShape::x(MERGE64, MERGE_THREADS),
        KernelShape::x(HIST256, H256_THREADS as u32),
        KernelShape::x(MERGE256, MERGE_THREADS),
    ],
    barriers: "histogram kernels: 1 after zeroing + 1 before the per-bin sums; merges: 1 per tree level (8)",
    small: "1000000 bytes: 66 + 64 CTAs (64 bins), 240 + 256 CTAs (256 bins)",
    paper: "64 MB: 4370 + 64 CTAs (64 bins), 240 + 256 CTAs (256 bins), as Table II",
};

/// Per-bin counts of the bytes of `words` (little-endian) with `bin` mapping a byte to its bin.
fn count(words: &[u32], bins: usize, bin: impl Fn(u8) -> usize) -> Vec<u32> {
    let mut h = vec![0u32; bins];
    for w in words {
        for b in w.to_le_bytes() {
            h[bin(b)] += 1;
        }
    }
    h
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    let bytes = size.pick(1_000_000usize, 64 << 20);
    let words = bytes / 4;
    let mut r = rng::rng(NAME, 0);
    // Uniform bytes, except that every 8th word repeats one hot value, so some bins (and their
    // shared counters) are much busier than the rest.
    let hot: u32 = r.gen();
    let data: Vec<u32> = (0..words)
        .map(|i| if i % 8 == 0 { hot } else { r.gen() })
        .collect();
    let ctas64 = words.div_ceil(H64_WORDS_PER_CTA);

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (k64, km64, k256, km256) = (
        ctx.kernel(HIST64)?,
        ctx.kernel(MERGE64)?,
        ctx.kernel(HIST256)?,
        ctx.kernel(MERGE256)?,
    );
    let ddata = ctx.upload(&data)?;
    let dpart64 = ctx.zeroed::<u32>(ctas64 * 64)?;
    let dhist64 = ctx.zeroed::<u32>(64)?;
    let dpart256 = ctx.zeroed::<u32>(H256_CTAS * 256)?;
    let dhist256 = ctx.zeroed::<u32>(256)?;
    let block = |n: usize| Dim3::new(n as u32, 1, 1);

    ctx.launch(
        k64,
        Dim3::new(div_up(words, H64_WORDS_PER_CTA), 1, 1),
        block(H64_THREADS),
        0,
        &[Arg::Ptr(dpart64), Arg::Ptr(ddata), Arg::I32(words as i32)],
    )?;
    ctx.launch(
        km64,
        Dim3::new(64, 1, 1),
        block(MERGE_THREADS as usize),
        0,
        &[
            Arg::Ptr(dhist64),
            Arg::Ptr(dpart64),
            Arg::I32(ctas64 as i32),
        ],
    )?;
    ctx.launch(
        k256,
        Dim3::new(H256_CTAS as u32, 1, 1),
        block(H256_THREADS),
        0,
        &[Arg::Ptr(dpart256), Arg::Ptr(ddata), Arg::I32(words as i32)],
    )?;
    ctx.launch(
        km256,
        Dim3::new(256, 1, 1),
        block(MERGE_THREADS as usize),
        0,
        &[
            Arg::Ptr(dhist256),
            Arg::Ptr(dpart256),
            Arg::I32(H256_CTAS as i32),
        ],
    )?;

    // 64 bins: CTA c counted words [c * 3840, (c + 1) * 3840).
    let want_part64: Vec<u32> = data
        .chunks(H64_WORDS_PER_CTA)
        .flat_map(|chunk| count(chunk, 64, |b| (b >> 2) as usize))
        .collect();
    let got_part64 = ctx.download::<u32>(dpart64, ctas64 * 64)?;
    ctx.exact("partial histogram (64 bins)", &got_part64, &want_part64)?;
    let got64 = ctx.download::<u32>(dhist64, 64)?;
    ctx.exact(
        "histogram (64 bins)",
        &got64,
        &count(&data, 64, |b| (b >> 2) as usize),
    )?;

    // 256 bins: CTA c counted the 192-word runs c, c + 240, c + 480, ... (its grid stride).
    let mut want_part256 = vec![0u32; H256_CTAS * 256];
    for (run, chunk) in data.chunks(H256_THREADS).enumerate() {
        let cta = run % H256_CTAS;
        for w in chunk {
            for b in w.to_le_bytes() {
                want_part256[cta * 256 + b as usize] += 1;
            }
        }
    }
    let got_part256 = ctx.download::<u32>(dpart256, H256_CTAS * 256)?;
    ctx.exact("partial histogram (256 bins)", &got_part256, &want_part256)?;
    let got256 = ctx.download::<u32>(dhist256, 256)?;
    ctx.exact(
        "histogram (256 bins)",
        &got256,
        &count(&data, 256, |b| b as usize),
    )?;
    ctx.finish("")
}
