//! `cp.async`: the global→shared copy, done at issue. On hardware the copy lands later and
//! `cp.async.wait_group`/`wait_all` (then a barrier) make it visible; a correct program reads
//! the data only after those, so copying at issue gives it the same results. (A program that
//! reads the destination too early sees the data already there, where hardware might not.)
//! The timing model times the copy as a global load that writes no register and makes the
//! wait instructions wait for it.

use super::context::{LaunchCtx, MemCtx};
use super::fault::FaultKind;
use super::mem_ops::{access, addresses};
use super::operands::{gather, Lanes};
use super::warp::{lanes, Warp, WARP_SIZE};
use crate::ir::{Inst, Opnd, Space};

/// Copies `size` bytes per active lane from the global address in `src[1]` to the shared
/// address in `src[0]`: the first `src_size` bytes (`src[3]`, else all) are read, the rest
/// zero-filled (so a partial copy at the end of a buffer reads nothing past it). Both addresses
/// must be aligned to the copy size. Returns the first faulting lane.
pub fn cp_async(
    k: &LaunchCtx,
    m: &mut MemCtx,
    w: &mut Warp,
    inst: &Inst,
    mask: u32,
) -> Result<(), (usize, FaultKind)> {
    let f = w.frame();
    let (mut dst, mut src, mut src_size): (Lanes, Lanes, Lanes) =
        ([0; WARP_SIZE], [0; WARP_SIZE], [0; WARP_SIZE]);
    addresses(k, m, w, &f, &inst.src[0], Space::Shared, &mut dst);
    addresses(k, m, w, &f, &inst.src[1], Space::Global, &mut src);
    let size = inst.ty.bytes();
    match inst.src[3] {
        Opnd::None => src_size = [size as u64; WARP_SIZE],
        ref o => gather(k, m, w, &f, o, &mut src_size),
    }
    let piece = size.min(8);
    for lane in lanes(mask) {
        let (d, s) = (dst[lane], src[lane]);
        for (space, a, write) in [(Space::Global, s, false), (Space::Shared, d, true)] {
            if a % size as u64 != 0 {
                return Err((
                    lane,
                    FaultKind::Misaligned {
                        space,
                        address: a,
                        size,
                        write,
                        lanes: 1 << lane,
                        active: mask,
                    },
                ));
            }
        }
        let read = (src_size[lane] & 0xFFFF_FFFF).min(size as u64) as u32;
        let mut bytes = [0u8; 16];
        if read == size {
            for off in (0..size).step_by(piece as usize) {
                let v = access(k, m, w, lane, Space::Global, s + off as u64, piece, None)
                    .map_err(|e| (lane, e))?;
                bytes[off as usize..(off + piece) as usize]
                    .copy_from_slice(&v.to_le_bytes()[..piece as usize]);
            }
        } else {
            for (i, b) in bytes.iter_mut().enumerate().take(read as usize) {
                *b = access(k, m, w, lane, Space::Global, s + i as u64, 1, None)
                    .map_err(|e| (lane, e))? as u8;
            }
        }
        for off in (0..size).step_by(piece as usize) {
            let mut v = [0u8; 8];
            v[..piece as usize].copy_from_slice(&bytes[off as usize..(off + piece) as usize]);
            access(
                k,
                m,
                w,
                lane,
                Space::Shared,
                d + off as u64,
                piece,
                Some(u64::from_le_bytes(v)),
            )
            .map_err(|e| (lane, e))?;
        }
    }
    Ok(())
}
