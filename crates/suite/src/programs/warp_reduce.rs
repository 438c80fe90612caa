//! warp_reduce: warp shuffles, ballots and votes; every output is checked exactly (the CPU
//! replays the shuffle trees in the device's order, so even the float sums must match bit
//! for bit: IEEE addition is commutative and nothing is reassociated or contracted).

use rand::Rng;
use warpsim_core::device::{Arg, Device, Dim3};

use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "warp_reduce";
pub(crate) const PTX: &str = kernel_file!(warp_reduce, "ptx");
const STATS: &str = "_Z9warpStatsPKfPKiiiPfS3_PiPjS4_S4_";
const SCAN: &str = "_Z8warpScanPKiPii";

/// `__shfl_down_sync` tree as in warpSumDown: lane l adds lane l + offset's value, or its own
/// value when l + offset is past the warp. Returns every lane's final value.
fn shfl_down_sum(mut v: [f32; 32]) -> [f32; 32] {
    let mut offset = 16;
    while offset > 0 {
        let prev = v;
        for (l, x) in v.iter_mut().enumerate() {
            *x = prev[l]
                + if l + offset < 32 {
                    prev[l + offset]
                } else {
                    prev[l]
                };
        }
        offset >>= 1;
    }
    v
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // n is not a multiple of 32 nor of the CTA size: a partial warp and whole idle warps.
    let (n, threads) = size.pick((3000usize, 256usize), (1_000_003, 256));
    let threshold = 500_000i32;
    let mut r = rng::rng(NAME, 0);
    let x = rng::f32s(&mut r, n, -1.0, 1.0);
    // Every third warp holds only even keys (so __all_sync is true there); about one key in
    // 64 is negative (__any_sync true in ~40% of warps).
    let keys: Vec<i32> = (0..n)
        .map(|i| {
            let mut k = if r.gen_range(0..64) == 0 {
                r.gen_range(-1000..0)
            } else {
                r.gen_range(0..1_000_000)
            };
            if (i / 32) % 3 == 0 {
                k &= !1;
            }
            k
        })
        .collect();
    let scan_in = rng::i32s(&mut r, n, -100, 100);

    let ctas = div_up(n, threads);
    let total_threads = ctas as usize * threads;
    let warps = total_threads / 32;
    let warps_per_cta = threads / 32;

    let mut e_sum = vec![0f32; warps];
    let mut e_max = vec![0i32; warps];
    let mut e_ballot = vec![0u32; warps];
    let mut e_count = vec![0i32; warps];
    let mut e_flags = vec![0i32; warps];
    let mut e_block = vec![0f32; ctas as usize];
    for w in 0..warps {
        let mut v = [0f32; 32];
        let (mut m, mut ballot, mut any_neg, mut all_even) = (i32::MIN, 0u32, false, true);
        for (l, slot) in v.iter_mut().enumerate() {
            let i = w * 32 + l;
            if i < n {
                *slot = x[i];
                m = m.max(keys[i]);
                ballot |= ((keys[i] > threshold) as u32) << l;
                any_neg |= keys[i] < 0;
                all_even &= keys[i] & 1 == 0;
            }
        }
        e_sum[w] = shfl_down_sum(v)[0];
        e_max[w] = m;
        e_ballot[w] = ballot;
        e_count[w] = ballot.count_ones() as i32;
        e_flags[w] = any_neg as i32 | (all_even as i32) << 1 | 4;
    }
    for (b, out) in e_block.iter_mut().enumerate() {
        let mut v = [0f32; 32];
        v[..warps_per_cta].copy_from_slice(&e_sum[b * warps_per_cta..(b + 1) * warps_per_cta]);
        *out = shfl_down_sum(v)[0];
    }
    let mut e_scan = vec![0i32; n];
    for (i, out) in e_scan.iter_mut().enumerate() {
        let lane_start = i - i % 32;
        *out = scan_in[lane_start..=i].iter().sum();
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k_stats = ctx.kernel(STATS)?;
    let k_scan = ctx.kernel(SCAN)?;
    let dx = ctx.upload(&x)?;
    let dkeys = ctx.upload(&keys)?;
    let dsum = ctx.zeroed::<f32>(warps)?;
    let dblock = ctx.zeroed::<f32>(ctas as usize)?;
    let dmax = ctx.zeroed::<i32>(warps)?;
    let dballot = ctx.zeroed::<u32>(warps)?;
    let dcount = ctx.zeroed::<i32>(warps)?;
    let dflags = ctx.zeroed::<i32>(warps)?;
    ctx.launch(
        k_stats,
        Dim3::new(ctas, 1, 1),
        Dim3::new(threads as u32, 1, 1),
        0,
        &[
            Arg::Ptr(dx),
            Arg::Ptr(dkeys),
            Arg::I32(n as i32),
            Arg::I32(threshold),
            Arg::Ptr(dsum),
            Arg::Ptr(dblock),
            Arg::Ptr(dmax),
            Arg::Ptr(dballot),
            Arg::Ptr(dcount),
            Arg::Ptr(dflags),
        ],
    )?;
    let dscan_in = ctx.upload(&scan_in)?;
    let dscan = ctx.zeroed::<i32>(n)?;
    ctx.launch(
        k_scan,
        Dim3::new(ctas, 1, 1),
        Dim3::new(threads as u32, 1, 1),
        0,
        &[Arg::Ptr(dscan_in), Arg::Ptr(dscan), Arg::I32(n as i32)],
    )?;

    let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<u32>>();
    let got = ctx.download::<f32>(dsum, warps)?;
    ctx.exact("warp_sum (bits)", &bits(&got), &bits(&e_sum))?;
    let got = ctx.download::<f32>(dblock, ctas as usize)?;
    ctx.exact("block_sum (bits)", &bits(&got), &bits(&e_block))?;
    let got = ctx.download::<i32>(dmax, warps)?;
    ctx.exact("warp_max", &got, &e_max)?;
    let got = ctx.download::<u32>(dballot, warps)?;
    ctx.exact("warp_ballot", &got, &e_ballot)?;
    let got = ctx.download::<i32>(dcount, warps)?;
    ctx.exact("warp_count", &got, &e_count)?;
    let got = ctx.download::<i32>(dflags, warps)?;
    ctx.exact(
        "warp_flags (1 any<0, 2 all even, 4 lanes agree)",
        &got,
        &e_flags,
    )?;
    let got = ctx.download::<i32>(dscan, n)?;
    ctx.exact("scan", &got, &e_scan)?;
    ctx.finish("")
}
