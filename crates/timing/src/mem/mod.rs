//! The memory system outside the SMs: the interconnect ([`icnt`]), L2 slices ([`l2`]) and
//! DRAM channels ([`dram`]), plus the pieces the SM side reuses (tag arrays [`cache`], MSHRs
//! [`mshr`], the coalescer [`coalesce`]). The SM side (L1 D-cache, constant cache, LD/ST
//! staging) lives in `sm/memory.rs`.
//!
//! Flow of a global load that misses L1: SM miss queue → SM injection port → crossbar → slice
//! input (after the ROP latency `l2.latency`) → tags → on a miss, MSHR + DRAM queue (after
//! `dram.latency`) → FR-FCFS → line back to the slice → reply through the crossbar → SM
//! ejection port → L1 fill → the waiting warps' registers are released.
//!
//! Address map: 256-byte chunks interleave over the memory partitions; within a partition,
//! its slices take `l2.slice_interleave` bytes of its address space in turn (absent: 128-byte
//! lines alternate by their global number), and a slice indexes its sets with the line's number
//! among its own lines (the partition and slice bits removed, as GPGPU-Sim does); a DRAM row of a channel's bank is 2 KiB per chip
//! times the channel's chips (they work in lockstep: 4 KiB on both presets), with the bank
//! index XOR-ed with the row's low bits (so power-of-two strides do not camp on one bank).
//! `l2.partition_index` may then hash the slice the map picked (`partition.rs`; qv100's IPOLY).

pub mod cache;
pub mod coalesce;
pub mod dram;
pub mod icnt;
pub mod l2;
pub mod mshr;
pub mod partition;
pub mod port;
pub mod router;
pub mod xbar;

use cache::SliceLocal;
use dram::{Channel, DramCounts, DramReq, DramTiming};
use icnt::Icnt;
use l2::{L2Slice, Locate};
pub use port::{SmNet, SmPort};
use router::Router;
use serde::Serialize;
use std::cmp::Reverse;
use warpsim_core::config::GpuConfig;
use xbar::Xbar;

/// Bytes per partition-interleaving chunk.
pub const CHUNK_BYTES: u64 = 256;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    #[default]
    Read,
    Write,
    Atomic,
}

/// Who waits for a reply at the SM.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dest {
    /// The L1 D-cache MSHR for `Req::addr`.
    #[default]
    L1,
    /// The constant cache MSHR for `Req::addr`.
    Const,
    /// The texture cache MSHR for `Req::addr`.
    Tex,
    /// The L1 instruction cache (a miss's line; `Req::addr` in the code region).
    ICache,
    /// A memory instruction directly (writes, atomics): its track id.
    Track(u32),
    /// No one (a dirty L1 victim written back): no reply is sent.
    Nobody,
}

/// A request from an SM (and, answered, the reply to it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Req {
    /// The requester's line-aligned address.
    pub addr: u64,
    pub kind: Kind,
    pub sm: u16,
    /// Data bytes carried (writes) or asked for (reads, atomics).
    pub bytes: u16,
    pub dest: Dest,
    /// Bit `i`: the sector at `addr + i × coalescer.sector_bytes` is asked for or written.
    pub sectors: u32,
    /// Writes: the sectors written whole (a sectored L2 can read them afterwards).
    pub whole: u32,
}

impl Req {
    /// The first `bytes / sector` sectors (a whole line or block asked for or written).
    pub fn all_sectors(bytes: u64, sector: u64) -> u32 {
        match (bytes / sector.max(1)).max(1) {
            n if n >= 32 => u32::MAX,
            n => (1u32 << n) - 1,
        }
    }
}

/// Counters of one cache level (summed over instances).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CacheCounts {
    pub hits: u64,
    pub misses: u64,
    /// Misses merged into a miss already in flight (MSHR hits).
    pub merged: u64,
    /// Accesses that found no MSHR / miss-queue room and retried (counted per retry cycle).
    pub reservation_fails: u64,
    /// Dirty lines written back on eviction.
    pub writebacks: u64,
}

impl CacheCounts {
    pub fn add(&mut self, o: &CacheCounts) {
        self.hits += o.hits;
        self.misses += o.misses;
        self.merged += o.merged;
        self.reservation_fails += o.reservation_fails;
        self.writebacks += o.writebacks;
    }
}

/// Memory-hierarchy statistics of a launch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MemStats {
    /// L1 data cache (global and local loads/stores that reach it; bypassing loads count as
    /// misses).
    pub l1d: CacheCounts,
    /// The loads among `l1d` that looked the L1 tags up (allocating global loads, `ld.global.nc`,
    /// local loads): bypassing loads, stores and atomics are left out, so
    /// `(misses + merged) / (hits + misses + merged)` is the L1 miss rate of loads.
    /// `writebacks` stays 0 (fills are counted in `l1d`).
    pub l1d_loads: CacheCounts,
    pub const_cache: CacheCounts,
    /// The texture cache (`tex`/`tld4` fetches).
    pub tex: CacheCounts,
    pub l2: CacheCounts,
    pub dram: DramCounts,
    /// Requests sent from the SMs to L2 (global/local/constant/texture reads, writes, atomics,
    /// and instruction fetches when `l1i.miss_path = "memory"`).
    pub l2_requests: u64,
    pub icnt_packets: u64,
    pub icnt_flits: u64,
}

impl MemStats {
    pub fn add(&mut self, o: &MemStats) {
        self.l1d.add(&o.l1d);
        self.l1d_loads.add(&o.l1d_loads);
        self.const_cache.add(&o.const_cache);
        self.tex.add(&o.tex);
        self.l2.add(&o.l2);
        self.dram.add(&o.dram);
        self.l2_requests += o.l2_requests;
        self.icnt_packets += o.icnt_packets;
        self.icnt_flits += o.icnt_flits;
    }
}

/// Address → slice / DRAM bank and row.
#[derive(Clone, Copy, Debug)]
pub struct AddrMap {
    partitions: u64,
    slices_per_partition: u64,
    banks: u64,
    line: u64,
    /// Bytes of one row of a channel's bank (`Dram::row_bytes`: 2048 per chip; the chips of a
    /// channel work in lockstep).
    row_bytes: u64,
    /// Consecutive channel bytes per bank (`dram.bank_interleave`; a row when 0).
    interleave: u64,
    /// `l2.slice_interleave`: bytes of a partition's address space per slice in turn (`None`:
    /// a line, slices alternating by the line's global number).
    slice_interleave: Option<u64>,
    /// `l2.partition_index`: the hash applied to the slice the map picks.
    hash: partition::PartitionHash,
}

impl AddrMap {
    pub fn new(cfg: &GpuConfig) -> AddrMap {
        let partitions = cfg.dram.partitions.max(1) as u64;
        AddrMap {
            partitions,
            slices_per_partition: (cfg.l2.slices as u64 / partitions).max(1),
            banks: cfg.dram.banks.max(1) as u64,
            line: cfg.l2.line.max(1) as u64,
            row_bytes: cfg.dram.row_bytes(),
            interleave: match cfg.dram.bank_interleave {
                0 => cfg.dram.row_bytes(),
                b => b as u64,
            },
            slice_interleave: cfg.l2.slice_interleave.map(|b| b as u64),
            hash: partition::PartitionHash::new(
                cfg.l2.partition_index,
                partitions,
                (cfg.l2.slices as u64 / partitions).max(1),
            ),
        }
    }

    pub fn partition(&self, addr: u64) -> u64 {
        (addr / CHUNK_BYTES) % self.partitions
    }

    pub fn slice(&self, addr: u64) -> usize {
        let p = self.partition(addr);
        let within = match self.slice_interleave {
            None => addr / self.line,
            Some(b) => self.slice_local().in_partition(addr) / b,
        };
        let slice = p * self.slices_per_partition + within % self.slices_per_partition;
        self.hash.slice(addr, slice) as usize
    }

    /// What an L2 slice indexes its sets with: its own line numbers.
    pub fn slice_local(&self) -> SliceLocal {
        SliceLocal {
            chunk: CHUNK_BYTES,
            partitions: self.partitions,
            slices: self.slices_per_partition,
            interleave: self.slice_interleave,
        }
    }

    /// `(bank, row)` of `addr` within its partition.
    pub fn bank_row(&self, addr: u64) -> (u16, u32) {
        let local = (addr / CHUNK_BYTES / self.partitions) * CHUNK_BYTES + addr % CHUNK_BYTES;
        // Consecutive interleave units go to consecutive banks; a bank's row holds its units
        // of `row_bytes × banks` consecutive bytes. The row number is XORed into the bank so
        // that same-bank strides spread (with a whole row per unit, as before).
        let unit = local / self.interleave;
        let row = local / (self.row_bytes * self.banks);
        let bank = (unit ^ row) % self.banks;
        (bank as u16, row as u32)
    }
}

impl Locate for AddrMap {
    fn dram_req(&self, addr: u64, write: bool, slice: u16) -> DramReq {
        let (bank, row) = self.bank_row(addr);
        DramReq {
            addr,
            bank,
            row,
            write,
            slice,
            cmds: 1,
        }
    }
}

/// How many flits a request or reply takes on the interconnect.
struct Packets {
    /// `icnt.request_per_sector` / `icnt.reply_per_sector`: one packet per sector, each
    /// with its own header (GPGPU-Sim's sector coalescer from sm_60 on; its partition splits
    /// every request into sectors and answers each, write acknowledgements included).
    request_per_sector: bool,
    reply_per_sector: bool,
}

impl Packets {
    /// Flits of `r` on its way to the slice, and the packets they make: reads carry no data.
    fn request(&self, icnt: &Icnt, r: &Req) -> (u64, u32) {
        let payload = if r.kind == Kind::Read {
            0
        } else {
            r.bytes as u64
        };
        Self::flits(icnt, payload, r.sectors, self.request_per_sector)
    }

    /// Flits of the reply to `r`, and the packets they make: data for reads and atomics, none
    /// for write acknowledgements.
    fn reply(&self, icnt: &Icnt, r: &Req) -> (u64, u32) {
        let payload = if r.kind == Kind::Write {
            0
        } else {
            r.bytes as u64
        };
        Self::flits(icnt, payload, r.sectors, self.reply_per_sector)
    }

    fn flits(icnt: &Icnt, payload: u64, sectors: u32, per_sector: bool) -> (u64, u32) {
        let n = sectors.count_ones().max(1) as u64;
        if per_sector && n > 1 {
            (n * icnt.flits_for(payload.div_ceil(n)), n as u32)
        } else {
            (icnt.flits_for(payload), 1)
        }
    }
}

/// Packets a slice's input holds (those on their way to it included): GPGPU-Sim's ROP delay
/// queue and its queue from the interconnect, covering the ROP latency at one request per
/// cycle, so the limit only bites when the slice stalls. A full input takes nothing more: with
/// the input-queued interconnect the packets for it wait in the network (GPGPU-Sim's
/// `gpgpu_sim::cycle` pops a sub-partition's packet only while its queue has room), which
/// backs up into the SMs' injection buffers one SM at a time; without it the SMs may not send
/// to the slice.
fn slice_input_capacity(cfg: &GpuConfig) -> usize {
    (cfg.l2.latency + 2 * cfg.icnt.latency + 64) as usize
}

/// The input-queued interconnect (`icnt.head_of_line`): requests from the SMs' ports to the
/// slices', replies back, each its own network (GPGPU-Sim's two subnets).
struct Queued {
    requests: Net<Req>,
    replies: Net<Req>,
}

/// One direction of the input-queued interconnect: BookSim's router (`icnt.internal_speedup`)
/// or a crossbar that moves whole packets (GPGPU-Sim's local crossbar).
enum Net<T> {
    Router(Router<T>),
    Crossbar(Xbar<T>),
}

impl<T> Net<T> {
    fn new(cfg: &GpuConfig, inputs: usize, outputs: usize, capacity: Option<u32>) -> Net<T> {
        let latency = cfg.icnt.latency;
        match cfg.icnt.internal_speedup {
            speedup if speedup > 0.0 => Net::Router(Router::new(
                inputs,
                outputs,
                latency,
                capacity,
                cfg.icnt.vc_buffer_flits,
                speedup,
            )),
            _ => Net::Crossbar(Xbar::new(inputs, outputs, latency, capacity)),
        }
    }

    #[inline]
    fn has_room_after(&self, input: usize, pending: u64, flits: u64) -> bool {
        match self {
            Net::Router(r) => r.has_room_after(input, pending, flits),
            Net::Crossbar(x) => x.has_room_after(input, pending, flits),
        }
    }

    /// Queues `parts` packets of `flits` in all (the crossbar moves them as one).
    fn push(&mut self, input: usize, output: usize, (flits, parts): (u64, u32), payload: T) {
        match self {
            Net::Router(r) => r.push(input, output, flits, parts, payload),
            Net::Crossbar(x) => x.push(input, output, flits, payload),
        }
    }

    fn is_empty(&self) -> bool {
        match self {
            Net::Router(r) => r.is_empty(),
            Net::Crossbar(x) => x.is_empty(),
        }
    }

    fn cycle(&mut self, now: u64, arrive: impl FnMut(u64, usize, T)) {
        match self {
            Net::Router(r) => r.cycle(now, arrive),
            Net::Crossbar(x) => x.cycle(now, arrive),
        }
    }

    /// [`Net::cycle`] delivering to output `o` only while `open(o)`.
    fn cycle_gated(
        &mut self,
        now: u64,
        open: impl Fn(usize) -> bool,
        arrive: impl FnMut(u64, usize, T),
    ) {
        match self {
            Net::Router(r) => r.cycle_gated(now, open, arrive),
            Net::Crossbar(x) => x.cycle_gated(now, open, arrive),
        }
    }

    fn rebase(&mut self, shift: u64) {
        match self {
            Net::Router(r) => r.rebase(),
            Net::Crossbar(x) => x.rebase(shift),
        }
    }
}

pub struct MemSystem {
    /// The output-queued interconnect's port reservations; with `queued`, only its packet and
    /// flit counters and flit arithmetic are used.
    pub icnt: Icnt,
    queued: Option<Queued>,
    packets: Packets,
    slices: Vec<L2Slice>,
    channels: Vec<Channel>,
    /// Each SM's side: the replies arriving there, the requests it sent this cycle.
    ports: Vec<SmPort>,
    map: AddrMap,
    seq: u64,
    l2_latency: u64,
    dram_latency: u64,
    slice_cap: usize,
    /// This cycle's `input.len() < slice_cap` of each slice (the request network's gate).
    slice_open: Vec<bool>,
    /// DRAM cycles per core cycle, and the DRAM cycles simulated so far.
    dram_ratio: f64,
    dram_now: u64,
    replies: Vec<Req>,
    done: Vec<(u64, u16)>,
    /// Requests sent from the SMs.
    pub requests: u64,
    /// The last core cycle simulated (times are relative to the current launch).
    clock: u64,
    /// What the SMs' instruction, constant and texture caches hold between launches, and
    /// where each module's code sits (`sm/kept.rs`): the engine keeps them with the memory
    /// system, since both outlive a launch.
    pub(crate) between: crate::sm::kept::BetweenLaunches,
}

impl MemSystem {
    pub fn new(cfg: &GpuConfig, sms: usize) -> MemSystem {
        let map = AddrMap::new(cfg);
        let nslices = (cfg.dram.partitions.max(1) as u64 * map.slices_per_partition) as usize;
        let slice_size = cfg.l2.size / nslices as u32;
        let t = DramTiming::new(cfg);
        MemSystem {
            icnt: Icnt::new(cfg.icnt.latency, cfg.icnt.flit_bytes, sms, nslices),
            queued: cfg.icnt.head_of_line.then(|| Queued {
                requests: Net::new(cfg, sms, nslices, cfg.icnt.input_buffer_flits),
                // The slices wait for nothing on their side: their queues are unbounded.
                replies: Net::new(cfg, nslices, sms, None),
            }),
            packets: Packets {
                request_per_sector: cfg.icnt.request_per_sector,
                reply_per_sector: cfg.icnt.reply_per_sector,
            },
            slices: (0..nslices)
                .map(|i| {
                    L2Slice::new(
                        i as u16,
                        slice_size,
                        cfg.l2.assoc,
                        cfg.l2.line,
                        cfg.l2.mshrs,
                        cfg.l2.mshr_merge,
                        cfg.l2.index,
                        map.slice_local(),
                        cfg.l2.sectored.then_some(cfg.coalescer.sector_bytes),
                    )
                    .with_sector_per_cycle(cfg.l2.sector_per_cycle)
                    .with_dram_queue(cfg.l2.dram_queue)
                })
                .collect(),
            channels: (0..cfg.dram.partitions.max(1))
                .map(|_| {
                    Channel::new(t, cfg.dram.banks, cfg.dram.queue).with_pipeline(cfg.dram.latency)
                })
                .collect(),
            ports: (0..sms).map(|_| SmPort::default()).collect(),
            map,
            seq: 0,
            l2_latency: cfg.l2.latency as u64,
            dram_latency: cfg.dram.latency as u64,
            slice_cap: slice_input_capacity(cfg),
            slice_open: vec![true; nslices],
            dram_ratio: cfg.gpu.dram_clock_mhz / cfg.gpu.core_clock_mhz.max(1e-9),
            dram_now: 0,
            replies: Vec::with_capacity(64),
            done: Vec::with_capacity(64),
            requests: 0,
            clock: 0,
            between: Default::default(),
        }
    }

    /// Prepares for a new launch whose cycles count from 0 (as GPGPU-Sim does by default, the
    /// L2 contents, dirty lines and open DRAM rows carry over from the previous launch; the
    /// SMs' L1 D-caches start cold, their instruction and constant caches do not, `between`):
    /// drops what is still in flight (the previous launch's CTAs are
    /// gone and its stores were acknowledged), moves every busy-until time back by the
    /// previous launch's length, and zeroes the counters.
    pub fn begin_launch(&mut self) {
        let shift = self.clock + 1;
        self.icnt.rebase(shift);
        if let Some(q) = self.queued.as_mut() {
            q.requests.rebase(shift);
            q.replies.rebase(shift);
        }
        for s in self.slices.iter_mut() {
            s.begin_launch();
        }
        for c in self.channels.iter_mut() {
            c.begin_launch(((shift as f64) * self.dram_ratio) as u64);
        }
        for p in self.ports.iter_mut() {
            p.clear();
        }
        self.dram_now = 0;
        self.requests = 0;
        self.clock = 0;
        self.seq = 0;
    }

    /// Sends `r` from its SM at `now` (the commit of an SM's cycle: `port.rs`).
    fn send(&mut self, now: u64, r: Req) {
        let s = self.map.slice(r.addr);
        let flits = self.packets.request(&self.icnt, &r);
        self.requests += 1;
        if let Some(q) = self.queued.as_mut() {
            self.icnt.count(flits.0);
            q.requests.push(r.sm as usize, s, flits, r);
            return;
        }
        let at = self.icnt.to_slice(now, r.sm as usize, s, flits.0) + self.l2_latency;
        self.seq += 1;
        self.slices[s].input.push(Reverse((at, self.seq, r)));
    }

    /// Earliest cycle a reply reaches SM `sm` (`u64::MAX`: none in flight).
    pub fn next_reply(&self, sm: usize) -> u64 {
        self.ports[sm].next_reply()
    }

    /// Nothing is in flight anywhere.
    pub fn idle(&self) -> bool {
        self.queued
            .as_ref()
            .is_none_or(|q| q.requests.is_empty() && q.replies.is_empty())
            && self.slices.iter().all(|s| !s.busy())
            && self.channels.iter().all(|c| !c.busy())
            && self.ports.iter().all(|p| p.is_empty())
    }

    /// Earliest cycle after `now` at which the memory system (slices, DRAM) changes anything
    /// by itself (replies waiting at SMs are the SMs' business: [`MemSystem::next_reply`]).
    pub fn next_event(&self, now: u64) -> u64 {
        let queued = self
            .queued
            .as_ref()
            .is_some_and(|q| !q.requests.is_empty() || !q.replies.is_empty());
        if queued || self.channels.iter().any(|c| c.busy()) {
            return now + 1;
        }
        self.slices
            .iter()
            .map(|s| s.next_event(now))
            .min()
            .unwrap_or(u64::MAX)
            .max(now + 1)
    }

    /// One core cycle of the slices and DRAM channels.
    pub fn cycle(&mut self, now: u64) {
        self.clock = now;
        let target = ((now + 1) as f64 * self.dram_ratio) as u64;
        if self.channels.iter().any(|c| c.busy()) {
            while self.dram_now < target {
                let t = self.dram_now;
                for ch in self.channels.iter_mut() {
                    if ch.busy() {
                        ch.tick(t, now, &mut self.done);
                    }
                }
                self.dram_now += 1;
            }
            for &(addr, slice) in &self.done {
                self.slices[slice as usize].fills.push_back(addr);
            }
            self.done.clear();
        } else {
            self.dram_now = target;
        }
        if let Some(q) = self.queued.as_mut() {
            if !q.requests.is_empty() {
                for (open, s) in self.slice_open.iter_mut().zip(&self.slices) {
                    *open = s.input.len() < self.slice_cap;
                }
            }
            let (slices, seq, l2_latency) = (&mut self.slices, &mut self.seq, self.l2_latency);
            let open = &self.slice_open;
            q.requests.cycle_gated(
                now,
                |s| open[s],
                |at, s, r| {
                    *seq += 1;
                    slices[s].input.push(Reverse((at + l2_latency, *seq, r)));
                },
            );
        }
        let spp = self.map.slices_per_partition as usize;
        for (i, s) in self.slices.iter_mut().enumerate() {
            if !s.busy() {
                continue;
            }
            let ch = &mut self.channels[i / spp];
            s.cycle(now, self.dram_latency, ch, &self.map, &mut self.replies);
            for r in self.replies.drain(..) {
                if r.dest == Dest::Nobody {
                    continue;
                }
                let flits = self.packets.reply(&self.icnt, &r);
                if let Some(q) = self.queued.as_mut() {
                    self.icnt.count(flits.0);
                    q.replies.push(i, r.sm as usize, flits, r);
                    continue;
                }
                let at = self.icnt.to_sm(now, i, r.sm as usize, flits.0);
                self.seq += 1;
                self.ports[r.sm as usize].arrive(at, self.seq, r);
            }
        }
        if let Some(q) = self.queued.as_mut() {
            let (ports, seq) = (&mut self.ports, &mut self.seq);
            q.replies.cycle(now, |at, sm, r| {
                *seq += 1;
                ports[sm].arrive(at, *seq, r);
            });
        }
    }

    /// The host copied `bytes` to `addr`: every 32-byte piece's sector is installed, clean, in
    /// its slice (GPGPU-Sim's `perf_memcpy_to_gpu`: a piece at a time from `addr`, each
    /// marking the sector it starts in; lines it evicts are dropped without a write-back, and
    /// nothing is timed).
    pub fn fill_from_host(&mut self, addr: u64, bytes: u64) {
        const PIECE: u64 = 32;
        let mut a = addr;
        while a < addr.saturating_add(bytes) {
            let s = self.map.slice(a);
            self.slices[s].install_copied(a);
            a += PIECE;
        }
    }

    /// Totals of the slices, channels and interconnect.
    pub fn stats(&mut self) -> MemStats {
        let mut m = MemStats::default();
        for s in &self.slices {
            m.l2.add(&s.counts);
        }
        for c in self.channels.iter_mut() {
            c.finish_counts();
            m.dram.add(&c.counts);
        }
        m.l2_requests = self.requests;
        m.icnt_packets = self.icnt.packets;
        m.icnt_flits = self.icnt.flits;
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtx480_sends_both_lines_of_a_chunk_to_one_slice() {
        // SM2_GTX480's map: the sub-partition is the bank bit at bit 8 of the channel's own
        // address, so a 256-byte chunk stays in one slice and a partition's chunks alternate.
        let gtx = AddrMap::new(&GpuConfig::load("gtx480").unwrap());
        assert_eq!(gtx.slice(0), gtx.slice(128));
        assert_eq!(gtx.slice(0), 0);
        assert_eq!(gtx.slice(6 * 256), 1, "partition 0's next chunk");
        assert_eq!(gtx.slice(256), 2, "partition 1's first chunk");
        // Without `l2.slice_interleave` (titanx-pascal) slices alternate line by line.
        let tx = AddrMap::new(&GpuConfig::load("titanx-pascal").unwrap());
        assert_ne!(tx.slice(0), tx.slice(128));
    }

    /// `(bank, row)` of the first `n` chunks of partition 0 under `overrides` of gtx480.
    fn banks(overrides: &[&str], n: u64) -> Vec<(u16, u32)> {
        let o: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
        let cfg = GpuConfig::load_with("gtx480", &o).unwrap();
        let map = AddrMap::new(&cfg);
        // Partition 0's chunks: every `partitions`-th 256-byte chunk.
        (0..n)
            .map(|i| map.bank_row(i * CHUNK_BYTES * cfg.dram.partitions as u64))
            .collect()
    }

    #[test]
    fn a_row_per_bank_without_an_interleave() {
        // 4 KB rows (2 chips): 16 chunks of 256 B in bank 0, then bank 1.
        let b = banks(&["dram.bank_interleave=0"], 17);
        assert!(b[..16].iter().all(|&x| x == (0, 0)), "{b:?}");
        assert_eq!(b[16], (1, 0));
    }

    #[test]
    fn an_interleave_moves_to_the_next_bank() {
        // 256-byte interleave: consecutive chunks of the channel go to consecutive banks, and
        // the row changes after 16 banks x 4 KB.
        let b = banks(&["dram.bank_interleave=256"], 4);
        assert_eq!(b, vec![(0, 0), (1, 0), (2, 0), (3, 0)]);
        let far = banks(&["dram.bank_interleave=256"], 16 * 16 + 1);
        assert_eq!(far[16 * 16], (1, 1), "row 1 starts XORed one bank on");
    }
}
