//! rod_pathfinder: minimum-cost top-to-bottom path through a grid of weights (Rodinia
//! `pathfinder`): dynamic programming row by row, several rows per launch with the pyramid
//! scheme in shared memory, host loop ping-ponging two cost rows.
//!
//! Integer: the final cost row is compared exactly with the row-by-row host recurrence.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "rod_pathfinder";
pub(crate) const PTX: &str = kernel_file!(rod_pathfinder, "ptx");

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::x(KERNEL, T as u32)],
    barriers: "1 after loading the row, then 2 per row step (8 steps per launch small, 20 paper)",
    small: "40000 columns x 25 rows (3 launches of 167 CTAs)",
    paper: "100000 columns x 100 rows (5 launches of 463 CTAs)",
};
const KERNEL: &str = "_Z8pathStepPKiS0_Piiii";
/// PF_T in the .cu.
const T: usize = 256;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 40000 columns x 25 rows, 8 rows per launch (3 launches of 167 CTAs). Paper:
    // Rodinia's 100000 x 100 with pyramid height 20 (5 launches of 463 CTAs).
    let (cols, rows, steps) = size.pick((40000usize, 25usize, 8usize), (100000, 100, 20));
    let mut r = rng::rng(NAME, 0);
    let wall = rng::i32s(&mut r, rows * cols, 0, 9);

    let mut want = wall[..cols].to_vec();
    for row in 1..rows {
        want = (0..cols)
            .map(|c| {
                let m = want[c]
                    .min(want[c.saturating_sub(1)])
                    .min(want[(c + 1).min(cols - 1)]);
                m + wall[row * cols + c]
            })
            .collect();
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k = ctx.kernel(KERNEL)?;
    let dwall = ctx.upload(&wall)?;
    let mut bufs = [ctx.upload(&wall[..cols])?, ctx.zeroed::<i32>(cols)?];
    // Rodinia sizes the grid once, for the full pyramid height: a shorter last launch keeps
    // it, and its surplus CTAs (past the last column at the wider inner width) do nothing.
    // This keeps every paper-size launch at 463 CTAs, the PRO paper's Table II count.
    let grid = Dim3::new(div_up(cols, T - 2 * steps), 1, 1);
    let mut start = 0;
    while start < rows - 1 {
        let s = steps.min(rows - 1 - start);
        ctx.launch(
            k,
            grid,
            Dim3::new(T as u32, 1, 1),
            0,
            &[
                Arg::Ptr(dwall),
                Arg::Ptr(bufs[0]),
                Arg::Ptr(bufs[1]),
                Arg::I32(cols as i32),
                Arg::I32(start as i32),
                Arg::I32(s as i32),
            ],
        )?;
        bufs.swap(0, 1);
        start += s;
    }
    let got = ctx.download::<i32>(bufs[0], cols)?;
    ctx.exact("path cost", &got, &want)?;
    ctx.finish("")
}
