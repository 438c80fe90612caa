//! One L2 slice (two per memory partition on both presets): a write-back, write-allocate tag
//! array with MSHRs in front of its partition's DRAM channel. Each cycle it installs at most
//! one line returned by DRAM (answering the requests merged on it) and serves at most one
//! request that has crossed the ROP pipeline (`l2.latency`, applied on arrival). A request
//! that cannot proceed (MSHRs full, DRAM queue full) stays at the head and retries: the slice
//! stalls, which backs up the interconnect. Writes allocate without fetching the line (the
//! model keeps no byte masks) and are acknowledged at once.

use super::cache::{SliceLocal, TagArray};
use super::dram::{Channel, DramReq};
use super::mshr::{MshrAdd, Mshrs};
use super::{CacheCounts, Kind, Req};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

pub struct L2Slice {
    pub id: u16,
    tags: TagArray,
    mshrs: Mshrs<Req>,
    /// Requests that crossed the interconnect: `(cycle they reach the tags, seq, request)`.
    pub(super) input: BinaryHeap<Reverse<(u64, u64, Req)>>,
    /// Lines returned by DRAM, to install.
    pub(super) fills: VecDeque<u64>,
    /// Dirty lines evicted, to write to DRAM.
    writebacks: VecDeque<u64>,
    waiters: Vec<Req>,
    pub counts: CacheCounts,
}

/// Where a slice's DRAM requests go and how their banks/rows are found.
pub trait Locate {
    fn dram_req(&self, addr: u64, write: bool, slice: u16) -> DramReq;
}

impl L2Slice {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: u16,
        size: u32,
        assoc: u32,
        line: u32,
        mshrs: u32,
        merge: u32,
        index: warpsim_core::config::SetIndex,
        local: SliceLocal,
    ) -> L2Slice {
        L2Slice {
            id,
            tags: TagArray::new(size, assoc, line, index).for_slice(local),
            mshrs: Mshrs::new(mshrs, merge),
            input: BinaryHeap::with_capacity(256),
            fills: VecDeque::with_capacity(64),
            writebacks: VecDeque::with_capacity(64),
            waiters: Vec::with_capacity(merge.max(1) as usize),
            counts: CacheCounts::default(),
        }
    }

    /// A new launch: in-flight requests, fills, write-backs and MSHRs are dropped (their
    /// lines were never installed, so nothing waits on them); tags and dirty bits stay.
    pub fn begin_launch(&mut self) {
        self.input.clear();
        self.fills.clear();
        self.writebacks.clear();
        self.mshrs.clear();
        self.counts = CacheCounts::default();
    }

    pub fn busy(&self) -> bool {
        !(self.input.is_empty() && self.fills.is_empty() && self.writebacks.is_empty())
    }

    /// Earliest cycle this slice has work (`u64::MAX` when none).
    pub fn next_event(&self, now: u64) -> u64 {
        if !self.fills.is_empty() || !self.writebacks.is_empty() {
            return now + 1;
        }
        self.input.peek().map_or(u64::MAX, |Reverse((t, _, _))| *t)
    }

    /// One cycle; answers go to `replies` (requests to send back to their SM).
    pub fn cycle(
        &mut self,
        now: u64,
        dram_latency: u64,
        ch: &mut Channel,
        map: &impl Locate,
        replies: &mut Vec<Req>,
    ) {
        if let Some(line) = self.fills.pop_front() {
            self.install(line, replies);
        }
        if let Some(&line) = self.writebacks.front() {
            if ch.can_accept() {
                self.writebacks.pop_front();
                let bytes = self.tags.line_bytes();
                ch.push(now + dram_latency, map.dram_req(line, true, self.id), bytes);
            }
        }
        let Some(&Reverse((at, _, r))) = self.input.peek() else {
            return;
        };
        if at > now {
            return;
        }
        if self.serve(now, r, dram_latency, ch, map, replies) {
            self.input.pop();
        } else {
            self.counts.reservation_fails += 1;
        }
    }

    /// Serves `r`; false when it must retry.
    fn serve(
        &mut self,
        now: u64,
        r: Req,
        dram_latency: u64,
        ch: &mut Channel,
        map: &impl Locate,
        replies: &mut Vec<Req>,
    ) -> bool {
        let line = self.tags.line_of(r.addr);
        let write = r.kind != Kind::Read;
        if self.mshrs.pending(line) {
            // A miss to this line is in flight: wait for it (a write merges as well, so it
            // cannot be overtaken by the fill).
            if self.mshrs.add(line, r) == MshrAdd::Full {
                return false;
            }
            self.counts.merged += 1;
            return true;
        }
        if self.tags.access(line, write) {
            self.counts.hits += 1;
            replies.push(r);
            return true;
        }
        if r.kind == Kind::Write {
            // Write-allocate without a fetch.
            self.counts.misses += 1;
            self.evict_into(line, true);
            replies.push(r);
            return true;
        }
        if !ch.can_accept() || !self.mshrs.can_add(line) {
            return false;
        }
        self.counts.misses += 1;
        self.mshrs.add(line, r);
        // Only the sectors the miss asks for come from DRAM (GPGPU-Sim's sectored L2); the
        // line is then installed whole (no per-sector valid bits: a later access to another
        // sector of it hits).
        ch.push(
            now + dram_latency,
            map.dram_req(line, false, self.id),
            r.bytes as u64,
        );
        true
    }

    fn install(&mut self, line: u64, replies: &mut Vec<Req>) {
        let mut w = std::mem::take(&mut self.waiters);
        self.mshrs.complete(line, &mut w);
        let dirty = w.iter().any(|r| r.kind != Kind::Read);
        self.evict_into(line, dirty);
        replies.extend_from_slice(&w);
        self.waiters = w;
    }

    fn evict_into(&mut self, line: u64, dirty: bool) {
        if let Some(ev) = self.tags.fill(line, dirty) {
            if ev.dirty {
                self.counts.writebacks += 1;
                self.writebacks.push_back(ev.addr);
            }
        }
    }
}
