//! rod_nn: k nearest neighbours of a query location among hurricane records (Rodinia `nn`):
//! one distance kernel, then k rounds of a per-warp argmin kernel (warp shuffles, no
//! barrier) whose winners the host finishes, marking each chosen record by writing +inf into
//! its distance.
//!
//! The distance is explicitly rounded and `sqrtf` is correctly rounded, so the host's f32
//! distances match bit for bit: the distances, every round's per-warp winners and the final
//! k neighbours (against a plain sort by (distance, index)) are compared exactly.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "rod_nn";
pub(crate) const PTX: &str = kernel_file!(rod_nn, "ptx");

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::x(DISTANCE, T as u32), KernelShape::x(ARGMIN, T as u32)],
    barriers: "none (nnWarpMin reduces within warps by shuffles)",
    small: "49152 records (192 CTAs), 5 neighbours",
    paper: "2^20 records (4096 CTAs), 10 neighbours",
};
const DISTANCE: &str = "_Z10nnDistancePK6float2ffPfi";
const ARGMIN: &str = "_Z9nnWarpMinPKfiPfPi";
/// NN_T in the .cu.
const T: usize = 256;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 49152 records (192 CTAs: 2 fills at 6 CTAs/SM), 5 neighbours. Paper: 2^20 records (4096 CTAs), 10
    // neighbours (Rodinia's default k).
    let (n, k) = size.pick((49152usize, 5usize), (1 << 20, 10));
    let mut r = rng::rng(NAME, 0);
    // Latitudes and longitudes on a coarse 0.1-degree grid, so that ties occur.
    let lat = rng::i32s(&mut r, n, 0, 900);
    let lng = rng::i32s(&mut r, n, 0, 1800);
    let loc: Vec<f32> = lat.iter().zip(&lng).flat_map(|(&a, &b)| [a as f32 / 10.0, b as f32 / 10.0]).collect();
    let (qlat, qlng) = (30.0f32, 90.0f32);
    let mut dist: Vec<f32> = loc
        .chunks(2)
        .map(|p| {
            let (dx, dy) = (qlat - p[0], qlng - p[1]);
            (dx * dx + dy * dy).sqrt()
        })
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| dist[a].total_cmp(&dist[b]).then(a.cmp(&b)));

    let ctas = div_up(n, T);
    let warps = n.div_ceil(32);
    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (kd, ka) = (ctx.kernel(DISTANCE)?, ctx.kernel(ARGMIN)?);
    let dloc = ctx.upload(&loc)?;
    let ddist = ctx.zeroed::<f32>(n)?;
    let dwd = ctx.zeroed::<f32>(warps)?;
    let dwi = ctx.zeroed::<i32>(warps)?;
    let (grid, block) = (Dim3::new(ctas, 1, 1), Dim3::new(T as u32, 1, 1));
    ctx.launch(
        kd,
        grid,
        block,
        0,
        &[Arg::Ptr(dloc), Arg::F32(qlat), Arg::F32(qlng), Arg::Ptr(ddist), Arg::I32(n as i32)],
    )?;
    let got = ctx.download::<f32>(ddist, n)?;
    ctx.exact("distance", &got, &dist)?;
    let mut chosen = Vec::with_capacity(k);
    for round in 0..k {
        ctx.launch(ka, grid, block, 0, &[Arg::Ptr(ddist), Arg::I32(n as i32), Arg::Ptr(dwd), Arg::Ptr(dwi)])?;
        let (mut wd, mut wi) = (Vec::with_capacity(warps), Vec::with_capacity(warps));
        for w in 0..warps {
            let lexi = |a: &(f32, usize), b: &(f32, usize)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
            let (d, i) = (w * 32..((w + 1) * 32).min(n)).map(|i| (dist[i], i)).min_by(lexi).unwrap();
            wd.push(d);
            wi.push(i as i32);
        }
        let gd = ctx.download::<f32>(dwd, warps)?;
        ctx.exact(&format!("warp minimum distance, round {round}"), &gd, &wd)?;
        let gi = ctx.download::<i32>(dwi, warps)?;
        ctx.exact(&format!("warp minimum index, round {round}"), &gi, &wi)?;
        // The host finishes the selection and retires the winner.
        let best = (0..warps).min_by(|&a, &b| gd[a].total_cmp(&gd[b]).then(gi[a].cmp(&gi[b]))).unwrap();
        let idx = gi[best] as usize;
        chosen.push(idx);
        ctx.dev.write_slice(ddist.offset(4 * idx as u64), &[f32::INFINITY])?;
        dist[idx] = f32::INFINITY;
    }
    ctx.exact("nearest neighbours", &chosen, &order[..k])?;
    ctx.finish("")
}
