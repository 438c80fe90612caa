//! local_array: per-thread local arrays (sort through a __noinline__ call, data-indexed
//! counting, prefix sums).

use warpsim_core::device::{Arg, Device, Dim3};

use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "local_array";
pub(crate) const PTX: &str = kernel_file!(local_array, "ptx");
const KERNEL: &str = "_Z14localSortCountPKiPiS1_i";
/// Must match LA_N in the .cu.
const LA_N: usize = 16;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // A partial last CTA.
    let (count, threads) = size.pick((400usize, 128u32), (65_000, 128));
    let mut r = rng::rng(NAME, 0);
    // Small range: duplicates within a thread's 16 values, negatives included.
    let input = rng::i32s(&mut r, count * LA_N, -50, 200);

    let mut e_sorted = input.clone();
    let mut e_offsets = vec![0i32; count * LA_N];
    for t in 0..count {
        let a = &mut e_sorted[t * LA_N..(t + 1) * LA_N];
        a.sort_unstable();
        let mut h = [0i32; LA_N];
        for &v in a.iter() {
            h[(v & (LA_N as i32 - 1)) as usize] += 1;
        }
        let mut run = 0;
        for (j, &c) in h.iter().enumerate() {
            e_offsets[t * LA_N + j] = run;
            run += c;
        }
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k = ctx.kernel(KERNEL)?;
    let din = ctx.upload(&input)?;
    let dsorted = ctx.zeroed::<i32>(count * LA_N)?;
    let doffsets = ctx.zeroed::<i32>(count * LA_N)?;
    ctx.launch(
        k,
        Dim3::new(div_up(count, threads as usize), 1, 1),
        Dim3::new(threads, 1, 1),
        0,
        &[
            Arg::Ptr(din),
            Arg::Ptr(dsorted),
            Arg::Ptr(doffsets),
            Arg::I32(count as i32),
        ],
    )?;
    let got = ctx.download::<i32>(dsorted, count * LA_N)?;
    ctx.exact("sorted", &got, &e_sorted)?;
    let got = ctx.download::<i32>(doffsets, count * LA_N)?;
    ctx.exact("offsets", &got, &e_offsets)?;
    ctx.finish("")
}
