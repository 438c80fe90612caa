//! rod_nw: Needleman-Wunsch alignment scores (Rodinia `nw`): the score matrix is filled in
//! 16 x 16 blocks, one launch per anti-diagonal of blocks (upper-left triangle, then
//! lower-right), each block swept by anti-diagonals in shared memory.
//!
//! Integer: the whole (n+1) x (n+1) score matrix is compared exactly with the host DP.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "rod_nw";
pub(crate) const PTX: &str = kernel_file!(rod_nw, "ptx");

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[
        KernelShape::x(UPPER, B as u32),
        KernelShape::x(LOWER, B as u32),
    ],
    barriers: "1 after staging + 1 per inner anti-diagonal (31), with one warp per CTA",
    small: "two sequences of 512 (63 launches of 1..32 CTAs)",
    paper: "two sequences of 2048 (255 launches of 1..128 CTAs)",
};
const UPPER: &str = "_Z7nwUpperPiPKiiii";
const LOWER: &str = "_Z7nwLowerPiPKiiii";
/// NW_B in the .cu.
const B: usize = 16;
const GAP: i32 = 10;
/// Alphabet size of the substitution table (24, like BLOSUM tables).
const SYMBOLS: usize = 24;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: sequences of 512 (32 x 32 blocks, 63 launches of 1..32 CTAs). Paper: Rodinia's
    // default 2048 (128 x 128 blocks, 255 launches).
    let n = size.pick(512usize, 2048usize);
    let nb = n / B;
    let pitch = n + 1;
    let mut r = rng::rng(NAME, 0);
    let a = rng::i32s(&mut r, n, 0, SYMBOLS as i32 - 1);
    let b = rng::i32s(&mut r, n, 0, SYMBOLS as i32 - 1);
    // A random symmetric substitution table: matches score 4..11, mismatches -4..3.
    let mut table = vec![0i32; SYMBOLS * SYMBOLS];
    for i in 0..SYMBOLS {
        for j in i..SYMBOLS {
            let v = if i == j {
                rng::i32s(&mut r, 1, 4, 11)[0]
            } else {
                rng::i32s(&mut r, 1, -4, 3)[0]
            };
            table[i * SYMBOLS + j] = v;
            table[j * SYMBOLS + i] = v;
        }
    }
    // Rodinia's reference matrix: the substitution score of every (i, j) pair, row/column 0
    // unused.
    let mut refm = vec![0i32; pitch * pitch];
    for i in 1..=n {
        for j in 1..=n {
            refm[i * pitch + j] = table[a[i - 1] as usize * SYMBOLS + b[j - 1] as usize];
        }
    }
    let mut score = vec![0i32; pitch * pitch];
    for i in 0..=n {
        score[i * pitch] = -(i as i32) * GAP;
        score[i] = -(i as i32) * GAP;
    }
    let mut want = score.clone();
    for i in 1..=n {
        for j in 1..=n {
            let diag = want[(i - 1) * pitch + j - 1] + refm[i * pitch + j];
            let up = want[(i - 1) * pitch + j] - GAP;
            let left = want[i * pitch + j - 1] - GAP;
            want[i * pitch + j] = diag.max(up).max(left);
        }
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (ku, kl) = (ctx.kernel(UPPER)?, ctx.kernel(LOWER)?);
    let dscore = ctx.upload(&score)?;
    let dref = ctx.upload(&refm)?;
    let block = Dim3::new(B as u32, 1, 1);
    let args = |d: usize| {
        [
            Arg::Ptr(dscore),
            Arg::Ptr(dref),
            Arg::I32(n as i32),
            Arg::I32(GAP),
            Arg::I32(d as i32),
        ]
    };
    for d in 0..nb {
        ctx.launch(ku, Dim3::new(d as u32 + 1, 1, 1), block, 0, &args(d))?;
    }
    for d in 1..nb {
        ctx.launch(kl, Dim3::new((nb - d) as u32, 1, 1), block, 0, &args(d))?;
    }
    let got = ctx.download::<i32>(dscore, pitch * pitch)?;
    ctx.exact("score", &got, &want)?;
    ctx.finish("")
}
