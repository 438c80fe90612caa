//! histogram: 256-bin histogram of a byte stream (read as little-endian 32-bit words).

use rand::Rng;
use warpsim_core::device::{Arg, Device, Dim3};

use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "histogram";
pub(crate) const PTX: &str = kernel_file!(histogram, "ptx");
const KERNEL: &str = "_Z12histogram256PjPKji";
const BINS: usize = 256;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    let (nwords, ctas, threads) = size.pick((12_000usize, 8u32, 256u32), (1 << 20, 120, 256));
    let mut r = rng::rng(NAME, 0);
    // Half the bytes come from 8 "hot" values so that many lanes of a warp hit the same
    // shared-memory bin (contended atomics); the rest are uniform.
    let hot: [u8; 8] = std::array::from_fn(|_| r.gen());
    let bytes: Vec<u8> = (0..nwords * 4)
        .map(|_| {
            if r.gen_bool(0.5) {
                hot[r.gen_range(0..8)]
            } else {
                r.gen()
            }
        })
        .collect();
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();

    let mut expected = vec![0u32; BINS];
    for &b in &bytes {
        expected[b as usize] += 1;
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k = ctx.kernel(KERNEL)?;
    let dwords = ctx.upload(&words)?;
    let dhist = ctx.zeroed::<u32>(BINS)?;
    ctx.launch(
        k,
        Dim3::new(ctas, 1, 1),
        Dim3::new(threads, 1, 1),
        0,
        &[Arg::Ptr(dhist), Arg::Ptr(dwords), Arg::I32(nwords as i32)],
    )?;
    let got = ctx.download::<u32>(dhist, BINS)?;
    ctx.exact("hist", &got, &expected)?;
    ctx.finish("")
}
