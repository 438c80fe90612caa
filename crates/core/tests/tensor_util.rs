//! Shared helpers of the tensor-core tests (included with `#[path]`): random matrices, their
//! bytes in memory, the CPU reference of a multiply-accumulate in warpsim's documented order
//! (`exec::tensor::mma`'s module doc), and a four-buffer kernel runner.
// Each tensor test uses what it needs, and this file's own test binary uses none.
#![allow(dead_code)]
// `DeviceError` is the API's error type: the helpers return it as the API does.
#![allow(clippy::result_large_err)]

use warpsim_core::alu::cvt;
use warpsim_core::device::{Arg, Device, DeviceError, Dim3, LaunchConfig};
use warpsim_core::ir::{Rounding, Ty};

/// Element types, as the tests spell them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum E {
    F16,
    Bf16,
    Tf32,
    F32,
    S8,
    U8,
    S32,
}

impl E {
    pub fn name(self) -> &'static str {
        match self {
            E::F16 => "f16",
            E::Bf16 => "bf16",
            E::Tf32 => "tf32",
            E::F32 => "f32",
            E::S8 => "s8",
            E::U8 => "u8",
            E::S32 => "s32",
        }
    }
    pub fn bytes(self) -> usize {
        match self {
            E::F16 | E::Bf16 => 2,
            E::S8 | E::U8 => 1,
            _ => 4,
        }
    }
}

/// xorshift64*: seeded, reproducible inputs.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A random element of type `e` (its bits): floats of varied magnitude and sign, with
    /// every tf32 bit random (the multiply must ignore the low 13).
    pub fn elem(&mut self, e: E) -> u32 {
        let r = self.next_u64();
        let x = ((r % 4001) as f32 - 2000.0) / 256.0 * if r >> 40 & 1 == 0 { 1.0 } else { 1e-3 };
        match e {
            E::F16 => cvt(
                Ty::F16,
                Ty::F32,
                Rounding::Rn,
                false,
                false,
                x.to_bits() as u64,
            ) as u32,
            E::Bf16 => x.to_bits() >> 16,
            E::Tf32 => x.to_bits() ^ (r >> 20) as u32 & 0x1FFF,
            E::F32 => x.to_bits(),
            E::S8 | E::U8 => (r >> 8) as u32 & 0xFF,
            E::S32 => (((r >> 16) % 200_001) as i64 - 100_000) as i32 as u32,
        }
    }

    pub fn matrix(&mut self, e: E, n: usize) -> Vec<u32> {
        (0..n).map(|_| self.elem(e)).collect()
    }
}

pub fn f32_of(e: E, bits: u32) -> f32 {
    match e {
        E::F16 => {
            f32::from_bits(cvt(Ty::F32, Ty::F16, Rounding::None, false, false, bits as u64) as u32)
        }
        E::Bf16 => f32::from_bits(bits << 16),
        E::Tf32 => f32::from_bits(bits & !0x1FFF),
        _ => f32::from_bits(bits),
    }
}

fn int_of(e: E, bits: u32) -> i64 {
    match e {
        E::S8 => bits as u8 as i8 as i64,
        E::U8 => bits as u8 as i64,
        _ => bits as i32 as i64,
    }
}

/// D = A·B + C (row-major element bits; A m×k, B k×n, C m×n) in warpsim's order: f32
/// products, added to C one by one over k, an f16 D rounded once at the end; integers exact,
/// then wrapped or (satfinite) clamped.
#[allow(clippy::too_many_arguments)]
pub fn reference(
    (m, n, k): (usize, usize, usize),
    (ta, tb, tc, td): (E, E, E, E),
    a: &[u32],
    b: &[u32],
    c: &[u32],
    satfinite: bool,
) -> Vec<u32> {
    let mut d = vec![0u32; m * n];
    for i in 0..m {
        for j in 0..n {
            d[i * n + j] = if tc == E::S32 {
                let mut acc = int_of(tc, c[i * n + j]);
                for p in 0..k {
                    acc += int_of(ta, a[i * k + p]) * int_of(tb, b[p * n + j]);
                }
                if satfinite {
                    acc.clamp(i32::MIN as i64, i32::MAX as i64) as u32
                } else {
                    acc as u32
                }
            } else {
                let mut acc = f32_of(tc, c[i * n + j]);
                for p in 0..k {
                    let prod = f32_of(ta, a[i * k + p]) * f32_of(tb, b[p * n + j]);
                    acc += prod;
                }
                if td == E::F16 {
                    cvt(
                        Ty::F16,
                        Ty::F32,
                        Rounding::Rn,
                        false,
                        false,
                        acc.to_bits() as u64,
                    ) as u32
                } else {
                    acc.to_bits()
                }
            }
        }
    }
    d
}

/// The bytes of a `rows × cols` row-major matrix stored row-major (`row_major`) or
/// column-major with leading dimension `ld` elements.
pub fn to_bytes(x: &[u32], e: E, rows: usize, cols: usize, row_major: bool, ld: usize) -> Vec<u8> {
    let len = if row_major { rows * ld } else { cols * ld };
    let mut out = vec![0u8; len * e.bytes()];
    for r in 0..rows {
        for c in 0..cols {
            let at = if row_major { r * ld + c } else { c * ld + r } * e.bytes();
            out[at..at + e.bytes()].copy_from_slice(&x[r * cols + c].to_le_bytes()[..e.bytes()]);
        }
    }
    out
}

/// The row-major `rows × cols` elements of a row-major matrix with leading dimension `ld`.
pub fn from_bytes(bytes: &[u8], e: E, rows: usize, cols: usize, ld: usize) -> Vec<u32> {
    let mut out = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let at = (r * ld + c) * e.bytes();
            let mut w = [0u8; 4];
            w[..e.bytes()].copy_from_slice(&bytes[at..at + e.bytes()]);
            out.push(u32::from_le_bytes(w));
        }
    }
    out
}

/// `{%rB, %rB+1, …}`: a fragment of `n` registers from `%r<base>`.
pub fn frag(base: usize, n: usize) -> String {
    let regs: Vec<String> = (base..base + n).map(|i| format!("%r{i}")).collect();
    format!("{{{}}}", regs.join(", "))
}

/// A module whose kernel `k(a, b, c, d)` has the four pointers in `%rd1`…`%rd4`, the lane
/// in `%r199`, and `body` after them.
pub fn module(decls: &str, body: &str) -> String {
    format!(
        ".version 9.5\n.target sm_80\n.address_size 64\n{decls}\n\
         .visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{{\n\
         .reg .pred %p<4>;\n.reg .b32 %r<200>;\n.reg .b64 %rd<10>;\n\
         ld.param.u64 %rd1, [pa];\nld.param.u64 %rd2, [pb];\nld.param.u64 %rd3, [pc];\n\
         ld.param.u64 %rd4, [pd];\nmov.u32 %r199, %tid.x;\n{body}\nret;\n}}\n"
    )
}

/// Runs `src`'s kernel with one warp over buffers a, b, c and a zeroed d of `d_bytes`;
/// returns d.
pub fn run4(
    src: &str,
    a: &[u8],
    b: &[u8],
    c: &[u8],
    d_bytes: usize,
) -> Result<Vec<u8>, DeviceError> {
    let mut dev = Device::new();
    let m = dev.load_ptx(src)?;
    let k = dev.kernel(m, "k")?;
    let pad = |x: &[u8]| {
        let mut v = x.to_vec();
        v.resize(x.len().max(4), 0);
        v
    };
    let (pa, pb, pc) = (
        dev.alloc_slice(&pad(a))?,
        dev.alloc_slice(&pad(b))?,
        dev.alloc_slice(&pad(c))?,
    );
    let pd = dev.alloc_zeroed::<u8>(d_bytes)?;
    dev.launch(
        k,
        LaunchConfig {
            grid: Dim3::from(1),
            block: Dim3::from(32),
            dynamic_shared: 0,
        },
        &[Arg::Ptr(pa), Arg::Ptr(pb), Arg::Ptr(pc), Arg::Ptr(pd)],
    )?;
    dev.read_vec::<u8>(pd, d_bytes)
}
