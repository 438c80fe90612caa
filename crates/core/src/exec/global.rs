//! What an instruction sees of global memory: the memory itself, or a *staged* view of it.
//!
//! Functional execution runs one warp at a time and reads and writes [`GlobalMemory`]
//! directly ([`Global::Direct`]). The timing model steps every SM through a cycle, possibly
//! on several threads, and must give the same results whatever their number; so each SM
//! executes against [`Global::Staged`]: it reads the memory as it was when the cycle began,
//! plus what the same SM stored earlier in the cycle, and its stores, global atomics and
//! device-heap calls go into its [`Journal`]. The engine commits the journals at the end of
//! the cycle, SM by SM in SM order ([`Journal::commit`]), each in the order its SM made them.
//!
//! What that changes from executing in place: an SM no longer sees a store or atomic another
//! SM made in the same cycle (it sees it one cycle later, as if the store were still in
//! flight, which CUDA's memory model allows without a fence), and an atomic's old value
//! reaches its register at the end of the cycle it issues in (the scoreboard holds that
//! register far longer). Architecture invariant: nothing read in a staged cycle depends on
//! another SM's work in that cycle.

use super::fault::FaultKind;
use super::memory::{GlobalFault, GlobalMemory, Nearby};
use super::warp::{lanes, Frame, WARP_SIZE};
use crate::ir::{AtomOp, Op, Opnd, Pc, Space, Ty};
use std::cell::Cell;

type Lanes = [u64; WARP_SIZE];

/// Global memory as one instruction sees it.
pub enum Global<'m> {
    /// Reads and writes go to the memory (functional execution).
    Direct(&'m mut GlobalMemory),
    /// Reads see `base` plus the journal's stores; writes go to the journal (timing model).
    Staged {
        base: &'m GlobalMemory,
        journal: &'m mut Journal,
    },
}

impl Global<'_> {
    /// The memory (for a staged view, as the cycle began): allocations, textures, fault
    /// reports.
    #[inline]
    pub fn base(&self) -> &GlobalMemory {
        match self {
            Global::Direct(g) => g,
            Global::Staged { base, .. } => base,
        }
    }

    /// The journal of a staged view (`None`: executing in place).
    #[inline]
    pub fn journal(&mut self) -> Option<&mut Journal> {
        match self {
            Global::Direct(_) => None,
            Global::Staged { journal, .. } => Some(journal),
        }
    }

    /// Device `malloc` ([`GlobalMemory::heap_malloc`]); a staged view defers it instead
    /// (`DeferredOp::Malloc`), so here it has no heap and answers `None`.
    pub fn heap_malloc(&mut self, bytes: u64) -> Option<u64> {
        match self {
            Global::Direct(g) => g.heap_malloc(bytes),
            Global::Staged { .. } => None,
        }
    }

    /// Device `free` ([`GlobalMemory::heap_free`]); deferred by a staged view, as `malloc`.
    pub fn heap_free(&mut self, addr: u64) -> bool {
        match self {
            Global::Direct(g) => g.heap_free(addr),
            Global::Staged { .. } => false,
        }
    }

    /// Whether `[addr, addr+len)` lies inside one live allocation.
    pub fn contains(&self, addr: u64, len: u64) -> bool {
        match self {
            Global::Direct(g) => g.contains(addr, len),
            Global::Staged { base, journal } => base.contains_in(&journal.hint, addr, len),
        }
    }

    /// Where a faulting access lies relative to the allocations.
    pub fn nearby(&self, addr: u64, len: u64) -> Nearby {
        self.base().nearby(addr, len)
    }

    /// [`GlobalMemory::read_uint`].
    #[inline]
    pub fn read_uint(&self, addr: u64, size: u32) -> Result<u64, GlobalFault> {
        match self {
            Global::Direct(g) => g.read_uint(addr, size),
            Global::Staged { base, journal } => {
                let v = base.read_uint_in(&journal.hint, addr, size)?;
                Ok(journal.overlay(addr, size, v))
            }
        }
    }

    /// [`GlobalMemory::write_uint`].
    #[inline]
    pub fn write_uint(&mut self, addr: u64, size: u32, value: u64) -> Result<(), GlobalFault> {
        match self {
            Global::Direct(g) => g.write_uint(addr, size, value),
            Global::Staged { base, journal } => {
                if !base.contains_in(&journal.hint, addr, size as u64) {
                    return Err(GlobalFault::OutOfBounds);
                }
                journal.store(addr, size, value);
                Ok(())
            }
        }
    }

    /// [`GlobalMemory::read_lanes`].
    #[inline]
    pub fn read_lanes<const N: usize>(
        &self,
        addr: &Lanes,
        mask: u32,
        out: &mut Lanes,
    ) -> Result<(), usize> {
        match self {
            Global::Direct(g) => g.read_lanes::<N>(addr, mask, out),
            Global::Staged { base, journal } => {
                base.read_lanes_in::<N>(&journal.hint, addr, mask, out)?;
                journal.overlay_lanes(addr, mask, N as u32, out);
                Ok(())
            }
        }
    }

    /// [`GlobalMemory::write_lanes`].
    #[inline]
    pub fn write_lanes<const N: usize>(
        &mut self,
        addr: &Lanes,
        mask: u32,
        vals: &Lanes,
    ) -> Result<(), usize> {
        match self {
            Global::Direct(g) => g.write_lanes::<N>(addr, mask, vals),
            Global::Staged { base, journal } => {
                let checked = base.check_lanes_in(&journal.hint, addr, mask, N as u64);
                let upto = checked.err().map_or(mask, |l| mask & ((1u32 << l) - 1));
                for l in lanes(upto) {
                    journal.store(addr[l], N as u32, vals[l]);
                }
                checked
            }
        }
    }

    /// [`GlobalMemory::read_vec_lanes`].
    #[inline]
    pub fn read_vec_lanes<const N: usize>(
        &self,
        addr: &Lanes,
        mask: u32,
        n: usize,
        out: &mut [Lanes; 4],
    ) -> Result<(), usize> {
        match self {
            Global::Direct(g) => g.read_vec_lanes::<N>(addr, mask, n, out),
            Global::Staged { base, journal } => {
                base.read_vec_lanes_in::<N>(&journal.hint, addr, mask, n, out)?;
                if !journal.stores.is_empty() {
                    for l in lanes(mask) {
                        for (i, o) in out.iter_mut().enumerate().take(n) {
                            let a = addr[l] + (i * N) as u64;
                            o[l] = journal.overlay(a, N as u32, o[l]);
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// [`GlobalMemory::write_vec_lanes`].
    #[inline]
    pub fn write_vec_lanes<const N: usize>(
        &mut self,
        addr: &Lanes,
        mask: u32,
        n: usize,
        vals: &[Lanes; 4],
    ) -> Result<(), usize> {
        match self {
            Global::Direct(g) => g.write_vec_lanes::<N>(addr, mask, n, vals),
            Global::Staged { base, journal } => {
                let span = (N * n) as u64;
                let checked = base.check_lanes_in(&journal.hint, addr, mask, span);
                let upto = checked.err().map_or(mask, |l| mask & ((1u32 << l) - 1));
                for l in lanes(upto) {
                    for (i, v) in vals.iter().enumerate().take(n) {
                        journal.store(addr[l] + (i * N) as u64, N as u32, v[l]);
                    }
                }
                checked
            }
        }
    }
}

/// One SM's global-memory effects of one cycle, in the order it made them.
#[derive(Debug, Default)]
pub struct Journal {
    stores: Vec<Store>,
    /// The byte range `stores` cover (`lo >= hi`: none), so most reads skip the overlay.
    lo: u64,
    hi: u64,
    deferred: Vec<Deferred>,
    /// Where this SM's allocation lookups start (the shared memory's own hint is never
    /// written by a staged view).
    hint: Cell<usize>,
    /// The warp the executor is running for and the instruction (function, pc): the engine
    /// sets them before each instruction; deferred operations name them, for their results
    /// and their fault reports.
    warp: u32,
    func: u32,
    pc: Pc,
}

#[derive(Clone, Copy, Debug)]
struct Store {
    addr: u64,
    size: u8,
    value: u64,
}

/// An operation whose effect on global memory, and on its warp's registers, waits for the
/// commit: it must see every earlier SM's effects of the cycle, so it cannot run at issue.
#[derive(Clone, Debug)]
pub struct Deferred {
    /// The warp, as the engine named it, and the instruction ([`Journal::set_warp`]).
    pub warp: u32,
    pub func: u32,
    pub pc: Pc,
    /// How many of the journal's stores came before it.
    after: usize,
    /// The warp's frame when it issued (results go to its registers).
    pub frame: Frame,
    /// The lanes it applies to.
    pub mask: u32,
    pub op: DeferredOp,
}

#[derive(Clone, Debug)]
// Entries live in the journal's reused vector: boxing the large variant would allocate per
// atomic in the per-cycle path.
#[allow(clippy::large_enum_variant)]
pub enum DeferredOp {
    /// `atom` / `red` lanes whose address is global, applied in lane order.
    Atom {
        op: Op,
        atom: AtomOp,
        ty: Ty,
        space: Space,
        size: u32,
        dst: Opnd,
        addr: Lanes,
        b: Lanes,
        c: Lanes,
    },
    /// Device `malloc` of `size[l]` bytes per lane; the pointer goes to `dst`.
    Malloc { size: Lanes, dst: Opnd },
    /// Device `free` of `ptr[l]` per lane.
    Free { ptr: Lanes },
}

impl Deferred {
    /// `op` over `mask` of a warp in frame `frame`, not yet placed in a journal.
    pub fn new(frame: Frame, mask: u32, op: DeferredOp) -> Deferred {
        Deferred {
            warp: 0,
            func: frame.func,
            pc: 0,
            after: 0,
            frame,
            mask,
            op,
        }
    }
}

impl Journal {
    /// Deferred operations from now on belong to warp `warp` (the engine's name for it),
    /// executing the instruction at `pc` of function `func`.
    #[inline]
    pub fn set_warp(&mut self, warp: u32, func: u32, pc: Pc) {
        (self.warp, self.func, self.pc) = (warp, func, pc);
    }

    /// Nothing to commit.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.stores.is_empty() && self.deferred.is_empty()
    }

    /// Defers `op` of the current warp over `mask`, after the stores made so far.
    pub fn defer(&mut self, frame: Frame, mask: u32, op: DeferredOp) {
        self.deferred.push(Deferred {
            warp: self.warp,
            func: self.func,
            pc: self.pc,
            after: self.stores.len(),
            frame,
            mask,
            op,
        });
    }

    /// Where this SM's allocation lookups start.
    #[inline]
    pub fn hint(&self) -> &Cell<usize> {
        &self.hint
    }

    /// [`Journal::overlay`] of each lane of `mask` (`size` bytes at `addr[l]` read as
    /// `out[l]`).
    #[inline]
    pub fn overlay_lanes(&self, addr: &Lanes, mask: u32, size: u32, out: &mut Lanes) {
        if self.stores.is_empty() {
            return;
        }
        for l in lanes(mask) {
            out[l] = self.overlay(addr[l], size, out[l]);
        }
    }

    #[inline]
    fn store(&mut self, addr: u64, size: u32, value: u64) {
        if self.lo >= self.hi {
            (self.lo, self.hi) = (addr, addr + size as u64);
        } else {
            self.lo = self.lo.min(addr);
            self.hi = self.hi.max(addr + size as u64);
        }
        self.stores.push(Store {
            addr,
            size: size as u8,
            value,
        });
    }

    /// `value`, read from memory at `addr` (`size` bytes), with the bytes this cycle's
    /// stores wrote since laid over it, oldest first.
    #[inline]
    fn overlay(&self, addr: u64, size: u32, value: u64) -> u64 {
        let end = addr + size as u64;
        if end <= self.lo || addr >= self.hi {
            return value;
        }
        let mut bytes = value.to_le_bytes();
        for s in &self.stores {
            let s_end = s.addr + s.size as u64;
            if s.addr >= end || s_end <= addr {
                continue;
            }
            let from = s.value.to_le_bytes();
            for a in s.addr.max(addr)..s_end.min(end) {
                bytes[(a - addr) as usize] = from[(a - s.addr) as usize];
            }
        }
        u64::from_le_bytes(bytes)
    }

    /// Applies the cycle's effects to `mem` in the order they were made and empties the
    /// journal: the stores, and at its place each deferred operation, which `apply` carries
    /// out (it has the warp; [`apply_deferred`] does the work). Stops at the first error.
    pub fn commit<E>(
        &mut self,
        mem: &mut GlobalMemory,
        mut apply: impl FnMut(&mut GlobalMemory, &Deferred) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut next = 0;
        let mut result = Ok(());
        for d in &self.deferred {
            write_stores(mem, &self.stores[next..d.after]);
            next = d.after;
            if let Err(e) = apply(mem, d) {
                result = Err(e);
                break;
            }
        }
        if result.is_ok() {
            write_stores(mem, &self.stores[next..]);
        }
        self.stores.clear();
        self.deferred.clear();
        (self.lo, self.hi) = (0, 0);
        result
    }
}

fn write_stores(mem: &mut GlobalMemory, stores: &[Store]) {
    for s in stores {
        // Checked when staged; only a deferred `free` of the same cycle can have removed the
        // allocation since, and then the store is dropped as the freed memory would drop it.
        let _ = mem.write_uint(s.addr, s.size as u32, s.value);
    }
}

/// Carries out deferred operation `d` of warp `w` at the commit, `m` being its CTA's view of
/// the memories with global memory direct: an atomic's lanes read-modify-write in lane order
/// and their old values go to the destination; `malloc` and `free` run on the device heap in
/// lane order. Returns the faulting lane and why.
pub fn apply_deferred(
    k: &super::context::LaunchCtx,
    m: &mut super::context::MemCtx,
    w: &mut super::warp::Warp,
    d: &Deferred,
) -> Result<(), (usize, FaultKind)> {
    match &d.op {
        DeferredOp::Atom { .. } => super::mem_ops::atom_commit(k, m, w, d),
        DeferredOp::Malloc { size, dst } => {
            for lane in lanes(d.mask) {
                let p = m.global.heap_malloc(size[lane]).unwrap_or(0);
                super::step::write_ret_at(k, m, w, &d.frame, lane, dst, 8, p);
            }
            Ok(())
        }
        DeferredOp::Free { ptr } => {
            for lane in lanes(d.mask) {
                if ptr[lane] != 0 && !m.global.heap_free(ptr[lane]) {
                    return Err((lane, FaultKind::BadFree { address: ptr[lane] }));
                }
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests;
