//! rod_streamcluster: the facility-location local search of streamcluster, shaped like
//! Rodinia `streamcluster`'s CUDA version: for each candidate centre the pgain kernel computes
//! every point's weighted distance to the candidate (one thread per point, coordinates stored
//! dimension-major, 512-thread CTAs, no shared memory, no barrier) and writes what the point
//! would save or cost into its own row of the work memory; the host sums the rows, decides
//! whether opening the candidate (and closing the centres that then pay for themselves) lowers
//! the total cost, and reassigns the points itself, as Rodinia's host does.
//!
//! Coordinates are small integers stored as floats and every weight is 1 (stream points), so
//! every distance and work-row entry is an exactly representable integer (< 2^24): each
//! candidate's switch flags and work rows are compared exactly with a host mirror, and the
//! host's final assignment must open at least one candidate.
//!
//! Earlier versions accumulated per-CTA rows with shared-memory atomics between two barriers
//! and applied accepted moves in a second kernel; Rodinia's CUDA pgain has neither (per-point
//! rows, the apply on the host), and those short launches waited at barriers and CTA exits
//! for 19% (LRR) / 28% (GTO) of the program's warp cycles.

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
    kernels: &[KernelShape::x(PGAIN, T as u32)],
    barriers: "none (per-point work rows, reduced on the host)",
    small: "49152 points (96 CTAs), 16 dimensions, 4 candidate centres",
    paper: "65536 points (128 CTAs), 64 dimensions, 16 candidates",
};
pub(crate) const PGAIN: &str = "_Z7scPgainPKfiiiS0_PKiS0_S2_iPhPf";
/// SC_T in the .cu.
pub(crate) const T: usize = 512;
/// Most centres the search may open (work rows are k + 1 floats).
const MAXK: usize = 64;

/// Squared distance between points a and b, coordinates dimension-major (the kernel's order).
fn dist(coord: &[f32], n: usize, dim: usize, a: usize, b: usize) -> f32 {
    let mut s = 0.0f32;
    for f in 0..dim {
        let d = coord[f * n + a] - coord[f * n + b];
        s += d * d;
    }
    s
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 49152 points (96 CTAs of 16 warps: 3.2 fills at 2 CTAs/SM on gtx480, the kernel's
    // 30 registers allowing 2), 16 dimensions, 4 candidates. Paper: 65536 points (Rodinia streams 65536-point chunks), 64 dimensions
    // (Rodinia's default input has 256), 16 candidates.
    let (n, dim, candidates) = size.pick((49152usize, 16usize, 4usize), (65536, 64, 16));
    streamcluster(dev, NAME, n, dim, candidates)
}

/// The search over `candidates` candidate centres for `n` points of `dim` dimensions, inputs
/// drawn from `name`'s seed (also rod_streamcluster_kaws's driver).
pub(crate) fn streamcluster(
    dev: &mut Device,
    name: &'static str,
    n: usize,
    dim: usize,
    candidates: usize,
) -> Result<Outcome, SuiteError> {
    let mut r = rng::rng(name, 0);
    // Points around 12 hidden centres, coordinates integers in 0..=15, stored dimension-major.
    let centres = rng::i32s(&mut r, 12 * dim, 2, 13);
    let mut coord = vec![0.0f32; n * dim];
    for i in 0..n {
        let c = r.gen_range(0..12);
        for f in 0..dim {
            coord[f * n + i] = (centres[c * dim + f] + r.gen_range(-2..=2)) as f32;
        }
    }
    let weight = vec![1.0f32; n];
    // Facility cost: opening a centre must pay for itself.
    let z = 1000.0 * dim as f64;
    // Start with one centre, point 0, in slot 0. assign: each point's centre (a point index);
    // center_table: the work-row slot of each open centre's point.
    let mut assign = vec![0i32; n];
    let mut cost: Vec<f32> = (0..n).map(|i| dist(&coord, n, dim, i, 0)).collect();
    let mut center_table = vec![0i32; n];
    let mut open: Vec<usize> = vec![0]; // slot -> centre point

    let mut ctx = Ctx::new(dev, name, PTX)?;
    let kg = ctx.kernel(PGAIN)?;
    let dcoord = ctx.upload(&coord)?;
    let dweight = ctx.upload(&weight)?;
    let dassign = ctx.upload(&assign)?;
    let dcost = ctx.upload(&cost)?;
    let dtable = ctx.upload(&center_table)?;
    let dswitch = ctx.zeroed::<u8>(n)?;
    let dwork = ctx.zeroed::<f32>(n * (MAXK + 1))?;
    let (grid, block) = (Dim3::new(div_up(n, T), 1, 1), Dim3::new(T as u32, 1, 1));
    let mut opened = 0;
    for cand in 0..candidates {
        let x = r.gen_range(0..n);
        let k = open.len();
        if k >= MAXK {
            break;
        }
        // Rodinia's host clears the switch flags and the work memory before each pgain.
        ctx.dev.memset(dswitch, 0, n as u64)?;
        ctx.dev.memset(dwork, 0, (n * (k + 1) * 4) as u64)?;
        ctx.launch(
            kg,
            grid,
            block,
            0,
            &[
                Arg::Ptr(dcoord),
                Arg::I32(n as i32),
                Arg::I32(dim as i32),
                Arg::I32(x as i32),
                Arg::Ptr(dweight),
                Arg::Ptr(dassign),
                Arg::Ptr(dcost),
                Arg::Ptr(dtable),
                Arg::I32(k as i32),
                Arg::Ptr(dswitch),
                Arg::Ptr(dwork),
            ],
        )?;
        // Host mirror of scPgain.
        let xc: Vec<f32> = (0..n)
            .map(|i| dist(&coord, n, dim, i, x) * weight[i])
            .collect();
        let switches: Vec<u8> = (0..n).map(|i| u8::from(xc[i] < cost[i])).collect();
        let mut want = vec![0.0f32; n * (k + 1)];
        for i in 0..n {
            let row = &mut want[i * (k + 1)..(i + 1) * (k + 1)];
            if switches[i] != 0 {
                row[k] = xc[i] - cost[i];
            } else {
                row[center_table[assign[i] as usize] as usize] = cost[i] - xc[i];
            }
        }
        let got = ctx.download::<u8>(dswitch, n)?;
        ctx.exact(&format!("switch flags, candidate {cand}"), &got, &switches)?;
        let work = ctx.download::<f32>(dwork, n * (k + 1))?;
        ctx.exact(&format!("work rows, candidate {cand}"), &work, &want)?;

        // The host's decision (from the device's rows): open x if the savings pay for it,
        // closing every open centre whose remaining points are cheaper to serve from x than
        // the centre costs.
        let column = |c: usize| -> f64 { (0..n).map(|i| work[i * (k + 1) + c] as f64).sum() };
        let mut gain = -column(k) - z;
        let mut closed = vec![false; k];
        for (c, shut) in closed.iter_mut().enumerate() {
            let lower = column(c);
            if z + lower > 0.0 {
                *shut = true;
                gain += z + lower;
            }
        }
        if gain <= 0.0 {
            continue;
        }
        // Accepted: points that switch or whose centre closes move to x (on the host, as in
        // Rodinia), and the new assignment goes back to the device for the next candidate.
        opened += 1;
        for i in 0..n {
            if switches[i] != 0 || closed[center_table[assign[i] as usize] as usize] {
                assign[i] = x as i32;
                cost[i] = xc[i];
            }
        }
        let kept: Vec<usize> = open
            .iter()
            .enumerate()
            .filter(|&(c, _)| !closed[c])
            .map(|(_, &p)| p)
            .collect();
        open = kept;
        open.push(x);
        for (slot, &p) in open.iter().enumerate() {
            center_table[p] = slot as i32;
        }
        ctx.dev.write_slice(dassign, &assign)?;
        ctx.dev.write_slice(dcost, &cost)?;
        ctx.dev.write_slice(dtable, &center_table)?;
    }
    // The seeded run must accept a move (no vacuous pass).
    if opened == 0 {
        return Err(ctx.invalid("no candidate was opened"));
    }
    ctx.count_checked(1);
    ctx.finish("")
}
