//! parboil_mriq: MRI-Q, Parboil's computation of the matrix Q for non-Cartesian MRI
//! reconstruction (the KAWS paper's Table 2: 4 kernels of 128 CTAs), written here from its
//! description: `computePhiMag` (|φ|² per k-space sample, 512-thread CTAs), then, as Parboil
//! does, `computeQ` once per chunk of k-space whose (kx, ky, kz, |φ|²) the host packs into the
//! `__constant__` array `c_k` (one thread per voxel, 256-thread CTAs, Q accumulated in global
//! memory across the chunks). Parboil's small input, 32768 voxels and 3072 samples in chunks
//! of 1024, gives Table 2's four launches: one `computePhiMag` (of ⌈3072 / 512⌉ = 6 CTAs) and
//! three `computeQ` of 32768 / 256 = 128 CTAs.
//!
//! Checks: |φ|² bit for bit (explicit round-to-nearest, mirrored); Qr and Qi against an f64
//! sum over the exact f32 inputs within, per voxel, Σₖ |φₖ|² (δₖ + 2⁻²³) + γ(numK) Σₖ |φₖ|²,
//! where δₖ = γ(6) · 2π · (|kx x| + |ky y| + |kz z|) bounds the f32 argument's error (three
//! products and sums, the rounded 2π and the last multiply; sine and cosine have slope at most
//! 1), 2⁻²³ is sincosf's 2-ulp accuracy on values of magnitude below 1, and γ(numK) the
//! chain of fused multiply-adds into Q.

use warpsim_core::device::{Arg, Device, Dim3};

use super::scalar_prod::gamma_f32;
use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "parboil_mriq";
pub(crate) const PTX: &str = kernel_file!(parboil_mriq, "ptx");
const PHI_MAG: &str = "_Z13computePhiMagPKfS0_Pfi";
const COMPUTE_Q: &str = "_Z8computeQPKfS0_S0_PfS1_ii";
const SYMBOL: &str = "c_k";
/// MRIQ_PHI_THREADS, MRIQ_Q_THREADS and MRIQ_K_CHUNK in the .cu (Parboil's values).
const PHI_THREADS: usize = 512;
const Q_THREADS: usize = 256;
const K_CHUNK_MAX: usize = 1024;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::x(PHI_MAG, PHI_THREADS as u32), KernelShape::x(COMPUTE_Q, Q_THREADS as u32)],
    barriers: "none",
    small: "32768 voxels, 24 k-space samples in 3 chunks of 8 (1 CTA, then 3 launches of 128 CTAs)",
    paper: "32768 voxels, 3072 samples in 3 chunks of 1024, Parboil's small input (6 CTAs, then 3 launches of 128 CTAs)",
};

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    run_ptx(dev, size, PTX)
}

/// [`run`] with the kernels of `ptx` (the committed PTX, or a corrupted copy in the tests).
fn run_ptx(dev: &mut Device, size: Size, ptx: &str) -> Result<Outcome, SuiteError> {
    let (num_x, num_k, chunk) =
        size.pick((32768usize, 24usize, 8usize), (32768, 3072, K_CHUNK_MAX));
    let mut r = rng::rng(NAME, 0);
    let kxyz = triples(&mut r, num_k, 8.0);
    let phi_r = rng::f32s(&mut r, num_k, -1.0, 1.0);
    let phi_i = rng::f32s(&mut r, num_k, -1.0, 1.0);
    let vox = triples(&mut r, num_x, 0.5);
    let want_phi: Vec<f32> = phi_r
        .iter()
        .zip(&phi_i)
        .map(|(&re, &im)| re.mul_add(re, im * im))
        .collect();

    let mut ctx = Ctx::new(dev, NAME, ptx)?;
    let (kphi, kq) = (ctx.kernel(PHI_MAG)?, ctx.kernel(COMPUTE_Q)?);
    let (addr, bytes) = ctx.dev.symbol(ctx.module, SYMBOL)?;
    if bytes != (K_CHUNK_MAX * 16) as u64 {
        return Err(ctx.invalid(format!(
            "symbol `{SYMBOL}` is {bytes} bytes, expected {}",
            K_CHUNK_MAX * 16
        )));
    }
    let (dpr, dpi) = (ctx.upload(&phi_r)?, ctx.upload(&phi_i)?);
    let dphi = ctx.zeroed::<f32>(num_k)?;
    ctx.launch(
        kphi,
        Dim3::new(div_up(num_k, PHI_THREADS), 1, 1),
        Dim3::new(PHI_THREADS as u32, 1, 1),
        0,
        &[
            Arg::Ptr(dpr),
            Arg::Ptr(dpi),
            Arg::Ptr(dphi),
            Arg::I32(num_k as i32),
        ],
    )?;
    // Parboil reads |φ|² back and packs it with the coordinates for the constant memory.
    let phi = ctx.download::<f32>(dphi, num_k)?;
    ctx.exact("phiMag", &phi, &want_phi)?;

    let coord = |c: usize| -> Vec<f32> { vox.iter().map(|v| v[c]).collect() };
    let (dx, dy, dz) = (
        ctx.upload(&coord(0))?,
        ctx.upload(&coord(1))?,
        ctx.upload(&coord(2))?,
    );
    let (dqr, dqi) = (ctx.zeroed::<f32>(num_x)?, ctx.zeroed::<f32>(num_x)?);
    for start in (0..num_k).step_by(chunk) {
        let n = chunk.min(num_k - start);
        let samples: Vec<[f32; 4]> = (start..start + n)
            .map(|k| [kxyz[k][0], kxyz[k][1], kxyz[k][2], phi[k]])
            .collect();
        ctx.dev.write_slice(addr, &samples)?;
        ctx.launch(
            kq,
            Dim3::new(div_up(num_x, Q_THREADS), 1, 1),
            Dim3::new(Q_THREADS as u32, 1, 1),
            0,
            &[
                Arg::Ptr(dx),
                Arg::Ptr(dy),
                Arg::Ptr(dz),
                Arg::Ptr(dqr),
                Arg::Ptr(dqi),
                Arg::I32(num_x as i32),
                Arg::I32(n as i32),
            ],
        )?;
    }

    let (want_r, want_i, bound) = reference(&vox, &kxyz, &phi);
    let got_r = ctx.download::<f32>(dqr, num_x)?;
    ctx.bounded("Qr", &got_r, &want_r, &bound)?;
    let got_i = ctx.download::<f32>(dqi, num_x)?;
    ctx.bounded("Qi", &got_i, &want_i, &bound)?;
    ctx.finish("")
}

/// `n` points uniform in `[-half, half)³`.
fn triples(r: &mut rand_chacha::ChaCha8Rng, n: usize, half: f32) -> Vec<[f32; 3]> {
    rng::f32s(r, 3 * n, -half, half)
        .chunks_exact(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect()
}

/// Qr, Qi in f64 from the f32 inputs, and each voxel's error bound (see the module comment).
fn reference(vox: &[[f32; 3]], kxyz: &[[f32; 3]], phi: &[f32]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let two_pi = std::f64::consts::TAU;
    let (g6, gk) = (gamma_f32(6), gamma_f32(phi.len()));
    let phi_sum: f64 = phi.iter().map(|&p| p as f64).sum();
    let mut out = (
        Vec::with_capacity(vox.len()),
        Vec::with_capacity(vox.len()),
        Vec::with_capacity(vox.len()),
    );
    for v in vox {
        let (mut qr, mut qi, mut err) = (0.0f64, 0.0f64, 0.0f64);
        for (k, &p) in kxyz.iter().zip(phi) {
            let terms = [0, 1, 2].map(|c| k[c] as f64 * v[c] as f64);
            let arg = two_pi * (terms[0] + terms[1] + terms[2]);
            let p = p as f64;
            qr += p * arg.cos();
            qi += p * arg.sin();
            err += p
                * (g6 * two_pi * terms.iter().map(|t| t.abs()).sum::<f64>() + f64::powi(2.0, -23));
        }
        out.0.push(qr);
        out.1.push(qi);
        out.2.push(err + gk * phi_sum);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checks catch a kernel that computes slightly wrong values: the argument's multiply-adds rounding toward zero.
    #[test]
    fn a_corrupted_kernel_fails_verification() {
        let ptx = crate::program::corrupted(PTX, "fma.rn.f32", "fma.rz.f32");
        let err = run_ptx(&mut Device::new(), Size::Small, &ptx).unwrap_err();
        assert!(matches!(err, SuiteError::Mismatch { .. }), "{err}");
    }

    /// The Q bound is tight enough to catch a phase error: 2π replaced by 6.25 in computeQ
    /// alone (|φ|² still matches exactly).
    #[test]
    fn a_wrong_phase_fails_the_q_bound() {
        let ptx = crate::program::corrupted(PTX, "0f40C90FDB", "0f40C80000");
        let err = run_ptx(&mut Device::new(), Size::Small, &ptx).unwrap_err();
        assert!(
            matches!(&err, SuiteError::Mismatch { what, .. } if what == "Qr"),
            "{err}"
        );
    }
}
