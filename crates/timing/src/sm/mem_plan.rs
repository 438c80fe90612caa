//! How an instruction about to issue will be timed: a result known at issue (`Plan::Sync`:
//! arithmetic, shared memory with its bank conflicts, a perfect constant cache) or the line
//! accesses the LD/ST unit will serve (`Plan::Async`: global, local, constant and texture
//! accesses, staged in `SmMem::lines`). Computed from the warp's addresses before the
//! instruction executes; changes nothing but the staging buffer.

use super::memory::{AccKind, SmMem};
use crate::classify::{MemClass, OpTiming};
use crate::mem::coalesce::{atomic_requests, bank_degree, lines, mark_whole_sectors};
use warpsim_core::config::{AtomicRequests, GpuConfig};
use warpsim_core::exec::context::{LaunchCtx, MemCtx};
use warpsim_core::exec::mem_ops::addresses;
use warpsim_core::exec::operands::{classify_generic, Lanes, Window};
use warpsim_core::exec::texture::fetch::lane_addresses;
use warpsim_core::exec::warp::{Frame, Warp, WARP_SIZE};
use warpsim_core::ir::{Inst, Op, Space};

/// Timing of a result known at issue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Access {
    pub latency: u32,
    /// Cycles its unit stays busy.
    pub occupancy: u32,
}

/// How an instruction's result is timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plan {
    /// Known at issue.
    Sync(Access),
    /// Global/local/constant/texture memory: the lines staged in `SmMem::lines` decide.
    Async {
        kind: AccKind,
        /// A long-latency result for the scoreboard ([`long_latency`]).
        long: bool,
    },
}

impl Plan {
    pub fn sync(latency: u32, occupancy: u32) -> Plan {
        Plan::Sync(Access { latency, occupancy })
    }
}

/// The instruction a warp is about to issue, with what its addresses are computed from.
pub(crate) struct AtIssue<'x, 'a> {
    pub launch: &'x LaunchCtx<'a>,
    pub mem: &'x MemCtx<'x>,
    pub warp: &'x Warp,
    pub frame: &'x Frame,
    pub inst: Option<&'x Inst>,
    pub timing: &'x OpTiming,
    /// The warp's dynamic id (`WarpSlots::age`): local memory's model addresses are per thread.
    pub age: u64,
}

impl SmMem {
    /// The plan of `at`'s instruction; an asynchronous one leaves its line accesses in
    /// `self.lines`.
    pub(crate) fn plan(&mut self, cfg: &GpuConfig, at: &AtIssue) -> Plan {
        let Some(inst) = at.inst else {
            return Plan::sync(at.timing.latency, at.timing.initiation);
        };
        if !matches!(at.timing.mem, MemClass::Data | MemClass::Const) {
            return Plan::sync(at.timing.latency, at.timing.initiation);
        }
        let exec = executing_lanes(at.warp, at.frame, inst);
        if exec == 0 {
            return Plan::sync(1, 1);
        }
        if inst.op == Op::Tensor {
            // Fragment loads and stores: `tensor_access.rs`.
            return self.tensor_plan(cfg, at, inst, exec);
        }
        let mut lanes: Lanes = [0; WARP_SIZE];
        // Textures and surfaces: the global addresses of their elements; a `cp.async` is timed
        // by its global source (`src[1]`).
        let tex = matches!(inst.op, Op::Tex | Op::Tld4 | Op::Suld | Op::Sust);
        let tex_bytes = if tex {
            lane_addresses(at.launch, at.mem, at.warp, inst, exec, &mut lanes)
        } else {
            let src = if inst.op == Op::CpAsync { 1 } else { 0 };
            addresses(
                at.launch,
                at.mem,
                at.warp,
                at.frame,
                &inst.src[src],
                inst.mods.space,
                &mut lanes,
            );
            0
        };
        let space = if tex {
            Space::Global
        } else {
            resolve_space(inst.mods.space, exec, &mut lanes)
        };
        match space {
            Space::Shared => {
                let extra = bank_degree(&lanes, exec, cfg.sm.shared_banks).saturating_sub(1);
                Plan::sync(cfg.sm.shared_latency + extra, 1 + extra)
            }
            // A perfect constant cache: no LD/ST cycle, results at once.
            Space::Const | Space::KernelParam if cfg.const_cache.perfect => Plan::sync(1, 1),
            Space::Global | Space::Local | Space::Const | Space::KernelParam => {
                let size = if tex {
                    tex_bytes
                } else {
                    inst.ty.bytes().max(1) * (inst.mods.vec.max(1) as u32)
                };
                self.stage_lines(cfg, inst, space, exec, size, at.age, &mut lanes);
                Plan::Async {
                    kind: self.access_kind(inst, space),
                    long: tex || long_latency(space),
                }
            }
            // Function parameters and other on-chip spaces: an L1-latency access.
            _ => Plan::sync(cfg.l1d.latency, 1),
        }
    }

    /// Splits the access of lanes `exec` at `lanes` (`size` bytes each) into `self.lines`: by
    /// the line of the cache that serves it, one line per LD/ST cycle (GPGPU-Sim: constant
    /// accesses by the constant cache's block, `gpgpu_cache_constl1_linesize`).
    #[allow(clippy::too_many_arguments)] // the access's parts; a struct would only rename them
    fn stage_lines(
        &mut self,
        cfg: &GpuConfig,
        inst: &Inst,
        space: Space,
        exec: u32,
        size: u32,
        age: u64,
        lanes: &mut Lanes,
    ) {
        // Global addresses are their own model addresses.
        if space != Space::Global {
            for (l, a) in lanes.iter_mut().enumerate() {
                *a = SmMem::model_addr(space, *a, age * WARP_SIZE as u64 + l as u64);
            }
        }
        let line = if matches!(inst.op, Op::Tex | Op::Tld4) {
            self.tex_line_bytes()
        } else if matches!(space, Space::Const | Space::KernelParam) {
            self.const_line_bytes()
        } else {
            self.line_bytes()
        };
        let sector = cfg.coalescer.sector_bytes as u64;
        let atomic = matches!(inst.op, Op::Atom | Op::Red);
        if atomic && cfg.coalescer.atomics == AtomicRequests::PerOverlap {
            atomic_requests(lanes, exec, size, line, sector, &mut self.lines);
        } else {
            lines(lanes, exec, size, line, sector, &mut self.lines);
            // A sectored L2 reads back only the sectors a store wrote whole.
            if cfg.l2.sectored && matches!(inst.op, Op::St | Op::Sust) {
                mark_whole_sectors(lanes, exec, size, line, sector, &mut self.lines);
            }
        }
    }

    /// Which path through the SM's caches `inst`'s access in `space` takes.
    fn access_kind(&self, inst: &Inst, space: Space) -> AccKind {
        let global = space == Space::Global;
        match inst.op {
            _ if matches!(space, Space::Const | Space::KernelParam) => AccKind::Const,
            Op::Ld | Op::Suld => self.load_kind(global, &inst.mods),
            // `.ca` allocates in L1, `.cg` goes around it.
            Op::CpAsync => AccKind::Load {
                alloc: !inst.mods.l2_only,
            },
            // Texture fetches go through the texture cache.
            Op::Tex | Op::Tld4 => AccKind::Tex,
            Op::St | Op::Sust => self.store_kind(global),
            _ => AccKind::Atomic,
        }
    }
}

/// The lanes of `warp` that execute `inst`: active, and passing its guard predicate.
fn executing_lanes(warp: &Warp, frame: &Frame, inst: &Inst) -> u32 {
    let active = warp.active_mask();
    match inst.guard.pred {
        None => active,
        Some(p) => {
            let negate = if inst.guard.negated { u32::MAX } else { 0 };
            active & (warp.preds[frame.pred_base + p as usize] ^ negate)
        }
    }
}

/// The space a generic access goes to, judged by its first executing lane (a local window
/// access has its lanes' addresses turned into local offsets); other spaces are their own.
pub(crate) fn resolve_space(space: Space, exec: u32, lanes: &mut Lanes) -> Space {
    if space != Space::Generic {
        return space;
    }
    match classify_generic(lanes[exec.trailing_zeros() as usize]) {
        Window::Shared(_) => Space::Shared,
        Window::Local(_) => {
            for a in lanes.iter_mut() {
                if let Window::Local(off) = classify_generic(*a) {
                    *a = off;
                }
            }
            Space::Local
        }
        Window::Global(_) => Space::Global,
    }
}

/// Whether a load from `space` is a *long operation*: what two-level scheduling demotes a warp
/// for when its next instruction reads the result. GPGPU-Sim's `Scoreboard::reserveRegisters`
/// marks loads from global, local, kernel-parameter and texture space (`longopregs`), whatever
/// cache then serves them; constant and shared loads are short.
pub(crate) fn long_latency(space: Space) -> bool {
    matches!(space, Space::Global | Space::Local | Space::KernelParam)
}

#[cfg(test)]
mod tests {
    use super::{long_latency, resolve_space};
    use warpsim_core::exec::operands::{classify_generic, Lanes, Window};
    use warpsim_core::exec::warp::WARP_SIZE;
    use warpsim_core::ir::Space;

    #[test]
    fn explicit_spaces_are_their_own() {
        let mut lanes: Lanes = [0x1000; WARP_SIZE];
        for sp in [Space::Global, Space::Shared, Space::Local, Space::Const] {
            assert_eq!(resolve_space(sp, 1, &mut lanes), sp);
        }
        assert_eq!(lanes, [0x1000; WARP_SIZE], "addresses untouched");
    }

    #[test]
    fn a_generic_access_goes_where_its_first_executing_lane_points() {
        // Find a generic address in each window by probing (the windows' bases are the
        // executor's business, not this test's).
        let probe = |want: fn(&Window) -> bool| {
            (0..64u64)
                .map(|i| i << 40)
                .chain((0..4096u64).map(|i| i << 20))
                .find(|&a| want(&classify_generic(a)))
        };
        let local = probe(|w| matches!(w, Window::Local(_))).expect("a local window");
        let global = probe(|w| matches!(w, Window::Global(_))).expect("a global window");
        let mut lanes: Lanes = [global; WARP_SIZE];
        lanes[3] = local;
        // Lane 3 executes first: the access is local, and its lanes become local offsets.
        assert_eq!(
            resolve_space(Space::Generic, 0b1000, &mut lanes),
            Space::Local
        );
        let Window::Local(off) = classify_generic(local) else {
            unreachable!()
        };
        assert_eq!(lanes[3], off);
        let mut lanes: Lanes = [global; WARP_SIZE];
        lanes[3] = local;
        assert_eq!(
            resolve_space(Space::Generic, 0b1, &mut lanes),
            Space::Global
        );
    }

    #[test]
    fn kernel_parameter_loads_are_long_operations_as_in_gpgpusim() {
        for (space, long) in [
            (Space::Global, true),
            (Space::Local, true),
            (Space::KernelParam, true),
            (Space::Const, false),
            (Space::Shared, false),
        ] {
            assert_eq!(long_latency(space), long, "{space:?}");
        }
    }
}
