//! How the LD/ST unit serves one line access of each kind ([`AccKind`]): loads through the
//! L1 D-cache, stores written through or back, atomics at L2, constant and texture reads through
//! their read-only caches; each reports whether it was served or must be retried.

use super::{AccKind, FailedLoad, SmMem, Staged, Waiter};
use crate::mem::mshr::MshrAdd;
use crate::mem::{CacheCounts, Dest, Kind, Req};

/// The SM's read caches.
#[derive(Clone, Copy)]
enum ReadCache {
    L1,
    Const,
    Tex,
}

/// A read through one of the SM's read caches in cycle `now`: a hit (when `lookup`; a
/// bypassing load skips the tags), a merge into a miss in flight, or a new miss queued for
/// L2 asking `bytes` (the sectors `sectors`). False on a reservation failure (no MSHR or
/// miss-queue room).
// Per line on the LD/ST path: the access's values in registers, not a struct built per call.
#[allow(clippy::too_many_arguments)]
fn cached_read(
    m: &mut SmMem,
    cache: ReadCache,
    addr: u64,
    w: Waiter,
    lookup: bool,
    bytes: u16,
    sectors: u32,
    sm: u16,
    now: u64,
    hit_latency: u64,
) -> bool {
    let room = m.miss_queue.room();
    let (tags, mshrs, counts, dest) = match cache {
        ReadCache::L1 => (
            &mut m.caches.l1,
            &mut m.caches.l1_mshrs,
            &mut m.l1d_counts,
            Dest::L1,
        ),
        ReadCache::Const => (
            &mut m.caches.cc,
            &mut m.caches.cc_mshrs,
            &mut m.cc_counts,
            Dest::Const,
        ),
        ReadCache::Tex => (
            &mut m.caches.tex,
            &mut m.caches.tex_mshrs,
            &mut m.tex_counts,
            Dest::Tex,
        ),
    };
    // Loads that look the L1 up are counted apart too (the L1 miss rate of loads).
    let mut loads = match cache {
        ReadCache::L1 if lookup => Some(&mut m.l1d_load_counts),
        _ => None,
    };
    let mut count = |f: fn(&mut CacheCounts)| {
        f(counts);
        if let Some(l) = loads.as_deref_mut() {
            f(l);
        }
    };
    if lookup && tags.access(addr, false) {
        count(|c| c.hits += 1);
        // Constant and texture hits are written back through the banks; L1 D-cache hits
        // are not (`SmMem::line_back`).
        let banks = !matches!(cache, ReadCache::L1);
        m.hit(now, hit_latency, w.track, banks);
        return true;
    }
    // A new miss of a load that allocates in the L1 D-cache takes a way of its set now
    // (allocate on miss): none free of fills on their way is a reservation failure.
    let reserves = matches!(cache, ReadCache::L1) && w.alloc && !mshrs.pending(addr);
    if reserves && !tags.can_reserve(addr) {
        count(|c| c.reservation_fails += 1);
        return false;
    }
    // A merge into a miss in flight, or a new miss when the miss queue has room.
    let added = mshrs.add_if(addr, w, room);
    if added == MshrAdd::Full {
        count(|c| c.reservation_fails += 1);
        return false;
    }
    let mut victim = None;
    if added == MshrAdd::Merged {
        count(|c| c.merged += 1);
    } else {
        if reserves {
            victim = tags.reserve(addr).expect("checked");
        }
        count(|c| c.misses += 1);
        m.miss_queue.push(Req {
            addr,
            kind: Kind::Read,
            sm,
            bytes,
            dest,
            sectors,
            whole: 0,
        });
    }
    // A dirty line it replaced (local memory is written back) goes to L2.
    m.write_back(victim, sm);
    true
}

/// A load through a sectored L1 D-cache (`l1d.sector` < `l1d.line`) in cycle `now`: GPGPU-Sim's
/// sector cache with an MSHR entry per sector. A hit needs every sector `want` of the line
/// present; otherwise only the sectors missing are fetched — a new miss on an absent line
/// reserves a way for it (allocate on miss), a *sector miss* on a present line keeps the line
/// (it is no victim until the sectors arrive), and a miss merging into one in flight asks for
/// the sectors that miss does not fetch. `w.alloc` false: a load around L1 (no lookup, no
/// way). False on a reservation failure (no way, no MSHR sector, no miss-queue room).
fn sectored_load(
    m: &mut SmMem,
    line: u64,
    want: u32,
    w: Waiter,
    sm: u16,
    now: u64,
    hit_latency: u64,
) -> bool {
    let lookup = w.alloc;
    let count = |m: &mut SmMem, f: fn(&mut CacheCounts)| {
        f(&mut m.l1d_counts);
        if lookup {
            f(&mut m.l1d_load_counts);
        }
    };
    let present = if lookup {
        m.caches.l1.sectors(line)
    } else {
        None
    };
    let missing = want & !present.unwrap_or(0);
    if present.is_some() && missing == 0 {
        m.caches.l1.access(line, false);
        count(m, |c| c.hits += 1);
        m.hit(now, hit_latency, w.track, false);
        return true;
    }
    let reserves = lookup && present.is_none() && !m.caches.l1_mshrs.pending(line);
    if reserves && !m.caches.l1.can_reserve(line) {
        count(m, |c| c.reservation_fails += 1);
        return false;
    }
    let room = m.miss_room();
    let (added, ask) = m.caches.l1_mshrs.add_sectors(line, w, missing, room);
    let mut victim = None;
    match added {
        MshrAdd::Full => {
            count(m, |c| c.reservation_fails += 1);
            return false;
        }
        MshrAdd::Merged => count(m, |c| c.merged += 1),
        MshrAdd::New => {
            count(m, |c| c.misses += 1);
            if reserves {
                victim = m.caches.l1.reserve(line).expect("checked");
            } else if lookup {
                m.caches.l1.pin(line);
            }
        }
    }
    if ask != 0 {
        let r = Req {
            addr: line,
            kind: Kind::Read,
            sm,
            bytes: (ask.count_ones() as u64 * m.sector) as u16,
            dest: Dest::L1,
            sectors: ask,
            whole: 0,
        };
        // Through the L1, a request per sector (`miss_queue.rs`); a load around L1 was already
        // held at the LD/ST unit a cycle per sector (`coalescer.bypass_per_sector`), as
        // GPGPU-Sim sends such accesses to the interconnect one a cycle, without the L1's queue.
        if lookup {
            m.miss_queue.push_paced(r);
        } else {
            m.miss_queue.push(r);
        }
    }
    // A dirty line it replaced (local memory is written back) goes to L2.
    m.write_back(victim, sm);
    true
}

/// Line accesses, one kind each ([`AccKind`]; `Sm::access` picks the one), performed in cycle
/// `now` for SM `sm`: true when served, false on a reservation failure (the LD/ST unit or the
/// L1 latency queue retries it). Where a hit's data is back after the L1 latency,
/// `hit_latency` is the cycles it has still to wait (0 when the latency queue paid it).
impl SmMem {
    /// Whether the miss queue can take another request to L2.
    pub(super) fn miss_room(&self) -> bool {
        self.miss_queue.room()
    }

    /// A load through the L1 D-cache (`alloc`: it allocates there; else it bypasses the tags
    /// and asks L2 for its sectors only). `slot` is its retry record in `failed_load`: a
    /// retry in the state it last failed in fails again without a lookup.
    pub(super) fn load_line(
        &mut self,
        a: Staged,
        alloc: bool,
        slot: usize,
        sm: u16,
        now: u64,
        hit_latency: u64,
    ) -> bool {
        let bytes = if alloc {
            self.caches.l1.line_bytes() as u16
        } else {
            a.line.bytes(self.sector)
        };
        let sectors = if alloc {
            Req::all_sectors(bytes as u64, self.sector)
        } else {
            a.line.sectors
        };
        let w = Waiter {
            track: a.track,
            alloc,
        };
        let state = FailedLoad {
            addr: a.line.addr,
            track: a.track,
            tags: self.caches.l1.changes(),
            mshrs: self.caches.l1_mshrs.changes(),
            room: self.miss_room(),
        };
        if self.ldst.failed_load[slot] == Some(state) {
            // What `cached_read` counts when it fails.
            self.l1d_counts.reservation_fails += 1;
            if alloc {
                self.l1d_load_counts.reservation_fails += 1;
            }
            return false;
        }
        if self.l1_sectored {
            let served = sectored_load(self, a.line.addr, a.line.sectors, w, sm, now, hit_latency);
            self.ldst.failed_load[slot] = (!served).then_some(state);
            return served;
        }
        let served = cached_read(
            self,
            ReadCache::L1,
            a.line.addr,
            w,
            alloc,
            bytes,
            sectors,
            sm,
            now,
            hit_latency,
        );
        self.ldst.failed_load[slot] = (!served).then_some(state);
        served
    }

    /// A write-through store: updates the L1 D-cache on a hit (unless it `bypass`es L1) and
    /// goes on to L2, which acknowledges it.
    pub(super) fn store_through(&mut self, a: Staged, bypass: bool, sm: u16) -> bool {
        let addr = a.line.addr;
        if !self.miss_room() {
            if !bypass {
                self.l1d_counts.reservation_fails += 1;
            }
            return false;
        }
        if bypass {
            // Straight to L2: no L1 lookup.
        } else if self.caches.l1.access(addr, false) {
            self.l1d_counts.hits += 1;
        } else {
            self.l1d_counts.misses += 1;
        }
        let bytes = a.line.bytes(self.sector);
        let r = Req {
            addr,
            kind: Kind::Write,
            sm,
            bytes,
            dest: Dest::Track(a.track),
            sectors: a.line.sectors,
            whole: a.line.whole,
        };
        // Through a sectored L1, a write per sector (`miss_queue.rs`).
        if self.l1_sectored && !bypass {
            self.miss_queue.push_paced(r);
        } else {
            self.miss_queue.push(r);
        }
        true
    }

    /// A write-back store: writes its line in the L1 D-cache, dirty (a miss allocates it,
    /// sending a dirty victim to L2), and completes as a hit.
    pub(super) fn store_back(&mut self, a: Staged, sm: u16, now: u64, hit_latency: u64) -> bool {
        let addr = a.line.addr;
        if self.caches.l1.access(addr, true) {
            self.l1d_counts.hits += 1;
        } else {
            // Every way of the set waits for a fill: no line to write into.
            if !self.miss_room() || !self.caches.l1.can_reserve(addr) {
                self.l1d_counts.reservation_fails += 1;
                return false;
            }
            self.l1d_counts.misses += 1;
            let victim = self.caches.l1.fill(addr, true);
            self.write_back(victim, sm);
        }
        self.hit(now, hit_latency, a.track, false);
        true
    }

    /// An atomic: sent to L2, which executes it; a stale L1 copy is dropped.
    pub(super) fn atomic(&mut self, a: Staged, sm: u16) -> bool {
        if !self.miss_room() {
            self.l1d_counts.reservation_fails += 1;
            return false;
        }
        self.caches.l1.invalidate(a.line.addr);
        let bytes = a.line.bytes(self.sector);
        self.miss_queue.push(Req {
            addr: a.line.addr,
            kind: Kind::Atomic,
            sm,
            bytes,
            dest: Dest::Track(a.track),
            sectors: a.line.sectors,
            whole: 0,
        });
        true
    }

    /// A read through the constant or the texture cache (by `a.kind`): constant-cache hits
    /// are back at once, texture hits after the L1 latency.
    pub(super) fn read_only(&mut self, a: Staged, sm: u16, now: u64) -> bool {
        let (cache, bytes, hit_latency) = if a.kind == AccKind::Const {
            (ReadCache::Const, self.caches.cc.line_bytes() as u16, 0)
        } else {
            (
                ReadCache::Tex,
                self.caches.tex.line_bytes() as u16,
                self.latency,
            )
        };
        let w = Waiter {
            track: a.track,
            alloc: true,
        };
        let sectors = Req::all_sectors(bytes as u64, self.sector);
        cached_read(
            self,
            cache,
            a.line.addr,
            w,
            true,
            bytes,
            sectors,
            sm,
            now,
            hit_latency,
        )
    }
}
