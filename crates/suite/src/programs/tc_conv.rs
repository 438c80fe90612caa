//! tc_conv: a 3×3 convolution (stride 1, zero padding 1) of a multi-channel f16 image as an
//! implicit GEMM on the tensor cores: inline-PTX `mma.sync.m16n8k8` with f32 accumulators,
//! each lane gathering its fragment elements from the image and the filter (im2col on the
//! fly). Bit-exact against the CPU's sequential f32 sum in the kernel's (r, s, c) order
//! (`cpu::tensor`).

use warpsim_core::device::{Arg, Device, Dim3};

use crate::cpu::tensor::{dot, f16s};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "tc_conv";
pub(crate) const PTX: &str = kernel_file!(tc_conv, "ptx");
const KERNEL: &str = "_Z7convMmaPfPK6__halfS2_iiiiiiiii";
/// Warps per CTA (128 threads), each computing 16 output pixels × 8 output channels.
const WARPS: usize = 4;

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Channel counts multiples of 8 (one mma k-step); K not a multiple of 8 and P·Q not of
    // 16 in the small size, so the edge tiles' bounds checks run.
    let (h, w, c, k) = size.pick((10usize, 11usize, 16usize, 20usize), (32, 32, 32, 64));
    let (r_, s_, pad) = (3usize, 3usize, 1usize);
    let (p, q) = (h + 2 * pad - r_ + 1, w + 2 * pad - s_ + 1);
    let mut rg = rng::rng(NAME, 0);
    let img = f16s(&mut rg, h * w * c);
    let filt = f16s(&mut rg, k * r_ * s_ * c);
    // The kernel's reduction order: r, then s, then c; an outside tap adds 0·filter.
    let expected: Vec<f32> = (0..p * q * k)
        .map(|e| {
            let (pix, ko) = (e / k, e % k);
            let (py, qx) = (pix / q, pix % q);
            let terms = (0..r_)
                .flat_map(move |r| (0..s_).flat_map(move |s| (0..c).map(move |ch| (r, s, ch))));
            dot(
                0.0,
                terms.map(|(r, s, ch)| {
                    let (y, x) = (py + r, qx + s);
                    let inside = y >= pad && y - pad < h && x >= pad && x - pad < w;
                    let a = if inside {
                        img[((y - pad) * w + x - pad) * c + ch]
                    } else {
                        0
                    };
                    (a, filt[((ko * r_ + r) * s_ + s) * c + ch])
                }),
            )
        })
        .collect();

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let kern = ctx.kernel(KERNEL)?;
    let din = ctx.upload(&img)?;
    let dfilt = ctx.upload(&filt)?;
    let dout = ctx.zeroed::<f32>(p * q * k)?;
    let mtiles = div_up(p * q, 16) as usize;
    let i = |v: usize| Arg::I32(v as i32);
    ctx.launch(
        kern,
        Dim3::new(div_up(mtiles, WARPS), div_up(k, 8), 1),
        Dim3::new(32 * WARPS as u32, 1, 1),
        0,
        &[
            Arg::Ptr(dout),
            Arg::Ptr(din),
            Arg::Ptr(dfilt),
            i(h),
            i(w),
            i(c),
            i(k),
            i(r_),
            i(s_),
            i(pad),
            i(p),
            i(q),
        ],
    )?;
    let got = ctx.download::<f32>(dout, p * q * k)?;
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    ctx.exact("output (f32 bits)", &bits(&got), &bits(&expected))?;
    ctx.finish("")
}
