//! Scalar loads and stores of a whole warp in shared and global memory, with the checks that
//! [`mem_ops::access`] makes per lane reduced to what a warp needs: the space, size and
//! address kind are chosen once per warp, shared stores are checked for the whole warp before
//! any lane writes, global accesses keep the allocation the previous lane hit at hand
//! ([`GlobalMemory::read_lanes`]).
//!
//! Each function either does every lane of `mask` or stops at a lane and returns it (`Err`),
//! the lanes of `mask` below it done and nothing done from it on; the caller finishes from that lane
//! through the per-lane path, which reports any fault exactly as before. Loads return the
//! bytes zero-extended (the caller sign-extends).
//!
//! [`mem_ops::access`]: super::mem_ops::access
//! [`GlobalMemory::read_lanes`]: super::memory::GlobalMemory::read_lanes

use super::context::MemCtx;
use super::operands::Lanes;
use super::warp::{lanes, WARP_SIZE};
use crate::ir::Space;

/// Loads `size` bytes at `addr[l]` into `out[l]` for the lanes of `mask` (addresses as
/// [`super::mem_ops::addresses`] gives them for `space`).
#[inline]
pub fn load(m: &MemCtx, space: Space, addr: &Lanes, mask: u32, size: u32, out: &mut Lanes) -> Result<(), usize> {
    match (space, size) {
        (Space::Shared, 1) => shared_load::<1>(m.shared, addr, mask, out),
        (Space::Shared, 2) => shared_load::<2>(m.shared, addr, mask, out),
        (Space::Shared, 4) => shared_load::<4>(m.shared, addr, mask, out),
        (Space::Shared, 8) => shared_load::<8>(m.shared, addr, mask, out),
        (Space::Global | Space::Const, 1) => m.global.read_lanes::<1>(addr, mask, out),
        (Space::Global | Space::Const, 2) => m.global.read_lanes::<2>(addr, mask, out),
        (Space::Global | Space::Const, 4) => m.global.read_lanes::<4>(addr, mask, out),
        (Space::Global | Space::Const, 8) => m.global.read_lanes::<8>(addr, mask, out),
        _ => Err(mask.trailing_zeros() as usize),
    }
}

/// Stores the low `size` bytes of `vals[l]` at `addr[l]` for the lanes of `mask`, lowest
/// lane first (so the highest of lanes writing one address wins, as per lane).
#[inline]
pub fn store(m: &mut MemCtx, space: Space, addr: &Lanes, mask: u32, size: u32, vals: &Lanes) -> Result<(), usize> {
    match (space, size) {
        (Space::Shared, 1) => shared_store::<1>(m.shared, addr, mask, vals),
        (Space::Shared, 2) => shared_store::<2>(m.shared, addr, mask, vals),
        (Space::Shared, 4) => shared_store::<4>(m.shared, addr, mask, vals),
        (Space::Shared, 8) => shared_store::<8>(m.shared, addr, mask, vals),
        (Space::Global | Space::Const, 1) => m.global.write_lanes::<1>(addr, mask, vals),
        (Space::Global | Space::Const, 2) => m.global.write_lanes::<2>(addr, mask, vals),
        (Space::Global | Space::Const, 4) => m.global.write_lanes::<4>(addr, mask, vals),
        (Space::Global | Space::Const, 8) => m.global.write_lanes::<8>(addr, mask, vals),
        _ => Err(mask.trailing_zeros() as usize),
    }
}

/// The `N` bytes at `addr` in shared memory, zero-extended; `None` when misaligned or out of
/// bounds (the slice's own bounds check is the shared-memory bounds check).
#[inline(always)]
fn shared_read<const N: usize>(shared: &[u8], addr: u64) -> Option<u64> {
    if addr % N as u64 != 0 {
        return None;
    }
    // Shared addresses are 32-bit (wrapped by `addresses`): as a u32 the end cannot overflow,
    // which spares the range its overflow test.
    let at = addr as u32 as usize;
    let bytes = shared.get(at..at + N)?;
    let mut b = [0u8; 8];
    b[..N].copy_from_slice(bytes);
    Some(u64::from_le_bytes(b))
}

/// Reads have no side effects, so each lane is checked as it reads.
#[inline(always)]
fn shared_load<const N: usize>(shared: &[u8], addr: &Lanes, mask: u32, out: &mut Lanes) -> Result<(), usize> {
    if mask == u32::MAX {
        for l in 0..WARP_SIZE {
            out[l] = shared_read::<N>(shared, addr[l]).ok_or(l)?;
        }
    } else {
        for l in lanes(mask) {
            out[l] = shared_read::<N>(shared, addr[l]).ok_or(l)?;
        }
    }
    Ok(())
}

/// Every lane is checked before any writes, so a warp that would fault has written nothing.
#[inline(always)]
fn shared_store<const N: usize>(shared: &mut [u8], addr: &Lanes, mask: u32, vals: &Lanes) -> Result<(), usize> {
    let len = shared.len() as u64;
    // Shared addresses are 32-bit (wrapped by `addresses`), so the sums cannot overflow.
    if lanes(mask).any(|l| addr[l] % N as u64 != 0 || addr[l] + N as u64 > len) {
        return Err(mask.trailing_zeros() as usize);
    }
    for l in lanes(mask) {
        let at = addr[l] as usize;
        shared[at..at + N].copy_from_slice(&vals[l].to_le_bytes()[..N]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::context::LaunchCtx;
    use crate::exec::fault::FaultKind;
    use crate::exec::mem_ops::access;
    use crate::exec::memory::GlobalMemory;
    use crate::exec::warp::Warp;
    use crate::ir::Module;

    /// Addresses around the edges of two adjacent global allocations and of shared memory:
    /// aligned and not, inside, straddling the end, past it, below the base.
    fn addrs(seed: u64, bases: [u64; 2], lens: [u64; 2], size: u64) -> Lanes {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        std::array::from_fn(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let which = (x >> 60) as usize & 1;
            let near_end = bases[which] + lens[which];
            match x % 8 {
                0 => near_end - size * (x >> 8 & 3),
                1 => near_end + (x >> 8 & 7),
                2 => bases[which].wrapping_sub(x >> 8 & 7),
                3 => bases[which] + (x >> 8) % lens[which],
                _ => bases[which] + ((x >> 8) % (lens[which] / size)) * size,
            }
        })
    }

    /// What the per-lane path does for the lanes of `mask`, stopping at the first fault.
    fn per_lane(k: &LaunchCtx, m: &mut MemCtx, w: &mut Warp, space: Space, addr: &Lanes, mask: u32, size: u32, store: Option<&Lanes>) -> (Lanes, Option<(usize, FaultKind)>) {
        let mut out = [0; WARP_SIZE];
        for l in lanes(mask) {
            match access(k, m, w, l, space, addr[l], size, store.map(|v| v[l])) {
                Ok(v) => out[l] = v,
                Err(e) => return (out, Some((l, e))),
            }
        }
        (out, None)
    }

    #[test]
    fn warp_wide_scalar_accesses_agree_with_the_per_lane_path() {
        let module = Module::default();
        let k = LaunchCtx {
            module: &module,
            kernel: 0,
            globals_base: 0,
            params: &[],
            grid: [1; 3],
            block: [32, 1, 1],
            dyn_shared_base: 0,
            dyn_shared_bytes: 0,
            local_limit: 0,
            num_sms: 1,
            smid: 0,
            gridid: 1,
            grid_workspace: 0,
            synccheck: false,
        };
        let mut w = Warp::new(0, u32::MAX, 0, 0, 0, 0);
        let mut printf = String::new();
        for seed in 0..400u64 {
            let size = [1u32, 2, 4, 8][seed as usize % 4];
            let space = if seed % 3 == 0 { Space::Shared } else { Space::Global };
            let mask = match seed % 5 {
                0 => u32::MAX,
                1 => 0x8000_0001,
                _ => (seed.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 17) as u32,
            };
            // Two memories alike, one per path.
            let mut gm = [GlobalMemory::new(), GlobalMemory::new()];
            let mut bases = [0; 2];
            for g in &mut gm {
                bases = [g.alloc(256).unwrap(), g.alloc(200 + seed % 50).unwrap()];
                for (i, b) in g.slice_mut(bases[0], 256).unwrap().iter_mut().enumerate() {
                    *b = i as u8 ^ seed as u8;
                }
            }
            let mut sh = [vec![7u8; 512], vec![7u8; 512]];
            let addr = match space {
                Space::Shared => addrs(seed, [0, 256], [256, 256], size as u64).map(|a| a & u64::from(u32::MAX)),
                _ => addrs(seed, bases, [256, 200 + seed % 50], size as u64),
            };
            let vals: Lanes = std::array::from_fn(|l| (seed << 8 | l as u64).wrapping_mul(0x1234_5678_9abc_def1));
            for store_vals in [None, Some(&vals)] {
                let [g0, g1] = &mut gm;
                let [s0, s1] = &mut sh;
                let mut m0 = MemCtx { global: g0, shared: s0, printf: &mut printf, clock: 0, cta: [0; 3] };
                let (want, fault) = per_lane(&k, &mut m0, &mut w, space, &addr, mask, size, store_vals);
                let mut p1 = String::new();
                let mut m1 = MemCtx { global: g1, shared: s1, printf: &mut p1, clock: 0, cta: [0; 3] };
                let mut got = [0; WARP_SIZE];
                let done = match store_vals {
                    None => load(&m1, space, &addr, mask, size, &mut got),
                    Some(v) => store(&mut m1, space, &addr, mask, size, v),
                };
                // The rest through the per-lane path, as `ld`/`st` do.
                let rest = match done {
                    Ok(()) => 0,
                    Err(first) => mask & (u32::MAX << first),
                };
                let (tail, tail_fault) = per_lane(&k, &mut m1, &mut w, space, &addr, rest, size, store_vals);
                for l in lanes(rest) {
                    got[l] = tail[l];
                }
                let ctx = format!("seed {seed} {space:?} size {size} mask {mask:#x} store {}", store_vals.is_some());
                assert_eq!(fault, tail_fault, "{ctx}");
                let done_lanes = fault.as_ref().map_or(mask, |&(l, _)| mask & !(u32::MAX << l));
                if store_vals.is_none() {
                    for l in lanes(done_lanes) {
                        assert_eq!(got[l], want[l], "{ctx} lane {l}");
                    }
                }
                assert_eq!(sh[0], sh[1], "{ctx}");
                for (&b, len) in bases.iter().zip([256, 200 + seed % 50]) {
                    assert_eq!(gm[0].slice(b, len).unwrap(), gm[1].slice(b, len).unwrap(), "{ctx}");
                }
            }
        }
    }
}
