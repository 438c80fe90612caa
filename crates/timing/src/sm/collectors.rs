//! Operand collectors and register banks (v0 of this stage). An issued instruction takes a
//! collector unit of its class (`[operand_collectors]` sp / sfu / mem, else a generic one)
//! while its source registers are read; no free collector is a structural hazard at issue.
//! Reading takes one cycle per register the busiest bank must supply: bank of register `r` of
//! warp slot `w` = `(r + w) mod register_banks` (GPGPU-Sim's warp-skewed mapping; `r` is the
//! frame's virtual register number). The read cycles beyond the first delay the result (and
//! hold the collector). Simplification: banks are not arbitrated *between* collectors — only
//! conflicts within one instruction's sources are modelled. A class with no collectors of its
//! own and no generic ones is unconstrained.

use crate::classify::Unit;
use warpsim_core::config::GpuConfig;
use warpsim_core::ir::{Inst, Opnd};

/// Which collector an instruction holds: (pool, index); pool 3 = generic, 4 = unconstrained.
pub type Collector = (u8, u16);

pub struct Collectors {
    /// `busy[pool][i]`: first cycle collector `i` is free (pools: sp, sfu, mem, generic).
    busy: [Vec<u64>; 4],
    banks: u64,
}

impl Collectors {
    pub fn new(cfg: &GpuConfig) -> Collectors {
        let o = &cfg.operand_collectors;
        let n = |x: u32| vec![0u64; x as usize];
        Collectors {
            busy: [n(o.sp), n(o.sfu), n(o.mem), n(o.generic)],
            banks: o.register_banks.max(1) as u64,
        }
    }

    /// A collector for a `unit`-class instruction free at `now`: its class's first, then a
    /// generic one.
    #[inline]
    pub fn free(&self, unit: Unit, now: u64) -> Option<Collector> {
        let pool = unit as usize;
        if self.busy[pool].is_empty() && self.busy[3].is_empty() {
            return Some((4, 0));
        }
        for p in [pool, 3] {
            if let Some(i) = self.busy[p].iter().position(|&b| b <= now) {
                return Some((p as u8, i as u16));
            }
        }
        None
    }

    #[inline]
    pub fn occupy(&mut self, c: Collector, until: u64) {
        if let Some(b) = self
            .busy
            .get_mut(c.0 as usize)
            .and_then(|p| p.get_mut(c.1 as usize))
        {
            *b = until;
        }
    }

    /// Cycles to read `inst`'s source registers for warp slot `slot` whose frame's registers
    /// start at register slot `rb`: the most distinct registers in one bank (at least 1).
    pub fn read_cycles(&self, inst: &Inst, rb: usize, slot: usize) -> u32 {
        let mut regs = [u64::MAX; 16];
        let mut n = 0usize;
        let mut add = |r: u64| {
            if n < regs.len() && !regs[..n].contains(&r) {
                regs[n] = r;
                n += 1;
            }
        };
        for o in inst.src.iter() {
            match *o {
                Opnd::Reg(r) | Opnd::Addr { base: Some(r), .. } => add((rb + r as usize) as u64),
                Opnd::Vec { regs: v, n: k } => v[..k as usize]
                    .iter()
                    .for_each(|&r| add((rb + r as usize) as u64)),
                _ => {}
            }
        }
        let mut per_bank = [0u32; 64];
        let mut worst = 1;
        for &r in &regs[..n] {
            let b = ((r + slot as u64) % self.banks) as usize % 64;
            per_bank[b] += 1;
            worst = worst.max(per_bank[b]);
        }
        worst
    }
}
