//! rod_particlefilter: tracks a bright disk through a synthetic noisy video with a particle
//! filter (Rodinia `particlefilter`): per frame a likelihood/weight kernel, a serial sum,
//! normalisation with CTA-local prefix sums, a serial scan of the CTA totals, the global CDF
//! and systematic resampling by binary search.
//!
//! The kernels use only integer arithmetic and explicitly rounded float operations, so the
//! reference below repeats every step in f32 in the kernels' order (including the warp
//! shuffle scan's Hillis-Steele order) and compares every frame's resampled indices and the
//! final positions, weights, CDF and generator states bit for bit. A final sanity check: the
//! particle cloud's mean lies near the disk's true position.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;
use rand::Rng;

const NAME: &str = "rod_particlefilter";
pub(crate) const PTX: &str = kernel_file!(rod_particlefilter, "ptx");

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[
        KernelShape::x(LIKELIHOOD, 128),
        KernelShape::x(SUM, 1),
        KernelShape::x(NORMALIZE, 128),
        KernelShape::x(OFFSETS, 1),
        KernelShape::x(GLOBAL_CDF, 128),
        KernelShape::x(FIND_INDEX, 128),
    ],
    barriers: "pfLikelihood, pfNormalize: 1 each (combining the warps' shuffle-scan totals); the rest: none",
    small: "32768 particles (256 CTAs), 64 x 64 video, 2 tracked frames, likelihood disk of radius 2",
    paper: "40960 particles (320 CTAs), 128 x 128 video, 9 tracked frames, radius 5",
};
const LIKELIHOOD: &str = "_Z12pfLikelihoodPKhiiPiS1_PjPfPKiiS3_i";
const SUM: &str = "_Z5pfSumPKfiPf";
const NORMALIZE: &str = "_Z11pfNormalizePfPKfS_S_i";
const OFFSETS: &str = "_Z9pfOffsetsPKfPfi";
const GLOBAL_CDF: &str = "_Z11pfGlobalCdfPfPKfi";
const FIND_INDEX: &str = "_Z11pfFindIndexPKfPKiS2_PiS3_S3_Pffi";
/// PF_T in the .cu.
const T: usize = 128;

/// The synthetic video: a disk of radius 5 (intensity ~228) moving across a ~100 background.
fn video(
    width: usize,
    height: usize,
    frames: usize,
    r: &mut impl Rng,
) -> (Vec<u8>, Vec<(i32, i32)>) {
    let mut v = vec![0u8; width * height * frames];
    let mut centres = Vec::with_capacity(frames);
    for f in 0..frames {
        let (cx, cy) = (
            width as i32 / 4 + 2 * f as i32,
            height as i32 / 2 - f as i32,
        );
        centres.push((cx, cy));
        for y in 0..height as i32 {
            for x in 0..width as i32 {
                let inside = (x - cx) * (x - cx) + (y - cy) * (y - cy) <= 25;
                let base = if inside { 228 } else { 100 };
                v[(f * height + y as usize) * width + x as usize] =
                    (base + r.gen_range(-20..=20)) as u8;
            }
        }
    }
    (v, centres)
}

/// Inclusive CTA scan in the kernel's order: warp Hillis-Steele scans, then the earlier
/// warps' totals added one by one. Returns the prefixes; the total is the last one.
fn block_scan(vals: &[f32]) -> Vec<f32> {
    let mut v = vals.to_vec();
    for w in v.chunks_mut(32) {
        let mut d = 1;
        while d < 32 {
            let old = w.to_vec();
            for l in d..32 {
                w[l] = old[l] + old[l - d];
            }
            d *= 2;
        }
    }
    let tot: Vec<f32> = v.chunks(32).map(|w| w[31]).collect();
    for (wi, w) in v.chunks_mut(32).enumerate().skip(1) {
        let mut off = 0.0f32;
        for t in &tot[..wi] {
            off += t;
        }
        for x in w.iter_mut() {
            *x += off; // the kernel's off + x: addition commutes exactly
        }
    }
    v
}

/// The filter's state, host side.
struct State {
    x: Vec<i32>,
    y: Vec<i32>,
    seed: Vec<u32>,
    weight: Vec<f32>,
}

/// Output of one host frame: the CDF and the resampled indices.
struct FrameOut {
    cdf: Vec<f32>,
    index: Vec<i32>,
}

fn lcg(s: u32) -> u32 {
    s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223)
}

fn host_frame(st: &mut State, frame: &[u8], w: usize, h: usize, disk: &[i32], u1: f32) -> FrameOut {
    let n = st.x.len();
    for i in 0..n {
        let mut s = lcg(st.seed[i]);
        let dx = (s >> 24) as i32 % 5 - 2;
        s = lcg(s);
        let dy = (s >> 24) as i32 % 5 - 2;
        st.seed[i] = s;
        let x = (st.x[i] + dx).clamp(0, w as i32 - 1);
        let y = (st.y[i] + dy).clamp(0, h as i32 - 1);
        st.x[i] = x;
        st.y[i] = y;
        let mut l = 0i32;
        for o in disk.chunks(2) {
            let xx = (x + o[0]).clamp(0, w as i32 - 1) as usize;
            let yy = (y + o[1]).clamp(0, h as i32 - 1) as usize;
            let v = frame[yy * w + xx] as i32;
            l += (v - 100) * (v - 100) - (v - 228) * (v - 228);
        }
        let like = l as f32 / 50.0;
        let f = 1.0 + like.max(0.0) / 512.0;
        st.weight[i] *= f * f;
    }
    let cta_sums: Vec<f32> = st
        .weight
        .chunks(T)
        .map(|c| *block_scan(c).last().unwrap())
        .collect();
    let mut total = 0.0f32;
    for s in &cta_sums {
        total += s;
    }
    for wgt in st.weight.iter_mut() {
        *wgt /= total;
    }
    let mut cdf = Vec::with_capacity(n);
    let mut off = 0.0f32;
    for (b, c) in st.weight.chunks(T).enumerate() {
        let local = block_scan(c);
        let tot = *local.last().unwrap();
        cdf.extend(local.iter().map(|&v| if b > 0 { off + v } else { v }));
        off += tot;
    }
    let mut index = Vec::with_capacity(n);
    let (ox, oy) = (st.x.clone(), st.y.clone());
    for i in 0..n {
        let u = u1 + i as f32 / n as f32;
        // The kernel's binary search (not partition_point: identical only if the CDF is
        // monotone, which the comparison should not have to assume).
        let (mut lo, mut hi) = (0usize, n - 1);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if cdf[mid] >= u {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        let j = lo;
        index.push(j as i32);
        st.x[i] = ox[j];
        st.y[i] = oy[j];
        st.weight[i] = 1.0 / n as f32;
    }
    FrameOut { cdf, index }
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 32768 particles (256 CTAs of 4 warps: 2 fills of the GTX 480 at 8 CTAs/SM),
    // 64 x 64 video, 2 tracked frames, disk of radius 2 (13 pixels) for the likelihood.
    // Paper: Rodinia's 128 x 128 x 10 video, 40960 particles (320 CTAs), radius 5.
    let (n, w, h, frames, radius) = size.pick(
        (32768usize, 64usize, 64usize, 3usize, 2i32),
        (40960, 128, 128, 10, 5),
    );
    let mut r = rng::rng(NAME, 0);
    let (vid, centres) = video(w, h, frames, &mut r);
    let mut disk = Vec::new();
    for dy in -radius..=radius {
        for dx in -radius..=radius {
            if dx * dx + dy * dy <= radius * radius {
                disk.extend([dx, dy]);
            }
        }
    }
    let (x0, y0) = centres[0];
    let mut st = State {
        x: vec![x0; n],
        y: vec![y0; n],
        seed: rng::u32s(&mut r, n, 0, u32::MAX),
        weight: vec![1.0 / n as f32; n],
    };
    let ctas = div_up(n, T);

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (kl, ksum, knorm) = (
        ctx.kernel(LIKELIHOOD)?,
        ctx.kernel(SUM)?,
        ctx.kernel(NORMALIZE)?,
    );
    let (koff, kcdf, kfind) = (
        ctx.kernel(OFFSETS)?,
        ctx.kernel(GLOBAL_CDF)?,
        ctx.kernel(FIND_INDEX)?,
    );
    let dvid = ctx.upload(&vid)?;
    let ddisk = ctx.upload(&disk)?;
    let mut dx = [ctx.upload(&st.x)?, ctx.zeroed::<i32>(n)?];
    let mut dy = [ctx.upload(&st.y)?, ctx.zeroed::<i32>(n)?];
    let dseed = ctx.upload(&st.seed)?;
    let dweight = ctx.upload(&st.weight)?;
    let dcta = ctx.zeroed::<f32>(ctas as usize)?;
    let dtotal = ctx.zeroed::<f32>(1)?;
    let dcdf = ctx.zeroed::<f32>(n)?;
    let doff = ctx.zeroed::<f32>(ctas as usize)?;
    let dindex = ctx.zeroed::<i32>(n)?;
    let (grid, block, one) = (
        Dim3::new(ctas, 1, 1),
        Dim3::new(T as u32, 1, 1),
        Dim3::new(1, 1, 1),
    );
    let mut last = None;
    for f in 1..frames {
        let u1: f32 = r.gen_range(0.0..1.0 / n as f32);
        let frame = dvid.offset((f * w * h) as u64);
        ctx.launch(
            kl,
            grid,
            block,
            0,
            &[
                Arg::Ptr(frame),
                Arg::I32(w as i32),
                Arg::I32(h as i32),
                Arg::Ptr(dx[0]),
                Arg::Ptr(dy[0]),
                Arg::Ptr(dseed),
                Arg::Ptr(dweight),
                Arg::Ptr(ddisk),
                Arg::I32((disk.len() / 2) as i32),
                Arg::Ptr(dcta),
                Arg::I32(n as i32),
            ],
        )?;
        ctx.launch(
            ksum,
            one,
            one,
            0,
            &[Arg::Ptr(dcta), Arg::I32(ctas as i32), Arg::Ptr(dtotal)],
        )?;
        ctx.launch(
            knorm,
            grid,
            block,
            0,
            &[
                Arg::Ptr(dweight),
                Arg::Ptr(dtotal),
                Arg::Ptr(dcdf),
                Arg::Ptr(dcta),
                Arg::I32(n as i32),
            ],
        )?;
        ctx.launch(
            koff,
            one,
            one,
            0,
            &[Arg::Ptr(dcta), Arg::Ptr(doff), Arg::I32(ctas as i32)],
        )?;
        ctx.launch(
            kcdf,
            grid,
            block,
            0,
            &[Arg::Ptr(dcdf), Arg::Ptr(doff), Arg::I32(n as i32)],
        )?;
        ctx.launch(
            kfind,
            grid,
            block,
            0,
            &[
                Arg::Ptr(dcdf),
                Arg::Ptr(dx[0]),
                Arg::Ptr(dy[0]),
                Arg::Ptr(dx[1]),
                Arg::Ptr(dy[1]),
                Arg::Ptr(dindex),
                Arg::Ptr(dweight),
                Arg::F32(u1),
                Arg::I32(n as i32),
            ],
        )?;
        dx.swap(0, 1);
        dy.swap(0, 1);
        let want = host_frame(&mut st, &vid[f * w * h..(f + 1) * w * h], w, h, &disk, u1);
        let got = ctx.download::<i32>(dindex, n)?;
        ctx.exact(&format!("resampled index, frame {f}"), &got, &want.index)?;
        last = Some(want);
    }
    if let Some(want) = last {
        let got = ctx.download::<f32>(dcdf, n)?;
        ctx.exact("CDF (last frame)", &got, &want.cdf)?;
    }
    for (what, p, want) in [("x", dx[0], &st.x), ("y", dy[0], &st.y)] {
        let got = ctx.download::<i32>(p, n)?;
        ctx.exact(what, &got, want)?;
    }
    let got = ctx.download::<u32>(dseed, n)?;
    ctx.exact("generator state", &got, &st.seed)?;
    let got = ctx.download::<f32>(dweight, n)?;
    ctx.exact("weight", &got, &st.weight)?;

    // The filter tracks: the particles' mean is within 4 pixels of the disk's centre.
    let (cx, cy) = centres[frames - 1];
    let mx = st.x.iter().map(|&v| v as f64).sum::<f64>() / n as f64;
    let my = st.y.iter().map(|&v| v as f64).sum::<f64>() / n as f64;
    if (mx - cx as f64).hypot(my - cy as f64) > 4.0 {
        return Err(ctx.invalid(format!(
            "estimate ({mx:.1}, {my:.1}) is far from the disk at ({cx}, {cy})"
        )));
    }
    ctx.count_checked(1);
    ctx.finish("")
}
