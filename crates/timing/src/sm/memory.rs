//! The SM's memory pipeline: the LD/ST unit's staging of coalesced line accesses, the L1
//! D-cache with MSHRs and a miss queue, the constant cache, and the per-instruction tracks
//! that release registers when every line of a load has arrived.
//!
//! A global/local/constant memory instruction is executed functionally at issue (so results
//! are exact whatever the timing); its timing is the time its lines take. At issue the
//! coalescer splits it into line accesses ([`crate::mem::coalesce`]) that wait in the LD/ST
//! unit's staging queue; the unit serves one per cycle (`mem_stage`) and stays busy until all
//! are served — a reservation failure (no MSHR, miss queue full) holds it, stalling the warps
//! behind it. An access that looks the L1 D-cache up is served into the L1 latency queue
//! (`l1_pipe`, GPGPU-Sim's `l1_latency_queue`) and looked up `l1d.latency` cycles later: a
//! hit's data is back then, a miss only then takes its MSHR and leaves for L2, and a
//! reservation failure there holds the queue (and, once it is full, the unit). A new miss of
//! a load that allocates reserves a way of its set until its fill (allocate on miss): a set
//! whose ways all wait for fills refuses further misses. Destinations are reserved on the scoreboard until released; a warp's CTA cannot
//! retire while any of its accesses (stores included, until L2 acknowledges them) is in
//! flight.
//!
//! Shared memory, a perfect constant cache and the parameter space have a time known when
//! the unit takes the access: `sm.shared_latency` plus a cycle per extra bank conflict, which
//! also hold the unit. They queue like the others, as one pseudo-line (`AccKind::Fixed`) whose
//! time starts when the unit serves it (`Sm::book_fixed`).
//!
//! Every line of a load or atomic that comes back (an L1 hit, a reply, a fixed-latency
//! result) takes a turn at the LD/ST unit's one writeback port (`sm.ldst_writeback`) before
//! its instruction can complete.
//!
//! Write policies: global stores write through (update L1 on a hit, no allocation, one write
//! per line to L2, acknowledged); with `write-back` (local memory on both presets) a store
//! allocates in L1 dirty and completes at L1 latency, dirty victims are written to L2. Where
//! global loads skip L1 (`l1d.cache_global_loads = false`), global stores skip it too.
//! Global loads allocate in L1 when `l1d.cache_global_loads` (Fermi) or for `ld.global.nc`;
//! volatile loads, `ld.cg`/`ld.cv` (cache in L2 only, as GPGPU-Sim's `CACHE_GLOBAL`) and
//! atomics always go to L2 (atomics execute there).
//!
//! Texture fetches (`tex`, `tld4`) go through the read-only texture cache (`[tex]`,
//! GPGPU-Sim's L1T): lookup, allocate on miss, hits at the L1 latency, misses through the
//! SM's miss queue to L2 like L1 misses. Unlike GPGPU-Sim's, its fetches do not return in
//! order through a fragment FIFO: each completes when its own lines are back.

use super::fetch::Frontend;
use super::units::Units;
use super::{Env, Sm};
use crate::fetch_policy::FetchPolicy;
use crate::ids::{SchedId, WarpSlot};
use crate::mem::cache::TagArray;
use crate::mem::coalesce::LineAccess;
use crate::mem::mshr::Mshrs;
use crate::mem::SmNet;
use crate::mem::{CacheCounts, Dest, Kind, Req};
use crate::policy::Events as _;
use crate::policy::IssuePolicy;
use miss_queue::MissQueue;
use std::collections::VecDeque;
use warpsim_core::config::{GpuConfig, WritePolicy};
use warpsim_core::exec::warp::WARP_SIZE;
use warpsim_core::ir::{Mods, Op};

/// Where the timing model places the non-global spaces in the flat address space its caches
/// and partitions see (functional addresses of these spaces overlap global ones).
const LOCAL_BASE: u64 = 0xA000_0000_0000;
const CONST_BASE: u64 = 0xC000_0000_0000;
const PARAM_BASE: u64 = 0xD000_0000_0000;
/// Instruction memory (the I-cache's line addresses, `TimingTable::inst_addr`).
const CODE_BASE: u64 = 0xE000_0000_0000;
/// Threads interleaved per local-memory word (GPGPU-Sim's layout: word `i` of consecutive
/// threads is consecutive, so a warp's local accesses coalesce).
const LOCAL_THREADS: u64 = 1 << 20;

/// What the LD/ST unit does with one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccKind {
    /// A load; `alloc`: fills allocate in L1 (else it bypasses L1 and asks for its sectors).
    Load {
        alloc: bool,
    },
    Store {
        write_back: bool,
        /// A global store on a preset whose global accesses skip L1 (`l1d.cache_global_loads
        /// = false`, GPGPU-Sim's `-gpgpu_gmem_skip_L1D`): it goes to L2 without an L1 lookup.
        bypass: bool,
    },
    Atomic,
    Const,
    /// A texture fetch through the texture cache.
    Tex,
    /// An access whose time is known when it reaches the unit (shared memory with its bank
    /// conflicts, a perfect constant cache, the parameter space): it holds the unit `hold`
    /// cycles after the one it is served in, and its data is back `latency` cycles after that
    /// one (`Sm::book_fixed`). One pseudo-line.
    Fixed {
        latency: u32,
        hold: u32,
    },
}

#[derive(Clone, Copy, Debug)]
struct Staged {
    line: LineAccess,
    kind: AccKind,
    track: u32,
}

/// A memory instruction in flight.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Track {
    slot: WarpSlot,
    /// Lines not yet completed.
    remaining: u32,
    /// Release the destinations (loads, atomics) when done.
    release: bool,
    func: u32,
    pc: u32,
    rb: u32,
    pb: u32,
    /// The `cp.async` group of a copy ([`NO_GROUP`] for other instructions).
    group: u32,
    /// A fixed-latency access (`AccKind::Fixed`): its register writes take their banks when
    /// it completes, as a result timed at issue does.
    fixed: bool,
    /// The scheduler that issued it (its queue group, `LdstQueues::group_of`).
    sched: u8,
    /// Its completion erases its destinations' long-operation marks (`scoreboard.rs`): a
    /// constant-cache access until a line of it comes back from memory (`SmMem::reply`).
    mark_clears: bool,
    /// Cycles the writeback port takes to write one of its lines' destination registers
    /// through their banks (`Collectors::write_cycles`; 1 for a single register).
    write_cycles: u8,
}

/// [`Track::group`] of an instruction that is not a `cp.async`.
const NO_GROUP: u32 = u32::MAX;

/// What the memory side reaches outside itself in a cycle.
pub(crate) struct MemPorts<'a, 'n, F> {
    /// The SM's port to the interconnect, L2 and DRAM.
    pub net: &'a mut SmNet<'n>,
    /// The I-cache's misses go out, and come back, through the memory side.
    pub front: &'a mut Frontend<F>,
    /// An LD/ST instance is free again when its staged accesses are served.
    pub units: &'a mut Units,
}

/// An L1 MSHR waiter.
#[derive(Clone, Copy, Debug, Default)]
struct Waiter {
    track: u32,
    alloc: bool,
}

/// A load that failed to reserve an L1 miss (no MSHR, no miss-queue room) and the state it
/// failed in: while the L1's tags and MSHRs and the miss queue's room stay as they were, a
/// retry fails the same way, and is counted as a failure without looking them up again
/// (a stream of misses against full MSHRs retries every cycle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FailedLoad {
    addr: u64,
    track: u32,
    tags: u64,
    mshrs: u64,
    room: bool,
}

pub struct SmMem {
    /// The L1 D-cache, constant and texture caches with their MSHRs.
    caches: Caches,
    /// The LD/ST unit instances' staged accesses.
    ldst: LdstQueues,
    /// Which accesses the L1 D-cache keeps.
    writes: L1Policy,
    miss_queue: MissQueue,
    tracks: Vec<Track>,
    free_tracks: Vec<u32>,
    /// L1 / constant-cache hits and fixed-latency results: `(cycle the data is back, track,
    /// written through the register banks)`, in time order (see [`SmMem::line_back`]).
    hits: VecDeque<(u64, u32, bool)>,
    /// Accesses that look the L1 D-cache up, in the order they were served, each with the
    /// cycle of its lookup: `l1d.latency` cycles after the LD/ST unit served it (GPGPU-Sim's
    /// `l1_latency_queue`: a miss leaves for L2 only then, and a reservation failure at the
    /// head holds the queue). At most `l1d.latency` entries.
    l1_pipe: VecDeque<(u64, Staged)>,
    /// Per warp slot: memory instructions in flight.
    pub(crate) outstanding: Vec<u32>,
    waiters: Vec<Waiter>,
    /// Scratch: the memory instructions this cycle completed, in completion order.
    completed: Vec<Track>,
    pub(crate) lines: Vec<LineAccess>,
    /// The LD/ST unit's writeback port (`sm.ldst_writeback`): each line of a load or atomic
    /// that comes back (an L1 hit, a reply, a shared-memory result) writes its registers in
    /// a cycle of its own, one a cycle, in the order they came back (GPGPU-Sim's
    /// `ldst_unit::writeback`, one `m_next_wb` for all its clients).
    wb_port: bool,
    /// The first cycle the writeback port is free.
    wb_free: u64,
    /// Lines back that wait for the port, with the cycle they have it (increasing).
    wb_queue: VecDeque<(u64, u32)>,
    latency: u64,
    sector: u64,
    /// The L1 D-cache keeps a valid bit per sector (`l1d.sector` < `l1d.line`): loads fetch
    /// only the sectors they lack (`access::sectored_load`).
    l1_sectored: bool,
    pub l1d_counts: CacheCounts,
    /// The loads among `l1d_counts` that looked the tags up (not bypassing ones).
    pub l1d_load_counts: CacheCounts,
    pub cc_counts: CacheCounts,
    pub tex_counts: CacheCounts,
}

/// The SM's data caches: tags and MSHRs of the L1 D-cache, the constant cache and the texture
/// cache.
struct Caches {
    pub l1: TagArray,
    pub l1_mshrs: Mshrs<Waiter>,
    pub cc: TagArray,
    pub cc_mshrs: Mshrs<Waiter>,
    pub tex: TagArray,
    pub tex_mshrs: Mshrs<Waiter>,
}

/// Per LD/ST unit instance: the accesses of the instruction it serves and those queued behind.
struct LdstQueues {
    /// Per LD/ST unit instance: the line accesses of the instruction it is serving.
    pub staged: Vec<VecDeque<Staged>>,
    /// Per LD/ST unit instance and queue group (`LdstQueues::group_of`): instructions staged
    /// behind the one the unit is serving, at most `queue_cap`.
    pub waiting: Vec<u32>,
    /// `sm.ldst_queue`, divided among the groups: the room of each group's queue.
    pub queue_cap: u32,
    /// Queue groups per LD/ST instance: with `sm.sub_core` one per scheduler (GPGPU-Sim's
    /// sub-core model gives each scheduler its own slot of the memory pipeline registers and
    /// its own collectors, so one scheduler's queued instructions cannot take another's
    /// room), else 1.
    pub groups: usize,
    /// Per LD/ST unit instance: its staged head's last failure, if that was the last try.
    pub failed_load: Vec<Option<FailedLoad>>,
    /// Per LD/ST unit instance: cycles its staged head, already served, still holds the unit
    /// (`coalescer.bypass_per_sector`: one cycle per sector of an access around L1).
    pub hold: Vec<u32>,
    /// `coalescer.bypass_per_sector`.
    pub bypass_per_sector: bool,
}

impl LdstQueues {
    /// The index in `waiting` of LD/ST instance `unit`'s queue for scheduler `sched`.
    #[inline]
    fn group_of(&self, unit: usize, sched: u8) -> usize {
        unit * self.groups + sched as usize % self.groups
    }
}

/// What the L1 D-cache keeps (`l1d.global_write`, `l1d.local_write`, `l1d.cache_global_loads`).
struct L1Policy {
    pub global_write_back: bool,
    pub local_write_back: bool,
    pub cache_global_loads: bool,
}

impl SmMem {
    pub fn new(cfg: &GpuConfig, slots: usize) -> SmMem {
        let d = &cfg.l1d;
        let c = &cfg.const_cache;
        let units = cfg.units.ldst.max(1) as usize;
        let l1_sectored = d.sector < d.line;
        let l1_mshrs = Mshrs::new(d.mshrs, d.mshr_merge);
        let caches = Caches {
            l1: TagArray::new(d.size, d.assoc, d.line, d.set_hash),
            l1_mshrs: if l1_sectored {
                l1_mshrs.counting_sectors()
            } else {
                l1_mshrs
            },
            cc: TagArray::new(
                c.size,
                c.assoc,
                c.line,
                warpsim_core::config::SetIndex::Linear,
            ),
            cc_mshrs: Mshrs::new(
                cfg.const_cache.mshrs.unwrap_or(d.mshrs.min(32)),
                cfg.const_cache.mshr_merge.unwrap_or(d.mshr_merge),
            ),
            tex: TagArray::new(
                cfg.tex.size,
                cfg.tex.assoc,
                cfg.tex.line,
                warpsim_core::config::SetIndex::Linear,
            ),
            tex_mshrs: Mshrs::new(cfg.tex.mshrs, cfg.tex.mshr_merge),
        };
        let groups = if cfg.sm.sub_core {
            cfg.sm.schedulers.max(1) as usize
        } else {
            1
        };
        let ldst = LdstQueues {
            staged: (0..units).map(|_| VecDeque::with_capacity(64)).collect(),
            waiting: vec![0; units * groups],
            queue_cap: cfg.sm.ldst_queue / groups as u32,
            groups,
            // One per LD/ST instance, and one for the L1 latency queue's head.
            failed_load: vec![None; units + 1],
            hold: vec![0; units],
            bypass_per_sector: cfg.coalescer.bypass_per_sector,
        };
        let writes = L1Policy {
            global_write_back: d.global_write == WritePolicy::WriteBack,
            local_write_back: d.local_write == WritePolicy::WriteBack,
            cache_global_loads: d.cache_global_loads,
        };
        SmMem {
            caches,
            ldst,
            writes,
            miss_queue: MissQueue::new(d.miss_queue),
            tracks: Vec::with_capacity(4 * slots),
            free_tracks: Vec::with_capacity(4 * slots),
            hits: VecDeque::with_capacity(64),
            l1_pipe: VecDeque::with_capacity(d.latency.max(1) as usize),
            outstanding: vec![0; slots],
            waiters: Vec::with_capacity(d.mshr_merge.max(1) as usize),
            completed: Vec::with_capacity(slots),
            lines: Vec::with_capacity(WARP_SIZE * 2),
            wb_port: cfg.sm.ldst_writeback,
            wb_free: 0,
            wb_queue: VecDeque::with_capacity(64),
            latency: d.latency as u64,
            sector: cfg.coalescer.sector_bytes as u64,
            l1_sectored,
            l1d_counts: CacheCounts::default(),
            l1d_load_counts: CacheCounts::default(),
            cc_counts: CacheCounts::default(),
            tex_counts: CacheCounts::default(),
        }
    }

    /// Swaps in the constant and texture caches' tags a previous launch left (`kept.rs`).
    pub(crate) fn swap_read_only(&mut self, constant: &mut TagArray, texture: &mut TagArray) {
        std::mem::swap(&mut self.caches.cc, constant);
        std::mem::swap(&mut self.caches.tex, texture);
    }

    /// The constant and texture caches' tags, for the next launch (`kept.rs`).
    pub(crate) fn into_read_only(self) -> (TagArray, TagArray) {
        (self.caches.cc, self.caches.tex)
    }

    /// A hit of `track` in cycle `now` whose data is back `latency` cycles later: at once
    /// (0) for an L1 lookup at the end of `l1_pipe`, which spent the L1 latency queueing, and
    /// for the constant cache, whose hits GPGPU-Sim writes back from the LD/ST unit without a
    /// latency queue (in front: no queued hit is due earlier); else behind every queued hit.
    /// `banks`: its registers are written through the register banks at writeback (every
    /// result but an L1 D-cache hit's, see [`SmMem::line_back`]).
    fn hit(&mut self, now: u64, latency: u64, track: u32, banks: bool) {
        if latency == 0 {
            self.hits.push_front((now, track, banks));
            return;
        }
        // In time order: L1 hits all take the L1 latency, so they append; a fixed-latency
        // access (`AccKind::Fixed`) may go before the last few of them.
        let t = now + latency;
        let mut i = self.hits.len();
        while i > 0 && self.hits[i - 1].0 > t {
            i -= 1;
        }
        self.hits.insert(i, (t, track, banks));
    }

    /// LD/ST unit `unit` is sending an instruction's accesses (held until the memory stage
    /// frees it).
    #[inline]
    pub fn serving(&self, unit: usize) -> bool {
        !self.ldst.staged[unit].is_empty()
    }

    /// Another memory instruction of scheduler `sched` may queue behind the one LD/ST unit
    /// `unit` is serving (`sm.ldst_queue`).
    #[inline]
    pub fn queue_room(&self, unit: usize, sched: SchedId) -> bool {
        self.serving(unit)
            && self.ldst.waiting[self.ldst.group_of(unit, sched.raw())] < self.ldst.queue_cap
    }

    /// Marks track `id` (just staged) as a copy of `cp.async` group `group`.
    pub fn set_group(&mut self, id: u32, group: u32) {
        self.tracks[id as usize].group = group;
    }

    /// Puts the one pseudo-line of a fixed-latency access (`AccKind::Fixed`) in `self.lines`
    /// for [`SmMem::stage`].
    pub fn fixed_line(&mut self) {
        self.lines.clear();
        self.lines.push(LineAccess {
            addr: 0,
            sectors: 0,
            whole: 0,
        });
    }

    /// The LD/ST line size (the L1 line).
    pub fn line_bytes(&self) -> u64 {
        self.caches.l1.line_bytes()
    }

    /// Queues the write-back of an L1 line a fill evicted, when it is dirty (write-back local
    /// memory): the whole line, to L2, answered to no one.
    fn write_back(&mut self, victim: Option<crate::mem::cache::Evicted>, sm: u16) {
        let Some(ev) = victim.filter(|ev| ev.dirty) else {
            return;
        };
        self.l1d_counts.writebacks += 1;
        let bytes = self.caches.l1.line_bytes();
        let all = Req::all_sectors(bytes, self.sector);
        self.miss_queue.push(Req {
            addr: ev.addr,
            kind: Kind::Write,
            sm,
            bytes: bytes as u16,
            dest: Dest::Nobody,
            sectors: all,
            whole: all,
        });
    }

    /// The constant cache's line size (constant and parameter loads coalesce into its lines).
    pub fn const_line_bytes(&self) -> u64 {
        self.caches.cc.line_bytes()
    }

    /// The texture cache's line size (texture fetches coalesce into its lines).
    pub fn tex_line_bytes(&self) -> u64 {
        self.caches.tex.line_bytes()
    }

    /// The timing-model address of a functional address in `space` for `thread` (a global id).
    pub fn model_addr(space: warpsim_core::ir::Space, addr: u64, thread: u64) -> u64 {
        use warpsim_core::ir::Space;
        match space {
            Space::Local => {
                LOCAL_BASE + ((addr / 4) * LOCAL_THREADS + thread % LOCAL_THREADS) * 4 + addr % 4
            }
            Space::Const => CONST_BASE + addr,
            Space::KernelParam => PARAM_BASE + addr,
            _ => addr,
        }
    }

    /// Whether a load looks L1 up and allocates in it: not when volatile or `l2_only`
    /// (`.cg`/`.cv`), else for every non-global load, and for global ones when the preset
    /// caches them (Fermi) or the load is `.nc`.
    pub fn load_kind(&self, global: bool, mods: &Mods) -> AccKind {
        AccKind::Load {
            alloc: !mods.volatile
                && !mods.l2_only
                && (!global || self.writes.cache_global_loads || mods.nc),
        }
    }

    /// Cycles after the first that access `a` holds the LD/ST unit: with
    /// `coalescer.bypass_per_sector`, an access around L1 is one access per sector.
    fn extra_cycles(&self, a: &Staged) -> u32 {
        if let AccKind::Fixed { hold, .. } = a.kind {
            return hold;
        }
        let around = matches!(
            a.kind,
            AccKind::Load { alloc: false } | AccKind::Store { bypass: true, .. } | AccKind::Atomic
        );
        if self.ldst.bypass_per_sector && around {
            a.line.sectors.count_ones().saturating_sub(1)
        } else {
            0
        }
    }

    pub fn store_kind(&self, global: bool) -> AccKind {
        AccKind::Store {
            write_back: if global {
                self.writes.global_write_back
            } else {
                self.writes.local_write_back
            },
            bypass: global && !self.writes.cache_global_loads,
        }
    }

    /// Any work inside the SM (staged accesses, queued misses, pending hits).
    pub fn busy(&self) -> bool {
        !self.miss_queue.is_empty()
            || !self.hits.is_empty()
            || !self.l1_pipe.is_empty()
            || !self.wb_queue.is_empty()
            || self.ldst.staged.iter().any(|q| !q.is_empty())
    }

    /// Earliest cycle after `now` the SM-side memory pipeline acts by itself (replies still
    /// in the interconnect are the memory system's: `MemSystem::next_reply`).
    pub fn next_activity(&self, now: u64) -> u64 {
        if !self.miss_queue.is_empty() || self.ldst.staged.iter().any(|q| !q.is_empty()) {
            return now + 1;
        }
        let pipe = self
            .l1_pipe
            .front()
            .map_or(u64::MAX, |&(t, _)| t.max(now + 1));
        let wb = self.wb_queue.front().map_or(u64::MAX, |&(t, _)| t);
        self.hits
            .front()
            .map_or(u64::MAX, |&(t, _, _)| t)
            .min(pipe)
            .min(wb)
    }

    /// Stages the lines in `self.lines` as one instruction on LD/ST instance `unit` for warp
    /// slot `slot`; returns the track id.
    // Once per memory instruction: the track's fields, from the issuing code's locals.
    #[allow(clippy::too_many_arguments)]
    pub fn stage(
        &mut self,
        unit: usize,
        sched: SchedId,
        slot: WarpSlot,
        kind: AccKind,
        release: bool,
        mark_clears: bool,
        func: u32,
        pc: u32,
        rb: u32,
        pb: u32,
    ) -> u32 {
        let t = Track {
            slot,
            remaining: self.lines.len() as u32,
            release,
            func,
            pc,
            rb,
            pb,
            group: NO_GROUP,
            fixed: matches!(kind, AccKind::Fixed { .. }),
            sched: sched.raw(),
            mark_clears,
            write_cycles: 1,
        };
        let g = self.ldst.group_of(unit, sched.raw());
        let id = match self.free_tracks.pop() {
            Some(i) => {
                self.tracks[i as usize] = t;
                i
            }
            None => {
                self.tracks.push(t);
                (self.tracks.len() - 1) as u32
            }
        };
        self.outstanding[slot] += 1;
        if !self.lines.is_empty() && !self.ldst.staged[unit].is_empty() {
            self.ldst.waiting[g] += 1;
        }
        let q = &mut self.ldst.staged[unit];
        for &line in &self.lines {
            q.push_back(Staged {
                line,
                kind,
                track: id,
            });
        }
        id
    }
}

impl SmMem {
    /// One cycle of the SM's memory side (first in the SM's cycle): replies from L2, L1 hits
    /// whose data is back, one staged access per LD/ST instance, and the I-cache's and the
    /// miss queue's next requests into the interconnect. The memory instructions this
    /// completed are in [`SmMem::take_completed`]. Returns whether an LD/ST instance took an
    /// instruction off its queue or emptied (a scheduler asleep on it must walk again).
    #[inline(always)]
    pub(crate) fn cycle<F>(&mut self, sm: usize, now: u64, p: MemPorts<'_, '_, F>) -> bool {
        self.completed.clear();
        let mut ldst_freed = false;
        while let Some(r) = p.net.pop_reply(sm, now) {
            self.reply(p.front, r, now);
        }
        self.l1_lookup(sm as u16, now);
        while let Some(&(t, track, banks)) = self.hits.front() {
            if t > now {
                break;
            }
            self.hits.pop_front();
            self.line_back(track, now, banks);
        }
        while let Some(&(t, track)) = self.wb_queue.front() {
            if t > now {
                break;
            }
            self.wb_queue.pop_front();
            self.line_done(track);
        }
        for u in 0..self.ldst.staged.len() {
            if let Some(&a) = self.ldst.staged[u].front() {
                // The head was served; its further sectors hold the unit (one a cycle).
                let done = if self.ldst.hold[u] > 0 {
                    self.ldst.hold[u] -= 1;
                    self.ldst.hold[u] == 0
                } else if self.serve(a, u, sm as u16, now) {
                    self.ldst.hold[u] = self.extra_cycles(&a);
                    self.ldst.hold[u] == 0
                } else {
                    false
                };
                if done {
                    self.ldst.staged[u].pop_front();
                    let next = self.ldst.staged[u].front().map(|n| n.track);
                    if let Some(n) = next.filter(|&n| n != a.track) {
                        // The instruction has left the unit and the next one is served: one
                        // more may queue behind it in that one's group. A scheduler asleep on
                        // the full queue walks again.
                        let g = self.ldst.group_of(u, self.tracks[n as usize].sched);
                        self.ldst.waiting[g] -= 1;
                        ldst_freed = true;
                    }
                    if self.ldst.staged[u].is_empty() {
                        // Pipelined: the unit accepts the next instruction in the cycle its
                        // last access is served (the issue stage runs after this one), so a
                        // stream of one-line accesses flows at one per cycle, as GPGPU-Sim's
                        // LD/ST unit refills its dispatch register in the cycle it empties.
                        p.units.occupy(u, now);
                        // A scheduler asleep on a busy LD/ST unit walks again.
                        ldst_freed = true;
                    }
                }
            }
        }
        if let Some(r) = self.miss_queue.head(now) {
            if p.net.can_send(sm, &r, now) {
                self.miss_queue.sent(now);
                p.net.send(now, r);
            }
        }
        // An instruction miss goes last, into whatever room the data side left in the port:
        // GPGPU-Sim's SM cycle drains the L1 D-cache's miss queue and the LD/ST unit's
        // bypassing accesses (`ldst_unit::cycle`, in `execute`) before the I-cache's miss
        // queue (`m_L1I->cycle`, at the end of `fetch`), so a port kept full by data
        // requests starves instruction misses and the warps wait with empty I-buffers.
        if let Some(line) = p.front.next_icache_request() {
            let bytes = p.front.icache().line();
            let r = Req {
                addr: CODE_BASE + line,
                kind: Kind::Read,
                sm: sm as u16,
                bytes: bytes as u16,
                dest: Dest::ICache,
                sectors: Req::all_sectors(bytes, self.sector),
                whole: 0,
            };
            if p.net.can_send(sm, &r, now) {
                p.front.icache_request_sent();
                p.net.send(now, r);
            }
        }
        ldst_freed
    }

    /// The memory instructions the last [`SmMem::cycle`] completed, in completion order; give
    /// the vector back with [`SmMem::return_completed`] (it keeps its capacity).
    #[inline]
    pub(crate) fn take_completed(&mut self) -> Vec<Track> {
        std::mem::take(&mut self.completed)
    }

    #[inline]
    pub(crate) fn return_completed(&mut self, v: Vec<Track>) {
        self.completed = v;
    }

    /// Serves one line access, the head of LD/ST unit `unit`'s staged queue, in cycle `now`;
    /// false on a reservation failure or a full L1 latency queue (retry). An access that looks
    /// the L1 D-cache up joins `l1_pipe` (at most one a cycle): it is looked up when its
    /// latency has passed ([`SmMem::l1_lookup`]); the others are served now.
    #[inline(always)]
    fn serve(&mut self, a: Staged, unit: usize, sm: u16, now: u64) -> bool {
        let m = &mut *self;
        let through_l1 = matches!(
            a.kind,
            AccKind::Load { alloc: true } | AccKind::Store { bypass: false, .. }
        );
        if through_l1 && m.latency > 0 {
            let full = m.l1_pipe.len() >= m.latency as usize
                || m.l1_pipe.back().is_some_and(|&(t, _)| t >= now + m.latency);
            if full {
                return false;
            }
            m.l1_pipe.push_back((now + m.latency, a));
            return true;
        }
        self.access(a, unit, sm, now, false)
    }

    /// The L1 latency queue's head, when its latency has passed, looks the L1 D-cache up in
    /// cycle `now` (one a cycle: GPGPU-Sim's single-bank `l1_latency_queue`); a reservation
    /// failure keeps it at the head, holding the accesses behind it.
    #[inline(always)]
    fn l1_lookup(&mut self, sm: u16, now: u64) {
        let Some(&(t, a)) = self.l1_pipe.front() else {
            return;
        };
        if t <= now && self.access(a, self.ldst.failed_load.len() - 1, sm, now, true) {
            self.l1_pipe.pop_front();
        }
    }

    /// Performs line access `a` in cycle `now` (`slot`: its retry record in `failed_load`);
    /// `paid`: the L1 latency was spent in the latency queue, so a hit's data is back now.
    /// False on a reservation failure.
    fn access(&mut self, a: Staged, slot: usize, sm: u16, now: u64, paid: bool) -> bool {
        let m = &mut *self;
        let hit_latency = if paid { 0 } else { m.latency };
        match a.kind {
            AccKind::Load { alloc } => m.load_line(a, alloc, slot, sm, now, hit_latency),
            AccKind::Store {
                write_back: false,
                bypass,
            } => m.store_through(a, bypass, sm),
            AccKind::Store {
                write_back: true, ..
            } => m.store_back(a, sm, now, hit_latency),
            AccKind::Atomic => m.atomic(a, sm),
            AccKind::Const | AccKind::Tex => m.read_only(a, sm, now),
            AccKind::Fixed { latency, .. } => {
                m.hit(now, latency as u64, a.track, true);
                true
            }
        }
    }

    /// A reply from L2 arrived in cycle `now`.
    #[inline(always)]
    fn reply<F>(&mut self, front: &mut Frontend<F>, r: Req, now: u64) {
        let m = &mut *self;
        let mut w = std::mem::take(&mut m.waiters);
        match r.dest {
            Dest::Track(t) => {
                m.waiters = w;
                self.tracks[t as usize].mark_clears = false;
                self.line_back(t, now, true);
                return;
            }
            Dest::Nobody => {
                m.waiters = w;
                return;
            }
            Dest::ICache => {
                m.waiters = w;
                // This cycle's fetch hands the line back to the warps waiting for it.
                front.icache_fill(r.addr - CODE_BASE, now);
                return;
            }
            Dest::L1 => {
                // A sectored L1's miss may wait for several requests (sectors asked for by
                // accesses that merged into it): it completes with the last, and its sectors
                // are then installed together.
                let fetched = if m.l1_sectored {
                    match m.caches.l1_mshrs.arrived(r.addr) {
                        Some(sectors) => sectors,
                        None => {
                            m.waiters = w;
                            return;
                        }
                    }
                } else {
                    u32::MAX
                };
                m.caches.l1_mshrs.complete(r.addr, &mut w);
                if w.iter().any(|x| x.alloc) {
                    // May exceed the miss queue's capacity by the few victims of fills; the
                    // queue drains one per cycle.
                    let victim = m.caches.l1.fill_sectors(r.addr, false, fetched);
                    m.write_back(victim, r.sm);
                }
            }
            Dest::Const => {
                m.caches.cc_mshrs.complete(r.addr, &mut w);
                m.caches.cc.fill(r.addr, false);
            }
            Dest::Tex => {
                m.caches.tex_mshrs.complete(r.addr, &mut w);
                m.caches.tex.fill(r.addr, false);
            }
        }
        for x in &w {
            // Back from memory: written back through the LD/ST unit's port, which leaves the
            // long-operation marks (GPGPU-Sim's `releaseRegister`).
            self.tracks[x.track as usize].mark_clears = false;
            self.line_back(x.track, now, true);
        }
        self.waiters = w;
    }

    /// A line of track `t` came back in cycle `now`: a store's is done; a load's or an
    /// atomic's when the writeback port has written it (`wb_port`), at once or in a later
    /// cycle.
    ///
    /// `banks`: the line's registers go through the register banks, and the port holds it
    /// for the instruction's `write_cycles`. GPGPU-Sim writes every returned access of an
    /// instruction back as the whole instruction (`ldst_unit::writeback` takes
    /// `m_next_global->get_inst()`), and `opndcoll_rfu_t::writeback` writes all of its
    /// destination registers, at most one a bank a cycle, holding `m_next_wb` until the last
    /// is written: a 16 × 16 fragment load from global memory (8 registers, 16 accesses) on a
    /// sub-core with 2 banks holds the port 4 cycles per access. An L1 D-cache hit does not
    /// pass the port in GPGPU-Sim (`L1_latency_queue_cycle` releases its registers itself);
    /// here it still takes a turn of one cycle, as before this rule.
    #[inline(always)]
    fn line_back(&mut self, t: u32, now: u64, banks: bool) {
        let tr = &self.tracks[t as usize];
        if !self.wb_port || !tr.release {
            self.line_done(t);
            return;
        }
        let cycles = if banks { tr.write_cycles as u64 } else { 1 };
        let at = now.max(self.wb_free);
        self.wb_free = at + cycles;
        let written = at + cycles - 1;
        if written == now {
            self.line_done(t);
        } else {
            self.wb_queue.push_back((written, t));
        }
    }

    /// The lines waiting for or in the writeback port: (cycle written, warp slot).
    #[cfg(test)]
    pub(crate) fn wb_due(&self) -> Vec<(u64, usize)> {
        let slot = |t: u32| self.tracks[t as usize].slot.raw() as usize;
        self.wb_queue.iter().map(|&(at, t)| (at, slot(t))).collect()
    }

    /// Track `t`'s lines take `cycles` (at least 1) to write back (`line_back`).
    pub fn set_write_cycles(&mut self, t: u32, cycles: u32) {
        self.tracks[t as usize].write_cycles = cycles.clamp(1, u8::MAX as u32) as u8;
    }

    /// One line of track `t` completed: when it was the last, the instruction completes.
    #[inline(always)]
    fn line_done(&mut self, t: u32) {
        let tr = &mut self.tracks[t as usize];
        tr.remaining -= 1;
        if tr.remaining > 0 {
            return;
        }
        let done = *tr;
        self.free_tracks.push(t);
        self.outstanding[done.slot] -= 1;
        self.completed.push(done);
    }
}

impl<P: IssuePolicy, F: FetchPolicy> Sm<P, F> {
    /// The memory stage of cycle `now` (first in the cycle): the memory side's cycle
    /// ([`SmMem::cycle`]), then the bookkeeping of every memory instruction it completed.
    #[inline(always)]
    pub(crate) fn mem_stage(&mut self, env: &mut Env, now: u64) {
        let ports = MemPorts {
            net: &mut env.mem,
            front: &mut self.front,
            units: &mut self.units,
        };
        if self.mem.cycle(self.id as usize, now, ports) {
            self.sched.wake_all_by(now);
        }
        if self.mem.completed.is_empty() {
            return; // most cycles: nothing completed
        }
        let completed = self.mem.take_completed();
        for &tr in &completed {
            self.finish(env, tr, now);
        }
        self.mem.return_completed(completed);
    }

    /// A memory instruction completed in cycle `now` (its data is back, or a store was
    /// acknowledged). Its destinations are readable from the next cycle plus the pipeline
    /// stages around the unit (`[pipeline]`): the access starts at issue, so the collect and
    /// dispatch stages are paid here with the writeback — the same latency as paying them
    /// first, and the order of accesses is unchanged.
    fn finish(&mut self, env: &mut Env, tr: Track, now: u64) {
        let s = tr.slot;
        if tr.group != NO_GROUP {
            // The copy has landed: a wait on its group may issue from the next cycle.
            self.cp.land(s, tr.group);
            self.recheck(env, s, now + 1);
        }
        let mut done = now + 1;
        if tr.release {
            done += self.shape.pipeline_cycles;
            if let Some(inst) = env.k.module.functions[tr.func as usize]
                .insts
                .get(tr.pc as usize)
            {
                let clears = tr.mark_clears;
                self.timing.sb[s].release_at(inst, tr.rb as usize, tr.pb as usize, done, clears);
                if inst.op == Op::Tensor {
                    // A fragment load's destination registers (not named by its `Inst`).
                    let dsts = env.table.regs.get(tr.func, tr.pc).dsts();
                    self.timing.sb[s].release_regs(dsts, tr.rb as usize, done, clears);
                }
                if tr.fixed {
                    let dsts = env.table.regs.get(tr.func, tr.pc).bank_dsts;
                    self.collectors.book_writes(dsts, s, now, done);
                }
                if self.shape.atomics_block_warp && inst.op == Op::Atom {
                    self.timing.atomics_out[s] -= 1;
                    if self.timing.atomics_out[s] == 0 {
                        self.timing.atomics_until[s] = done;
                    }
                }
            }
            // Re-derived now (the memory stage runs before issue): a head that does not read
            // these results may issue in this very cycle, before they are written back.
            self.recheck(env, s, now);
        }
        self.timing.last_complete[s] = self.timing.last_complete[s].max(done);
        if self.mem.outstanding[s] == 0 && self.warps.waiting()[s] {
            self.residency.pending_exit = true;
        }
        if P::WANTS_MEM_EVENTS {
            notify!(self, now, env.all_dispatched, |p, v| p
                .on_mem_complete(tr.slot.raw(), &v));
        }
    }
}

mod access;
mod miss_queue;
#[cfg(test)]
mod tests;
