//! Warp-level operations: `shfl.sync`, `vote`, `match`, `redux`, `activemask`.

use super::operands::Lanes;
use super::warp::{lanes, WARP_SIZE};
use crate::alu;
use crate::ir::{ReduxOp, ShflMode, Ty, VoteMode};

/// `shfl.sync`: per-lane result value and validity (the `|p` output), following the PTX
/// manual's definition with `c` packing the clamp value (bits 4:0) and segment mask (12:8).
pub fn shfl(mode: ShflMode, a: &Lanes, b: &Lanes, c: &Lanes, mask: u32, out: &mut Lanes) -> u32 {
    let mut valid = 0u32;
    for lane in lanes(mask) {
        let bval = (b[lane] & 0x1f) as i64;
        let cval = (c[lane] & 0x1f) as i64;
        let seg = ((c[lane] >> 8) & 0x1f) as i64;
        let l = lane as i64;
        let max_lane = (l & seg) | (cval & !seg);
        let min_lane = l & seg;
        let (j, ok) = match mode {
            ShflMode::Up => (l - bval, l - bval >= max_lane),
            ShflMode::Down => (l + bval, l + bval <= max_lane),
            ShflMode::Bfly => (l ^ bval, (l ^ bval) <= max_lane),
            ShflMode::Idx => {
                let j = min_lane | (bval & !seg);
                (j, j <= max_lane)
            }
        };
        let src = if ok && (0..WARP_SIZE as i64).contains(&j) {
            j as usize
        } else {
            lane
        };
        out[lane] = a[src];
        valid |= (ok as u32) << lane;
    }
    valid
}

/// `vote.mode`: for all/any/uni a predicate mask for the executing lanes, for ballot the ballot.
pub fn vote(mode: VoteMode, pred: u32, mask: u32) -> u32 {
    let p = pred & mask;
    match mode {
        VoteMode::All => {
            if p == mask {
                u32::MAX
            } else {
                0
            }
        }
        VoteMode::Any => {
            if p != 0 {
                u32::MAX
            } else {
                0
            }
        }
        VoteMode::Uni => {
            if p == 0 || p == mask {
                u32::MAX
            } else {
                0
            }
        }
        VoteMode::Ballot => p,
    }
}

/// `match.any`: per lane, the lanes holding the same value; `match.all`: the whole mask when
/// every lane agrees (and the predicate output), else 0.
pub fn match_sync(all: bool, ty: Ty, a: &Lanes, mask: u32, out: &mut Lanes) -> bool {
    let m = ty.mask();
    let first = lanes(mask).next().map(|l| a[l] & m);
    let uniform = lanes(mask).all(|l| Some(a[l] & m) == first);
    for lane in lanes(mask) {
        out[lane] = if all {
            if uniform {
                mask as u64
            } else {
                0
            }
        } else {
            lanes(mask)
                .filter(|&x| a[x] & m == a[lane] & m)
                .fold(0u64, |acc, x| acc | 1 << x)
        };
    }
    uniform
}

/// `redux.sync.op.ty`: the reduction over the executing lanes.
pub fn redux(op: ReduxOp, ty: Ty, a: &Lanes, mask: u32) -> u64 {
    let m = ty.mask();
    let mut it = lanes(mask).map(|l| a[l] & m);
    let Some(first) = it.next() else { return 0 };
    let signed = ty.is_signed();
    it.fold(first, |acc, v| match op {
        ReduxOp::Add => acc.wrapping_add(v) & m,
        ReduxOp::And => acc & v,
        ReduxOp::Or => acc | v,
        ReduxOp::Xor => acc ^ v,
        ReduxOp::Min | ReduxOp::Max => {
            let less = if signed {
                alu::sext(v, ty) < alu::sext(acc, ty)
            } else {
                v < acc
            };
            if less == (op == ReduxOp::Min) {
                v
            } else {
                acc
            }
        }
    })
}
