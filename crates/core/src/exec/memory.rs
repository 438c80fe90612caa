//! Device global memory: the allocations made through the Device API and the modules' images
//! of `.global`/`.const` variables, each a dense byte vector, found by binary search.
//!
//! Architecture invariant: an access that does not fall entirely inside one live allocation is
//! an error reported to the caller with the address; nothing is read or written in that case.

use crate::ir::layout::{GLOBAL_BASE, GLOBAL_LIMIT};

/// Allocation granularity and alignment, as cudaMalloc guarantees (256 bytes).
pub const ALLOC_ALIGN: u64 = 256;

#[derive(Clone, Debug)]
struct Allocation {
    base: u64,
    data: Vec<u8>,
}

impl Allocation {
    fn end(&self) -> u64 {
        self.base + self.data.len() as u64
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
    /// Bytes currently allocated.
    in_use: u64,
    /// Index of the allocation that served the last access (a cache for the common case of
    /// a warp touching one buffer many times).
    last: std::cell::Cell<usize>,
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
        if end > GLOBAL_LIMIT || size > isize::MAX as u64 {
            return None;
        }
        self.next = end.div_ceil(ALLOC_ALIGN) * ALLOC_ALIGN;
        self.allocs.push(Allocation { base, data: vec![0; size as usize] });
        self.in_use += size;
        Some(base)
    }

    /// Frees the allocation starting exactly at `base`; false when there is none.
    pub fn free(&mut self, base: u64) -> bool {
        match self.allocs.binary_search_by_key(&base, |a| a.base) {
            Ok(i) => {
                self.in_use -= self.allocs[i].data.len() as u64;
                self.allocs.remove(i);
                self.last.set(0);
                true
            }
            Err(_) => false,
        }
    }

    /// The allocation containing `[addr, addr+len)` and the offset of `addr` in it.
    #[inline]
    fn find(&self, addr: u64, len: u64) -> Option<(usize, usize)> {
        let last = self.last.get();
        if let Some(a) = self.allocs.get(last) {
            if addr >= a.base && addr.wrapping_add(len) <= a.end() && addr.wrapping_add(len) >= addr {
                return Some((last, (addr - a.base) as usize));
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
            Some((i, (addr - a.base) as usize))
        } else {
            None
        }
    }

    /// The start and size of the allocation containing `addr`.
    pub fn allocation_of(&self, addr: u64) -> Option<(u64, u64)> {
        self.find(addr, 1).map(|(i, _)| (self.allocs[i].base, self.allocs[i].data.len() as u64))
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
}
