//! What the SMs' caches keep from one launch to the next, and where each module's code sits in
//! instruction memory.
//!
//! GPGPU-Sim invalidates only the L1 data cache between kernels (`-gpgpu_flush_l1_cache`, set
//! in both tested configs, calls `ldst_unit::invalidate`, which flushes `m_L1D` alone); the
//! instruction, constant and texture caches keep their lines. A kernel launched again finds
//! its code and its parameters there: parameters sit at the same constant-space offsets in
//! every launch (GPGPU-Sim's `function_info::finalize` places each kernel's from 0, as the
//! timing model's `PARAM_BASE + offset` does), and every loaded kernel has PCs of its own.
//! Measured there on `correlation/programs/launch_many.cu` (gtx480): the second and later
//! launches of `bump` add no L1I and no L1C misses, and take 558 cycles against 940 for the
//! first.
//!
//! GPGPU-Sim's CTA dispatcher also goes on where the previous launch stopped
//! ([`BetweenLaunches::next_sm`]): on the same program, four one-CTA launches ran on SMs 4, 5, 6
//! and 7 after a four-CTA one.
//!
//! The engine's [`MemSystem`](crate::MemSystem) holds a [`BetweenLaunches`]: each SM takes its
//! caches back at the start of a launch ([`BetweenLaunches::take`]) and leaves them at the end
//! ([`BetweenLaunches::keep`]), with what was in flight dropped (the memory system drops the
//! replies too) and the counters zeroed.

use super::icache::ICache;
use super::Sm;
use crate::mem::cache::TagArray;
use crate::policy::IssuePolicy;

/// One SM's caches that survive a launch.
pub struct KeptCaches {
    pub(crate) icache: ICache,
    pub(crate) constant: TagArray,
    pub(crate) texture: TagArray,
}

impl<P: IssuePolicy, F> Sm<P, F> {
    /// Starts this launch with the caches the SM's previous launch left (built for the same
    /// configuration; a perfect I-cache asked for now is kept perfect).
    pub(crate) fn adopt(&mut self, mut k: KeptCaches) {
        if k.icache.is_perfect() != self.front.icache().is_perfect() {
            return;
        }
        self.front.swap_icache(&mut k.icache);
        self.mem.swap_read_only(&mut k.constant, &mut k.texture);
    }

    /// The caches to keep for the next launch.
    pub(crate) fn into_kept(self) -> KeptCaches {
        let (constant, texture) = self.mem.into_read_only();
        KeptCaches {
            icache: self.front.into_icache(),
            constant,
            texture,
        }
    }
}

/// Instruction-memory placement of the modules launched so far: each module's code starts
/// where the previous one's ends, in order of first launch (module ids from the Device).
#[derive(Default)]
pub struct CodeSpace {
    /// Indexed by module id; `u64::MAX` while that module has not been launched.
    bases: Vec<u64>,
    next: u64,
}

impl CodeSpace {
    /// Where module `id`'s code starts; a module seen for the first time is placed after the
    /// others, taking `bytes` (a multiple of the I-cache line, so modules share no line).
    pub fn base(&mut self, id: u32, bytes: u64) -> u64 {
        let id = id as usize;
        if self.bases.len() <= id {
            self.bases.resize(id + 1, u64::MAX);
        }
        if self.bases[id] == u64::MAX {
            self.bases[id] = self.next;
            self.next += bytes;
        }
        self.bases[id]
    }
}

/// What outlives a launch on the SM side.
#[derive(Default)]
pub struct BetweenLaunches {
    sms: Vec<Option<KeptCaches>>,
    pub code: CodeSpace,
    /// The SM the dispatcher offers the next CTA to first: its round robin goes on from one
    /// launch to the next (GPGPU-Sim's `m_last_cluster_issue`, set once when the GPU is
    /// built), so a run of one-CTA launches visits every SM and meets their cold caches.
    pub next_sm: usize,
}

impl BetweenLaunches {
    /// SM `sm`'s caches as the last launch left them (`None` before its first launch).
    pub fn take(&mut self, sm: usize) -> Option<KeptCaches> {
        self.sms.get_mut(sm).and_then(Option::take)
    }

    /// SM `sm`'s caches at the end of a launch of `cycles` cycles.
    pub fn keep(&mut self, sm: usize, mut k: KeptCaches, cycles: u64) {
        k.icache.end_launch(cycles);
        if self.sms.len() <= sm {
            self.sms.resize_with(sm + 1, || None);
        }
        self.sms[sm] = Some(k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modules_get_disjoint_code_in_first_launch_order() {
        let mut c = CodeSpace::default();
        assert_eq!(c.base(2, 256), 0);
        assert_eq!(c.base(0, 128), 256);
        assert_eq!(c.base(2, 999), 0, "placed once");
        assert_eq!(c.base(1, 128), 384);
    }
}
