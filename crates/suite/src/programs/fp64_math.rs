//! fp64_math: libdevice double-precision functions and two fp32 intrinsics, each result
//! held to the function's documented accuracy (CUDA C Programming Guide, "Mathematical
//! Functions" appendix) plus the host libm's own error.

use rand::Rng;
use warpsim_core::device::{Arg, Device, Dim3};

use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "fp64_math";
pub(crate) const PTX: &str = kernel_file!(fp64_math, "ptx");
const KERNEL: &str = "_Z9fp64FuncsPdPfPKdS2_PKfi";

/// Results per thread, in `out[f * n + i]` order (must match the .cu).
const F64_FUNCS: [&str; 8] = [
    "sin(x)",
    "cos(x)",
    "exp(y/8 - 20)",
    "log(y)",
    "sqrt(y)",
    "pow(y, e_i)",
    "1/y",
    "fma(x, y, -1.5)",
];

/// Allowed ulps per f64 result: CUDA's maximum error plus 1 for the host libm (glibc's sin,
/// cos, exp, log and pow are within 1 ulp). sqrt, division and fma are correctly rounded on
/// both sides.
const F64_ULPS: [u64; 8] = [2 + 1, 2 + 1, 1 + 1, 1 + 1, 0, 2 + 1, 0, 0];

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    let (n, threads) = size.pick((512usize, 128u32), (65_536, 256));
    let mut r = rng::rng(NAME, 0);
    // Trig arguments: a quarter each in [-π, π], [-1e3, 1e3], and log-uniform magnitudes up
    // to 2^60 and up to 2^1000 (random sign). The last two take the Payne-Hanek slow path.
    let x: Vec<f64> = (0..n)
        .map(|i| match i % 4 {
            0 => r.gen_range(-std::f64::consts::PI..std::f64::consts::PI),
            1 => r.gen_range(-1e3..1e3),
            q => {
                let max_exp = if q == 2 { 60.0 } else { 1000.0 };
                let m = 2f64.powf(r.gen_range(0.0..max_exp));
                if r.gen() {
                    m
                } else {
                    -m
                }
            }
        })
        .collect();
    // Positive arguments, log-uniform in [2^-20, 2^10].
    let y: Vec<f64> = (0..n)
        .map(|_| 2f64.powf(r.gen_range(-20.0..10.0)))
        .collect();
    let xf = rng::f32s(&mut r, n, -8.0, 8.0);

    let mut expected = vec![0f64; 8 * n];
    for i in 0..n {
        let (a, b) = (x[i], y[i]);
        // Same argument expressions as the kernel; each is exact or rounds identically there.
        let e = 0.25 + 0.03125 * (i & 63) as f64;
        let vals = [
            a.sin(),
            a.cos(),
            (b * 0.125 - 20.0).exp(),
            b.ln(),
            b.sqrt(),
            b.powf(e),
            1.0 / b,
            a.mul_add(b, -1.5),
        ];
        for (f, v) in vals.into_iter().enumerate() {
            expected[f * n + i] = v;
        }
    }
    // fp32: __expf(x) is ex2.approx(x · log2 e): 2 + floor(1.173·|x|) ulps per the guide;
    // rsqrtf is rsqrt.approx: 2 ulps. Plus 1 for rounding the f64 reference to f32.
    let mut expected_f = vec![0f32; 2 * n];
    for (i, &f) in xf.iter().enumerate() {
        expected_f[i] = (f as f64).exp() as f32;
        let v = f.abs() + 0.25; // the kernel's fabsf(f) + 0.25f, same f32 rounding
        expected_f[n + i] = (1.0 / (v as f64).sqrt()) as f32;
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k = ctx.kernel(KERNEL)?;
    let dx = ctx.upload(&x)?;
    let dy = ctx.upload(&y)?;
    let dxf = ctx.upload(&xf)?;
    let dout = ctx.zeroed::<f64>(8 * n)?;
    let doutf = ctx.zeroed::<f32>(2 * n)?;
    ctx.launch(
        k,
        Dim3::new(div_up(n, threads as usize), 1, 1),
        Dim3::new(threads, 1, 1),
        0,
        &[
            Arg::Ptr(dout),
            Arg::Ptr(doutf),
            Arg::Ptr(dx),
            Arg::Ptr(dy),
            Arg::Ptr(dxf),
            Arg::I32(n as i32),
        ],
    )?;
    let got = ctx.download::<f64>(dout, 8 * n)?;
    for (f, name) in F64_FUNCS.iter().enumerate() {
        let range = f * n..(f + 1) * n;
        ctx.ulps(name, &got[range.clone()], &expected[range], |_| F64_ULPS[f])?;
    }
    let got = ctx.download::<f32>(doutf, 2 * n)?;
    ctx.ulps("__expf(xf)", &got[..n], &expected_f[..n], |i| {
        2 + (1.173 * xf[i].abs() as f64) as u64 + 1
    })?;
    ctx.ulps("rsqrtf(|xf| + 0.25)", &got[n..], &expected_f[n..], |_| {
        2 + 1
    })?;
    ctx.finish("")
}
