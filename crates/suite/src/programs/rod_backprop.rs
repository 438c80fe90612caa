//! rod_backprop: training steps of a two-layer perceptron (Rodinia `backprop`): the device
//! runs the input-to-hidden layer (per-CTA partial sums from a shared-memory tree) and the
//! weight adjustment; the host finishes the hidden sums, the sigmoid, the output layer and
//! the error terms in between, as Rodinia's host does.
//!
//! The kernels round every float operation explicitly; the reference repeats them in f32 in
//! the same order, and the partial sums of every step and the final weights and weight
//! changes are compared bit for bit. The host part uses the device's partial sums, so it is
//! the same computation on both sides.

use warpsim_core::device::{Arg, Device, Dim3};

use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "rod_backprop";
pub(crate) const PTX: &str = kernel_file!(rod_backprop, "ptx");

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[
        KernelShape::xy(FORWARD, 16, 16),
        KernelShape::xy(ADJUST, 16, 16),
    ],
    barriers: "bpLayerForward: 1 after staging + 1 per tree level (4); bpAdjustWeights: none",
    small: "4096 inputs, 16 hidden units, 2 training steps (256 CTAs per launch)",
    paper: "65536 inputs (4096 CTAs per launch)",
};
const FORWARD: &str = "_Z14bpLayerForwardPKfS0_Pfi";
const ADJUST: &str = "_Z15bpAdjustWeightsPKfS0_PfS1_ff";
/// BP_B in the .cu: hidden units, and inputs per CTA.
const H: usize = 16;
const ETA: f32 = 0.3;
const MOMENTUM: f32 = 0.3;
/// Training steps (forward + adjust each).
const STEPS: usize = 2;

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// bpLayerForward's partial sums: CTA b, hidden unit j, tree over the CTA's 16 inputs.
fn partials(input: &[f32], w: &[f32], n_in: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(n_in);
    for b in 0..n_in / H {
        for j in 0..H {
            let mut p: Vec<f32> = (0..H)
                .map(|t| input[b * H + t + 1] * w[(b * H + t + 1) * (H + 1) + j + 1])
                .collect();
            let mut stride = H / 2;
            while stride > 0 {
                for t in 0..stride {
                    p[t] += p[t + stride];
                }
                stride /= 2;
            }
            out.push(p[0]);
        }
    }
    out
}

/// The host's part of a step: hidden activations from the partials, output unit, error terms.
/// Returns the hidden deltas, indexed 1..=H (index 0 unused, as the kernel expects).
fn host_layer(partial: &[f32], w: &[f32], w2: &[f32], target: f32) -> Vec<f32> {
    let mut hidden = [0.0f32; H + 1];
    hidden[0] = 1.0;
    for j in 0..H {
        let mut s = w[j + 1]; // bias row 0
        for b in 0..partial.len() / H {
            s += partial[b * H + j];
        }
        hidden[j + 1] = sigmoid(s);
    }
    let out = sigmoid((0..=H).map(|j| hidden[j] * w2[j]).sum());
    let err_out = out * (1.0 - out) * (target - out);
    let mut delta = vec![0.0f32; H + 1];
    for j in 1..=H {
        delta[j] = hidden[j] * (1.0 - hidden[j]) * w2[j] * err_out;
    }
    delta
}

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // Small: 4096 inputs (256 CTAs of 16 x 16). Paper: Rodinia's 65536 inputs (4096 CTAs).
    let n_in = size.pick(4096usize, 65536usize);
    let mut r = rng::rng(NAME, 0);
    let mut input = rng::f32s(&mut r, n_in + 1, 0.0, 1.0);
    input[0] = 1.0; // bias unit
    let w0 = rng::f32s(&mut r, (n_in + 1) * (H + 1), -0.05, 0.05);
    let w2 = rng::f32s(&mut r, H + 1, -0.5, 0.5);
    let target = 0.9f32;

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let (kf, ka) = (ctx.kernel(FORWARD)?, ctx.kernel(ADJUST)?);
    let din = ctx.upload(&input)?;
    let dw = ctx.upload(&w0)?;
    let ddw = ctx.zeroed::<f32>((n_in + 1) * (H + 1))?;
    let dpartial = ctx.zeroed::<f32>(n_in)?;
    let ddelta = ctx.zeroed::<f32>(H + 1)?;
    let grid = Dim3::new((n_in / H) as u32, 1, 1);
    let block = Dim3::new(H as u32, H as u32, 1);

    let (mut w, mut dwv) = (w0, vec![0.0f32; (n_in + 1) * (H + 1)]);
    for step in 0..STEPS {
        ctx.launch(
            kf,
            grid,
            block,
            0,
            &[
                Arg::Ptr(din),
                Arg::Ptr(dw),
                Arg::Ptr(dpartial),
                Arg::I32(n_in as i32),
            ],
        )?;
        let got = ctx.download::<f32>(dpartial, n_in)?;
        ctx.exact(
            &format!("partial sums, step {step}"),
            &got,
            &partials(&input, &w, n_in),
        )?;
        let delta = host_layer(&got, &w, &w2, target);
        ctx.dev.write_slice(ddelta, &delta)?;
        ctx.launch(
            ka,
            grid,
            block,
            0,
            &[
                Arg::Ptr(ddelta),
                Arg::Ptr(din),
                Arg::Ptr(dw),
                Arg::Ptr(ddw),
                Arg::F32(ETA),
                Arg::F32(MOMENTUM),
            ],
        )?;
        // Indexes four arrays in the kernel's (input, hidden) layout.
        #[allow(clippy::needless_range_loop)]
        for i in 1..=n_in {
            for j in 1..=H {
                let k = i * (H + 1) + j;
                let change = ETA * delta[j] * input[i] + MOMENTUM * dwv[k];
                w[k] += change;
                dwv[k] = change;
            }
        }
    }
    let got = ctx.download::<f32>(dw, (n_in + 1) * (H + 1))?;
    ctx.exact("weights", &got, &w)?;
    let got = ctx.download::<f32>(ddw, (n_in + 1) * (H + 1))?;
    ctx.exact("weight changes", &got, &dwv)?;
    ctx.finish("")
}
