//! The shapes a half-warp's addresses take in the common loads: all one address (a
//! broadcast: `As[ty][k]` in a tiled matrix product) or consecutive `N`-byte words (`Bs[k][tx]`,
//! `a[i]` with `i` the thread index). A load of either shape is one bounds check and one copy
//! (or one read) for 16 lanes instead of a check and a read per lane.
//!
//! Half-warps rather than warps: a warp of a 16-wide thread block spans two rows, so its two
//! halves are each consecutive (or each a broadcast) while the warp as a whole is neither.
//!
//! Only the shape is decided here; whether the addresses are in bounds, aligned and inside one
//! allocation stays with the caller, which falls back to its per-lane path (and so reports any
//! fault exactly as before) when they are not.

use super::operands::Lanes;

/// Lanes in a half-warp.
pub const HALF: usize = 16;

/// How the 16 addresses of a half-warp lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// All the same address.
    Uniform,
    /// Lane `i` at the first lane's address + `i * N`.
    Consecutive,
    /// Anything else.
    Scattered,
}

/// The shape of lanes `h..h + 16` of `addr` (an offset added to every lane keeps the shape,
/// so a base register's lanes give the shape of the addresses).
///
/// The lanes are compared as 64-bit values: lanes that differ only above bit 31 are one
/// 32-bit shared address but read as scattered here, which costs the per-lane path, never a
/// wrong result. Each test stops at the first lane that breaks it, so a scattered half costs
/// a few comparisons (the compiler does not vectorise the OR-reduction of both tests on
/// plain x86-64, where it was slower than these compare chains).
#[inline(always)]
pub fn half_shape<const N: usize>(addr: &Lanes, h: usize) -> Shape {
    let half: &[u64; HALF] = addr[h..h + HALF].try_into().expect("16 lanes");
    let first = half[0];
    if half.iter().all(|&a| a == first) {
        Shape::Uniform
    } else if half
        .iter()
        .enumerate()
        .all(|(i, &a)| a == first.wrapping_add((i * N) as u64))
    {
        Shape::Consecutive
    } else {
        Shape::Scattered
    }
}

/// Fills `out` with the first `out.len()` little-endian `N`-byte words of `bytes`,
/// zero-extended.
#[inline(always)]
pub fn words<const N: usize>(bytes: &[u8], out: &mut [u64]) {
    // One bounds check for the run, so the loop indexes without any.
    let bytes = &bytes[..out.len() * N];
    for (i, o) in out.iter_mut().enumerate() {
        let mut b = [0u8; 8];
        b[..N].copy_from_slice(&bytes[i * N..i * N + N]);
        *o = u64::from_le_bytes(b);
    }
}

/// Writes the low `N` bytes of each of `vals`, little-endian, as consecutive words from the
/// start of `bytes`: the store counterpart of [`words`].
#[inline(always)]
pub fn put_words<const N: usize>(bytes: &mut [u8], vals: &[u64]) {
    let bytes = &mut bytes[..vals.len() * N];
    for (i, v) in vals.iter().enumerate() {
        bytes[i * N..i * N + N].copy_from_slice(&v.to_le_bytes()[..N]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::warp::WARP_SIZE;

    #[test]
    fn shapes_of_half_warps() {
        let base = 0x1000u64;
        let consecutive: Lanes = std::array::from_fn(|l| base + (l % HALF) as u64 * 4);
        let uniform: Lanes = std::array::from_fn(|l| base + (l / HALF) as u64 * 64);
        assert_eq!(half_shape::<4>(&consecutive, 0), Shape::Consecutive);
        assert_eq!(half_shape::<4>(&consecutive, HALF), Shape::Consecutive);
        assert_eq!(half_shape::<8>(&consecutive, 0), Shape::Scattered);
        assert_eq!(half_shape::<4>(&uniform, 0), Shape::Uniform);
        assert_eq!(half_shape::<4>(&uniform, HALF), Shape::Uniform);
        let mut one_off = consecutive;
        one_off[HALF + 7] += 4;
        assert_eq!(half_shape::<4>(&one_off, 0), Shape::Consecutive);
        assert_eq!(half_shape::<4>(&one_off, HALF), Shape::Scattered);
        // Base values that differ above bit 31 read as scattered (the per-lane path).
        let high: Lanes = std::array::from_fn(|l| (l as u64) << 32 | 0x40);
        assert_eq!(half_shape::<4>(&high, 0), Shape::Scattered);
        // Consecutive through 2^64 (the caller's bounds check rejects the run).
        let wrapped: Lanes = std::array::from_fn(|l| (u64::MAX - 7).wrapping_add(l as u64 * 4));
        assert_eq!(half_shape::<4>(&wrapped, 0), Shape::Consecutive);
        let mut out = [0u64; WARP_SIZE];
        words::<2>(&[1, 0, 0xff, 0xff, 3, 0x80], &mut out[..3]);
        assert_eq!(out[..3], [1, 0xffff, 0x8003]);
        let mut bytes = [0u8; 6];
        put_words::<2>(&mut bytes, &[1, 0x1_ffff, 0x8003]);
        assert_eq!(bytes, [1, 0, 0xff, 0xff, 3, 0x80]);
    }
}
