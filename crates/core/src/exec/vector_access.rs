//! Vector loads and stores (`ld.global.v4.u32`, `st.shared.v2.f32` …) of a whole warp in
//! global and shared memory: each lane's elements are checked as one span — aligned to the
//! whole vector, inside one allocation or inside shared memory — instead of one lookup per
//! element, with the allocation the previous lane hit kept at hand.
//!
//! The contract is [`super::scalar_access`]'s: each function either does every lane of
//! `mask` or stops at a lane and returns it (`Err`), the lanes of `mask` below it done and
//! nothing done from it on; the caller finishes from that lane through the per-lane path in
//! `mem_ops`, which reports any fault exactly as before. Lanes go lowest first and a lane's
//! elements in order, the order of the per-lane path, so lanes storing to one address leave
//! the same bytes. Loads return the elements zero-extended (the caller sign-extends).

use super::context::MemCtx;
use super::operands::Lanes;
use super::warp::lanes;
use crate::ir::Space;

/// Loads `n` consecutive `size`-byte elements at `addr[l]` for the lanes of `mask`, element
/// `i` into `out[i][l]` (addresses as [`super::mem_ops::addresses`] gives them for `space`).
#[inline]
pub fn load(
    m: &MemCtx,
    space: Space,
    addr: &Lanes,
    mask: u32,
    size: u32,
    n: usize,
    out: &mut [Lanes; 4],
) -> Result<(), usize> {
    match (space, size) {
        (Space::Shared, 1) => shared_load::<1>(m.shared, addr, mask, n, out),
        (Space::Shared, 2) => shared_load::<2>(m.shared, addr, mask, n, out),
        (Space::Shared, 4) => shared_load::<4>(m.shared, addr, mask, n, out),
        (Space::Shared, 8) => shared_load::<8>(m.shared, addr, mask, n, out),
        (Space::Global | Space::Const, 1) => m.global.read_vec_lanes::<1>(addr, mask, n, out),
        (Space::Global | Space::Const, 2) => m.global.read_vec_lanes::<2>(addr, mask, n, out),
        (Space::Global | Space::Const, 4) => m.global.read_vec_lanes::<4>(addr, mask, n, out),
        (Space::Global | Space::Const, 8) => m.global.read_vec_lanes::<8>(addr, mask, n, out),
        _ => Err(mask.trailing_zeros() as usize),
    }
}

/// Stores the low `size` bytes of `vals[i][l]` as element `i` of the vector at `addr[l]`
/// for the lanes of `mask`.
#[inline]
pub fn store(
    m: &mut MemCtx,
    space: Space,
    addr: &Lanes,
    mask: u32,
    size: u32,
    n: usize,
    vals: &[Lanes; 4],
) -> Result<(), usize> {
    match (space, size) {
        (Space::Shared, 1) => shared_store::<1>(m.shared, addr, mask, n, vals),
        (Space::Shared, 2) => shared_store::<2>(m.shared, addr, mask, n, vals),
        (Space::Shared, 4) => shared_store::<4>(m.shared, addr, mask, n, vals),
        (Space::Shared, 8) => shared_store::<8>(m.shared, addr, mask, n, vals),
        (Space::Global | Space::Const, 1) => m.global.write_vec_lanes::<1>(addr, mask, n, vals),
        (Space::Global | Space::Const, 2) => m.global.write_vec_lanes::<2>(addr, mask, n, vals),
        (Space::Global | Space::Const, 4) => m.global.write_vec_lanes::<4>(addr, mask, n, vals),
        (Space::Global | Space::Const, 8) => m.global.write_vec_lanes::<8>(addr, mask, n, vals),
        _ => Err(mask.trailing_zeros() as usize),
    }
}

/// Lane `l`'s `N * n` bytes in shared memory: `None` when misaligned for the whole vector or
/// out of bounds. Shared addresses are 32-bit (wrapped by `addresses`), so the end cannot
/// overflow and the slice's own bounds check is the shared-memory bounds check.
#[inline(always)]
fn shared_span<const N: usize>(len: usize, addr: u64, n: usize) -> Option<usize> {
    let at = addr as u32 as usize;
    (addr.is_multiple_of((N * n) as u64) && at + N * n <= len).then_some(at)
}

#[inline(always)]
fn shared_load<const N: usize>(
    shared: &[u8],
    addr: &Lanes,
    mask: u32,
    n: usize,
    out: &mut [Lanes; 4],
) -> Result<(), usize> {
    for l in lanes(mask) {
        let at = shared_span::<N>(shared.len(), addr[l], n).ok_or(l)?;
        for (i, o) in out.iter_mut().enumerate().take(n) {
            let mut b = [0u8; 8];
            b[..N].copy_from_slice(&shared[at + i * N..at + i * N + N]);
            o[l] = u64::from_le_bytes(b);
        }
    }
    Ok(())
}

#[inline(always)]
fn shared_store<const N: usize>(
    shared: &mut [u8],
    addr: &Lanes,
    mask: u32,
    n: usize,
    vals: &[Lanes; 4],
) -> Result<(), usize> {
    for l in lanes(mask) {
        let at = shared_span::<N>(shared.len(), addr[l], n).ok_or(l)?;
        for (i, v) in vals.iter().enumerate().take(n) {
            shared[at + i * N..at + i * N + N].copy_from_slice(&v[l].to_le_bytes()[..N]);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::memory::GlobalMemory;
    use crate::exec::warp::WARP_SIZE;

    fn ctx<'m>(g: &'m mut GlobalMemory, shared: &'m mut [u8], out: &'m mut String) -> MemCtx<'m> {
        MemCtx {
            global: crate::exec::global::Global::Direct(g),
            shared,
            printf: out,
            clock: 0,
            cta: [0; 3],
        }
    }

    #[test]
    fn vectors_load_and_store_per_lane_in_order() {
        let mut g = GlobalMemory::new();
        let base = g.alloc(64 * 16).unwrap();
        let mut shared = vec![0u8; 256];
        let mut text = String::new();
        let mut m = ctx(&mut g, &mut shared, &mut text);
        let addr: Lanes = std::array::from_fn(|l| base + l as u64 * 16);
        let vals: [Lanes; 4] = std::array::from_fn(|i| std::array::from_fn(|l| (l * 4 + i) as u64));
        store(&mut m, Space::Global, &addr, u32::MAX, 4, 4, &vals).unwrap();
        let mut out = [[0u64; WARP_SIZE]; 4];
        load(&m, Space::Global, &addr, u32::MAX, 4, 4, &mut out).unwrap();
        assert_eq!(out, vals);
        // Two lanes on one address: the higher lane's vector is what stays, as per lane.
        let same: Lanes = [16; WARP_SIZE];
        store(&mut m, Space::Shared, &same, 0b110, 8, 2, &vals).unwrap();
        let mut back = [[0u64; WARP_SIZE]; 4];
        load(&m, Space::Shared, &same, 1, 8, 2, &mut back).unwrap();
        assert_eq!((back[0][0], back[1][0]), (vals[0][2], vals[1][2]));
    }

    #[test]
    fn a_lane_that_may_fault_stops_the_warp_at_it() {
        let mut g = GlobalMemory::new();
        let base = g.alloc(60).unwrap();
        let mut shared = vec![0u8; 64];
        let mut text = String::new();
        let mut m = ctx(&mut g, &mut shared, &mut text);
        let vals = [[7u64; WARP_SIZE]; 4];
        // Lane 3's vector runs past the allocation's end; lane 2 is misaligned in shared.
        let addr: Lanes = std::array::from_fn(|l| base + l as u64 * 16);
        assert_eq!(
            store(&mut m, Space::Global, &addr, 0b1111, 4, 4, &vals),
            Err(3)
        );
        let mut out = [[0u64; WARP_SIZE]; 4];
        assert_eq!(
            load(&m, Space::Global, &addr, 0b1111, 4, 4, &mut out),
            Err(3)
        );
        assert_eq!(out[3][2], 7, "the lanes below the stop are done");
        let sh: Lanes = std::array::from_fn(|l| l as u64 * 8 + if l == 2 { 4 } else { 0 });
        assert_eq!(load(&m, Space::Shared, &sh, 0b111, 4, 2, &mut out), Err(2));
        assert_eq!(store(&mut m, Space::Local, &sh, 0b110, 4, 2, &vals), Err(1));
    }
}
