//! baws_ms: BAWS "MS" — stable merge sort of (key, value) pairs: a shared-memory sort of
//! 512-pair tiles (9 merge steps, a barrier each), then one merge-path pass per doubling of
//! the run length (partition search, barrier, both runs' slices staged in shared memory,
//! barrier, merge).

use rand::Rng;
use warpsim_core::device::{Arg, Device, Dim3};

use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "baws_ms";
pub(crate) const PTX: &str = kernel_file!(baws_ms, "ptx");
const SORT_TILES: &str = "_Z11msSortTilesPjS_";
const MERGE_PASS: &str = "_Z11msMergePassPjS_PKjS1_i";
/// MS_THREADS and MS_TILE in the .cu.
const THREADS: u32 = 256;
const TILE: usize = 512;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // n = TILE * 2^k. Small: 2^17 pairs = 256 tiles (2.8 waves of 90 CTA slots on gtx480),
    // 8 merge passes. Paper: 2^20 pairs, 11 passes.
    let n = size.pick(1usize << 17, 1 << 20);
    let mut r = rng::rng(NAME, 0);
    // Keys from a range of n / 4 values: many duplicates, so stability matters.
    let keys: Vec<u32> = (0..n).map(|_| r.gen_range(0..(n / 4) as u32)).collect();
    let vals: Vec<u32> = (0..n as u32).collect();

    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| keys[i]); // stable
    let exp_keys: Vec<u32> = order.iter().map(|&i| keys[i]).collect();
    let exp_vals: Vec<u32> = order.iter().map(|&i| vals[i]).collect();

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let sort = ctx.kernel(SORT_TILES)?;
    let merge = ctx.kernel(MERGE_PASS)?;
    let mut src_k = ctx.upload(&keys)?;
    let mut src_v = ctx.upload(&vals)?;
    let mut dst_k = ctx.zeroed::<u32>(n)?;
    let mut dst_v = ctx.zeroed::<u32>(n)?;
    let tiles = (n / TILE) as u32;
    let block = Dim3::new(THREADS, 1, 1);
    ctx.launch(
        sort,
        Dim3::new(tiles, 1, 1),
        block,
        0,
        &[Arg::Ptr(src_k), Arg::Ptr(src_v)],
    )?;
    let mut run_len = TILE;
    while run_len < n {
        ctx.launch(
            merge,
            Dim3::new(tiles, 1, 1),
            block,
            0,
            &[
                Arg::Ptr(dst_k),
                Arg::Ptr(dst_v),
                Arg::Ptr(src_k),
                Arg::Ptr(src_v),
                Arg::I32(run_len as i32),
            ],
        )?;
        std::mem::swap(&mut src_k, &mut dst_k);
        std::mem::swap(&mut src_v, &mut dst_v);
        run_len *= 2;
    }
    let got_k = ctx.download::<u32>(src_k, n)?;
    let got_v = ctx.download::<u32>(src_v, n)?;
    ctx.exact("keys", &got_k, &exp_keys)?;
    ctx.exact("values", &got_v, &exp_vals)?;
    ctx.finish("")
}
