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

/// Module variables and runtime buffers sit below `ALLOC_BASE`, so the host's first
/// allocation starts there whatever was loaded before it (the low address bits pick L1
/// sets and partitions: GPGPU-Sim's first `cudaMalloc` is at 0xC0000000 whatever modules
/// the program registered).
#[test]
fn the_hosts_allocations_start_at_alloc_base_whatever_modules_hold() {
    let mut m = GlobalMemory::new();
    let module = m.alloc_from(40, Origin::Module).unwrap();
    let first = m.alloc(1 << 20).unwrap();
    let workspace = m.alloc_from(16, Origin::Workspace).unwrap();
    let second = m.alloc(10).unwrap();
    assert_eq!(module, GLOBAL_BASE);
    assert_eq!(workspace, GLOBAL_BASE + ALLOC_ALIGN);
    assert_eq!((first, second), (ALLOC_BASE, ALLOC_BASE + (1 << 20)));
    assert_eq!(
        ALLOC_BASE % (1 << 30),
        0,
        "as aligned as GPGPU-Sim's 0xC0000000"
    );
    assert_eq!(m.alloc_from(ALLOC_BASE - GLOBAL_BASE, Origin::Module), None);
}

#[test]
fn faults_are_placed_relative_to_the_nearest_allocation() {
    let mut m = GlobalMemory::new();
    let a = m.alloc(1000).unwrap();
    let b = m.alloc_from(64, Origin::Host("cudaMallocPitch")).unwrap();
    let c = m.alloc(16).unwrap();
    let info = |base, size, origin, call| AllocInfo {
        base,
        size,
        origin,
        call,
    };
    let ia = info(a, 1000, Origin::Host("cudaMalloc"), 1);
    assert_eq!(m.nearby(a + 1004, 4), Nearby::After { alloc: ia, gap: 4 });
    assert_eq!(m.nearby(a + 998, 4), Nearby::PastEnd { alloc: ia, over: 2 });
    // Between a (ends a+1000) and b (starts a+1024): the nearer side wins.
    assert_eq!(
        m.nearby(a + 1020, 4),
        Nearby::Before {
            alloc: info(b, 64, Origin::Host("cudaMallocPitch"), 1),
            gap: 4
        }
    );
    assert_eq!(m.nearby(a - 8, 4), Nearby::Before { alloc: ia, gap: 8 });
    assert!(m.free(b));
    assert!(m.free_by(c, "cudaFreeHost"));
    let freed = |by, call| FreeInfo { by, call };
    assert_eq!(
        m.nearby(b + 8, 4),
        Nearby::Freed {
            alloc: info(b, 64, Origin::Host("cudaMallocPitch"), 1),
            freed: freed("cudaFree", 1)
        }
    );
    assert_eq!(
        m.nearby(c, 4),
        Nearby::Freed {
            alloc: info(c, 16, Origin::Host("cudaMalloc"), 2),
            freed: freed("cudaFreeHost", 1)
        }
    );
    assert_eq!(m.nearby(8, 4), Nearby::Null);
    assert_eq!(m.nearby(a + (1 << 40), 4), Nearby::Nothing);
    // Device-heap blocks: freed by device free; a later block reusing the range is live.
    let h = m.heap_malloc(32).unwrap();
    assert!(m.heap_free(h));
    let hi = info(h, 32, Origin::DeviceMalloc, 1);
    assert_eq!(
        m.nearby(h + 4, 4),
        Nearby::Freed {
            alloc: hi,
            freed: freed("device free", 1)
        }
    );
    let h2 = m.heap_malloc(8).unwrap();
    assert_eq!(h2, h);
    assert_eq!(
        m.nearby(h + 8, 4),
        Nearby::After {
            alloc: info(h, 8, Origin::DeviceMalloc, 2),
            gap: 0
        }
    );
    assert!(m.contains(h, 8) && !m.contains(h, 9));
}

#[test]
fn only_the_latest_frees_are_remembered() {
    let mut m = GlobalMemory::new();
    let first = m.alloc(1).unwrap();
    assert!(m.free(first));
    for _ in 0..FREED_KEPT {
        let p = m.alloc(1).unwrap();
        assert!(m.free(p));
    }
    assert_eq!(m.freed.len(), FREED_KEPT);
    assert!(!matches!(m.nearby(first, 1), Nearby::Freed { .. }));
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
    assert_eq!(
        u32::from_le_bytes(host[8..12].try_into().unwrap()),
        0x1234_5678
    );
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
    assert!(m.set_heap_limit(96));
    let a = m.heap_malloc(20).unwrap();
    let b = m.heap_malloc(20).unwrap();
    assert_eq!(
        m.heap_malloc(20),
        None,
        "96-byte heap holds two 32-byte blocks after their 16-byte headers"
    );
    assert_eq!(m.heap_malloc(0), None);
    assert_eq!(m.in_use(), 32);
    m.write_uint(a + 16, 4, 5).unwrap();
    assert_eq!(m.read_uint(a + 20, 1), Err(GlobalFault::OutOfBounds));
    // The cookie slot before a block is memory; the rest of the header is not.
    m.write_uint(b - 8, 8, 3).unwrap();
    assert_eq!(m.read_uint(b - 8, 8), Ok(3));
    assert_eq!(m.read_uint(b - 12, 4), Err(GlobalFault::OutOfBounds));
    assert_eq!(m.read_uint(b - 4, 8), Err(GlobalFault::OutOfBounds));
    assert!(!m.heap_free(b - 8), "the cookie slot is not a block");
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
