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

use super::heap::DeviceHeap;
use crate::ir::layout::{FUNC_HANDLE_BASE, GLOBAL_BASE, HEAP_BASE, WINDOW_SIZE};

/// Allocation granularity and alignment, as cudaMalloc guarantees (256 bytes).
pub const ALLOC_ALIGN: u64 = 256;

#[derive(Clone, Debug)]
struct Allocation {
    base: u64,
    /// Bytes the allocation holds (`data` may be longer: see `skew`).
    len: u64,
    /// Where byte 0 of the allocation sits in `data`: host-visible allocations over-allocate
    /// by `ALLOC_ALIGN` and start at the first aligned host address inside.
    skew: usize,
    host_visible: bool,
    data: Vec<u8>,
}

impl Allocation {
    fn end(&self) -> u64 {
        self.base + self.len
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
    /// Next address the bump allocator hands out.
    next: u64,
    /// Bytes currently allocated (device-heap blocks excluded: the heap is reserved apart).
    in_use: u64,
    /// Ranges for device-side `malloc`.
    heap: DeviceHeap,
    /// Index of the allocation that served the last access (a cache for the common case of
    /// a warp touching one buffer many times).
    last: std::cell::Cell<usize>,
    /// Live texture and surface objects (their descriptors point into this memory).
    pub textures: super::texture::TextureTable,
}

impl GlobalMemory {
    pub fn new() -> GlobalMemory {
        GlobalMemory { next: GLOBAL_BASE, ..Default::default() }
    }

    /// Bytes currently allocated.
    pub fn in_use(&self) -> u64 {
        self.in_use
    }

    /// Allocates `bytes` zeroed bytes (at least 1) at a 256-byte aligned address; `None` when
    /// the address range is exhausted. Addresses are never reused, so a dangling pointer
    /// into freed memory is reported as out of bounds rather than silently aliasing.
    pub fn alloc(&mut self, bytes: u64) -> Option<u64> {
        let size = bytes.max(1);
        let base = self.next;
        let end = base.checked_add(size)?;
        if end > HEAP_BASE || size > isize::MAX as u64 {
            return None;
        }
        self.next = end.div_ceil(ALLOC_ALIGN) * ALLOC_ALIGN;
        self.insert(Allocation { base, len: size, skew: 0, host_visible: false, data: vec![0; size as usize] });
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
        if usize::try_from(bytes).ok().and_then(|n| data.try_reserve_exact(n).ok()).is_none() {
            self.heap.give_back(base, bytes);
            return None;
        }
        data.resize(bytes as usize, 0);
        self.insert(Allocation { base, len: bytes, skew: 0, host_visible: false, data });
        self.in_use -= bytes;
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
        let len = self.allocs[i].len;
        self.allocs.remove(i);
        self.last.set(0);
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
        let size = bytes.max(1);
        let total = usize::try_from(size.checked_add(ALLOC_ALIGN)?).ok().filter(|&t| t <= isize::MAX as usize)?;
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
        self.insert(Allocation { base, len: size, skew, host_visible: true, data });
        Some(base)
    }

    fn insert(&mut self, a: Allocation) {
        self.in_use += a.len;
        let i = self.allocs.partition_point(|x| x.base < a.base);
        self.allocs.insert(i, a);
        self.last.set(0);
    }

    /// Frees the allocation starting exactly at `base`; false when there is none (device-heap
    /// blocks are freed by [`GlobalMemory::heap_free`] only, as `cudaFree` cannot free them).
    pub fn free(&mut self, base: u64) -> bool {
        if self.heap.contains(base) {
            return false;
        }
        match self.allocs.binary_search_by_key(&base, |a| a.base) {
            Ok(i) => {
                self.in_use -= self.allocs[i].len;
                self.allocs.remove(i);
                self.last.set(0);
                true
            }
            Err(_) => false,
        }
    }

    /// Whether `addr` lies in a live host-visible allocation (managed or mapped memory).
    pub fn is_host_visible(&self, addr: u64) -> bool {
        self.find(addr, 1).is_some_and(|(i, _)| self.allocs[i].host_visible)
    }

    /// The allocation containing `[addr, addr+len)` and the offset of `addr` in it.
    #[inline]
    fn find(&self, addr: u64, len: u64) -> Option<(usize, usize)> {
        let last = self.last.get();
        if let Some(a) = self.allocs.get(last) {
            if addr >= a.base && addr.wrapping_add(len) <= a.end() && addr.wrapping_add(len) >= addr {
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
            self.last.set(i);
            Some((i, (addr - a.base) as usize + a.skew))
        } else {
            None
        }
    }

    /// The start and size of the allocation containing `addr`.
    pub fn allocation_of(&self, addr: u64) -> Option<(u64, u64)> {
        self.find(addr, 1).map(|(i, _)| (self.allocs[i].base, self.allocs[i].len))
    }

    /// Reads `out.len()` bytes at `addr`.
    #[inline]
    pub fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), GlobalFault> {
        let (i, off) = self.find(addr, out.len() as u64).ok_or(GlobalFault::OutOfBounds)?;
        out.copy_from_slice(&self.allocs[i].data[off..off + out.len()]);
        Ok(())
    }

    /// Writes `data` at `addr`.
    #[inline]
    pub fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), GlobalFault> {
        let (i, off) = self.find(addr, data.len() as u64).ok_or(GlobalFault::OutOfBounds)?;
        self.allocs[i].data[off..off + data.len()].copy_from_slice(data);
        Ok(())
    }

    /// Reads a little-endian value of `size` (1, 2, 4, 8) bytes, zero-extended.
    #[inline]
    pub fn read_uint(&self, addr: u64, size: u32) -> Result<u64, GlobalFault> {
        let (i, off) = self.find(addr, size as u64).ok_or(GlobalFault::OutOfBounds)?;
        Ok(load_le(&self.allocs[i].data[off..], size))
    }

    /// Writes the low `size` bytes of `value` little-endian.
    #[inline]
    pub fn write_uint(&mut self, addr: u64, size: u32, value: u64) -> Result<(), GlobalFault> {
        let (i, off) = self.find(addr, size as u64).ok_or(GlobalFault::OutOfBounds)?;
        store_le(&mut self.allocs[i].data[off..], size, value);
        Ok(())
    }

    /// A mutable view of `[addr, addr+len)`, for bulk copies and memset.
    pub fn slice_mut(&mut self, addr: u64, len: u64) -> Result<&mut [u8], GlobalFault> {
        let (i, off) = self.find(addr, len).ok_or(GlobalFault::OutOfBounds)?;
        Ok(&mut self.allocs[i].data[off..off + len as usize])
    }

    /// A view of `[addr, addr+len)`.
    pub fn slice(&self, addr: u64, len: u64) -> Result<&[u8], GlobalFault> {
        let (i, off) = self.find(addr, len).ok_or(GlobalFault::OutOfBounds)?;
        Ok(&self.allocs[i].data[off..off + len as usize])
    }
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
mod tests {
    use super::*;

    #[test]
    fn allocations_are_aligned_disjoint_and_bounds_checked() {
        let mut m = GlobalMemory::new();
        let a = m.alloc(10).unwrap();
        let b = m.alloc(300).unwrap();
        assert_eq!(a % ALLOC_ALIGN, 0);
        assert_eq!(b % ALLOC_ALIGN, 0);
        assert!(b >= a + 10);
        m.write_uint(a + 6, 4, 0xdead_beef).unwrap();
        assert_eq!(m.read_uint(a + 6, 4).unwrap(), 0xdead_beef);
        assert_eq!(m.read_uint(a + 7, 4), Err(GlobalFault::OutOfBounds));
        assert_eq!(m.read_uint(a - 1, 1), Err(GlobalFault::OutOfBounds));
        assert!(m.free(a));
        assert_eq!(m.read_uint(a, 1), Err(GlobalFault::OutOfBounds));
        assert!(!m.free(a));
        assert_eq!(m.read_uint(b + 299, 1).unwrap(), 0);
    }

    #[test]
    fn host_visible_allocations_share_their_bytes_with_the_host() {
        let mut m = GlobalMemory::new();
        let d = m.alloc(64).unwrap();
        let h = m.alloc_host_visible(100).unwrap();
        let d2 = m.alloc(64).unwrap();
        assert_eq!(h % ALLOC_ALIGN, 0);
        assert!(m.is_host_visible(h + 99) && !m.is_host_visible(d) && !m.is_host_visible(d2));
        m.write_uint(h + 8, 4, 0x1234_5678).unwrap();
        // SAFETY: `h` is the host address of the allocation's live, 256-byte aligned bytes.
        let host = unsafe { std::slice::from_raw_parts_mut(h as *mut u8, 100) };
        assert_eq!(u32::from_le_bytes(host[8..12].try_into().unwrap()), 0x1234_5678);
        host[99] = 7;
        assert_eq!(m.read_uint(h + 99, 1).unwrap(), 7);
        assert_eq!(m.read_uint(h + 100, 1), Err(GlobalFault::OutOfBounds));
        assert_eq!(m.read_uint(h - 1, 1), Err(GlobalFault::OutOfBounds));
        assert_eq!(m.in_use(), 64 + 100 + 64);
        assert_eq!(m.allocation_of(h + 50), Some((h, 100)));
        assert!(m.free(h));
        assert_eq!(m.read_uint(h, 1), Err(GlobalFault::OutOfBounds));
        m.write_uint(d2 + 60, 4, 9).unwrap();
        assert_eq!(m.read_uint(d2 + 60, 4).unwrap(), 9);
    }

    #[test]
    fn heap_blocks_are_bounds_checked_and_freed_only_by_heap_free() {
        let mut m = GlobalMemory::new();
        let d = m.alloc(32).unwrap();
        assert!(m.set_heap_limit(64));
        let a = m.heap_malloc(20).unwrap();
        let b = m.heap_malloc(20).unwrap();
        assert_eq!(m.heap_malloc(20), None, "64-byte heap holds two 32-byte blocks");
        assert_eq!(m.heap_malloc(0), None);
        assert_eq!(m.in_use(), 32);
        m.write_uint(a + 16, 4, 5).unwrap();
        assert_eq!(m.read_uint(a + 20, 1), Err(GlobalFault::OutOfBounds));
        assert!(!m.free(a), "cudaFree cannot free a heap block");
        assert!(!m.heap_free(d) && !m.heap_free(a + 4));
        assert!(!m.set_heap_limit(128), "blocks are live");
        assert!(m.heap_free(a));
        assert!(!m.heap_free(a), "double free");
        assert_eq!(m.read_uint(a, 4), Err(GlobalFault::OutOfBounds));
        assert_eq!(m.heap_malloc(8), Some(a));
        assert!(m.heap_free(a) && m.heap_free(b));
        assert_eq!(m.heap().live_blocks(), 0);
    }
}
