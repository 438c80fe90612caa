//! rod_nn: k nearest neighbours of a query location among hurricane records (Rodinia `nn`):
//! one distance kernel (one thread per record, no barrier), then the host copies the
//! distances back and selects the k nearest with k passes of a minimum scan, as Rodinia's
//! `findLowest` does.
//!
//! The distance is explicitly rounded and `sqrtf` is correctly rounded, so the host's f32
//! distances match bit for bit: the distances and the k neighbours the host selects from the
//! device's distances (against a plain sort by (distance, index)) are compared exactly.
//!
//! Earlier versions narrowed the selection on the device with k launches of a warp-shuffle
//! argmin kernel; Rodinia does not, and those short, issue-bound launches were what made the
//! program wait at CTA exits (24% of its warp cycles under GTO). The device part is now
//! Rodinia's: a single memory-bound distance launch.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "rod_nn";
pub(crate) const PTX: &str = kernel_file!(rod_nn, "ptx");

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::x(DISTANCE, T as u32)],
    barriers: "none (one thread per record; the host selects the k nearest)",
    small: "49152 records (192 CTAs), 5 neighbours",
    paper: "2^20 records (4096 CTAs), 10 neighbours",
};
const DISTANCE: &str = "_Z10nnDistancePK6float2ffPfi";
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
    let loc: Vec<f32> = lat
        .iter()
        .zip(&lng)
        .flat_map(|(&a, &b)| [a as f32 / 10.0, b as f32 / 10.0])
        .collect();
    let (qlat, qlng) = (30.0f32, 90.0f32);
    let dist: Vec<f32> = loc
        .chunks(2)
        .map(|p| {
            let (dx, dy) = (qlat - p[0], qlng - p[1]);
            (dx * dx + dy * dy).sqrt()
        })
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| dist[a].total_cmp(&dist[b]).then(a.cmp(&b)));

    // Rodinia's grid: one CTA per 256 records, folded into rows of at most 65535 CTAs.
    let blocks = div_up(n, T);
    let grid_y = blocks.div_ceil(65535);
    let grid = Dim3::new(blocks.div_ceil(grid_y), grid_y, 1);
    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let kd = ctx.kernel(DISTANCE)?;
    let dloc = ctx.upload(&loc)?;
    let ddist = ctx.zeroed::<f32>(n)?;
    ctx.launch(
        kd,
        grid,
        Dim3::new(T as u32, 1, 1),
        0,
        &[
            Arg::Ptr(dloc),
            Arg::F32(qlat),
            Arg::F32(qlng),
            Arg::Ptr(ddist),
            Arg::I32(n as i32),
        ],
    )?;
    let mut got = ctx.download::<f32>(ddist, n)?;
    ctx.exact("distance", &got, &dist)?;
    // The host's selection (Rodinia's findLowest): k passes, each taking the nearest record
    // not yet taken (ties to the lower index) and retiring it.
    let mut chosen = Vec::with_capacity(k);
    for _ in 0..k {
        let best = (0..n)
            .min_by(|&a, &b| got[a].total_cmp(&got[b]).then(a.cmp(&b)))
            .unwrap();
        chosen.push(best);
        got[best] = f32::INFINITY;
    }
    ctx.exact("nearest neighbours", &chosen, &order[..k])?;
    ctx.finish("")
}
