//! ispass_aes: AES-128 encryption (ECB) of a buffer with T-tables in shared memory, one
//! 16-byte block per thread, 256-thread CTAs: the PRO paper's Table II "AES"
//! (`aesEncrypt128`, 257 CTAs), an application of GPGPU-Sim's ISPASS-2009 suite, written here
//! from its description.
//!
//! The key is the FIPS-197 Appendix C.1 key and the buffer's first block is that appendix's
//! plaintext, so block 0 of the device's output must be the published ciphertext; every other
//! block (seeded random bytes) is compared exactly against the byte-oriented CPU AES in
//! `crate::cpu::aes128`, which is itself checked against two FIPS-197 vectors before use.

use rand::RngCore;
use warpsim_core::device::{Arg, Device, Dim3};

use crate::cpu::aes128;
use crate::info::{KernelShape, WorkloadInfo};
use crate::program::{div_up, Ctx, Outcome, Size, SuiteError};
use crate::rng;

const NAME: &str = "ispass_aes";
pub(crate) const PTX: &str = kernel_file!(ispass_aes, "ptx");
const KERNEL: &str = "_Z13aesEncrypt128PjPKjS1_S1_i";
/// AES_THREADS in the .cu: blocks (of 16 bytes) per CTA.
const THREADS: usize = 256;

/// Kernels, CTA shapes, barriers and sizes (`warpsim list workloads`).
pub(crate) const INFO: WorkloadInfo = WorkloadInfo {
    program: NAME,
    kernels: &[KernelShape::x(KERNEL, THREADS as u32)],
    barriers: "1 after staging the T-tables and round keys in shared memory",
    small: "36 000 blocks of 16 bytes (141 CTAs, the last partial)",
    paper: "65 636 blocks, 1 050 176 bytes (257 CTAs, the last partial: Table II)",
};

pub(crate) fn run(dev: &mut Device, size: Size) -> Result<Outcome, SuiteError> {
    // 256 full CTAs and a partial one at paper size, as Table II's 257; small: 140 + 1 CTAs
    // (about 2 fills of 14 SMs x 5 CTAs).
    let nblocks = size.pick(140 * THREADS + 160, 256 * THREADS + 100);
    if !aes128::self_test() {
        return Err(SuiteError::Invalid {
            program: NAME,
            message: "CPU AES fails the FIPS-197 vectors".into(),
        });
    }
    let sbox = aes128::sbox();
    let (key_hex, plain_hex, cipher_hex) = aes128::FIPS197_C1;
    let key: [u8; 16] = aes128::hex(key_hex)
        .try_into()
        .map_err(|_| SuiteError::Invalid {
            program: NAME,
            message: "FIPS-197 key is not 16 bytes".into(),
        })?;
    let round_keys = aes128::expand_key(&key, &sbox);

    let mut plain = vec![0u8; nblocks * 16];
    rng::rng(NAME, 0).fill_bytes(&mut plain);
    plain[..16].copy_from_slice(&aes128::hex(plain_hex));
    let mut want = plain.clone();
    for block in want.chunks_exact_mut(16) {
        aes128::encrypt_block(block, &round_keys, &sbox);
    }

    let mut ctx = Ctx::new(dev, NAME, PTX)?;
    let k = ctx.kernel(KERNEL)?;
    let din = ctx.upload(&plain)?;
    let dout = ctx.zeroed::<u8>(nblocks * 16)?;
    let dt = ctx.upload(&aes128::ttables(&sbox))?;
    let drk = ctx.upload(&round_keys)?;
    ctx.launch(
        k,
        Dim3::new(div_up(nblocks, THREADS), 1, 1),
        Dim3::new(THREADS as u32, 1, 1),
        0,
        &[
            Arg::Ptr(dout),
            Arg::Ptr(din),
            Arg::Ptr(dt),
            Arg::Ptr(drk),
            Arg::I32(nblocks as i32),
        ],
    )?;
    let got = ctx.download::<u8>(dout, nblocks * 16)?;
    ctx.exact(
        "FIPS-197 C.1 ciphertext (block 0)",
        &got[..16],
        &aes128::hex(cipher_hex),
    )?;
    ctx.exact("ciphertext", &got, &want)?;
    ctx.finish("")
}
