//! Per-warp architectural state, struct-of-arrays: registers and predicates of every live call
//! frame, the SIMT reconvergence stack, the carry flags, and per-thread local memory.

use crate::ir::{FuncId, Pc};

pub const WARP_SIZE: usize = 32;

/// One entry of the SIMT reconvergence stack: the lanes in `mask` execute from `pc` until they
/// reach `rpc`, where the entry is popped and the entry below continues.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimtEntry {
    pub pc: Pc,
    pub rpc: Pc,
    pub mask: u32,
    /// The bottom entry of a called function: popping it returns to the caller.
    pub call_base: bool,
}

/// A live function activation of the warp (uniform across its lanes).
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub func: FuncId,
    /// Index of register 0, lane 0 of this frame in `Warp::regs`.
    pub reg_base: usize,
    /// Index of predicate 0 of this frame in `Warp::preds`.
    pub pred_base: usize,
    /// Base of this frame in each lane's local memory.
    pub local_base: u32,
    /// Caller's call-site index (for copying return values back); unused for the kernel frame.
    pub call_site: u32,
}

/// Why a warp is not running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpState {
    Ready,
    /// Waiting at barrier `id` of its CTA.
    AtBarrier {
        id: u8,
    },
    /// All lanes exited.
    Done,
}

#[derive(Clone, Debug)]
pub struct Warp {
    /// Warp index inside its CTA.
    pub index: u32,
    /// Lanes that hold a thread (the last warp of a CTA may be partial).
    pub valid: u32,
    /// Lanes that have exited.
    pub exited: u32,
    pub state: WarpState,
    /// Register slots of all frames: slot `r` of a frame, lane `l` is `regs[frame.reg_base + r*32 + l]`.
    pub regs: Vec<u64>,
    /// Predicates of all frames, one lane mask each.
    pub preds: Vec<u32>,
    /// Carry flag (CC.CF) per lane.
    pub carry: u32,
    pub simt: Vec<SimtEntry>,
    pub frames: Vec<Frame>,
    /// Per-thread local memory, lane-major: lane `l` owns `local[l*local_stride .. (l+1)*local_stride]`.
    pub local: Vec<u8>,
    pub local_stride: u32,
    /// Top of the per-thread stack of frames (bytes in use in every lane).
    pub local_top: u32,
    /// For `bar.red`: the destination to fill when the barrier releases.
    pub pending_bar_dst: Option<crate::ir::Opnd>,
    /// PC of the barrier instruction the warp last arrived at, and the lanes that arrived.
    pub barrier_pc: Pc,
    pub barrier_lanes: u32,
    /// Warp instructions executed.
    pub instructions: u64,
    /// Thread instructions executed (active lanes summed).
    pub thread_instructions: u64,
}

impl Warp {
    /// A warp at the start of `func` with `valid` lanes.
    pub fn new(
        index: u32,
        valid: u32,
        func: FuncId,
        num_regs: u32,
        num_preds: u32,
        frame_bytes: u32,
    ) -> Warp {
        // Built field by field rather than through `reset`: `vec![0; n]` takes zeroed pages
        // from the allocator without writing them, which `reset`'s refill of a buffer cannot.
        // `tests::reset_makes_what_new_makes` holds the two to the same warp.
        let mut w = Warp {
            index,
            valid,
            exited: 0,
            state: if valid == 0 {
                WarpState::Done
            } else {
                WarpState::Ready
            },
            regs: vec![0; num_regs as usize * WARP_SIZE],
            preds: vec![0; num_preds as usize],
            carry: 0,
            simt: vec![SimtEntry {
                pc: 0,
                rpc: Pc::MAX,
                mask: valid,
                call_base: false,
            }],
            frames: vec![Frame {
                func,
                reg_base: 0,
                pred_base: 0,
                local_base: 0,
                call_site: 0,
            }],
            local: Vec::new(),
            local_stride: 0,
            local_top: 0,
            pending_bar_dst: None,
            barrier_pc: 0,
            barrier_lanes: 0,
            instructions: 0,
            thread_instructions: 0,
        };
        w.ensure_local(frame_bytes);
        w.local_top = frame_bytes;
        w
    }

    /// Makes this warp what [`Warp::new`] makes, keeping its buffers' capacity: a grid of many
    /// short CTAs reuses the storage of the CTAs that finished instead of allocating (and the
    /// system zeroing fresh pages for) every warp's register file and local memory anew.
    pub fn reset(
        &mut self,
        index: u32,
        valid: u32,
        func: FuncId,
        num_regs: u32,
        num_preds: u32,
        frame_bytes: u32,
    ) {
        self.index = index;
        self.valid = valid;
        self.exited = 0;
        self.state = if valid == 0 {
            WarpState::Done
        } else {
            WarpState::Ready
        };
        refill(&mut self.regs, num_regs as usize * WARP_SIZE, 0);
        refill(&mut self.preds, num_preds as usize, 0);
        self.carry = 0;
        self.simt.clear();
        self.simt.push(SimtEntry {
            pc: 0,
            rpc: Pc::MAX,
            mask: valid,
            call_base: false,
        });
        self.frames.clear();
        self.frames.push(Frame {
            func,
            reg_base: 0,
            pred_base: 0,
            local_base: 0,
            call_site: 0,
        });
        self.local.clear();
        self.local_stride = 0;
        self.pending_bar_dst = None;
        self.barrier_pc = 0;
        self.barrier_lanes = 0;
        self.instructions = 0;
        self.thread_instructions = 0;
        self.ensure_local(frame_bytes);
        self.local_top = frame_bytes;
    }

    /// The innermost frame.
    #[inline]
    pub fn frame(&self) -> Frame {
        *self.frames.last().expect("a live warp has a frame")
    }

    /// The top SIMT entry (the lanes executing now).
    #[inline]
    pub fn top(&self) -> Option<&SimtEntry> {
        self.simt.last()
    }

    /// Active lanes: the top entry's mask.
    #[inline]
    pub fn active_mask(&self) -> u32 {
        self.simt.last().map_or(0, |e| e.mask)
    }

    /// The PC the warp executes next, if it is running.
    #[inline]
    pub fn pc(&self) -> Option<Pc> {
        self.simt.last().map(|e| e.pc)
    }

    /// Makes every lane's local memory at least `bytes` long, keeping its contents.
    pub fn ensure_local(&mut self, bytes: u32) {
        if bytes <= self.local_stride {
            return;
        }
        let new_stride = bytes.next_power_of_two().max(64);
        let len = new_stride as usize * WARP_SIZE;
        if self.local_stride == 0 && self.local.capacity() >= len {
            // Nothing to keep: zeroed in place, in the capacity a reset left.
            refill(&mut self.local, len, 0);
            self.local_stride = new_stride;
            return;
        }
        let mut grown = vec![0u8; new_stride as usize * WARP_SIZE];
        let old = self.local_stride as usize;
        for lane in 0..WARP_SIZE {
            let src = &self.local[lane * old..lane * old + old];
            grown[lane * new_stride as usize..lane * new_stride as usize + old]
                .copy_from_slice(src);
        }
        self.local = grown;
        self.local_stride = new_stride;
    }

    /// Lane `lane`'s local memory.
    #[inline]
    pub fn lane_local(&self, lane: usize) -> &[u8] {
        let s = self.local_stride as usize;
        &self.local[lane * s..lane * s + s]
    }

    #[inline]
    pub fn lane_local_mut(&mut self, lane: usize) -> &mut [u8] {
        let s = self.local_stride as usize;
        &mut self.local[lane * s..lane * s + s]
    }

    /// Removes exited lanes from every stack entry and pops entries left empty.
    pub fn exit_lanes(&mut self, lanes: u32) {
        self.exited |= lanes;
        for e in &mut self.simt {
            e.mask &= !lanes;
        }
        while self.simt.last().is_some_and(|e| e.mask == 0) {
            self.simt.pop();
        }
        if self.simt.is_empty() {
            self.state = WarpState::Done;
        }
    }
}

/// Makes `v` `len` copies of `value`, reusing its capacity.
fn refill<T: Copy>(v: &mut Vec<T>, len: usize, value: T) {
    v.clear();
    v.resize(len, value);
}

/// Iterates the set bits of a lane mask, lowest first.
#[inline]
pub fn lanes(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let l = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(l)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reset_makes_what_new_makes() {
        let mut w = Warp::new(3, u32::MAX, 1, 6, 2, 100);
        w.regs.iter_mut().for_each(|r| *r = 7);
        w.preds[1] = 5;
        w.carry = 9;
        w.exit_lanes(0xff);
        w.frames.push(w.frame());
        w.ensure_local(5000);
        w.local[10] = 1;
        w.pending_bar_dst = Some(crate::ir::Opnd::Reg(2));
        (w.barrier_pc, w.barrier_lanes, w.instructions) = (4, 3, 99);
        for (index, valid, regs, preds, frame) in [(0, 0xffff, 4, 1, 0), (3, u32::MAX, 8, 3, 200)] {
            w.reset(index, valid, 2, regs, preds, frame);
            let fresh = Warp::new(index, valid, 2, regs, preds, frame);
            assert_eq!(format!("{w:?}"), format!("{fresh:?}"));
        }
    }
}
