//! The timing plan of a fragment load or store (`wmma.load`, `wmma.store`, `ldmatrix`): an
//! LD/ST instruction whose addresses are its fragment's, taken as the executor's waves
//! (`warpsim_core::exec::tensor::footprint`: one warp-wide access per fragment register, or
//! per 8×8 matrix of `ldmatrix`).
//!
//! - **Global and local memory**: the lines every wave touches, merged into one list with the
//!   union of their sectors — all of the instruction's bytes coalesced together, as
//!   GPGPU-Sim's coalescer takes every access a thread of a `TENSOR_CORE_LOAD_OP` makes
//!   (`memory_coalescing_arch` over `memreqaddr[0..]`). A store marks the sectors its waves
//!   write whole, together.
//! - **Shared memory**: the waves' bank-conflict degrees added up, each wave a shared access
//!   of its own (one register of the fragment per bank pass). GPGPU-Sim counts only each
//!   thread's first address for a shared access (`memreqaddr[0]`), which would make a
//!   16×16 tile as cheap as one `ld.shared.b32`; warpsim charges what the bank model charges
//!   the same bytes moved by `ld.shared.b32`s, one per register.

use super::mem_plan::{long_latency, resolve_space, AtIssue, Plan};
use super::memory::SmMem;
use crate::mem::coalesce::{bank_degree, mark_whole_spans, LineAccess};
use warpsim_core::config::GpuConfig;
use warpsim_core::exec::operands::Lanes;
use warpsim_core::exec::tensor::footprint::{waves, Waves};
use warpsim_core::exec::warp::WARP_SIZE;
use warpsim_core::ir::{Inst, Space, TensorKind};

impl SmMem {
    /// The plan of fragment load or store `inst`, executed by the lanes of `exec` (not 0); an
    /// asynchronous one leaves its line accesses in `self.lines`.
    pub(crate) fn tensor_plan(
        &mut self,
        cfg: &GpuConfig,
        at: &AtIssue,
        inst: &Inst,
        exec: u32,
    ) -> Plan {
        let func = &at.launch.module.functions[at.frame.func as usize];
        let Some(t) = func.tensor.get(inst.target as usize) else {
            return Plan::sync(at.timing.latency, at.timing.initiation);
        };
        let mut w = Waves::default();
        waves(at.launch, at.mem, at.warp, at.frame, inst, t, exec, &mut w);
        if w.n == 0 {
            return Plan::sync(1, 1);
        }
        // A generic access goes where the first wave's first lane points, as for `ld`.
        let space = resolve_space(inst.mods.space, w.mask[0], &mut w.addrs[0]);
        for i in 1..w.n {
            resolve_space(inst.mods.space, w.mask[i], &mut w.addrs[i]);
        }
        let store = t.kind == TensorKind::WmmaStore;
        match space {
            Space::Shared => {
                let banks = cfg.sm.shared_banks;
                let passes: u32 = w.iter().map(|(a, m, _)| bank_degree(a, m, banks)).sum();
                let extra = passes.saturating_sub(1);
                Plan::sync(cfg.sm.shared_latency + extra, 1 + extra)
            }
            Space::Global | Space::Local => {
                let (line, sector) = (self.line_bytes(), cfg.coalescer.sector_bytes as u64);
                self.lines.clear();
                for i in 0..w.n {
                    if space == Space::Local {
                        for (l, a) in w.addrs[i].iter_mut().enumerate() {
                            *a = SmMem::model_addr(space, *a, at.age * WARP_SIZE as u64 + l as u64);
                        }
                    }
                    add_lines(
                        &w.addrs[i],
                        w.mask[i],
                        w.size[i],
                        line,
                        sector,
                        &mut self.lines,
                    );
                }
                if store && cfg.l2.sectored {
                    mark_whole(&w, line, sector, &mut self.lines);
                }
                let global = space == Space::Global;
                let kind = if store {
                    self.store_kind(global)
                } else {
                    self.load_kind(global, &inst.mods)
                };
                Plan::Async {
                    kind,
                    long: long_latency(space),
                }
            }
            // No other space holds a matrix (the lowering accepts global, shared and generic).
            _ => Plan::sync(cfg.l1d.latency, 1),
        }
    }
}

/// Adds to `out` (not cleared: earlier waves' lines stay, a line met again gains sectors) the
/// lines of `line` bytes the lanes of `lanes` touch, each `size` bytes from its address.
fn add_lines(
    addrs: &Lanes,
    lanes: u32,
    size: u32,
    line: u64,
    sector: u64,
    out: &mut Vec<LineAccess>,
) {
    let line_shift = line.max(1).trailing_zeros();
    let sector_shift = sector.clamp(1, line.max(1)).trailing_zeros();
    let mut m = lanes;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let last = addrs[l].wrapping_add(size.max(1) as u64 - 1);
        let mut a = addrs[l];
        loop {
            let base = a >> line_shift << line_shift;
            let bit = 1u32 << (((a - base) >> sector_shift) & 31);
            match out.iter_mut().find(|x| x.addr == base) {
                Some(x) => x.sectors |= bit,
                None => out.push(LineAccess {
                    addr: base,
                    sectors: bit,
                    whole: 0,
                }),
            }
            let next = ((a >> sector_shift) + 1) << sector_shift;
            if next > last || next <= a {
                break;
            }
            a = next;
        }
    }
}

/// Sets each line's `whole` mask: the sectors every byte of which some wave writes (lines
/// longer than 128 bytes: every touched sector), as `coalesce::mark_whole_sectors` does for
/// one access.
fn mark_whole(w: &Waves, line: u64, sector: u64, out: &mut [LineAccess]) {
    let spans = || {
        w.iter().flat_map(|(addrs, mask, size)| {
            (0..WARP_SIZE)
                .filter(move |&l| mask >> l & 1 != 0)
                .map(move |l| (addrs[l], size))
        })
    };
    mark_whole_spans(spans, line, sector, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waves_add_their_sectors_to_the_lines_earlier_waves_touched() {
        // Two waves of 4-byte words: the first covers sector 0 of line 0, the second sector 1
        // of line 0 and sector 0 of line 128.
        let mut out = Vec::new();
        let a: Lanes = std::array::from_fn(|l| 4 * l as u64 % 32);
        add_lines(&a, u32::MAX, 4, 128, 32, &mut out);
        let b: Lanes = std::array::from_fn(|l| if l < 8 { 32 + 4 * l as u64 } else { 128 });
        add_lines(&b, u32::MAX, 4, 128, 32, &mut out);
        let got: Vec<(u64, u32)> = out.iter().map(|x| (x.addr, x.sectors)).collect();
        assert_eq!(got, [(0, 0b11), (128, 0b1)]);
    }

    #[test]
    fn a_sector_is_whole_when_the_waves_together_write_every_byte() {
        // Wave 0 writes bytes 0..16 of sector 0, wave 1 bytes 16..32: whole only together.
        let mut w = Waves {
            n: 2,
            ..Waves::default()
        };
        for (i, base) in [(0usize, 0u64), (1, 16)] {
            w.addrs[i] = std::array::from_fn(|l| base + 4 * (l as u64 % 4));
            w.mask[i] = 0xF;
            w.size[i] = 4;
        }
        let mut out = vec![LineAccess {
            addr: 0,
            sectors: 1,
            whole: 0,
        }];
        mark_whole(&w, 128, 32, &mut out);
        assert_eq!(out[0].whole, 1);
        w.n = 1;
        mark_whole(&w, 128, 32, &mut out);
        assert_eq!(out[0].whole, 0);
    }
}
