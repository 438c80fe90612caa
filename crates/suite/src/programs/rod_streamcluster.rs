//! rod_streamcluster: the facility-location local search of streamcluster (Rodinia
//! `streamcluster`): for each candidate centre the pgain kernel computes every point's cost
//! from the candidate and accumulates per-CTA savings and per-centre closure costs in shared
//! memory (Rodinia's work_mem), the host sums the CTA rows and decides, and an apply kernel
//! moves the points when opening the candidate lowers the total cost.
//!
//! Coordinates are small integers stored as floats, so every distance and partial sum is an
//! exactly representable integer (< 2^24) and the shared-memory atomics' order cannot change
//! a result: each candidate's work rows and the final assignments and costs are compared
//! exactly with a host mirror.

use rand::Rng;
use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "rod_streamcluster";
pub(crate) const PTX: &str = kernel_file!(rod_streamcluster, "ptx");

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::x(PGAIN, T as u32), KernelShape::x(APPLY, T as u32)],
    barriers: "scPgain: 2 (after zeroing the shared work row, before writing it out); scApply: none",
    small: "40960 points (160 CTAs), 8 dimensions, 4 candidate centres",
    paper: "65536 points (256 CTAs), 32 dimensions, 16 candidates",
};
const PGAIN: &str = "_Z7scPgainPKfiiPKiS0_iiPhPf";
const APPLY: &str = "_Z7scApplyPKfiiPiPfPKhS4_ii";
/// SC_T and SC_MAXK in the .cu.
const T: usize = 256;
const MAXK: usize = 64;

fn dist(pts: &[f32], dim: usize, a: usize, b: usize) -> f32 {
    let mut s = 0.0f32;
    for f in 0..dim {
        let d = pts[a * dim + f] - pts[b * dim + f];
        s += d * d;
    }
    s
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 40960 points (160 CTAs of 8 warps: 2 fills at 5 CTAs/SM), 8 dimensions, 4
    // candidates. Paper: 65536
    // points (256 CTAs), 32 dimensions, 16 candidates (Rodinia streams 65536-point chunks).
    let (n, dim, candidates) = size.pick((40960usize, 8usize, 4usize), (65536, 32, 16));
    let mut r = rng::rng(NAME, 0);
    // Points around 12 hidden centres, coordinates integers in 0..=15.
    let centres = rng::i32s(&mut r, 12 * dim, 2, 13);
    let mut pts = vec![0.0f32; n * dim];
    for i in 0..n {
        let c = r.gen_range(0..12);
        for f in 0..dim {
            pts[i * dim + f] = (centres[c * dim + f] + r.gen_range(-2..=2)) as f32;
        }
    }
    // Facility cost: opening a centre must pay for itself.
    let z = 1000.0 * dim as f64;
    // Start with one centre, point 0, in slot 0.
    let mut center = vec![0i32; n];
    let mut cost: Vec<f32> = (0..n).map(|i| dist(&pts, dim, i, 0)).collect();
    let mut open = vec![true];
    let ctas = div_up(n, T) as usize;

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (kg, ka) = (ctx.kernel(PGAIN)?, ctx.kernel(APPLY)?);
    let dpts = ctx.upload(&pts)?;
    let dcenter = ctx.upload(&center)?;
    let dcost = ctx.upload(&cost)?;
    let dswitch = ctx.zeroed::<u8>(n)?;
    let dwork = ctx.zeroed::<f32>(ctas * (MAXK + 1))?;
    let dclosed = ctx.zeroed::<u8>(MAXK)?;
    let (grid, block) = (Dim3::new(ctas as u32, 1, 1), Dim3::new(T as u32, 1, 1));
    let mut opened = 0;
    for cand in 0..candidates {
        let x = r.gen_range(0..n);
        let k = open.len();
        if k >= MAXK {
            break;
        }
        ctx.launch(
            kg,
            grid,
            block,
            0,
            &[
                Arg::Ptr(dpts),
                Arg::I32(dim as i32),
                Arg::I32(n as i32),
                Arg::Ptr(dcenter),
                Arg::Ptr(dcost),
                Arg::I32(x as i32),
                Arg::I32(k as i32),
                Arg::Ptr(dswitch),
                Arg::Ptr(dwork),
            ],
        )?;
        // Host mirror of scPgain: the CTA rows (exact integers, so any order gives them).
        let xc: Vec<f32> = (0..n).map(|i| dist(&pts, dim, i, x)).collect();
        let switches: Vec<bool> = (0..n).map(|i| xc[i] < cost[i]).collect();
        let mut work = vec![0.0f64; ctas * (k + 1)];
        for i in 0..n {
            let slot = if switches[i] { k } else { center[i] as usize };
            work[(i / T) * (k + 1) + slot] += (cost[i] - xc[i]) as f64;
        }
        let want: Vec<f32> = work.iter().map(|&v| v as f32).collect();
        let got = ctx.download::<f32>(dwork, ctas * (k + 1))?;
        ctx.exact(&format!("work rows, candidate {cand}"), &got, &want)?;

        // The host's decision: open x if the savings pay for it, closing every open centre
        // whose remaining points are cheaper to serve from x than the centre costs.
        let saving: f64 = (0..ctas).map(|b| work[b * (k + 1) + k]).sum();
        let mut gain = saving - z;
        let mut closed = vec![0u8; MAXK];
        for c in 0..k {
            let lower: f64 = (0..ctas).map(|b| work[b * (k + 1) + c]).sum();
            if open[c] && z + lower > 0.0 {
                closed[c] = 1;
                gain += z + lower;
            }
        }
        if gain <= 0.0 {
            continue;
        }
        opened += 1;
        ctx.dev.write_slice(dclosed, &closed)?;
        ctx.launch(
            ka,
            grid,
            block,
            0,
            &[
                Arg::Ptr(dpts),
                Arg::I32(dim as i32),
                Arg::I32(n as i32),
                Arg::Ptr(dcenter),
                Arg::Ptr(dcost),
                Arg::Ptr(dswitch),
                Arg::Ptr(dclosed),
                Arg::I32(x as i32),
                Arg::I32(k as i32),
            ],
        )?;
        for i in 0..n {
            if switches[i] || closed[center[i] as usize] != 0 {
                center[i] = k as i32;
                cost[i] = xc[i];
            }
        }
        for c in 0..k {
            if closed[c] != 0 {
                open[c] = false;
            }
        }
        open.push(true);
    }
    let got = ctx.download::<i32>(dcenter, n)?;
    ctx.exact("centre of each point", &got, &center)?;
    let got = ctx.download::<f32>(dcost, n)?;
    ctx.exact("cost of each point", &got, &cost)?;
    // The seeded run must exercise the apply kernel (no vacuous pass).
    if opened == 0 {
        return Err(ctx.invalid("no candidate was opened"));
    }
    ctx.count_checked(1);
    ctx.finish("")
}
