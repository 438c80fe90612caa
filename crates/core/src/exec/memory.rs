//! Device global memory: the allocations made through the Device API and the modules' images
//! of `.global`/`.const` variables, each a dense byte vector, found by binary search.
//!
//! Host-visible allocations (managed memory, mapped pinned memory, modules with `__managed__`
//! variables) are addressed by the host address of their own bytes, so the program that hosts
//! the simulator reads and writes exactly what kernels see (unified virtual addressing); all
//! others live in the `GLOBAL_BASE..GLOBAL_LIMIT` window and are never reused.
//!
//! Architecture invariant: an access that does not fall entirely inside one live allocation is
//! an error reported to the caller with the address; nothing is read or written in that case.
//!
//! Each allocation remembers which call made it, and the last [`FREED_KEPT`] freed ones which
//! call freed them, so a fault can be explained like compute-sanitizer does ("4 bytes after
//! the end of a 1024-byte allocation", "use after free"). That costs nothing per access:
//! [`GlobalMemory::nearby`] searches only once an access has faulted.

use super::heap::{DeviceHeap, COOKIE_BYTES};
use super::warp::{lanes, WARP_SIZE};
use crate::ir::layout::{ALLOC_BASE, FUNC_HANDLE_BASE, GLOBAL_BASE, HEAP_BASE, WINDOW_SIZE};

/// Allocation granularity and alignment, as cudaMalloc guarantees (256 bytes).
pub const ALLOC_ALIGN: u64 = 256;

/// Freed allocations remembered for use-after-free reports (the oldest are forgotten first).
pub const FREED_KEPT: usize = 1 << 16;

/// What made an allocation (memory-check reports name it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A host API call, by name (`cudaMalloc`, `cudaMallocManaged`, `cudaHostAlloc`…).
    Host(&'static str),
    /// Device-side `malloc` (or `new`).
    DeviceMalloc,
    /// The 8-byte slot just before a device-heap block, where nvcc's `new[]` stores the
    /// element count (`heap::COOKIE_BYTES`); `call` is its block's.
    HeapCookie,
    /// A module's `__device__` / `__constant__` variables.
    Module,
    /// The grid-barrier workspace of a cooperative launch.
    Workspace,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Host(name) => f.write_str(name),
            Origin::DeviceMalloc => f.write_str("device malloc"),
            Origin::HeapCookie => f.write_str("device malloc header"),
            Origin::Module => f.write_str("module variables"),
            Origin::Workspace => f.write_str("cooperative launch workspace"),
        }
    }
}

/// An allocation as a memory-check report describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocInfo {
    pub base: u64,
    pub size: u64,
    pub origin: Origin,
    /// Which call of its kind made it (1 = the first `cudaMalloc`, the first device malloc…).
    pub call: u64,
}

/// How a freed allocation was freed: by which call (`cudaFree`, `device free`…) and which
/// call of that kind (1 = the first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FreeInfo {
    pub by: &'static str,
    pub call: u64,
}

/// Where a faulting global access lies relative to the allocations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nearby {
    /// Within 64 KiB of address 0 and no allocation: a null pointer.
    Null,
    /// Starts `gap` bytes after the end of the allocation (0: right after it).
    After { alloc: AllocInfo, gap: u64 },
    /// Starts `gap` bytes before the allocation's start.
    Before { alloc: AllocInfo, gap: u64 },
    /// Starts inside the allocation and runs `over` bytes past its end.
    PastEnd { alloc: AllocInfo, over: u64 },
    /// Inside an allocation that has been freed.
    Freed { alloc: AllocInfo, freed: FreeInfo },
    /// No allocation within 4 GiB.
    Nothing,
}

#[derive(Clone, Debug)]
struct Allocation {
    base: u64,
    /// Bytes the allocation holds (`data` may be longer: see `skew`).
    len: u64,
    /// Where byte 0 of the allocation sits in `data`: host-visible allocations over-allocate
    /// by `ALLOC_ALIGN` and start at the first aligned host address inside.
    skew: usize,
    host_visible: bool,
    origin: Origin,
    /// Which call of its origin made it.
    call: u64,
    data: Vec<u8>,
}

impl Allocation {
    fn end(&self) -> u64 {
        self.base + self.len
    }

    fn info(&self) -> AllocInfo {
        AllocInfo {
            base: self.base,
            size: self.len,
            origin: self.origin,
            call: self.call,
        }
    }
}

/// Why a global access failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalFault {
    /// Not inside any live allocation.
    OutOfBounds,
}

/// The device's global memory.
#[derive(Clone, Debug, Default)]
pub struct GlobalMemory {
    /// Live allocations sorted by base address.
    allocs: Vec<Allocation>,
    /// Next address the bump allocator hands out for the host's allocations (from
    /// `layout::ALLOC_BASE`).
    next: u64,
    /// Next address for modules' variables and the runtime's buffers (from `GLOBAL_BASE`, up
    /// to `ALLOC_BASE`).
    next_static: u64,
    /// Bytes currently allocated (device-heap blocks excluded: the heap is reserved apart).
    in_use: u64,
    /// Ranges for device-side `malloc`.
    heap: DeviceHeap,
    /// Index of the allocation that served the last access (a cache for the common case of
    /// a warp touching one buffer many times). Staged accesses (`global.rs`) keep their own,
    /// so SMs stepped on several threads never write this one.
    last: LastHit,
    /// Live texture and surface objects (their descriptors point into this memory).
    pub textures: super::texture::TextureTable,
    /// Calls made so far per allocating and freeing call name (few names: a short list).
    calls: Vec<(&'static str, u64)>,
    /// The most recently freed allocations, oldest first.
    freed: std::collections::VecDeque<(AllocInfo, FreeInfo)>,
}

impl GlobalMemory {
    pub fn new() -> GlobalMemory {
        GlobalMemory {
            next: ALLOC_BASE,
            next_static: GLOBAL_BASE,
            ..Default::default()
        }
    }

    /// Bytes currently allocated.
    pub fn in_use(&self) -> u64 {
        self.in_use
    }

    /// Allocates `bytes` zeroed bytes (at least 1) at a 256-byte aligned address; `None` when
    /// the address range is exhausted. Addresses are never reused, so a dangling pointer
    /// into freed memory is reported as out of bounds rather than silently aliasing.
    pub fn alloc(&mut self, bytes: u64) -> Option<u64> {
        self.alloc_from(bytes, Origin::Host("cudaMalloc"))
    }

    /// [`GlobalMemory::alloc`] made by `origin`, for memory-check reports.
    pub fn alloc_from(&mut self, bytes: u64, origin: Origin) -> Option<u64> {
        let size = bytes.max(1);
        let (cursor, limit) = match origin {
            Origin::Module | Origin::Workspace => (&mut self.next_static, ALLOC_BASE),
            _ => (&mut self.next, HEAP_BASE),
        };
        let base = *cursor;
        let end = base.checked_add(size)?;
        if end > limit || size > isize::MAX as u64 {
            return None;
        }
        *cursor = end.div_ceil(ALLOC_ALIGN) * ALLOC_ALIGN;
        let call = self.count(origin);
        self.insert(Allocation {
            base,
            len: size,
            skew: 0,
            host_visible: false,
            origin,
            call,
            data: vec![0; size as usize],
        });
        Some(base)
    }

    /// Device-side `malloc(bytes)`: a block of the device heap (its contents undefined, here
    /// zero), or `None` when `bytes` is 0 or the heap has no free range that large.
    pub fn heap_malloc(&mut self, bytes: u64) -> Option<u64> {
        if bytes == 0 {
            return None;
        }
        let base = self.heap.take(bytes)?;
        // A big heap (up to 64 GiB) may not fit in host memory: then malloc returns NULL.
        let mut data = Vec::new();
        if usize::try_from(bytes)
            .ok()
            .and_then(|n| data.try_reserve_exact(n).ok())
            .is_none()
        {
            self.heap.give_back(base, bytes);
            return None;
        }
        data.resize(bytes as usize, 0);
        let call = self.count(Origin::DeviceMalloc);
        self.insert(Allocation {
            base,
            len: bytes,
            skew: 0,
            host_visible: false,
            origin: Origin::DeviceMalloc,
            call,
            data,
        });
        self.insert(Allocation {
            base: base - COOKIE_BYTES,
            len: COOKIE_BYTES,
            skew: 0,
            host_visible: false,
            origin: Origin::HeapCookie,
            call,
            data: vec![0; COOKIE_BYTES as usize],
        });
        self.in_use -= bytes + COOKIE_BYTES;
        Some(base)
    }

    /// Device-side `free(addr)`: false when `addr` is not the start of a live heap block
    /// (a double free, or a pointer `malloc` did not return).
    pub fn heap_free(&mut self, addr: u64) -> bool {
        if !self.heap.contains(addr) {
            return false;
        }
        let Ok(i) = self.allocs.binary_search_by_key(&addr, |a| a.base) else {
            return false;
        };
        if self.allocs[i].origin != Origin::DeviceMalloc {
            return false;
        }
        let len = self.allocs[i].len;
        self.forget(i, "device free");
        // The block's cookie slot goes with it (unremembered: a fault there names the block).
        if let Ok(c) = self
            .allocs
            .binary_search_by_key(&(addr - COOKIE_BYTES), |a| a.base)
        {
            self.allocs.remove(c);
            self.last.set_hit(0);
        }
        self.heap.give_back(addr, len);
        true
    }

    /// The device heap (its size and live blocks).
    pub fn heap(&self) -> &DeviceHeap {
        &self.heap
    }

    /// Sets the heap size (`cudaLimitMallocHeapSize`); false while blocks are live or when
    /// `bytes` exceeds `heap::MAX_HEAP_BYTES`.
    pub fn set_heap_limit(&mut self, bytes: u64) -> bool {
        self.heap.set_limit(bytes)
    }

    /// Allocates `bytes` zeroed bytes (at least 1) that the host process can use directly:
    /// the address returned is both the device address and a valid host pointer to the bytes
    /// (256-byte aligned) for as long as the allocation lives. `None` when the host cannot
    /// allocate it or (never seen on Linux) its address falls in warpsim's reserved windows.
    /// Unlike [`GlobalMemory::alloc`], a freed address may come back from the host allocator.
    pub fn alloc_host_visible(&mut self, bytes: u64) -> Option<u64> {
        self.alloc_host_visible_from(bytes, Origin::Host("cudaMallocManaged"))
    }

    /// [`GlobalMemory::alloc_host_visible`] made by `origin`, for memory-check reports.
    pub fn alloc_host_visible_from(&mut self, bytes: u64, origin: Origin) -> Option<u64> {
        let size = bytes.max(1);
        let total = usize::try_from(size.checked_add(ALLOC_ALIGN)?)
            .ok()
            .filter(|&t| t <= isize::MAX as usize)?;
        let mut data = Vec::new();
        data.try_reserve_exact(total).ok()?;
        data.resize(total, 0);
        let host = data.as_ptr() as u64;
        let base = host.div_ceil(ALLOC_ALIGN) * ALLOC_ALIGN;
        let end = base.checked_add(size)?;
        // The device windows: global, shared, local, function handles.
        if end > GLOBAL_BASE && base < FUNC_HANDLE_BASE + WINDOW_SIZE {
            return None;
        }
        let skew = (base - host) as usize;
        let call = self.count(origin);
        self.insert(Allocation {
            base,
            len: size,
            skew,
            host_visible: true,
            origin,
            call,
            data,
        });
        Some(base)
    }

    fn insert(&mut self, a: Allocation) {
        self.in_use += a.len;
        let i = self.allocs.partition_point(|x| x.base < a.base);
        self.allocs.insert(i, a);
        self.last.set_hit(0);
    }

    /// Frees the allocation starting exactly at `base`; false when there is none (device-heap
    /// blocks are freed by [`GlobalMemory::heap_free`] only, as `cudaFree` cannot free them).
    pub fn free(&mut self, base: u64) -> bool {
        self.free_by(base, "cudaFree")
    }

    /// [`GlobalMemory::free`] by the call named `by` (`cudaFree`, `cudaFreeHost`…), for
    /// use-after-free reports.
    pub fn free_by(&mut self, base: u64, by: &'static str) -> bool {
        if self.heap.contains(base) {
            return false;
        }
        match self.allocs.binary_search_by_key(&base, |a| a.base) {
            Ok(i) => {
                self.in_use -= self.allocs[i].len;
                self.forget(i, by);
                true
            }
            Err(_) => false,
        }
    }

    /// Removes allocation `i`, remembering it as freed by `by`.
    fn forget(&mut self, i: usize, by: &'static str) {
        let a = self.allocs.remove(i);
        self.last.set_hit(0);
        let call = self.count_name(by);
        if self.freed.len() == FREED_KEPT {
            self.freed.pop_front();
        }
        self.freed.push_back((a.info(), FreeInfo { by, call }));
    }

    /// Counts one more call of `origin`'s kind; returns its number (from 1).
    fn count(&mut self, origin: Origin) -> u64 {
        self.count_name(match origin {
            Origin::Host(name) => name,
            Origin::DeviceMalloc | Origin::HeapCookie => "device malloc",
            Origin::Module => "module",
            Origin::Workspace => "workspace",
        })
    }

    fn count_name(&mut self, name: &'static str) -> u64 {
        match self.calls.iter_mut().find(|(n, _)| *n == name) {
            Some((_, c)) => {
                *c += 1;
                *c
            }
            None => {
                self.calls.push((name, 1));
                1
            }
        }
    }

    /// Where `[addr, addr+len)`, an access that faulted, lies relative to the allocations: in
    /// a freed one (use after free), past the end of a live one, or nearest to one. Searches
    /// every allocation: call it only on a fault.
    pub fn nearby(&self, addr: u64, len: u64) -> Nearby {
        let live = self.allocs.partition_point(|a| a.base <= addr);
        let containing = live
            .checked_sub(1)
            .map(|i| &self.allocs[i])
            .filter(|a| addr < a.end());
        if let Some(a) = containing {
            return Nearby::PastEnd {
                alloc: a.info(),
                over: addr.saturating_add(len) - a.end(),
            };
        }
        // A freed range that a live allocation now overlaps (the device heap reuses ranges) no
        // longer says anything: the live neighbour is the better guess.
        let reused = |a: &AllocInfo| {
            let i = self.allocs.partition_point(|x| x.base < a.base + a.size);
            i.checked_sub(1)
                .is_some_and(|i| self.allocs[i].end() > a.base)
        };
        if let Some(&(alloc, freed)) = self
            .freed
            .iter()
            .rev()
            .find(|(a, _)| addr >= a.base && addr - a.base < a.size && !reused(a))
        {
            return Nearby::Freed { alloc, freed };
        }
        if addr < 1 << 16 {
            return Nearby::Null;
        }
        let after = live
            .checked_sub(1)
            .map(|i| &self.allocs[i])
            .map(|a| (addr - a.end(), a));
        let before = self.allocs.get(live).map(|a| (a.base - addr, a));
        const FAR: u64 = 1 << 32;
        match (after, before) {
            (Some((g, a)), Some((h, _))) if g <= h && g < FAR => Nearby::After {
                alloc: a.info(),
                gap: g,
            },
            (Some((g, a)), None) if g < FAR => Nearby::After {
                alloc: a.info(),
                gap: g,
            },
            (_, Some((h, b))) if h < FAR => Nearby::Before {
                alloc: b.info(),
                gap: h,
            },
            _ => Nearby::Nothing,
        }
    }

    /// Whether `[addr, addr+len)` lies inside one live allocation.
    pub fn contains(&self, addr: u64, len: u64) -> bool {
        self.find(addr, len).is_some()
    }

    /// Whether `addr` lies in a live host-visible allocation (managed or mapped memory).
    pub fn is_host_visible(&self, addr: u64) -> bool {
        self.find(addr, 1)
            .is_some_and(|(i, _)| self.allocs[i].host_visible)
    }

    /// The allocation containing `[addr, addr+len)` and the offset of `addr` in it.
    #[inline]
    fn find(&self, addr: u64, len: u64) -> Option<(usize, usize)> {
        self.find_in(&self.last, addr, len)
    }

    /// [`GlobalMemory::find`] starting from, and updating, `hint`.
    #[inline]
    fn find_in(&self, hint: &impl Hint, addr: u64, len: u64) -> Option<(usize, usize)> {
        let last = hint.hit();
        if let Some(a) = self.allocs.get(last) {
            if addr >= a.base && addr.wrapping_add(len) <= a.end() && addr.wrapping_add(len) >= addr
            {
                return Some((last, (addr - a.base) as usize + a.skew));
            }
        }
        let i = match self.allocs.binary_search_by_key(&addr, |a| a.base) {
            Ok(i) => i,
            Err(0) => return None,
            Err(i) => i - 1,
        };
        let a = &self.allocs[i];
        let end = addr.checked_add(len)?;
        if end <= a.end() {
            hint.set_hit(i);
            Some((i, (addr - a.base) as usize + a.skew))
        } else {
            None
        }
    }

    /// [`GlobalMemory::contains`] with its lookup starting from `hint`.
    #[inline]
    pub fn contains_in(&self, hint: &impl Hint, addr: u64, len: u64) -> bool {
        self.find_in(hint, addr, len).is_some()
    }

    /// The start and size of the allocation containing `addr`.
    pub fn allocation_of(&self, addr: u64) -> Option<(u64, u64)> {
        self.find(addr, 1)
            .map(|(i, _)| (self.allocs[i].base, self.allocs[i].len))
    }

    /// Reads `out.len()` bytes at `addr`.
    #[inline]
    pub fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), GlobalFault> {
        let (i, off) = self
            .find(addr, out.len() as u64)
            .ok_or(GlobalFault::OutOfBounds)?;
        out.copy_from_slice(&self.allocs[i].data[off..off + out.len()]);
        Ok(())
    }

    /// Writes `data` at `addr`.
    #[inline]
    pub fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), GlobalFault> {
        let (i, off) = self
            .find(addr, data.len() as u64)
            .ok_or(GlobalFault::OutOfBounds)?;
        self.allocs[i].data[off..off + data.len()].copy_from_slice(data);
        Ok(())
    }

    /// Reads a little-endian value of `size` (1, 2, 4, 8) bytes, zero-extended.
    #[inline]
    pub fn read_uint(&self, addr: u64, size: u32) -> Result<u64, GlobalFault> {
        self.read_uint_in(&self.last, addr, size)
    }

    /// [`GlobalMemory::read_uint`] with its lookup starting from `hint`.
    #[inline]
    pub fn read_uint_in(&self, hint: &impl Hint, addr: u64, size: u32) -> Result<u64, GlobalFault> {
        let (i, off) = self
            .find_in(hint, addr, size as u64)
            .ok_or(GlobalFault::OutOfBounds)?;
        Ok(load_le(&self.allocs[i].data[off..], size))
    }

    /// Writes the low `size` bytes of `value` little-endian.
    #[inline]
    pub fn write_uint(&mut self, addr: u64, size: u32, value: u64) -> Result<(), GlobalFault> {
        let (i, off) = self
            .find(addr, size as u64)
            .ok_or(GlobalFault::OutOfBounds)?;
        store_le(&mut self.allocs[i].data[off..], size, value);
        Ok(())
    }

    /// [`GlobalMemory::read_uint`] of `N` bytes (1, 2, 4 or 8) at `addr[l]` for each lane `l`
    /// of `mask`, lowest first, into `out[l]`, with the allocation the previous lane hit kept
    /// at hand (a warp's lanes mostly read one buffer, so most lanes cost a range check).
    /// Stops at the first lane whose address is not a multiple of `N` or whose bytes are not
    /// inside one live allocation and returns it, the lanes below it done: the caller reports
    /// that lane's fault through the per-lane path.
    #[inline]
    pub fn read_lanes<const N: usize>(
        &self,
        addr: &[u64; WARP_SIZE],
        mask: u32,
        out: &mut [u64; WARP_SIZE],
    ) -> Result<(), usize> {
        self.read_lanes_in::<N>(&self.last, addr, mask, out)
    }

    /// [`GlobalMemory::read_lanes`] with its lookups starting from `hint`.
    #[inline]
    pub fn read_lanes_in<const N: usize>(
        &self,
        hint: &impl Hint,
        addr: &[u64; WARP_SIZE],
        mask: u32,
        out: &mut [u64; WARP_SIZE],
    ) -> Result<(), usize> {
        let mut at = self.lanes_cursor(hint);
        for l in lanes(mask) {
            let off = self.lane_offset::<N>(hint, &mut at, addr[l]).ok_or(l)?;
            let mut b = [0u8; 8];
            b[..N].copy_from_slice(&self.allocs[at.index].data[off..off + N]);
            out[l] = u64::from_le_bytes(b);
        }
        Ok(())
    }

    /// [`GlobalMemory::write_uint`] of the low `N` bytes of `vals[l]` for each lane `l` of
    /// `mask`, lowest first, as [`GlobalMemory::read_lanes`] reads: stops at the first lane
    /// that is misaligned or out of bounds and returns it, the lanes below it written.
    #[inline]
    pub fn write_lanes<const N: usize>(
        &mut self,
        addr: &[u64; WARP_SIZE],
        mask: u32,
        vals: &[u64; WARP_SIZE],
    ) -> Result<(), usize> {
        let mut at = self.lanes_cursor(&self.last);
        for l in lanes(mask) {
            let off = self
                .lane_offset::<N>(&self.last, &mut at, addr[l])
                .ok_or(l)?;
            self.allocs[at.index].data[off..off + N].copy_from_slice(&vals[l].to_le_bytes()[..N]);
        }
        Ok(())
    }

    /// [`GlobalMemory::read_lanes`] of a vector access: `n` consecutive `N`-byte elements at
    /// `addr[l]` for each lane `l` of `mask`, lowest first, element `i` into `out[i][l]`. A
    /// lane's vector is checked as one span (aligned to `N * n`, inside one allocation), so a
    /// lane costs one range check, not one lookup per element. Stops at the first lane that
    /// is misaligned or whose span is not inside one live allocation and returns it, the
    /// lanes below it done: the caller reports that lane through the per-lane path.
    #[inline]
    pub fn read_vec_lanes<const N: usize>(
        &self,
        addr: &[u64; WARP_SIZE],
        mask: u32,
        n: usize,
        out: &mut [[u64; WARP_SIZE]; 4],
    ) -> Result<(), usize> {
        self.read_vec_lanes_in::<N>(&self.last, addr, mask, n, out)
    }

    /// [`GlobalMemory::read_vec_lanes`] with its lookups starting from `hint`.
    #[inline]
    pub fn read_vec_lanes_in<const N: usize>(
        &self,
        hint: &impl Hint,
        addr: &[u64; WARP_SIZE],
        mask: u32,
        n: usize,
        out: &mut [[u64; WARP_SIZE]; 4],
    ) -> Result<(), usize> {
        let span = (N * n) as u64;
        let mut at = self.lanes_cursor(hint);
        for l in lanes(mask) {
            if !addr[l].is_multiple_of(span) {
                return Err(l);
            }
            let off = self.span_offset(hint, &mut at, addr[l], span).ok_or(l)?;
            let data = &self.allocs[at.index].data[off..off + N * n];
            for (i, o) in out.iter_mut().enumerate().take(n) {
                let mut b = [0u8; 8];
                b[..N].copy_from_slice(&data[i * N..i * N + N]);
                o[l] = u64::from_le_bytes(b);
            }
        }
        Ok(())
    }

    /// The store counterpart of [`GlobalMemory::read_vec_lanes`]: the low `N` bytes of
    /// `vals[i][l]` as element `i` of lane `l`'s vector, lanes lowest first and each lane's
    /// elements in order (the order the per-lane path writes in); stops at the first lane
    /// that is misaligned or out of bounds and returns it, the lanes below it written and
    /// nothing of it.
    #[inline]
    pub fn write_vec_lanes<const N: usize>(
        &mut self,
        addr: &[u64; WARP_SIZE],
        mask: u32,
        n: usize,
        vals: &[[u64; WARP_SIZE]; 4],
    ) -> Result<(), usize> {
        let span = (N * n) as u64;
        let mut at = self.lanes_cursor(&self.last);
        for l in lanes(mask) {
            if !addr[l].is_multiple_of(span) {
                return Err(l);
            }
            let off = self
                .span_offset(&self.last, &mut at, addr[l], span)
                .ok_or(l)?;
            let data = &mut self.allocs[at.index].data[off..off + N * n];
            for (i, v) in vals.iter().enumerate().take(n) {
                data[i * N..i * N + N].copy_from_slice(&v[l].to_le_bytes()[..N]);
            }
        }
        Ok(())
    }

    /// The first lane of `mask` whose `span` bytes at `addr[l]` are misaligned (to `align`)
    /// or not inside one live allocation: what a store of those lanes would fault on, for a
    /// store that is staged rather than written (`global.rs`).
    #[inline]
    pub fn check_lanes_in(
        &self,
        hint: &impl Hint,
        addr: &[u64; WARP_SIZE],
        mask: u32,
        span: u64,
    ) -> Result<(), usize> {
        let mut at = self.lanes_cursor(hint);
        for l in lanes(mask) {
            if !addr[l].is_multiple_of(span) {
                return Err(l);
            }
            self.span_offset(hint, &mut at, addr[l], span).ok_or(l)?;
        }
        Ok(())
    }

    /// The allocation the last access hit, as a starting point for a warp's lanes.
    #[inline]
    fn lanes_cursor(&self, hint: &impl Hint) -> LaneCursor {
        let index = hint.hit();
        match self.allocs.get(index) {
            Some(a) => LaneCursor {
                index,
                base: a.base,
                len: a.len,
                skew: a.skew,
            },
            None => LaneCursor {
                index: 0,
                base: 0,
                len: 0,
                skew: 0,
            },
        }
    }

    /// Where `N` bytes at `addr` lie in the data of allocation `at` (moved to the allocation
    /// holding them when `at` does not); `None` when `addr` is misaligned or out of bounds.
    #[inline(always)]
    fn lane_offset<const N: usize>(
        &self,
        hint: &impl Hint,
        at: &mut LaneCursor,
        addr: u64,
    ) -> Option<usize> {
        if !addr.is_multiple_of(N as u64) {
            return None;
        }
        self.span_offset(hint, at, addr, N as u64)
    }

    /// Where the `len` bytes at `addr` lie in the data of allocation `at` (moved to the
    /// allocation holding them when `at` does not); `None` when they are not inside one live
    /// allocation. Alignment is the caller's.
    #[inline(always)]
    fn span_offset(
        &self,
        hint: &impl Hint,
        at: &mut LaneCursor,
        addr: u64,
        len: u64,
    ) -> Option<usize> {
        let off = addr.wrapping_sub(at.base);
        // `addr` below the base wraps `off` past any length: the same test rejects it.
        if off.checked_add(len).is_some_and(|end| end <= at.len) {
            return Some(off as usize + at.skew);
        }
        let (index, off) = self.find_in(hint, addr, len)?;
        let a = &self.allocs[index];
        *at = LaneCursor {
            index,
            base: a.base,
            len: a.len,
            skew: a.skew,
        };
        Some(off)
    }

    /// A mutable view of `[addr, addr+len)`, for bulk copies and memset.
    pub fn slice_mut(&mut self, addr: u64, len: u64) -> Result<&mut [u8], GlobalFault> {
        let (i, off) = self.find(addr, len).ok_or(GlobalFault::OutOfBounds)?;
        Ok(&mut self.allocs[i].data[off..off + len as usize])
    }

    /// A view of `[addr, addr+len)`.
    pub fn slice(&self, addr: u64, len: u64) -> Result<&[u8], GlobalFault> {
        self.slice_in(&self.last, addr, len)
    }

    /// [`GlobalMemory::slice`] with its lookup starting from `hint`.
    #[inline]
    pub fn slice_in(&self, hint: &impl Hint, addr: u64, len: u64) -> Result<&[u8], GlobalFault> {
        let (i, off) = self
            .find_in(hint, addr, len)
            .ok_or(GlobalFault::OutOfBounds)?;
        Ok(&self.allocs[i].data[off..off + len as usize])
    }

    /// The memory's own lookup hint (for the `_in` accessors, executing in place).
    #[inline]
    pub fn hint(&self) -> &impl Hint {
        &self.last
    }
}

/// Where an allocation lookup starts: the index of the allocation the previous one found.
pub trait Hint {
    fn hit(&self) -> usize;
    fn set_hit(&self, index: usize);
}

impl Hint for std::cell::Cell<usize> {
    #[inline(always)]
    fn hit(&self) -> usize {
        self.get()
    }
    #[inline(always)]
    fn set_hit(&self, index: usize) {
        self.set(index)
    }
}

/// [`GlobalMemory`]'s own hint. An atomic (relaxed: a plain load and store) only so that the
/// memory can be shared, read-only, by SMs stepped on several threads; those use hints of
/// their own (`global.rs`) and never touch this one.
#[derive(Debug, Default)]
struct LastHit(std::sync::atomic::AtomicUsize);

impl Clone for LastHit {
    fn clone(&self) -> Self {
        LastHit(self.hit().into())
    }
}

impl Hint for LastHit {
    #[inline(always)]
    fn hit(&self) -> usize {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
    #[inline(always)]
    fn set_hit(&self, index: usize) {
        self.0.store(index, std::sync::atomic::Ordering::Relaxed)
    }
}

/// The allocation a warp's lane accesses last hit ([`GlobalMemory::read_lanes`]).
#[derive(Clone, Copy)]
struct LaneCursor {
    index: usize,
    base: u64,
    len: u64,
    skew: usize,
}

/// Little-endian load of 1, 2, 4 or 8 bytes from the start of `bytes`.
#[inline(always)]
pub fn load_le(bytes: &[u8], size: u32) -> u64 {
    match size {
        1 => bytes[0] as u64,
        2 => u16::from_le_bytes([bytes[0], bytes[1]]) as u64,
        4 => u32::from_le_bytes(bytes[..4].try_into().unwrap()) as u64,
        _ => u64::from_le_bytes(bytes[..8].try_into().unwrap()),
    }
}

/// Little-endian store of the low 1, 2, 4 or 8 bytes of `value`.
#[inline(always)]
pub fn store_le(bytes: &mut [u8], size: u32, value: u64) {
    match size {
        1 => bytes[0] = value as u8,
        2 => bytes[..2].copy_from_slice(&(value as u16).to_le_bytes()),
        4 => bytes[..4].copy_from_slice(&(value as u32).to_le_bytes()),
        _ => bytes[..8].copy_from_slice(&value.to_le_bytes()),
    }
}

#[cfg(test)]
mod tests;
