//! bitonic_sort: sorts 1024-element (key, value) blocks, ascending then (second launch, same
//! buffers) descending.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "bitonic_sort";
pub(crate) const PTX: &str = kernel_file!(bitonic_sort, "ptx");
const KERNEL: &str = "_Z17bitonicSortBlocksPjS_i";
/// Must match SORT_N in the .cu.
const SORT_N: usize = 1024;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    let blocks = size.pick(2usize, 128);
    let n = blocks * SORT_N;
    let mut r = rng::rng(NAME, 0);
    // 12-bit keys: plenty of duplicates. Values are the original positions, so every output
    // pair can be traced back to its input.
    let keys = rng::u32s(&mut r, n, 0, 0xfff);
    let vals: Vec<u32> = (0..n as u32).collect();

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k = ctx.kernel(KERNEL)?;
    let dkeys = ctx.upload(&keys)?;
    let dvals = ctx.upload(&vals)?;
    for ascending in [true, false] {
        ctx.launch(
            k,
            Dim3::new(blocks as u32, 1, 1),
            Dim3::new((SORT_N / 2) as u32, 1, 1),
            0,
            &[Arg::Ptr(dkeys), Arg::Ptr(dvals), Arg::I32(ascending as i32)],
        )?;
        let got_keys = ctx.download::<u32>(dkeys, n)?;
        let got_vals = ctx.download::<u32>(dvals, n)?;
        let dir = if ascending { "ascending" } else { "descending" };

        // Keys: each block sorted (exact, against a CPU sort of the block's input keys).
        let mut expected = keys.clone();
        for block in expected.chunks_exact_mut(SORT_N) {
            block.sort_unstable();
            if !ascending {
                block.reverse();
            }
        }
        ctx.exact(&format!("keys ({dir})"), &got_keys, &expected)?;

        // Values: a permutation of the block's positions that carries each key along
        // (duplicate keys may come out in any order).
        let mut seen = vec![false; n];
        for (i, &v) in got_vals.iter().enumerate() {
            let block = i / SORT_N;
            let ok = (v as usize) / SORT_N == block
                && !seen[v as usize]
                && keys[v as usize] == got_keys[i];
            if !ok {
                return Err(SuiteError::Mismatch {
                    program: NAME,
                    what: format!("vals ({dir})"),
                    index: i,
                    expected: format!(
                        "an unused position in block {block} whose key is {}",
                        got_keys[i]
                    ),
                    got: format!("{v}"),
                });
            }
            seen[v as usize] = true;
        }
        ctx.count_checked(n as u64);
    }
    ctx.finish("")
}
