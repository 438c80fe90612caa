//! rod_bfs: breadth-first search with Rodinia `bfs`'s two kernels per level (expand the
//! frontier mask, then promote the updating mask), host loop on a device `more` flag.
//!
//! Integer: the BFS distances are compared exactly with a host queue-based BFS, and the
//! number of level steps must be the graph's depth from the source plus one.

use std::collections::VecDeque;

use rand::Rng;
use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "rod_bfs";
pub(crate) const PTX: &str = kernel_file!(rod_bfs, "ptx");

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[
        KernelShape::x(EXPAND, THREADS as u32),
        KernelShape::x(UPDATE, THREADS as u32),
    ],
    barriers: "none (the launch boundary separates the two phases of a level)",
    small: "49152 nodes, out-degree 1..7 (192 CTAs per launch)",
    paper: "2^20 nodes (4096 CTAs per launch)",
};
pub(super) const EXPAND: &str = "_Z9bfsExpandPKiS0_PhS1_PKhPii";
pub(super) const UPDATE: &str = "_Z9bfsUpdatePhS_S_Pii";
pub(super) const THREADS: usize = 256;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 49152 nodes (192 CTAs per kernel: 2 fills at 6 CTAs/SM). Paper: Rodinia's largest
    // input size, 2^20 nodes.
    bfs(dev, NAME, size.pick(49152, 1 << 20))
}

/// BFS from node 0 of a seeded random graph of `n` nodes, for program `name` (this one and
/// `ispass_bfs`, which runs the same kernels at its own sizes). Out-degrees uniform in 1..=7
/// (Rodinia's generator draws a few edges per node), edges to uniformly random nodes.
pub(super) fn bfs(dev: &mut Device, name: &'static str, n: usize) -> Result<Outcome, SuiteError> {
    let mut r = rng::rng(name, 0);
    let mut row_start = Vec::with_capacity(n + 1);
    let mut edges = Vec::new();
    for _ in 0..n {
        row_start.push(edges.len() as i32);
        let deg = r.gen_range(1..=7);
        for _ in 0..deg {
            edges.push(r.gen_range(0..n as i32));
        }
    }
    row_start.push(edges.len() as i32);
    let source = 0usize;

    // Reference distances.
    let mut want = vec![-1i32; n];
    want[source] = 0;
    let mut queue = VecDeque::from([source]);
    while let Some(v) = queue.pop_front() {
        for &u in &edges[row_start[v] as usize..row_start[v + 1] as usize] {
            if want[u as usize] < 0 {
                want[u as usize] = want[v] + 1;
                queue.push_back(u as usize);
            }
        }
    }
    let depth = *want.iter().max().unwrap_or(&0) as u32;

    let mut mask = vec![0u8; n];
    mask[source] = 1;
    let mut cost = vec![-1i32; n];
    cost[source] = 0;
    let mut ctx = Ctx::new(dev, name, PTX)?;
    let (ke, ku) = (ctx.kernel(EXPAND)?, ctx.kernel(UPDATE)?);
    let drow = ctx.upload(&row_start)?;
    let dedges = ctx.upload(&edges)?;
    let dmask = ctx.upload(&mask)?;
    let dupd = ctx.zeroed::<u8>(n)?;
    let dvisited = ctx.upload(&mask)?;
    let dcost = ctx.upload(&cost)?;
    let dmore = ctx.zeroed::<i32>(1)?;
    let (grid, block) = (
        Dim3::new(div_up(n, THREADS), 1, 1),
        Dim3::new(THREADS as u32, 1, 1),
    );
    let mut steps = 0u32;
    loop {
        if steps > n as u32 {
            return Err(ctx.invalid("the level loop does not terminate"));
        }
        ctx.dev.write_slice(dmore, &[0i32])?;
        ctx.launch(
            ke,
            grid,
            block,
            0,
            &[
                Arg::Ptr(drow),
                Arg::Ptr(dedges),
                Arg::Ptr(dmask),
                Arg::Ptr(dupd),
                Arg::Ptr(dvisited),
                Arg::Ptr(dcost),
                Arg::I32(n as i32),
            ],
        )?;
        ctx.launch(
            ku,
            grid,
            block,
            0,
            &[
                Arg::Ptr(dmask),
                Arg::Ptr(dupd),
                Arg::Ptr(dvisited),
                Arg::Ptr(dmore),
                Arg::I32(n as i32),
            ],
        )?;
        steps += 1;
        if ctx.download::<i32>(dmore, 1)?[0] == 0 {
            break;
        }
    }
    let got = ctx.download::<i32>(dcost, n)?;
    ctx.exact("cost", &got, &want)?;
    if steps != depth + 1 {
        return Err(ctx.invalid(format!("{steps} level steps for a graph of depth {depth}")));
    }
    ctx.count_checked(1);
    ctx.finish("")
}
