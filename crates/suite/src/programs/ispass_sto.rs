//! ispass_sto: SHA-1 digests of overlapping windows of a buffer, one window per thread,
//! 128-thread CTAs: the PRO paper's Table II "STO" (`sha1_overlap`, 384 CTAs), StoreGPU's
//! kernel in GPGPU-Sim's ISPASS-2009 suite, written here from its description.
//!
//! Windows are 56 bytes, 8 bytes apart (48 bytes shared by neighbours), two SHA-1 blocks
//! each after padding. The buffer begins with the FIPS 180-4 448-bit example message, so
//! window 0's digest on the device must be the published one; every digest is compared
//! exactly against the CPU SHA-1 in `crate::cpu::sha1`, itself checked against the FIPS
//! examples before use.

use rand::RngCore;
use warpsim_core::device::{Arg, Device, Dim3};

use crate::cpu::sha1;
use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "ispass_sto";
pub(crate) const PTX: &str = kernel_file!(ispass_sto, "ptx");
const KERNEL: &str = "_Z12sha1_overlapPjPKhiii";
/// STO_THREADS in the .cu.
const THREADS: usize = 128;
/// Window length and the distance between window starts, bytes.
const WINDOW: usize = 56;
const STRIDE: usize = 8;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::x(KERNEL, THREADS as u32)],
    barriers: "none (one window per thread, integer ALU bound)",
    small: "6 100 windows of 56 bytes, 8 bytes apart (48 CTAs, the last partial)",
    paper: "49 100 windows of 56 bytes, 8 bytes apart (384 CTAs, the last partial: Table II)",
};

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    let nwindows = size.pick(47 * THREADS + 84, 383 * THREADS + 76);
    if !sha1::self_test() {
        return Err(SuiteError::Invalid {
            program: NAME,
            message: "CPU SHA-1 fails the FIPS 180-4 examples".into(),
        });
    }
    let (known_msg, known_digest) = sha1::ABCDBCDE;
    let mut buf = vec![0u8; (nwindows - 1) * STRIDE + WINDOW];
    rng::rng(NAME, 0).fill_bytes(&mut buf);
    buf[..known_msg.len()].copy_from_slice(known_msg);
    let want: Vec<u32> = (0..nwindows)
        .flat_map(|t| sha1::sha1(&buf[t * STRIDE..t * STRIDE + WINDOW]))
        .collect();

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k = ctx.kernel(KERNEL)?;
    let dbuf = ctx.upload(&buf)?;
    let dout = ctx.zeroed::<u32>(5 * nwindows)?;
    ctx.launch(
        k,
        Dim3::new(div_up(nwindows, THREADS), 1, 1),
        Dim3::new(THREADS as u32, 1, 1),
        0,
        &[
            Arg::Ptr(dout),
            Arg::Ptr(dbuf),
            Arg::I32(nwindows as i32),
            Arg::I32(STRIDE as i32),
            Arg::I32(WINDOW as i32),
        ],
    )?;
    let got = ctx.download::<u32>(dout, 5 * nwindows)?;
    ctx.exact(
        "FIPS 180-4 448-bit example digest (window 0)",
        &got[..5],
        &known_digest,
    )?;
    ctx.exact("digest", &got, &want)?;
    ctx.finish("")
}
