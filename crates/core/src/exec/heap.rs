//! The device heap behind device-side `malloc`/`free` (and so `new`/`delete`).
//!
//! The heap is a fixed address range at the top of the global window (`layout::HEAP_BASE`),
//! `limit` bytes long (CUDA's `cudaLimitMallocHeapSize`, default 8 MiB). Placement is
//! first-fit over an address-ordered free list, blocks 16-byte aligned as CUDA's `malloc`
//! guarantees, so it depends only on the order of the calls. The heap only hands out ranges:
//! each live block is also its own allocation in [`super::memory::GlobalMemory`], exactly
//! `size` bytes long, so the memory checker catches an access one byte past a block and any
//! access to a freed block (until its range is handed out again, as on the hardware).
//!
//! Each block is preceded by a [`HEAP_HEADER`]-byte header, as a GPU's allocator keeps one.
//! The header's last 8 bytes (the *cookie slot*, just before the block) are writable memory:
//! nvcc 13.5 compiles `new T[n]` of a class with a constructor but no destructor into
//! `malloc(n * sizeof(T))` followed by `st.u64 [p+-8], n` (the array cookie written before the
//! block malloc returned), and CUDA programs rely on that working. The header's first 8 bytes
//! stay unmapped, so an access 9–16 bytes before a block still faults.

use crate::ir::layout::HEAP_BASE;

/// CUDA's default `cudaLimitMallocHeapSize`.
pub const DEFAULT_HEAP_BYTES: u64 = 8 << 20;
/// Largest heap warpsim accepts (the address range reserved for it).
pub const MAX_HEAP_BYTES: u64 = 1 << 36;
/// Alignment of every block.
pub const HEAP_ALIGN: u64 = 16;
/// Bytes in front of each block: 8 unmapped, then the 8-byte cookie slot.
pub const HEAP_HEADER: u64 = 16;
/// Bytes of the writable slot just before each block (`new[]`'s element count).
pub const COOKIE_BYTES: u64 = 8;

#[derive(Clone, Debug)]
pub struct DeviceHeap {
    limit: u64,
    /// Free ranges `(offset, len)` from `HEAP_BASE`, sorted by offset, never adjacent.
    free: Vec<(u64, u64)>,
    live: u64,
}

impl Default for DeviceHeap {
    fn default() -> Self {
        DeviceHeap {
            limit: DEFAULT_HEAP_BYTES,
            free: vec![(0, DEFAULT_HEAP_BYTES)],
            live: 0,
        }
    }
}

impl DeviceHeap {
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Blocks currently allocated.
    pub fn live_blocks(&self) -> u64 {
        self.live
    }

    /// Resizes the heap; only while no block is live (CUDA fixes the heap once kernels have
    /// used it). False when blocks are live or `bytes` exceeds [`MAX_HEAP_BYTES`].
    pub fn set_limit(&mut self, bytes: u64) -> bool {
        if self.live > 0 || bytes > MAX_HEAP_BYTES {
            return false;
        }
        self.limit = bytes;
        self.free = if bytes == 0 {
            Vec::new()
        } else {
            vec![(0, bytes)]
        };
        true
    }

    /// Whether `addr` lies in the heap's address range.
    pub fn contains(&self, addr: u64) -> bool {
        (HEAP_BASE..HEAP_BASE + self.limit).contains(&addr)
    }

    /// Takes a block for `size` bytes (≥ 1): its address (after its header), or `None` when
    /// no free range fits.
    pub fn take(&mut self, size: u64) -> Option<u64> {
        let need = size
            .checked_next_multiple_of(HEAP_ALIGN)?
            .checked_add(HEAP_HEADER)?;
        let i = self.free.iter().position(|&(_, len)| len >= need)?;
        let (off, len) = self.free[i];
        if len == need {
            self.free.remove(i);
        } else {
            self.free[i] = (off + need, len - need);
        }
        self.live += 1;
        Some(HEAP_BASE + off + HEAP_HEADER)
    }

    /// Returns the block at `addr` of `size` bytes (as given to [`DeviceHeap::take`]),
    /// merging it with free neighbours.
    pub fn give_back(&mut self, addr: u64, size: u64) {
        let off = addr - HEAP_HEADER - HEAP_BASE;
        let len = size.next_multiple_of(HEAP_ALIGN) + HEAP_HEADER;
        let i = self.free.partition_point(|&(o, _)| o < off);
        self.free.insert(i, (off, len));
        if i + 1 < self.free.len() && self.free[i].0 + self.free[i].1 == self.free[i + 1].0 {
            self.free[i].1 += self.free[i + 1].1;
            self.free.remove(i + 1);
        }
        if i > 0 && self.free[i - 1].0 + self.free[i - 1].1 == self.free[i].0 {
            self.free[i - 1].1 += self.free[i].1;
            self.free.remove(i);
        }
        self.live -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_fit_reuses_and_merges_freed_ranges() {
        let mut h = DeviceHeap::default();
        h.set_limit(256);
        let a = h.take(10).unwrap();
        let b = h.take(100).unwrap();
        let c = h.take(16).unwrap();
        // Each block sits after its 16-byte header.
        assert_eq!((a, b, c), (HEAP_BASE + 16, HEAP_BASE + 48, HEAP_BASE + 176));
        assert_eq!(h.take(50), None);
        h.give_back(b, 100);
        assert_eq!(h.take(50), Some(HEAP_BASE + 48));
        h.give_back(HEAP_BASE + 48, 50);
        h.give_back(a, 10);
        h.give_back(c, 16);
        assert_eq!(h.free, vec![(0, 256)]);
        assert_eq!(h.live_blocks(), 0);
        assert_eq!(h.take(240), Some(HEAP_BASE + 16));
        assert_eq!(h.take(1), None);
        assert!(!h.set_limit(512));
    }
}
