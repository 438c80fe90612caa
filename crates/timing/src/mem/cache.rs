//! A set-associative tag array with LRU replacement and per-line dirty bits: the storage of
//! the L1 D-cache, the constant cache and the L2 slices (the simulator is timing-only, so no
//! data is held). Lines are identified by their line-aligned byte address.

use warpsim_core::config::SetIndex;

/// What [`TagArray::fill`] pushed out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evicted {
    pub addr: u64,
    pub dirty: bool,
}

/// The address bits an L2 slice's set index may use. A slice only ever receives the lines of
/// its own memory partition and slice: the partition interleave (`chunk`-byte chunks dealt
/// over `partitions`) and the slice alternation (lines dealt over `slices`) fix those address
/// bits for every line it holds, so a set index taken from the global line address leaves
/// most sets unused (on gtx480's 6 partitions x 2 slices a 256 KiB footprint already misses).
/// As GPGPU-Sim (`partition_address`: the address with the chip and sub-partition bits
/// removed), a slice indexes with its line number among its own lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceLocal {
    pub chunk: u64,
    pub partitions: u64,
    pub slices: u64,
    /// `l2.slice_interleave` when set: the bytes of the partition's address space a slice
    /// takes before the next; `None`: slices alternate line by line.
    pub interleave: Option<u64>,
}

impl SliceLocal {
    /// `addr` in its partition's own address space (the partition-select chunks removed).
    #[inline]
    pub fn in_partition(&self, addr: u64) -> u64 {
        (addr / self.chunk / self.partitions) * self.chunk + addr % self.chunk
    }

    /// The line number of `addr` among the lines of its slice (lines of `1 << line_shift` bytes).
    #[inline]
    fn line_in_slice(&self, addr: u64, line_shift: u32) -> u64 {
        let in_partition = self.in_partition(addr);
        match self.interleave {
            None => (in_partition >> line_shift) / self.slices,
            // The slice-select bits removed, as GPGPU-Sim's `partition_address`.
            Some(b) => ((in_partition / (b * self.slices)) * b + in_partition % b) >> line_shift,
        }
    }
}

pub struct TagArray {
    /// `tags[set * ways + way]`: line address + 1 (0 = invalid).
    tags: Vec<u64>,
    /// Last-use stamp per way (larger = more recent).
    used: Vec<u64>,
    dirty: Vec<bool>,
    /// Per way: allocated to a line whose fill is on its way ([`TagArray::reserve`]): not a
    /// hit, not replaceable, until [`TagArray::fill`] brings it.
    reserved: Vec<bool>,
    /// Per set: its ways with `reserved` set, so that [`TagArray::can_reserve`] does not scan
    /// the set (a unified L1 has 256 ways).
    reserved_in_set: Vec<u32>,
    /// Per way: the sectors whose data the line holds (only a sectored L2 tracks less than all).
    present: Vec<u32>,
    sets: u64,
    ways: usize,
    line_shift: u32,
    index: SetIndex,
    /// Set only for an L2 slice: index with the slice-local line number.
    slice_local: Option<SliceLocal>,
    clock: u64,
    /// Counts the fills and invalidations: which lines are present can change only when
    /// this moves (a lookup's answer for an address is the same while it stands).
    changes: u64,
}

impl TagArray {
    /// `size` bytes in lines of `line` bytes, `assoc` ways (sizes are validated as powers of
    /// two by the config; a degenerate one still yields at least one set and way).
    pub fn new(size: u32, assoc: u32, line: u32, index: SetIndex) -> TagArray {
        let line = line.max(1).next_power_of_two();
        let ways = assoc.max(1) as usize;
        let sets = (size as u64 / line as u64 / ways as u64).max(1);
        TagArray {
            tags: vec![0; sets as usize * ways],
            used: vec![0; sets as usize * ways],
            dirty: vec![false; sets as usize * ways],
            reserved: vec![false; sets as usize * ways],
            reserved_in_set: vec![0; sets as usize],
            present: vec![u32::MAX; sets as usize * ways],
            sets,
            ways,
            line_shift: line.trailing_zeros(),
            index,
            slice_local: None,
            clock: 0,
            changes: 0,
        }
    }

    /// The tag array of an L2 slice: sets are indexed with the line's number among the slice's
    /// own lines (see [`SliceLocal`]); tags stay global line addresses.
    pub fn for_slice(mut self, local: SliceLocal) -> TagArray {
        self.slice_local = Some(local);
        self
    }

    pub fn line_bytes(&self) -> u64 {
        1 << self.line_shift
    }

    /// The line-aligned address of `addr`.
    #[inline]
    pub fn line_of(&self, addr: u64) -> u64 {
        addr >> self.line_shift << self.line_shift
    }

    #[inline]
    fn set_of(&self, addr: u64) -> usize {
        let l = match self.slice_local {
            None => addr >> self.line_shift,
            Some(local) => local.line_in_slice(addr, self.line_shift),
        };
        let set = match self.index {
            SetIndex::Linear => l % self.sets,
            // GPGPU-Sim's Fermi L1 hash (`FERMI_HASH_SET_FUNCTION`, after Nugteren et al.,
            // HPCA 2014), defined for 32 and 64 sets: the line-address bits 7-11 XOR the
            // address bits 13, 14, 15, 17 and 19 (bits 12, 16 and 18 are left out: 32 lines
            // 4 KiB apart share 8 sets); 64 sets take bit 12 as the top set bit.
            SetIndex::Fermi if self.sets == 32 || self.sets == 64 => {
                let upper = (addr >> 13 & 0x7) | (addr >> 14 & 0x8) | (addr >> 15 & 0x10);
                let set = (l & 0x1f) ^ upper;
                if self.sets == 64 {
                    set | (addr >> 7 & 0x20)
                } else {
                    set
                }
            }
            // Other set counts (GPGPU-Sim refuses them): the set bits XOR the next bits up.
            SetIndex::Fermi => {
                let bits = self.sets.trailing_zeros();
                (l ^ (l >> bits)) % self.sets
            }
            // Polynomial (IPOLY) hash as in Pascal's L2: fold all upper bits in.
            SetIndex::Ipoly => {
                let bits = self.sets.trailing_zeros().max(1);
                let mut x = l;
                let mut h = 0u64;
                while x != 0 {
                    h ^= x & ((1 << bits) - 1);
                    x >>= bits;
                }
                h % self.sets
            }
        };
        set as usize * self.ways
    }

    /// The way holding `addr`'s line, reserved or not.
    #[inline]
    fn way_of(&self, addr: u64) -> Option<usize> {
        let base = self.set_of(addr);
        let key = self.line_of(addr) + 1;
        self.tags[base..base + self.ways]
            .iter()
            .position(|&t| t == key)
            .map(|w| base + w)
    }

    /// The way holding `addr`'s line with data: not merely reserved for it at a line miss (a
    /// line pinned at a sector miss still answers for the sectors it holds).
    #[inline]
    fn find(&self, addr: u64) -> Option<usize> {
        self.way_of(addr)
            .filter(|&i| !self.reserved[i] || self.present[i] != 0)
    }

    /// The way a new line of `addr`'s set would take: an invalid one, else the least recently
    /// used; never one reserved for a fill on its way.
    #[inline]
    fn victim(&self, addr: u64) -> Option<usize> {
        let base = self.set_of(addr);
        let range = base..base + self.ways;
        // The first way with the least (valid, last use): one pass over plain slices, the
        // key folded into one integer (stamps stay far below 2^63).
        let (tags, used, reserved) = (
            &self.tags[range.clone()],
            &self.used[range.clone()],
            &self.reserved[range],
        );
        let mut best: Option<(u64, usize)> = None;
        for (w, ((&tag, &stamp), &held)) in tags.iter().zip(used).zip(reserved).enumerate() {
            let key = ((tag != 0) as u64) << 63 | stamp;
            if !held && best.is_none_or(|(k, _)| key < k) {
                best = Some((key, w));
            }
        }
        best.map(|(_, w)| base + w)
    }

    /// Whether [`TagArray::reserve`] would find a way for `addr` (some way of its set is not
    /// reserved).
    pub fn can_reserve(&self, addr: u64) -> bool {
        (self.reserved_in_set[self.set_of(addr) / self.ways] as usize) < self.ways
    }

    /// Marks way `i` reserved or not, keeping its set's count.
    #[inline]
    fn set_reserved(&mut self, i: usize, on: bool) {
        if self.reserved[i] != on {
            self.reserved[i] = on;
            let set = i / self.ways;
            if on {
                self.reserved_in_set[set] += 1;
            } else {
                self.reserved_in_set[set] -= 1;
            }
        }
    }

    /// Allocates a way to `addr`'s line at a miss, before its data arrives (GPGPU-Sim's
    /// allocate-on-miss, the `m` of `-gpgpu_cache:dl1`): the way is neither a hit nor
    /// replaceable until [`TagArray::fill`]. Returns the valid line it replaced; `None` (and
    /// nothing changes) when every way of the set is reserved: a reservation failure.
    pub fn reserve(&mut self, addr: u64) -> Option<Option<Evicted>> {
        let victim = self.victim(addr)?;
        self.clock += 1;
        self.changes += 1;
        let out = self.replace(victim, addr, false, 0);
        self.set_reserved(victim, true);
        Some(out)
    }

    /// A sector miss on `addr`'s present line: the line becomes the most recently used and
    /// is not replaceable until [`TagArray::fill_sectors`] brings the sectors (GPGPU-Sim's
    /// `allocate_sector`: a line with a reserved sector is no victim). False when absent.
    pub fn pin(&mut self, addr: u64) -> bool {
        let Some(i) = self.find(addr) else {
            return false;
        };
        self.clock += 1;
        self.used[i] = self.clock;
        self.set_reserved(i, true);
        true
    }

    /// Way `victim` takes `addr`'s line as the most recently used, dirty when `dirty`, with
    /// the sectors `present`; returns the valid line it held.
    fn replace(&mut self, victim: usize, addr: u64, dirty: bool, present: u32) -> Option<Evicted> {
        let old = self.tags[victim];
        let out = (old != 0).then(|| Evicted {
            addr: old - 1,
            dirty: self.dirty[victim],
        });
        self.tags[victim] = self.line_of(addr) + 1;
        self.used[victim] = self.clock;
        self.dirty[victim] = dirty;
        self.present[victim] = present;
        out
    }

    /// Looks `addr` up; a hit becomes the most recently used line (and dirty when `write`).
    pub fn access(&mut self, addr: u64, write: bool) -> bool {
        match self.find(addr) {
            Some(i) => {
                self.clock += 1;
                self.used[i] = self.clock;
                self.dirty[i] |= write;
                true
            }
            None => false,
        }
    }

    /// The sectors of `addr`'s line that hold data (`None`: the line is absent), without
    /// touching the LRU state.
    pub fn sectors(&self, addr: u64) -> Option<u32> {
        self.find(addr).map(|i| self.present[i])
    }

    /// See `changes`: fills and invalidations so far.
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// Whether `addr` is present, without touching the LRU state.
    pub fn probe(&self, addr: u64) -> bool {
        self.find(addr).is_some()
    }

    /// Installs `addr`'s line (dirty when `dirty`) as most recently used, replacing the least
    /// recently used way of its set; returns the valid line it replaced.
    pub fn fill(&mut self, addr: u64, dirty: bool) -> Option<Evicted> {
        self.fill_sectors(addr, dirty, u32::MAX)
    }

    /// [`TagArray::fill`] holding data only for `sectors` (added to a line already present).
    pub fn fill_sectors(&mut self, addr: u64, dirty: bool, sectors: u32) -> Option<Evicted> {
        self.clock += 1;
        self.changes += 1;
        if let Some(i) = self.way_of(addr) {
            // Present, or the way reserved for it at the miss. A fill into a reserved way
            // leaves its LRU stamp where the miss put it (GPGPU-Sim's `fill` of an
            // allocate-on-miss cache sets no access time); anything else is an access.
            let was_reserved = self.reserved[i];
            self.set_reserved(i, false);
            if !was_reserved {
                self.used[i] = self.clock;
            }
            self.dirty[i] |= dirty;
            self.present[i] |= sectors;
            return None;
        }
        // Every way reserved for other lines: the fill is not kept (only where lines are
        // reserved, an L1; a cache that never reserves always finds a way).
        let victim = self.victim(addr)?;
        self.replace(victim, addr, dirty, sectors)
    }

    /// Drops `addr`'s line if present (returns whether it was dirty); a way reserved for a
    /// fill on its way stays reserved.
    pub fn invalidate(&mut self, addr: u64) -> Option<bool> {
        let i = self.find(addr)?;
        self.tags[i] = 0;
        self.changes += 1;
        Some(std::mem::take(&mut self.dirty[i]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The victim the one-pass scan picks and the reserved-way counts behind `can_reserve`
    /// are those a scan of the whole set gives, through a long mix of reservations, pins,
    /// fills, accesses and invalidations.
    #[test]
    fn victims_and_reservation_counts_match_a_full_scan() {
        let mut t = TagArray::new(2 * 8 * 128, 8, 128, SetIndex::Linear);
        let mut x = 12345u64;
        for _ in 0..20_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let addr = (x >> 33) % 40 * 128;
            match (x >> 20) % 5 {
                0 => drop(t.reserve(addr)),
                1 => drop(t.pin(addr)),
                2 => drop(t.fill_sectors(addr, false, 1 << ((x >> 8) % 4))),
                3 => drop(t.access(addr, true)),
                _ => drop(t.invalidate(addr)),
            }
            for set in 0..2 {
                let ways = set * 8..set * 8 + 8;
                let held = ways.clone().filter(|&i| t.reserved[i]).count();
                assert_eq!(t.reserved_in_set[set] as usize, held);
                let scan = ways
                    .filter(|&i| !t.reserved[i])
                    .min_by_key(|&i| (t.tags[i] != 0, t.used[i]));
                assert_eq!(t.victim(set as u64 * 128), scan);
                assert_eq!(t.can_reserve(set as u64 * 128), scan.is_some());
            }
        }
    }

    #[test]
    fn lru_replaces_least_recent_and_reports_dirty_victims() {
        // 2 sets x 2 ways of 128 B.
        let mut t = TagArray::new(512, 2, 128, SetIndex::Linear);
        let a = 0u64;
        let b = 256; // same set (set = line % 2)
        let c = 512;
        assert!(t.fill(a, false).is_none());
        assert!(t.fill(b, true).is_none());
        assert!(t.access(a, false)); // a most recent: b is the LRU
        let ev = t.fill(c, false).expect("a way is replaced");
        assert_eq!(
            ev,
            Evicted {
                addr: b,
                dirty: true
            }
        );
        assert!(t.probe(a) && t.probe(c) && !t.probe(b));
        assert!(t.access(a + 127, false), "same line");
        assert!(!t.access(128, false), "other set, never filled");
    }

    /// Allocate-on-miss keeps the LRU place of the miss: a line missed first and filled last
    /// is still the older one (GPGPU-Sim's `fill` sets no access time); a pinned line (a
    /// sector miss on it in flight) answers for its sectors but is no victim.
    #[test]
    fn a_fill_keeps_the_lru_place_of_its_miss_and_a_pinned_line_stays() {
        // 1 set x 2 ways.
        let mut t = TagArray::new(256, 2, 128, SetIndex::Linear);
        assert_eq!(t.reserve(0), Some(None));
        assert_eq!(t.reserve(128), Some(None));
        assert_eq!(t.reserve(256), None, "both ways wait for fills");
        assert!(!t.probe(0), "reserved: no hit before its fill");
        assert!(t.fill(128, false).is_none());
        assert!(t.fill(0, false).is_none());
        let ev = t.reserve(256).unwrap().expect("a way is replaced");
        assert_eq!(ev.addr, 0, "missed first, so least recently used");
        assert!(t.fill(256, false).is_none());
        // 128 is now the LRU; pinned, it stays and 256 goes instead.
        assert!(t.pin(128));
        assert!(t.probe(128), "a pinned line still answers");
        let ev = t.reserve(384).unwrap().expect("a way is replaced");
        assert_eq!(ev.addr, 256);
        assert!(!t.pin(0), "absent");
    }

    #[test]
    fn hashes_spread_power_of_two_strides() {
        // A 4 KiB stride maps to one set linearly but several under the Fermi hash and IPOLY.
        let sets_hit = |index| {
            let t = TagArray::new(16384, 4, 128, index);
            let mut s: Vec<usize> = (0..32u64).map(|i| t.set_of(i * 4096)).collect();
            s.sort_unstable();
            s.dedup();
            s.len()
        };
        assert_eq!(sets_hit(SetIndex::Linear), 1);
        // GPGPU-Sim's Fermi hash leaves address bits 12 and 16 out: 32 lines 4 KiB apart fill
        // 8 sets, four lines each.
        assert_eq!(sets_hit(SetIndex::Fermi), 8);
        assert!(sets_hit(SetIndex::Ipoly) > 4);
    }

    #[test]
    fn the_fermi_hash_is_gpgpusims() {
        // FERMI_HASH_SET_FUNCTION for 32 sets: (addr >> 7 & 31) ^ bits 13, 14, 15, 17, 19.
        let t = TagArray::new(16384, 4, 128, SetIndex::Fermi);
        let gpgpusim = |addr: u64| {
            let upper =
                ((addr & 0xE000) >> 13) | ((addr & 0x20000) >> 14) | ((addr & 0x80000) >> 15);
            (((addr >> 7) & 0x1F) ^ upper) as usize
        };
        for addr in [
            0u64,
            0x80,
            0x1000,
            0x2000,
            0x3F80,
            0x12345680,
            0xC000_0000,
            0xC00A_3F00,
        ] {
            assert_eq!(t.set_of(addr), gpgpusim(addr) * 4, "{addr:#x}");
        }
        // 64 sets (48 KiB, 6 ways in GPGPU-Sim's 48 KiB L1) add bit 12 as the top set bit.
        let t64 = TagArray::new(49152, 6, 128, SetIndex::Fermi);
        assert_eq!(t64.set_of(0x1000), (gpgpusim(0x1000) | 32) * 6);
    }

    #[test]
    fn a_slice_indexes_with_its_own_line_numbers() {
        // gtx480's map: 256-byte chunks over 6 partitions, 128-byte lines over 2 slices. The
        // lines of partition 0, slice 0 are 0, 1536, 3072, ...; a slice of 64 sets x 8 ways
        // holds 512 of them without an eviction only when all 64 sets are used.
        let local = SliceLocal {
            chunk: 256,
            partitions: 6,
            slices: 2,
            interleave: None,
        };
        let lines: Vec<u64> = (0..512u64).map(|i| i * 6 * 256).collect();
        let fills_without_eviction = |t: &mut TagArray| {
            lines
                .iter()
                .filter(|&&a| t.fill(a, false).is_none())
                .count()
        };
        let mut global = TagArray::new(65536, 8, 128, SetIndex::Linear);
        let mut sliced = TagArray::new(65536, 8, 128, SetIndex::Linear).for_slice(local);
        assert_eq!(fills_without_eviction(&mut sliced), 512);
        assert!(
            fills_without_eviction(&mut global) <= 256,
            "global indexing uses at most half the sets"
        );
        assert!(lines.iter().all(|&a| sliced.probe(a)));
        // The other slice's lines (128 bytes on) index the same way.
        assert_eq!(sliced.set_of(128), sliced.set_of(0));
        assert_ne!(sliced.set_of(1536), sliced.set_of(0));
    }

    #[test]
    fn with_a_slice_interleave_a_slices_lines_are_numbered_without_gaps() {
        // 256 bytes per slice in turn (gtx480): partition 0's chunks are 0, 1536, 3072, …;
        // slice 0 takes the even ones, both lines of each, numbered 0, 1, 2, 3, …
        let local = SliceLocal {
            chunk: 256,
            partitions: 6,
            slices: 2,
            interleave: Some(256),
        };
        let slice0: Vec<u64> = (0..8u64)
            .flat_map(|c| [2 * c * 1536, 2 * c * 1536 + 128])
            .map(|a| local.line_in_slice(a, 7))
            .collect();
        assert_eq!(slice0, (0..16).collect::<Vec<_>>());
        // Slice 1 (the odd chunks) numbers its lines the same way.
        assert_eq!(local.line_in_slice(1536 + 128, 7), 1);
    }

    #[test]
    fn invalidate_and_write_hits() {
        let mut t = TagArray::new(1024, 4, 64, SetIndex::Linear);
        t.fill(64, false);
        assert!(t.access(64, true));
        assert_eq!(t.invalidate(64), Some(true));
        assert_eq!(t.invalidate(64), None);
        assert_eq!(t.line_of(200), 192);
        assert_eq!(t.line_bytes(), 64);
    }
}
