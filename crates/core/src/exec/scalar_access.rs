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
use super::global::Global;
use super::lane_runs::{half_shape, put_words, words, Shape, HALF};
use super::memory::{GlobalMemory, Hint};
use super::operands::Lanes;
use super::warp::lanes;
use crate::ir::Space;

/// Loads `size` bytes at `addr[l]` into `out[l]` for the lanes of `mask` (addresses as
/// [`super::mem_ops::addresses`] gives them for `space`).
#[inline]
pub fn load(
    m: &MemCtx,
    space: Space,
    addr: &Lanes,
    mask: u32,
    size: u32,
    out: &mut Lanes,
) -> Result<(), usize> {
    load_based(m, space, addr, 0, mask, size, out)
}

/// [`load`] of the addresses `base[l] + add` (summed as [`super::mem_ops::addresses`] sums
/// them for `space`): the common `ld [%r+imm]`, with the sum taken in the loop that loads, so
/// no address array is built.
#[inline]
pub fn load_based(
    m: &MemCtx,
    space: Space,
    base: &Lanes,
    add: u64,
    mask: u32,
    size: u32,
    out: &mut Lanes,
) -> Result<(), usize> {
    // Shared addresses are 32-bit: the low half of the sum is the sum of the low halves.
    let add32 = add as u32;
    match (space, size) {
        (Space::Shared, 1) => shared_load::<1>(m.shared, base, add32, mask, out),
        (Space::Shared, 2) => shared_load::<2>(m.shared, base, add32, mask, out),
        (Space::Shared, 4) => shared_load::<4>(m.shared, base, add32, mask, out),
        (Space::Shared, 8) => shared_load::<8>(m.shared, base, add32, mask, out),
        (Space::Global | Space::Const, _) => {
            let mut addr = *base;
            if add != 0 {
                for a in &mut addr {
                    *a = a.wrapping_add(add);
                }
            }
            match size {
                1 => load_global::<1>(&m.global, &addr, mask, out),
                2 => load_global::<2>(&m.global, &addr, mask, out),
                4 => load_global::<4>(&m.global, &addr, mask, out),
                8 => load_global::<8>(&m.global, &addr, mask, out),
                _ => Err(mask.trailing_zeros() as usize),
            }
        }
        _ => Err(mask.trailing_zeros() as usize),
    }
}

/// Stores the low `size` bytes of `vals[l]` at `addr[l]` for the lanes of `mask`, lowest
/// lane first (so the highest of lanes writing one address wins, as per lane).
#[inline]
pub fn store(
    m: &mut MemCtx,
    space: Space,
    addr: &Lanes,
    mask: u32,
    size: u32,
    vals: &Lanes,
) -> Result<(), usize> {
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
    if !addr.is_multiple_of(N as u64) {
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

/// Reads have no side effects, so each lane is checked as it reads. The addresses are
/// `base[l] + add` (mod 2³²). A full warp goes by half-warps: one of a single address or of
/// consecutive words is one check and one read or copy ([`lane_runs`]).
#[inline(always)]
fn shared_load<const N: usize>(
    shared: &[u8],
    base: &Lanes,
    add: u32,
    mask: u32,
    out: &mut Lanes,
) -> Result<(), usize> {
    let at = |l: usize| u64::from((base[l] as u32).wrapping_add(add));
    if mask == u32::MAX {
        for h in [0, HALF] {
            if !shared_half::<N>(shared, base, add, h, out) {
                // The lane is also what a fault reports, so an index loop reads plainest.
                #[allow(clippy::needless_range_loop)]
                for l in h..h + HALF {
                    out[l] = shared_read::<N>(shared, at(l)).ok_or(l)?;
                }
            }
        }
    } else {
        for l in lanes(mask) {
            out[l] = shared_read::<N>(shared, at(l)).ok_or(l)?;
        }
    }
    Ok(())
}

/// Lanes `h..h + 16` of a full warp's shared load when their addresses are one word or
/// consecutive words, aligned and in bounds; false, nothing read, otherwise.
#[inline(always)]
fn shared_half<const N: usize>(
    shared: &[u8],
    base: &Lanes,
    add: u32,
    h: usize,
    out: &mut Lanes,
) -> bool {
    let first = u64::from((base[h] as u32).wrapping_add(add));
    match half_shape::<N>(base, h) {
        Shape::Uniform => match shared_read::<N>(shared, first) {
            Some(v) => {
                out[h..h + HALF].fill(v);
                true
            }
            None => false,
        },
        Shape::Consecutive => {
            // A 32-bit address plus 16 words cannot overflow: the slice's bounds check is the
            // shared-memory bounds check (a run wrapping past 2³² is out of bounds here).
            let at = first as usize;
            match shared.get(at..at + HALF * N) {
                Some(bytes) if first % N as u64 == 0 => {
                    words::<N>(bytes, &mut out[h..h + HALF]);
                    true
                }
                _ => false,
            }
        }
        Shape::Scattered => false,
    }
}

/// [`global_load`] from global memory or a staged view of it (this cycle's stores of the
/// same SM laid over what it reads: `global.rs`).
#[inline(always)]
fn load_global<const N: usize>(
    gl: &Global,
    addr: &Lanes,
    mask: u32,
    out: &mut Lanes,
) -> Result<(), usize> {
    match gl {
        Global::Direct(g) => global_load::<N>(g, g.hint(), addr, mask, out),
        Global::Staged { base, journal } => {
            global_load::<N>(base, journal.hint(), addr, mask, out)?;
            journal.overlay_lanes(addr, mask, N as u32, out);
            Ok(())
        }
    }
}

/// [`GlobalMemory::read_lanes`], a full warp by half-warps: one of a single address or of
/// consecutive words inside one allocation is one lookup and one read or copy.
#[inline(always)]
fn global_load<const N: usize>(
    g: &GlobalMemory,
    hint: &impl Hint,
    addr: &Lanes,
    mask: u32,
    out: &mut Lanes,
) -> Result<(), usize> {
    if mask != u32::MAX {
        return g.read_lanes_in::<N>(hint, addr, mask, out);
    }
    for h in [0, HALF] {
        let first = addr[h];
        let aligned = first.is_multiple_of(N as u64);
        let done = match half_shape::<N>(addr, h) {
            Shape::Uniform if aligned => match g.slice_in(hint, first, N as u64) {
                Ok(bytes) => {
                    let mut v = [0u64; 1];
                    words::<N>(bytes, &mut v);
                    out[h..h + HALF].fill(v[0]);
                    true
                }
                Err(_) => false,
            },
            Shape::Consecutive if aligned => match g.slice_in(hint, first, (HALF * N) as u64) {
                Ok(bytes) => {
                    words::<N>(bytes, &mut out[h..h + HALF]);
                    true
                }
                Err(_) => false,
            },
            _ => false,
        };
        if !done {
            g.read_lanes_in::<N>(hint, addr, 0xffff << h, out)?;
        }
    }
    Ok(())
}

/// Every lane is checked before any writes, so a warp that would fault has written nothing.
#[inline(always)]
fn shared_store<const N: usize>(
    shared: &mut [u8],
    addr: &Lanes,
    mask: u32,
    vals: &Lanes,
) -> Result<(), usize> {
    let len = shared.len() as u64;
    // A full warp whose halves are each consecutive aligned words in bounds (`s[tid] = v`):
    // one check and one copy per half. The addresses are distinct, so the order of the
    // writes does not matter; anything else takes the per-lane checks below.
    if mask == u32::MAX {
        let run = |h: usize| {
            let first = addr[h];
            half_shape::<N>(addr, h) == Shape::Consecutive
                && first.is_multiple_of(N as u64)
                && first + (HALF * N) as u64 <= len
        };
        if run(0) && run(HALF) {
            for h in [0, HALF] {
                let at = addr[h] as usize;
                put_words::<N>(&mut shared[at..at + HALF * N], &vals[h..h + HALF]);
            }
            return Ok(());
        }
    }
    // Shared addresses are 32-bit (wrapped by `addresses`), so the sums cannot overflow.
    if lanes(mask).any(|l| !addr[l].is_multiple_of(N as u64) || addr[l] + N as u64 > len) {
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
    use crate::exec::warp::{Warp, WARP_SIZE};
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

    /// `addr` with each half-warp made one address or consecutive `size`-byte words (the
    /// runs the warp-wide path reads at once) from one of its lanes' addresses: near an end
    /// the run straddles it, from a misaligned address it is misaligned.
    fn shaped(addr: &Lanes, size: u64, seed: u64) -> Lanes {
        let mut out = *addr;
        for h in [0, 16] {
            let first = addr[h + (seed as usize >> 3) % 16];
            let uniform = (seed >> (4 + h / 16)) & 1 != 0;
            for i in 0..16 {
                out[h + i] = if uniform {
                    first
                } else {
                    first.wrapping_add(i as u64 * size)
                };
            }
        }
        out
    }

    /// What the per-lane path does for the lanes of `mask`, stopping at the first fault.
    // The arguments of the fast path it checks, passed the same way.
    #[allow(clippy::too_many_arguments)]
    fn per_lane(
        k: &LaunchCtx,
        m: &mut MemCtx,
        w: &mut Warp,
        space: Space,
        addr: &Lanes,
        mask: u32,
        size: u32,
        store: Option<&Lanes>,
    ) -> (Lanes, Option<(usize, FaultKind)>) {
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
            module_id: 0,
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
        for seed in 0..800u64 {
            // (Shifted every 30 seeds, so full shared warps in runs meet every size.)
            let size = [1u32, 2, 4, 8][(seed + seed / 30) as usize % 4];
            let space = if seed % 3 == 0 {
                Space::Shared
            } else {
                Space::Global
            };
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
                Space::Shared => {
                    addrs(seed, [0, 256], [256, 256], size as u64).map(|a| a & u64::from(u32::MAX))
                }
                _ => addrs(seed, bases, [256, 200 + seed % 50], size as u64),
            };
            // Half the full warps in runs.
            let addr = if seed % 10 == 0 {
                let wrap = if space == Space::Shared {
                    u64::from(u32::MAX)
                } else {
                    u64::MAX
                };
                shaped(&addr, size as u64, seed).map(|a| a & wrap)
            } else {
                addr
            };
            let vals: Lanes =
                std::array::from_fn(|l| (seed << 8 | l as u64).wrapping_mul(0x1234_5678_9abc_def1));
            for store_vals in [None, Some(&vals)] {
                let [g0, g1] = &mut gm;
                let [s0, s1] = &mut sh;
                let mut m0 = MemCtx {
                    global: crate::exec::global::Global::Direct(g0),
                    shared: s0,
                    printf: &mut printf,
                    clock: 0,
                    cta: [0; 3],
                };
                let (want, fault) =
                    per_lane(&k, &mut m0, &mut w, space, &addr, mask, size, store_vals);
                let mut p1 = String::new();
                let mut m1 = MemCtx {
                    global: crate::exec::global::Global::Direct(g1),
                    shared: s1,
                    printf: &mut p1,
                    clock: 0,
                    cta: [0; 3],
                };
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
                let (tail, tail_fault) =
                    per_lane(&k, &mut m1, &mut w, space, &addr, rest, size, store_vals);
                for l in lanes(rest) {
                    got[l] = tail[l];
                }
                let ctx = format!(
                    "seed {seed} {space:?} size {size} mask {mask:#x} store {}",
                    store_vals.is_some()
                );
                assert_eq!(fault, tail_fault, "{ctx}");
                let done_lanes = fault
                    .as_ref()
                    .map_or(mask, |&(l, _)| mask & !(u32::MAX << l));
                if store_vals.is_none() {
                    for l in lanes(done_lanes) {
                        assert_eq!(got[l], want[l], "{ctx} lane {l}");
                    }
                }
                assert_eq!(sh[0], sh[1], "{ctx}");
                for (&b, len) in bases.iter().zip([256, 200 + seed % 50]) {
                    assert_eq!(
                        gm[0].slice(b, len).unwrap(),
                        gm[1].slice(b, len).unwrap(),
                        "{ctx}"
                    );
                }
            }
        }
    }
}
