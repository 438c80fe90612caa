//! One L2 slice (two per memory partition on both presets): a write-back, write-allocate tag
//! array with MSHRs in front of its partition's DRAM channel. Each cycle it installs at most
//! one line returned by DRAM (answering the requests merged on it) and serves at most one
//! request that has crossed the ROP pipeline (`l2.latency`, applied on arrival) — or, with
//! `l2.sector_per_cycle`, one sector: a request of `n` sectors holds the port `n` cycles, as
//! GPGPU-Sim's partition splits requests into sectors its L2 takes one per cycle. A request
//! that cannot proceed (MSHRs full, DRAM queue full) stays at the head and retries: the slice
//! stalls, which backs up the interconnect. Writes allocate without fetching the line and
//! are acknowledged at once.
//!
//! A sectored slice (`l2.sectored`, GPGPU-Sim's sectored L2 with lazy fetch on read) keeps a
//! valid bit per sector: a read or atomic that wants a sector the line lacks — never fetched,
//! or written only in part by a store — misses and fetches just the missing sectors (a
//! *sector miss* keeps the line), and a store makes readable only the sectors it writes
//! whole. A request merging into a miss in flight that wants sectors the miss did not ask
//! for fetches those too; the miss completes when its last fetch is back. Unsectored, a line
//! is whole once present.

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
    /// DRAM requests waiting for room in the channel (`l2.dram_queue`; GPGPU-Sim's L2 miss
    /// queue and L2-to-DRAM queue), oldest first, with their bytes.
    to_dram: VecDeque<(DramReq, u64)>,
    /// Their capacity (0: none, a request goes straight to the channel).
    dram_queue: usize,
    waiters: Vec<Req>,
    /// Per-sector valid bits (`l2.sectored`), sectors of `sector` bytes.
    sectored: bool,
    sector: u64,
    /// Sectors of a whole line.
    all: u32,
    /// A request holds the tag port one cycle per sector it touches (`l2.sector_per_cycle`)…
    sector_per_cycle: bool,
    /// …until this cycle.
    port_free: u64,
    pub counts: CacheCounts,
}

/// Where a slice's DRAM requests go and how their banks/rows are found.
pub trait Locate {
    fn dram_req(&self, addr: u64, write: bool, slice: u16) -> DramReq;
}

impl L2Slice {
    // One value per cache parameter, so that the unit tests build a slice without a config.
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
        sectors: Option<u32>,
    ) -> L2Slice {
        let sector = sectors.unwrap_or(line).max(1) as u64;
        L2Slice {
            id,
            tags: TagArray::new(size, assoc, line, index).for_slice(local),
            mshrs: Mshrs::new(mshrs, merge),
            input: BinaryHeap::with_capacity(256),
            fills: VecDeque::with_capacity(64),
            writebacks: VecDeque::with_capacity(64),
            to_dram: VecDeque::new(),
            dram_queue: 0,
            waiters: Vec::with_capacity(merge.max(1) as usize),
            sectored: sectors.is_some(),
            sector,
            all: Req::all_sectors(line as u64, sector),
            sector_per_cycle: false,
            port_free: 0,
            counts: CacheCounts::default(),
        }
    }

    /// A slice whose tag port takes one sector per cycle (`l2.sector_per_cycle`).
    pub fn with_sector_per_cycle(mut self, on: bool) -> L2Slice {
        self.sector_per_cycle = on;
        self
    }

    /// A slice that holds up to `n` DRAM requests the channel has no room for yet
    /// (`l2.dram_queue`).
    pub fn with_dram_queue(mut self, n: u32) -> L2Slice {
        self.dram_queue = n as usize;
        self.to_dram = VecDeque::with_capacity(self.dram_queue);
        self
    }

    /// A new launch: in-flight requests, fills, write-backs and MSHRs are dropped (their
    /// lines were never installed, so nothing waits on them); tags and dirty bits stay.
    pub fn begin_launch(&mut self) {
        self.input.clear();
        self.fills.clear();
        self.writebacks.clear();
        self.to_dram.clear();
        self.mshrs.clear();
        self.port_free = 0;
        self.counts = CacheCounts::default();
    }

    pub fn busy(&self) -> bool {
        !(self.input.is_empty()
            && self.fills.is_empty()
            && self.writebacks.is_empty()
            && self.to_dram.is_empty())
    }

    /// Earliest cycle this slice has work (`u64::MAX` when none).
    pub fn next_event(&self, now: u64) -> u64 {
        if !self.fills.is_empty() || !self.writebacks.is_empty() || !self.to_dram.is_empty() {
            return now + 1;
        }
        self.input
            .peek()
            .map_or(u64::MAX, |Reverse((t, _, _))| (*t).max(self.port_free))
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
        if let Some(&(r, bytes)) = self.to_dram.front() {
            if ch.can_accept() {
                self.to_dram.pop_front();
                ch.push(now + dram_latency, r, bytes);
            }
        }
        if let Some(line) = self.fills.pop_front() {
            self.install(line, replies);
        }
        if let Some(&line) = self.writebacks.front() {
            if self.dram_room(ch) {
                self.writebacks.pop_front();
                let bytes = self.tags.line_bytes();
                self.send_dram(
                    now + dram_latency,
                    ch,
                    map.dram_req(line, true, self.id),
                    bytes,
                );
            }
        }
        let Some(&Reverse((at, _, r))) = self.input.peek() else {
            return;
        };
        if at > now || now < self.port_free {
            return;
        }
        if self.serve(now, r, dram_latency, ch, map, replies) {
            self.input.pop();
            if self.sector_per_cycle {
                let line = self.tags.line_of(r.addr);
                let sectors = self.in_line(line, r.addr, r.sectors).count_ones().max(1);
                self.port_free = now + sectors as u64;
            }
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
        let (want, whole) = (
            self.in_line(line, r.addr, r.sectors),
            self.in_line(line, r.addr, r.whole),
        );
        if let Some(asked) = self.mshrs.fetch_mut(line).map(|f| f.sectors) {
            // A miss to this line is in flight: wait for it (a write merges as well, so it
            // cannot be overtaken by the fill); a read wanting sectors it does not fetch asks
            // for those too.
            let extra = if self.sectored && r.kind != Kind::Write {
                want & !asked
            } else {
                0
            };
            if (extra != 0 && !self.dram_room(ch)) || self.mshrs.add(line, r) == MshrAdd::Full {
                return false;
            }
            if extra != 0 {
                self.fetch(now, line, extra, dram_latency, ch, map);
            }
            self.counts.merged += 1;
            return true;
        }
        let present = self.tags.sectors(line);
        if r.kind == Kind::Write {
            // Write-allocate without a fetch: readable afterwards are the sectors it wrote whole.
            // Every way of the set waiting for a fill: the write waits (a reservation failure).
            if present.is_none() && !self.tags.can_reserve(line) {
                return false;
            }
            match present {
                Some(_) => self.counts.hits += 1,
                None => self.counts.misses += 1,
            }
            self.evict_into(line, true, whole);
            replies.push(r);
            return true;
        }
        let missing = present.map_or(want, |p| want & !p);
        if missing == 0 {
            self.tags.access(line, r.kind != Kind::Read);
            self.counts.hits += 1;
            replies.push(r);
            return true;
        }
        if !self.dram_room(ch)
            || !self.mshrs.can_add(line)
            || (present.is_none() && !self.tags.can_reserve(line))
        {
            return false;
        }
        // A miss, or (sectored) a sector miss: only the missing sectors come from DRAM. The
        // way is allocated now, not at the fill (GPGPU-Sim's allocate-on-miss, the `m` of
        // every tested config's `-gpgpu_cache:dl2`): the victim leaves, and its write-back
        // goes out, at the miss; the line is the most recently used from the miss on and no
        // victim until its data arrives.
        if present.is_some() {
            self.tags.pin(line);
        } else if let Some(Some(ev)) = self.tags.reserve(line) {
            if ev.dirty {
                self.counts.writebacks += 1;
                self.writebacks.push_back(ev.addr);
            }
        }
        self.counts.misses += 1;
        self.mshrs.add(line, r);
        if self.sectored {
            self.fetch(now, line, missing, dram_latency, ch, map);
        } else {
            // GPGPU-Sim's sectored L2 asks for the sectors the miss wants; the line is then
            // installed whole (no per-sector valid bits).
            let req = map.dram_req(line, false, self.id);
            self.send_dram(now + dram_latency, ch, req, r.bytes as u64);
        }
        true
    }

    /// `mask`, sectors of a request at `addr`, as sectors of `line` (a request is aligned to
    /// its own line or block, which lies within one L2 line); unsectored, the whole line.
    fn in_line(&self, line: u64, addr: u64, mask: u32) -> u32 {
        if !self.sectored {
            return self.all;
        }
        (mask << ((addr - line) / self.sector)) & self.all
    }

    /// Room for one more DRAM request: in the slice's own queue (`l2.dram_queue`), or,
    /// without one, in the channel.
    #[inline]
    fn dram_room(&self, ch: &Channel) -> bool {
        if self.dram_queue == 0 {
            ch.can_accept()
        } else {
            self.to_dram.len() < self.dram_queue
        }
    }

    /// Sends `r` (`bytes`) towards DRAM: into the slice's queue, or straight into the channel
    /// (joining its scheduler at cycle `at`). Check [`L2Slice::dram_room`] first.
    #[inline]
    fn send_dram(&mut self, at: u64, ch: &mut Channel, r: DramReq, bytes: u64) {
        if self.dram_queue == 0 {
            ch.push(at, r, bytes);
        } else {
            self.to_dram.push_back((r, bytes));
        }
    }

    /// Asks DRAM for `sectors` of `line`, whose MSHR entry exists (check `dram_room` first).
    fn fetch(
        &mut self,
        now: u64,
        line: u64,
        sectors: u32,
        dram_latency: u64,
        ch: &mut Channel,
        map: &impl Locate,
    ) {
        if let Some(f) = self.mshrs.fetch_mut(line) {
            f.sectors |= sectors;
            f.outstanding += 1;
        }
        let bytes = sectors.count_ones() as u64 * self.sector;
        let req = map.dram_req(line, false, self.id);
        self.send_dram(now + dram_latency, ch, req, bytes);
    }

    /// A host copy wrote the byte at `addr`: its sector (the whole line, unsectored) is
    /// installed clean; a line it evicts is dropped without a write-back, as GPGPU-Sim's
    /// copy does.
    pub fn install_copied(&mut self, addr: u64) {
        let line = self.tags.line_of(addr);
        let _dropped = self
            .tags
            .fill_sectors(line, false, self.in_line(line, addr, 1));
    }

    fn install(&mut self, line: u64, replies: &mut Vec<Req>) {
        let mut fetched = self.all;
        if self.sectored {
            if let Some(f) = self.mshrs.fetch_mut(line) {
                if f.outstanding > 1 {
                    // More of this miss's sectors are still to come.
                    f.outstanding -= 1;
                    return;
                }
                fetched = f.sectors;
            }
        }
        let mut w = std::mem::take(&mut self.waiters);
        self.mshrs.complete(line, &mut w);
        let dirty = w.iter().any(|r| r.kind != Kind::Read);
        // Stores that waited on the fill leave the sectors they wrote whole readable.
        let written = w
            .iter()
            .filter(|r| r.kind == Kind::Write)
            .fold(0, |m, r| m | self.in_line(line, r.addr, r.whole));
        self.evict_into(line, dirty, fetched | written);
        replies.extend_from_slice(&w);
        self.waiters = w;
    }

    fn evict_into(&mut self, line: u64, dirty: bool, sectors: u32) {
        if let Some(ev) = self.tags.fill_sectors(line, dirty, sectors) {
            if ev.dirty {
                self.counts.writebacks += 1;
                self.writebacks.push_back(ev.addr);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::dram::DramTiming;
    use crate::mem::Dest;
    use warpsim_core::config::{GpuConfig, SetIndex};

    /// The address map of a GPU with one partition of one slice.
    const LONE_SLICE: SliceLocal = SliceLocal {
        chunk: 256,
        partitions: 1,
        slices: 1,
        interleave: None,
    };

    /// A request from SM 0 that answers nobody, for the first `sectors` sectors of the line at
    /// `addr`, each whole.
    fn request(addr: u64, kind: Kind, sectors: u32) -> Req {
        Req {
            addr,
            kind,
            sm: 0,
            bytes: 32 * sectors as u16,
            dest: Dest::Nobody,
            sectors: (1 << sectors) - 1,
            whole: (1 << sectors) - 1,
        }
    }

    struct OneChannel;

    impl Locate for OneChannel {
        fn dram_req(&self, addr: u64, write: bool, slice: u16) -> DramReq {
            DramReq {
                addr,
                bank: 0,
                row: 0,
                write,
                slice,
                cmds: 1,
            }
        }
    }

    /// The cycles at which a slice serves writes of `sectors` sectors each (writes are
    /// acknowledged when served), all waiting from cycle 0.
    fn served_at(sector_per_cycle: bool, sectors: u32) -> Vec<u64> {
        let local = LONE_SLICE;
        let mut slice = L2Slice::new(
            0,
            64 * 1024,
            8,
            128,
            64,
            4,
            SetIndex::Linear,
            local,
            Some(32),
        )
        .with_sector_per_cycle(sector_per_cycle);
        for i in 0..3u64 {
            let r = request(i * 128, Kind::Write, sectors);
            slice.input.push(Reverse((0, i, r)));
        }
        let cfg = GpuConfig::load("gtx480").unwrap();
        let mut ch = Channel::new(DramTiming::new(&cfg), 16, 64);
        let (mut replies, mut at) = (Vec::new(), Vec::new());
        for now in 0..20 {
            slice.cycle(now, 0, &mut ch, &OneChannel, &mut replies);
            at.extend(replies.drain(..).map(|_| now));
        }
        at
    }

    /// Read misses a slice takes while its channel (room for one request, never drained
    /// here) is full: without `l2.dram_queue` only the one the channel takes; with a queue of
    /// `n`, that many more wait in the slice (GPGPU-Sim's L2 miss and L2-to-DRAM queues), and
    /// the next is refused.
    fn misses_taken(dram_queue: u32) -> (u64, u64) {
        let local = LONE_SLICE;
        let mut slice = L2Slice::new(0, 64 * 1024, 8, 128, 64, 4, SetIndex::Linear, local, None)
            .with_dram_queue(dram_queue);
        for i in 0..6u64 {
            slice
                .input
                .push(Reverse((0, i, request(i * 128, Kind::Read, 4))));
        }
        let cfg = GpuConfig::load("gtx480").unwrap();
        let mut ch = Channel::new(DramTiming::new(&cfg), 16, 1);
        let mut replies = Vec::new();
        for now in 0..12 {
            slice.cycle(now, 0, &mut ch, &OneChannel, &mut replies);
        }
        (slice.counts.misses, slice.counts.reservation_fails)
    }

    #[test]
    fn a_dram_queue_takes_misses_the_full_channel_cannot() {
        let (misses, fails) = misses_taken(0);
        assert_eq!(misses, 1, "only the channel's one request");
        assert!(fails > 0);
        let (misses, fails) = misses_taken(3);
        assert_eq!(misses, 4, "the channel's one and three queued in the slice");
        assert!(fails > 0, "the fifth waits");
        assert_eq!(misses_taken(16), (6, 0), "room for all six");
    }

    /// GPGPU-Sim's allocate-on-miss L2: a read miss takes its way at the miss, so the victim
    /// (and its write-back) leaves before any fill comes back, and a set whose every way
    /// waits for a fill refuses the next line miss.
    #[test]
    fn a_read_miss_takes_its_way_at_the_miss() {
        let local = LONE_SLICE;
        // One set of two ways.
        let mut slice = L2Slice::new(0, 256, 2, 128, 64, 4, SetIndex::Linear, local, Some(32));
        let req = |addr: u64, kind| request(addr, kind, 4);
        // Two dirty lines, then three reads of other lines; DRAM never answers here.
        for (i, (addr, kind)) in [
            (0, Kind::Write),
            (128, Kind::Write),
            (256, Kind::Read),
            (384, Kind::Read),
            (512, Kind::Read),
        ]
        .into_iter()
        .enumerate()
        {
            slice
                .input
                .push(Reverse((i as u64, i as u64, req(addr, kind))));
        }
        let cfg = GpuConfig::load("gtx480").unwrap();
        let mut ch = Channel::new(DramTiming::new(&cfg), 16, 64);
        let mut replies = Vec::new();
        let mut writebacks = Vec::new();
        for now in 0..5 {
            slice.cycle(now, 1000, &mut ch, &OneChannel, &mut replies);
            writebacks.push(slice.counts.writebacks);
        }
        assert_eq!(
            writebacks,
            [0, 0, 1, 2, 2],
            "each read miss evicts a dirty line at once"
        );
        assert_eq!(slice.counts.misses, 4, "two write misses, two read misses");
        assert!(
            slice.counts.reservation_fails > 0,
            "both ways wait for fills: the third read waits"
        );
        assert_eq!(slice.input.len(), 1);
    }

    #[test]
    fn a_slice_takes_one_sector_per_cycle_when_asked() {
        assert_eq!(
            served_at(false, 4),
            [0, 1, 2],
            "one request per cycle, whatever its size"
        );
        assert_eq!(
            served_at(true, 4),
            [0, 4, 8],
            "a whole line holds the port 4 cycles"
        );
        assert_eq!(served_at(true, 1), [0, 1, 2]);
        assert_eq!(served_at(true, 2), [0, 2, 4]);
    }
}
