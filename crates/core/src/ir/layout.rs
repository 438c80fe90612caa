//! Fixed address windows of the simulated GPU's generic address space.
//!
//! Global memory (allocations and module images) lives at `GLOBAL_BASE` and above; a generic
//! address inside `[SHARED_WINDOW, SHARED_WINDOW + WINDOW_SIZE)` is shared memory of the
//! issuing thread's CTA, one inside the local window is the issuing thread's own local memory.
//! Const variables sit in the global image, so `cvta.const` is the identity.

/// First byte of device global memory. Far from where Linux places host heaps and mmaps, so
/// `cudaMemcpyDefault` can tell device pointers from host pointers.
pub const GLOBAL_BASE: u64 = 0x0000_0a00_0000_0000;
/// First byte of the allocations the host asks for (`cudaMalloc` and kin). Below it, from
/// `GLOBAL_BASE`, sit the modules' variables and the runtime's own buffers, so that a
/// program's first allocation starts on a 16 GiB boundary whatever modules it loaded, as in
/// GPGPU-Sim (whose `cudaMalloc` hands out addresses from `GLOBAL_HEAP_START`, 0xC0000000,
/// and places module variables below it): the low address bits, which pick cache sets and
/// memory partitions, are then the same in both simulators.
pub const ALLOC_BASE: u64 = GLOBAL_BASE + (1 << 34);
/// One past the last byte of device global memory.
pub const GLOBAL_LIMIT: u64 = 0x0000_0b00_0000_0000;
/// Start of the device heap (device-side `malloc`), the top 64 GiB of the global window;
/// `cudaMalloc` allocations stay below it.
pub const HEAP_BASE: u64 = GLOBAL_LIMIT - (1 << 36);
/// Generic address of shared-memory offset 0.
pub const SHARED_WINDOW: u64 = 0x0000_0c00_0000_0000;
/// Generic address of local-memory offset 0.
pub const LOCAL_WINDOW: u64 = 0x0000_0d00_0000_0000;
/// Size of each of the shared and local windows.
pub const WINDOW_SIZE: u64 = 1 << 32;
/// Function handles (function pointers) are `FUNC_HANDLE_BASE + FuncId`.
pub const FUNC_HANDLE_BASE: u64 = 0x0000_0e00_0000_0000;
