//! bfs: level-synchronous BFS from vertex 0 over a seeded random directed CSR graph; the host
//! relaunches the level kernel while the device `changed` flag comes back set.

use rand::Rng;
use std::collections::VecDeque;
use warpsim_core::device::{Arg, Device, Dim3};

use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "bfs";
pub(crate) const PTX: &str = kernel_file!(bfs, "ptx");
const KERNEL: &str = "_Z8bfsLevelPKiS0_PiS1_ii";

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    let (n, threads) = size.pick((3000usize, 128u32), (200_000, 256));
    let mut r = rng::rng(NAME, 0);
    // Out-degrees 0..=5 (mean 2.5): a sparse graph with a few hundred unreachable vertices and
    // a BFS depth of a dozen or so levels.
    let mut row_ptr = Vec::with_capacity(n + 1);
    let mut cols = Vec::new();
    row_ptr.push(0i32);
    for _ in 0..n {
        let deg = r.gen_range(0..=5);
        for _ in 0..deg {
            cols.push(r.gen_range(0..n as i32));
        }
        row_ptr.push(cols.len() as i32);
    }
    if cols.is_empty() {
        cols.push(0); // never empty, so the allocation is never zero-sized
    }

    let mut expected = vec![-1i32; n];
    expected[0] = 0;
    let mut queue = VecDeque::from([0usize]);
    while let Some(v) = queue.pop_front() {
        for e in row_ptr[v]..row_ptr[v + 1] {
            let u = cols[e as usize] as usize;
            if expected[u] == -1 {
                expected[u] = expected[v] + 1;
                queue.push_back(u);
            }
        }
    }
    let depth = *expected.iter().max().unwrap_or(&0);

    let mut dist = vec![-1i32; n];
    dist[0] = 0;

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k = ctx.kernel(KERNEL)?;
    let drow = ctx.upload(&row_ptr)?;
    let dcols = ctx.upload(&cols)?;
    let ddist = ctx.upload(&dist)?;
    let dchanged = ctx.zeroed::<i32>(1)?;
    let grid = Dim3::new(div_up(n, threads as usize), 1, 1);
    let mut level = 0i32;
    loop {
        ctx.dev.write_slice(dchanged, &[0i32])?;
        ctx.launch(
            k,
            grid,
            Dim3::new(threads, 1, 1),
            0,
            &[
                Arg::Ptr(drow),
                Arg::Ptr(dcols),
                Arg::Ptr(ddist),
                Arg::Ptr(dchanged),
                Arg::I32(n as i32),
                Arg::I32(level),
            ],
        )?;
        let changed = ctx.download::<i32>(dchanged, 1)?[0];
        if changed == 0 {
            break;
        }
        level += 1;
        if level as usize > n {
            return Err(ctx.invalid(format!(
                "the `changed` flag is still set after {level} levels"
            )));
        }
    }
    let got = ctx.download::<i32>(ddist, n)?;
    ctx.exact("dist", &got, &expected)?;
    // Levels 0..=depth each discover something except the last; one launch per level.
    let launches = ctx.launches();
    ctx.exact("launches", &[launches], &[depth as u32 + 1])?;
    ctx.finish("")
}
