//! ispass_nn: the forward pass of a convolutional digit recogniser (29×29 input → 6 maps of
//! 13×13 → 50 maps of 5×5 → 100 → 10, 5×5 windows at stride 2, the network of Simard et al.
//! that GPGPU-Sim's ISPASS-2009 NN benchmark runs), one kernel per layer, every grid
//! (neurons or maps of the layer) × (images). The PRO paper's Table II "NN": 168, 1400, 2800
//! and 280 CTAs are 6, 50, 100 and 10 per image for 28 images, which is the paper size.
//!
//! Departure, for exactness: the activation is the rational sigmoid x / (1 + |x|) rather than
//! a scaled tanh. Every kernel operation is an explicit round-to-nearest intrinsic in a fixed
//! order, repeated here in f32 (`mul_add` for fmaf), so each layer compares bit for bit; each
//! layer's reference starts from the device's previous layer (checked first).

use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "ispass_nn";
pub(crate) const PTX: &str = kernel_file!(ispass_nn, "ptx");
const FIRST: &str = "_Z17executeFirstLayerPfPKfS1_";
const SECOND: &str = "_Z18executeSecondLayerPfPKfS1_";
const THIRD: &str = "_Z17executeThirdLayerPfPKfS1_";
const FOURTH: &str = "_Z18executeFourthLayerPfPKfS1_";
/// The layer shapes of the .cu.
const IN_SIDE: usize = 29;
const L1_MAPS: usize = 6;
const L1_SIDE: usize = 13;
const L2_MAPS: usize = 50;
const L2_SIDE: usize = 5;
const L3: usize = 100;
const L4: usize = 10;
const WIN: usize = 5;
const TAPS: usize = WIN * WIN;
const L1_OUT: usize = L1_MAPS * L1_SIDE * L1_SIDE;
const L2_OUT: usize = L2_MAPS * L2_SIDE * L2_SIDE;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[
        KernelShape::xy(FIRST, L1_SIDE as u32, L1_SIDE as u32),
        KernelShape::xy(SECOND, L2_SIDE as u32, L2_SIDE as u32),
        KernelShape::x(THIRD, L2_MAPS as u32),
        KernelShape::x(FOURTH, L3 as u32),
    ],
    barriers: "layers 1 and 2: none; layers 3 and 4: 1 before thread 0 adds the CTA's partial sums",
    small: "8 images: 48, 400, 800 and 80 CTAs",
    paper: "28 images: 168, 1400, 2800 and 280 CTAs (Table II)",
};

fn activate(x: f32) -> f32 {
    x / (1.0 + x.abs())
}

/// A 5×5 window at stride 2 of `side`-wide `src` for output (ox, oy), fmaf-chained onto `sum`
/// with taps `k`, in the kernels' order.
fn window(mut sum: f32, k: &[f32], src: &[f32], side: usize, ox: usize, oy: usize) -> f32 {
    for ky in 0..WIN {
        for kx in 0..WIN {
            sum = k[ky * WIN + kx].mul_add(src[(2 * oy + ky) * side + 2 * ox + kx], sum);
        }
    }
    sum
}

fn first_layer(input: &[f32], w: &[f32]) -> Vec<f32> {
    let mut out = Vec::with_capacity(input.len() / (IN_SIDE * IN_SIDE) * L1_OUT);
    for img in input.chunks(IN_SIDE * IN_SIDE) {
        for m in 0..L1_MAPS {
            let k = &w[m * (1 + TAPS)..(m + 1) * (1 + TAPS)];
            for oy in 0..L1_SIDE {
                for ox in 0..L1_SIDE {
                    out.push(activate(window(k[0], &k[1..], img, IN_SIDE, ox, oy)));
                }
            }
        }
    }
    out
}

fn second_layer(l1: &[f32], w: &[f32]) -> Vec<f32> {
    let per_map = 1 + L1_MAPS * TAPS;
    let mut out = Vec::with_capacity(l1.len() / L1_OUT * L2_OUT);
    for img in l1.chunks(L1_OUT) {
        for m in 0..L2_MAPS {
            let k = &w[m * per_map..(m + 1) * per_map];
            for oy in 0..L2_SIDE {
                for ox in 0..L2_SIDE {
                    let mut sum = k[0];
                    for c in 0..L1_MAPS {
                        let src = &img[c * L1_SIDE * L1_SIDE..(c + 1) * L1_SIDE * L1_SIDE];
                        sum = window(
                            sum,
                            &k[1 + c * TAPS..1 + (c + 1) * TAPS],
                            src,
                            L1_SIDE,
                            ox,
                            oy,
                        );
                    }
                    out.push(activate(sum));
                }
            }
        }
    }
    out
}

fn third_layer(l2: &[f32], w: &[f32]) -> Vec<f32> {
    let mut out = Vec::with_capacity(l2.len() / L2_OUT * L3);
    for img in l2.chunks(L2_OUT) {
        for n in 0..L3 {
            let k = &w[n * (1 + L2_OUT)..(n + 1) * (1 + L2_OUT)];
            let mut total = k[0];
            for t in 0..L2_MAPS {
                let part = (0..TAPS).fold(0f32, |s, i| {
                    k[1 + t * TAPS + i].mul_add(img[t * TAPS + i], s)
                });
                total += part;
            }
            out.push(activate(total));
        }
    }
    out
}

fn fourth_layer(l3: &[f32], w: &[f32]) -> Vec<f32> {
    let mut out = Vec::with_capacity(l3.len() / L3 * L4);
    for img in l3.chunks(L3) {
        for o in 0..L4 {
            let k = &w[o * (1 + L3)..(o + 1) * (1 + L3)];
            let total = (0..L3).fold(k[0], |s, n| s + k[1 + n] * img[n]);
            out.push(activate(total));
        }
    }
    out
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    let images = size.pick(8usize, 28);
    let mut r = rng::rng(NAME, 0);
    let input = rng::f32s(&mut r, images * IN_SIDE * IN_SIDE, 0.0, 1.0);
    // Weights scaled by fan-in so the activations stay away from saturation.
    let weights = |r: &mut _, n: usize, fan_in: usize| {
        let s = 2.0 / (fan_in as f32).sqrt();
        rng::f32s(r, n, -s, s)
    };
    let w1 = weights(&mut r, L1_MAPS * (1 + TAPS), TAPS);
    let w2 = weights(&mut r, L2_MAPS * (1 + L1_MAPS * TAPS), L1_MAPS * TAPS);
    let w3 = weights(&mut r, L3 * (1 + L2_OUT), L2_OUT);
    let w4 = weights(&mut r, L4 * (1 + L3), L3);

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let kernels = [
        ctx.kernel(FIRST)?,
        ctx.kernel(SECOND)?,
        ctx.kernel(THIRD)?,
        ctx.kernel(FOURTH)?,
    ];
    let din = ctx.upload(&input)?;
    let dw = [
        ctx.upload(&w1)?,
        ctx.upload(&w2)?,
        ctx.upload(&w3)?,
        ctx.upload(&w4)?,
    ];
    let sizes = [L1_OUT, L2_OUT, L3, L4].map(|n| n * images);
    let douts = [
        ctx.zeroed::<f32>(sizes[0])?,
        ctx.zeroed::<f32>(sizes[1])?,
        ctx.zeroed::<f32>(sizes[2])?,
        ctx.zeroed::<f32>(sizes[3])?,
    ];
    let grids = [L1_MAPS, L2_MAPS, L3, L4].map(|n| Dim3::new(n as u32, images as u32, 1));
    let blocks = [
        Dim3::new(L1_SIDE as u32, L1_SIDE as u32, 1),
        Dim3::new(L2_SIDE as u32, L2_SIDE as u32, 1),
        Dim3::new(L2_MAPS as u32, 1, 1),
        Dim3::new(L3 as u32, 1, 1),
    ];
    for l in 0..4 {
        let src = if l == 0 { din } else { douts[l - 1] };
        ctx.launch(
            kernels[l],
            grids[l],
            blocks[l],
            0,
            &[Arg::Ptr(douts[l]), Arg::Ptr(src), Arg::Ptr(dw[l])],
        )?;
    }

    let got: Vec<Vec<f32>> = (0..4)
        .map(|l| ctx.download::<f32>(douts[l], sizes[l]))
        .collect::<Result<_, _>>()?;
    ctx.exact("first layer", &got[0], &first_layer(&input, &w1))?;
    ctx.exact("second layer", &got[1], &second_layer(&got[0], &w2))?;
    ctx.exact("third layer", &got[2], &third_layer(&got[1], &w3))?;
    ctx.exact("fourth layer", &got[3], &fourth_layer(&got[2], &w4))?;
    ctx.finish("")
}
