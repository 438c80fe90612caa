//! dnn_resnet: the forward pass of a small ResNet-style network (the KAWS paper's Table 2
//! "RN", from the Tango suite: 38 kernels of 64 or 256 CTAs), written here: a stem of two
//! 3 x 3 convolutions (3 → C → C channels) with bias + ReLU and a 2 x 2 max pool, eight
//! residual blocks (conv, bias + ReLU, conv, bias + residual + ReLU) and a fully connected
//! layer over the flattened features, each layer its own launch, one thread per output in
//! 256-thread CTAs (the fully connected layer one CTA per (image, class) with a shared tree).
//! At paper size (4 images of 32 x 32, C = 16, 16 classes) the 38 launches have 256 CTAs (the
//! stem's four at 32 x 32) or 64 (the rest). Weights and biases come from the seeded
//! generator, scaled by the fan-in so activations stay near 1.
//!
//! Checks: the .cu's float operations are explicit round-to-nearest intrinsics (fused
//! multiply-adds in a fixed tap order, the tree in a fixed order), ReLU and max are exact, so
//! the host's f32 repetition of the whole network must match every layer's output bit for
//! bit; the stem, every block's output and the logits are compared.

use warpsim_core::device::{Arg, DevPtr, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "dnn_resnet";
pub(crate) const PTX: &str = kernel_file!(dnn_resnet, "ptx");
const CONV: &str = "_Z7conv3x3PKfS0_Pfiiiii";
const BIAS_RELU: &str = "_Z8biasReluPfPKfiii";
const BIAS_ADD_RELU: &str = "_Z11biasAddReluPfPKfS1_iii";
const MAX_POOL: &str = "_Z8maxPool2PKfPfiii";
const FC: &str = "_Z14fullyConnectedPKfS0_S0_Pfii";
/// RN_THREADS in the .cu.
const THREADS: usize = 256;
/// Residual blocks after the stem.
const BLOCKS: usize = 8;
/// Input channels (an RGB image).
const IN_CHANNELS: usize = 3;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[
        KernelShape::x(CONV, THREADS as u32),
        KernelShape::x(BIAS_RELU, THREADS as u32),
        KernelShape::x(BIAS_ADD_RELU, THREADS as u32),
        KernelShape::x(MAX_POOL, THREADS as u32),
        KernelShape::x(FC, THREADS as u32),
    ],
    barriers: "fullyConnected: 1 after the strided sums + 1 per tree level (9); the rest none",
    small: "1 image of 16 x 16, 16 channels, 16 classes (38 launches of 16 or 4 CTAs)",
    paper: "4 images of 32 x 32, 16 channels, 16 classes (38 launches: 4 of 256 CTAs, 34 of 64)",
};

/// The network's shape.
#[derive(Clone, Copy)]
struct Shape {
    images: usize,
    /// Input height and width (even).
    side: usize,
    channels: usize,
    classes: usize,
}

/// One convolution's weights [cout][cin][3][3] and biases [cout].
struct Conv {
    w: Vec<f32>,
    b: Vec<f32>,
    cin: usize,
}

fn conv_params(r: &mut rand_chacha::ChaCha8Rng, cin: usize, cout: usize) -> Conv {
    // Uniform in ±√(3 / fan-in): unit variance in, about unit variance out.
    let a = (3.0 / (cin * 9) as f32).sqrt();
    Conv {
        w: rng::f32s(r, cout * cin * 9, -a, a),
        b: rng::f32s(r, cout, -0.1, 0.1),
        cin,
    }
}

/// conv3x3 on the host, in the kernel's tap order (taps outside the image skipped).
fn conv(x: &[f32], c: &Conv, images: usize, cout: usize, h: usize, w: usize) -> Vec<f32> {
    let mut out = vec![0.0f32; images * cout * h * w];
    for (o, v) in out.iter_mut().enumerate() {
        let (xx, yy, co, img) = (o % w, o / w % h, o / (w * h) % cout, o / (w * h * cout));
        let src = &x[img * c.cin * h * w..];
        let wk = &c.w[co * c.cin * 9..];
        let mut acc = 0.0f32;
        for ci in 0..c.cin {
            for dy in 0..3 {
                let Some(y) = (yy + dy).checked_sub(1).filter(|&y| y < h) else {
                    continue;
                };
                for dx in 0..3 {
                    let Some(x2) = (xx + dx).checked_sub(1).filter(|&x2| x2 < w) else {
                        continue;
                    };
                    acc = src[(ci * h + y) * w + x2].mul_add(wk[ci * 9 + dy * 3 + dx], acc);
                }
            }
        }
        *v = acc;
    }
    out
}

fn bias_relu(x: &mut [f32], b: &[f32], hw: usize, residual: Option<&[f32]>) {
    for (i, v) in x.iter_mut().enumerate() {
        let s = *v + b[i / hw % b.len()];
        *v = residual.map_or(s, |r| s + r[i]).max(0.0);
    }
}

fn max_pool(x: &[f32], planes: usize, h: usize, w: usize) -> Vec<f32> {
    let (ho, wo) = (h / 2, w / 2);
    let mut out = vec![0.0f32; planes * ho * wo];
    for (o, v) in out.iter_mut().enumerate() {
        let (xx, yy, p) = (o % wo, o / wo % ho, o / (wo * ho));
        let at = |dy: usize, dx: usize| x[p * h * w + (2 * yy + dy) * w + 2 * xx + dx];
        *v = at(0, 0).max(at(0, 1)).max(at(1, 0).max(at(1, 1)));
    }
    out
}

/// The fully connected layer as the kernel sums: strided fused multiply-add chains per
/// thread, then the shared tree.
fn fully_connected(f: &[f32], w: &[f32], b: &[f32], images: usize, nfeat: usize) -> Vec<f32> {
    let classes = b.len();
    let mut out = Vec::with_capacity(images * classes);
    for img in 0..images {
        for (cls, &bias) in b.iter().enumerate() {
            let mut part: Vec<f32> = (0..THREADS)
                .map(|t| {
                    (t..nfeat).step_by(THREADS).fold(0.0f32, |acc, i| {
                        f[img * nfeat + i].mul_add(w[cls * nfeat + i], acc)
                    })
                })
                .collect();
            let mut stride = THREADS / 2;
            while stride > 0 {
                for t in 0..stride {
                    part[t] += part[t + stride];
                }
                stride /= 2;
            }
            out.push(part[0] + bias);
        }
    }
    out
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    run_ptx(dev, size, PTX)
}

/// [`run`] with the kernels of `ptx` (the committed PTX, or a corrupted copy in the tests).
fn run_ptx(dev: &mut Device, size: Size, ptx: &str) -> Result<Outcome, SuiteError> {
    let s = size.pick(
        Shape {
            images: 1,
            side: 16,
            channels: 16,
            classes: 16,
        },
        Shape {
            images: 4,
            side: 32,
            channels: 16,
            classes: 16,
        },
    );
    let (n, c, side, half) = (s.images, s.channels, s.side, s.side / 2);
    let mut r = rng::rng(NAME, 0);
    let input = rng::f32s(&mut r, n * IN_CHANNELS * side * side, 0.0, 1.0);
    let stem = [
        conv_params(&mut r, IN_CHANNELS, c),
        conv_params(&mut r, c, c),
    ];
    let blocks: Vec<[Conv; 2]> = (0..BLOCKS)
        .map(|_| [conv_params(&mut r, c, c), conv_params(&mut r, c, c)])
        .collect();
    let nfeat = c * half * half;
    let a = (3.0 / nfeat as f32).sqrt();
    let (fc_w, fc_b) = (
        rng::f32s(&mut r, s.classes * nfeat, -a, a),
        rng::f32s(&mut r, s.classes, -0.1, 0.1),
    );

    let mut ctx = Ctx::new(dev, NAME, ptx)?;
    let k = Kernels {
        conv: ctx.kernel(CONV)?,
        bias_relu: ctx.kernel(BIAS_RELU)?,
        bias_add_relu: ctx.kernel(BIAS_ADD_RELU)?,
        max_pool: ctx.kernel(MAX_POOL)?,
        fc: ctx.kernel(FC)?,
    };
    let full = n * c * side * side;
    let pooled = n * c * half * half;
    let din = ctx.upload(&input)?;
    let (dfull_a, dfull_b) = (ctx.zeroed::<f32>(full)?, ctx.zeroed::<f32>(full)?);
    let mut dbuf = [
        ctx.zeroed::<f32>(pooled)?,
        ctx.zeroed::<f32>(pooled)?,
        ctx.zeroed::<f32>(pooled)?,
    ];

    // Stem.
    let mut want = conv(&input, &stem[0], n, c, side, side);
    bias_relu(&mut want, &stem[0].b, side * side, None);
    let mut want2 = conv(&want, &stem[1], n, c, side, side);
    bias_relu(&mut want2, &stem[1].b, side * side, None);
    let mut x = max_pool(&want2, n * c, side, side);
    let dims = Dims {
        images: n,
        channels: c,
        h: side,
        w: side,
    };
    conv_layer(&mut ctx, &k, din, dfull_a, &stem[0], dims)?;
    conv_layer(&mut ctx, &k, dfull_a, dfull_b, &stem[1], dims)?;
    let args = [
        Arg::Ptr(dfull_b),
        Arg::Ptr(dbuf[0]),
        Arg::I32((n * c) as i32),
        Arg::I32(side as i32),
        Arg::I32(side as i32),
    ];
    ctx.launch(k.max_pool, grid(pooled), block(), 0, &args)?;
    let got = ctx.download::<f32>(dbuf[0], pooled)?;
    ctx.exact("stem output", &got, &x)?;

    // Residual blocks: dbuf[0] holds the block's input, dbuf[1] the middle, dbuf[2] the output.
    let dims = Dims {
        images: n,
        channels: c,
        h: half,
        w: half,
    };
    for (i, [c1, c2]) in blocks.iter().enumerate() {
        let mut mid = conv(&x, c1, n, c, half, half);
        bias_relu(&mut mid, &c1.b, half * half, None);
        let mut out = conv(&mid, c2, n, c, half, half);
        bias_relu(&mut out, &c2.b, half * half, Some(&x));
        conv_layer(&mut ctx, &k, dbuf[0], dbuf[1], c1, dims)?;
        let dc2 = ctx.upload(&c2.w)?;
        let db2 = ctx.upload(&c2.b)?;
        launch_conv(&mut ctx, &k, dbuf[1], dc2, dbuf[2], c, dims)?;
        let args = [
            Arg::Ptr(dbuf[2]),
            Arg::Ptr(db2),
            Arg::Ptr(dbuf[0]),
            Arg::I32(c as i32),
            Arg::I32((half * half) as i32),
            Arg::I32(pooled as i32),
        ];
        ctx.launch(k.bias_add_relu, grid(pooled), block(), 0, &args)?;
        let got = ctx.download::<f32>(dbuf[2], pooled)?;
        ctx.exact(&format!("block {i} output"), &got, &out)?;
        x = out;
        dbuf.swap(0, 2);
    }

    // Fully connected head.
    let want_logits = fully_connected(&x, &fc_w, &fc_b, n, nfeat);
    let (dw, db) = (ctx.upload(&fc_w)?, ctx.upload(&fc_b)?);
    let dlogits = ctx.zeroed::<f32>(n * s.classes)?;
    let args = [
        Arg::Ptr(dbuf[0]),
        Arg::Ptr(dw),
        Arg::Ptr(db),
        Arg::Ptr(dlogits),
        Arg::I32(nfeat as i32),
        Arg::I32(s.classes as i32),
    ];
    ctx.launch(
        k.fc,
        Dim3::new((n * s.classes) as u32, 1, 1),
        block(),
        0,
        &args,
    )?;
    let got = ctx.download::<f32>(dlogits, n * s.classes)?;
    ctx.exact("logits", &got, &want_logits)?;
    ctx.finish("")
}

struct Kernels {
    conv: warpsim_core::device::KernelHandle,
    bias_relu: warpsim_core::device::KernelHandle,
    bias_add_relu: warpsim_core::device::KernelHandle,
    max_pool: warpsim_core::device::KernelHandle,
    fc: warpsim_core::device::KernelHandle,
}

/// A layer's activation shape (NCHW; input and output channels of a block's convolutions
/// are both `channels`).
#[derive(Clone, Copy)]
struct Dims {
    images: usize,
    channels: usize,
    h: usize,
    w: usize,
}

fn block() -> Dim3 {
    Dim3::new(THREADS as u32, 1, 1)
}

fn grid(outputs: usize) -> Dim3 {
    Dim3::new(div_up(outputs, THREADS), 1, 1)
}

fn launch_conv(
    ctx: &mut Ctx,
    k: &Kernels,
    src: DevPtr,
    w: DevPtr,
    dst: DevPtr,
    cin: usize,
    d: Dims,
) -> Result<(), SuiteError> {
    let args = [
        Arg::Ptr(src),
        Arg::Ptr(w),
        Arg::Ptr(dst),
        Arg::I32(d.images as i32),
        Arg::I32(cin as i32),
        Arg::I32(d.channels as i32),
        Arg::I32(d.h as i32),
        Arg::I32(d.w as i32),
    ];
    ctx.launch(
        k.conv,
        grid(d.images * d.channels * d.h * d.w),
        block(),
        0,
        &args,
    )
}

/// A convolution followed by its bias + ReLU: two launches.
fn conv_layer(
    ctx: &mut Ctx,
    k: &Kernels,
    src: DevPtr,
    dst: DevPtr,
    c: &Conv,
    d: Dims,
) -> Result<(), SuiteError> {
    let (dw, db) = (ctx.upload(&c.w)?, ctx.upload(&c.b)?);
    launch_conv(ctx, k, src, dw, dst, c.cin, d)?;
    let n = d.images * d.channels * d.h * d.w;
    let args = [
        Arg::Ptr(dst),
        Arg::Ptr(db),
        Arg::I32(d.channels as i32),
        Arg::I32((d.h * d.w) as i32),
        Arg::I32(n as i32),
    ];
    ctx.launch(k.bias_relu, grid(n), block(), 0, &args)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checks catch a kernel that computes slightly wrong values: the convolutions' multiply-adds rounding toward zero.
    #[test]
    fn a_corrupted_kernel_fails_verification() {
        let ptx = crate::program::corrupted(PTX, "fma.rn.f32", "fma.rz.f32");
        let err = run_ptx(&mut Device::new(), Size::Small, &ptx).unwrap_err();
        assert!(matches!(err, SuiteError::Mismatch { .. }), "{err}");
    }
}
