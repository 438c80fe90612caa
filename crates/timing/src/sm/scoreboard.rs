//! Scoreboard: per warp, the cycle each register slot / predicate of every live frame becomes
//! readable (RAW) and writable (WAW). An entry holds `ready << 1 | long`, where `long` marks
//! the result of a global/local load (two-level scheduling demotes on those). An entry is
//! released at writeback simply by time passing its ready cycle, or — for results whose
//! latency is not known at issue (an asynchronous memory system) — reserved with
//! [`PENDING`] and released explicitly by [`Scoreboard::release`] (then call `Sm::recheck`).

use crate::reg_use::RegUse;
use warpsim_core::exec::warp::{Frame, WARP_SIZE};
use warpsim_core::ir::{Inst, Opnd};

/// Result of checking an instruction against the scoreboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hazard {
    None,
    /// Blocked until cycle `until` (the latest blocking entry's ready cycle); `long` when a
    /// blocking entry is an outstanding global/local load.
    Blocked {
        long: bool,
        until: u64,
    },
}

/// Ready cycle meaning "until released" (see [`Scoreboard::release`]).
pub const PENDING: u64 = u64::MAX >> 2;

/// One warp's scoreboard.
#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    regs: Vec<u64>,
    preds: Vec<u64>,
}

#[inline]
fn visit_opnd(o: &Opnd, f: &Frame, mut reg: impl FnMut(usize), mut pred: impl FnMut(usize)) {
    let rb = f.reg_base / WARP_SIZE;
    match *o {
        Opnd::Reg(r) => reg(rb + r as usize),
        Opnd::Addr { base: Some(r), .. } => reg(rb + r as usize),
        Opnd::Pred { id, .. } => pred(f.pred_base + id as usize),
        Opnd::Vec { regs, n } => {
            for &r in &regs[..n as usize] {
                reg(rb + r as usize);
            }
        }
        _ => {}
    }
}

impl Scoreboard {
    /// Sizes the board for the warp's current register file (grows on calls).
    pub fn fit(&mut self, reg_slots: usize, preds: usize) {
        if self.regs.len() < reg_slots {
            self.regs.resize(reg_slots, 0);
        }
        if self.preds.len() < preds {
            self.preds.resize(preds, 0);
        }
    }

    pub fn clear(&mut self) {
        self.regs.iter_mut().for_each(|r| *r = 0);
        self.preds.iter_mut().for_each(|p| *p = 0);
    }

    /// RAW on every source register and predicate (the guard included), WAW on every
    /// destination, given the frame's register slot base (`reg_base / WARP_SIZE`) and
    /// predicate base.
    #[inline]
    pub fn check_at(&self, uses: RegUse, rb: usize, pb: usize, now: u64) -> Hazard {
        let mut worst = 0u64; // bit 0: blocked, bit 1: long
        let mut until = 0u64;
        let mut look = |e: u64| {
            if e >> 1 > now {
                worst |= 1 | (e & 1) << 1;
                until = until.max(e >> 1);
            }
        };
        for &r in uses.regs {
            look(self.regs.get(rb + r as usize).copied().unwrap_or(0));
        }
        for &p in uses.preds {
            look(self.preds.get(pb + p as usize).copied().unwrap_or(0));
        }
        if worst & 1 == 1 {
            Hazard::Blocked {
                long: worst & 2 != 0,
                until,
            }
        } else {
            Hazard::None
        }
    }

    /// Reserves every destination until `ready`.
    pub fn reserve(&mut self, inst: &Inst, f: &Frame, ready: u64, long: bool) {
        let e = ready << 1 | long as u64;
        for o in inst.dst.iter() {
            let (regs, preds) = (&mut self.regs, &mut self.preds);
            visit_opnd(
                o,
                f,
                |i| {
                    if let Some(x) = regs.get_mut(i) {
                        *x = e;
                    }
                },
                |i| {
                    if let Some(x) = preds.get_mut(i) {
                        *x = e;
                    }
                },
            );
        }
    }

    /// Releases every destination of `inst` (reserved with [`PENDING`]) as ready from `at`.
    pub fn release(&mut self, inst: &Inst, f: &Frame, at: u64) {
        self.reserve(inst, f, at, false);
    }

    /// [`Scoreboard::release`] with the frame's register slot base and predicate base given
    /// directly (as recorded when the instruction issued; the warp may have called since).
    pub fn release_at(&mut self, inst: &Inst, rb: usize, pb: usize, at: u64) {
        let e = at << 1;
        for o in inst.dst.iter() {
            match *o {
                Opnd::Reg(r) => self.set_reg(rb + r as usize, e),
                Opnd::Pred { id, .. } => {
                    if let Some(x) = self.preds.get_mut(pb + id as usize) {
                        *x = e;
                    }
                }
                Opnd::Vec { regs, n } => {
                    for &r in &regs[..n as usize] {
                        self.set_reg(rb + r as usize, e);
                    }
                }
                _ => {}
            }
        }
    }

    #[inline]
    fn set_reg(&mut self, i: usize, e: u64) {
        if let Some(x) = self.regs.get_mut(i) {
            *x = e;
        }
    }
}
