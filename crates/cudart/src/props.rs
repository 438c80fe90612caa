//! The simulated GPU as `cudaGetDeviceProperties` and `cudaDeviceGetAttribute` describe it:
//! the configured preset (`WARPSIM_CONFIG`; default `gtx480`: 15 SMs, 1536 threads / 8 CTAs /
//! 32768 registers / 48 KB shared memory per SM, 700 MHz core clock) reporting the preset's
//! `gpu.compute_capability` (7.5 on gtx480 and titanx-pascal, because the PTX they run targets
//! sm_75; 7.0 on qv100, a Volta; 7.5 on rtx2060, a Turing; 8.6 on rtx3070, an Ampere) and a memory bus as wide as its
//! DRAM channels together (384 bits on gtx480 and titanx-pascal, 4096 on qv100's HBM2, 256 on
//! rtx3070's GDDR6). Per-block limits stay CUDA's
//! defaults (1024 threads, 48 KB shared memory without opt-in).
//!
//! `cudaDeviceProp` is CUDA 13's layout, written by hand from `driver_types.h` (1008 bytes;
//! the `clockRate`-style fields CUDA 13 removed are attributes only).

use std::ffi::c_char;

use warpsim_core::config::GpuConfig;

pub const MAX_THREADS_PER_BLOCK: i32 = 1024;
pub const CONST_BYTES: usize = 64 * 1024;

/// The configured GPU's limits, in the units the runtime API reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// `warpsim (<preset>)`.
    pub name: String,
    pub sms: u32,
    pub warp_size: i32,
    pub threads_per_sm: i32,
    pub ctas_per_sm: i32,
    pub warps_per_sm: i32,
    pub regs_per_sm: i32,
    /// At most 64 K registers per block (CUDA's limit), at most the SM's.
    pub regs_per_block: i32,
    pub shared_per_sm: usize,
    /// 48 KB (CUDA's default without opt-in), at most the SM's.
    pub shared_per_block: usize,
    /// The model's core clock: the clock its cycles count (gtx480: 700 MHz, GPGPU-Sim's
    /// halved 1400 MHz shader clock).
    pub clock_khz: i32,
    pub memory_clock_khz: i32,
    pub l2_bytes: i32,
    /// `gpu.compute_capability`.
    pub major: i32,
    pub minor: i32,
    /// Bits: channels × chips × bytes per chip × 8.
    pub bus_width: i32,
}

impl Limits {
    pub fn of(g: &GpuConfig) -> Limits {
        let sat = |v: u32| i32::try_from(v).unwrap_or(i32::MAX);
        Limits {
            name: format!("warpsim ({})", g.name),
            sms: g.gpu.num_sms,
            warp_size: sat(g.sm.warp_size),
            threads_per_sm: sat(g.sm.max_threads),
            ctas_per_sm: sat(g.sm.max_ctas),
            warps_per_sm: sat(g.sm.max_warps),
            regs_per_sm: sat(g.sm.registers),
            regs_per_block: sat(g.sm.registers.min(65536)),
            shared_per_sm: g.sm.shared_memory as usize,
            shared_per_block: (g.sm.shared_memory as usize).min(48 * 1024),
            clock_khz: (g.gpu.core_clock_mhz * 1000.0).round() as i32,
            memory_clock_khz: (g.gpu.dram_clock_mhz * 1000.0).round() as i32,
            l2_bytes: sat(g.l2.size),
            major: sat(g.gpu.compute_capability[0]),
            minor: sat(g.gpu.compute_capability[1]),
            bus_width: sat(g.dram.partitions * g.dram.chips * g.dram.bus_bytes * 8),
        }
    }
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaDeviceProp {
    pub name: [c_char; 256],
    pub uuid: [u8; 16],
    pub luid: [c_char; 8],
    pub luidDeviceNodeMask: u32,
    pub totalGlobalMem: usize,
    pub sharedMemPerBlock: usize,
    pub regsPerBlock: i32,
    pub warpSize: i32,
    pub memPitch: usize,
    pub maxThreadsPerBlock: i32,
    pub maxThreadsDim: [i32; 3],
    pub maxGridSize: [i32; 3],
    pub totalConstMem: usize,
    pub major: i32,
    pub minor: i32,
    pub textureAlignment: usize,
    pub texturePitchAlignment: usize,
    pub multiProcessorCount: i32,
    pub integrated: i32,
    pub canMapHostMemory: i32,
    pub maxTexture1D: i32,
    pub maxTexture1DMipmap: i32,
    pub maxTexture2D: [i32; 2],
    pub maxTexture2DMipmap: [i32; 2],
    pub maxTexture2DLinear: [i32; 3],
    pub maxTexture2DGather: [i32; 2],
    pub maxTexture3D: [i32; 3],
    pub maxTexture3DAlt: [i32; 3],
    pub maxTextureCubemap: i32,
    pub maxTexture1DLayered: [i32; 2],
    pub maxTexture2DLayered: [i32; 3],
    pub maxTextureCubemapLayered: [i32; 2],
    pub maxSurface1D: i32,
    pub maxSurface2D: [i32; 2],
    pub maxSurface3D: [i32; 3],
    pub maxSurface1DLayered: [i32; 2],
    pub maxSurface2DLayered: [i32; 3],
    pub maxSurfaceCubemap: i32,
    pub maxSurfaceCubemapLayered: [i32; 2],
    pub surfaceAlignment: usize,
    pub concurrentKernels: i32,
    pub ECCEnabled: i32,
    pub pciBusID: i32,
    pub pciDeviceID: i32,
    pub pciDomainID: i32,
    pub tccDriver: i32,
    pub asyncEngineCount: i32,
    pub unifiedAddressing: i32,
    pub memoryBusWidth: i32,
    pub l2CacheSize: i32,
    pub persistingL2CacheMaxSize: i32,
    pub maxThreadsPerMultiProcessor: i32,
    pub streamPrioritiesSupported: i32,
    pub globalL1CacheSupported: i32,
    pub localL1CacheSupported: i32,
    pub sharedMemPerMultiprocessor: usize,
    pub regsPerMultiprocessor: i32,
    pub managedMemory: i32,
    pub isMultiGpuBoard: i32,
    pub multiGpuBoardGroupID: i32,
    pub hostNativeAtomicSupported: i32,
    pub pageableMemoryAccess: i32,
    pub concurrentManagedAccess: i32,
    pub computePreemptionSupported: i32,
    pub canUseHostPointerForRegisteredMem: i32,
    pub cooperativeLaunch: i32,
    pub sharedMemPerBlockOptin: usize,
    pub pageableMemoryAccessUsesHostPageTables: i32,
    pub directManagedMemAccessFromHost: i32,
    pub maxBlocksPerMultiProcessor: i32,
    pub accessPolicyMaxWindowSize: i32,
    pub reservedSharedMemPerBlock: usize,
    pub hostRegisterSupported: i32,
    pub sparseCudaArraySupported: i32,
    pub hostRegisterReadOnlySupported: i32,
    pub timelineSemaphoreInteropSupported: i32,
    pub memoryPoolsSupported: i32,
    pub gpuDirectRDMASupported: i32,
    pub gpuDirectRDMAFlushWritesOptions: u32,
    pub gpuDirectRDMAWritesOrdering: i32,
    pub memoryPoolSupportedHandleTypes: u32,
    pub deferredMappingCudaArraySupported: i32,
    pub ipcEventSupported: i32,
    pub clusterLaunch: i32,
    pub unifiedFunctionPointers: i32,
    pub deviceNumaConfig: i32,
    pub deviceNumaId: i32,
    pub mpsEnabled: i32,
    pub hostNumaId: i32,
    pub gpuPciDeviceID: u32,
    pub gpuPciSubsystemID: u32,
    pub hostNumaMultinodeIpcSupported: i32,
    pub reserved: [i32; 56],
}

/// The properties of the simulated GPU. Texture limits are those NVIDIA's deviceQuery prints
/// for compute capability 7.5 (1-D 131072, 2-D 131072 × 65536, 3-D 16384³); the limits of
/// what warpsim does not support (layered, cubemap, mipmapped) and the others are 0.
pub fn properties(l: &Limits) -> cudaDeviceProp {
    // SAFETY: every field is an integer or an array of integers; all-zero is valid.
    let mut p: cudaDeviceProp = unsafe { std::mem::zeroed() };
    // Leave the last byte 0: the name is a C string.
    for (d, s) in p.name.iter_mut().take(255).zip(l.name.bytes()) {
        *d = s as c_char;
    }
    for (d, s) in p.uuid.iter_mut().zip(
        l.name
            .bytes()
            .filter(|b| b.is_ascii_alphanumeric() || *b == b'-'),
    ) {
        *d = s;
    }
    p.totalGlobalMem = crate::runtime::TOTAL_MEMORY as usize;
    p.sharedMemPerBlock = l.shared_per_block;
    p.regsPerBlock = l.regs_per_block;
    p.warpSize = l.warp_size;
    p.memPitch = i32::MAX as usize;
    p.maxThreadsPerBlock = MAX_THREADS_PER_BLOCK;
    p.maxThreadsDim = [1024, 1024, 64];
    p.maxGridSize = [i32::MAX, 65535, 65535];
    p.totalConstMem = CONST_BYTES;
    p.major = l.major;
    p.minor = l.minor;
    p.textureAlignment = 512;
    p.texturePitchAlignment = 32;
    p.maxTexture1D = 131072;
    p.maxTexture2D = [131072, 65536];
    p.maxTexture3D = [16384; 3];
    p.multiProcessorCount = l.sms as i32;
    p.surfaceAlignment = 512;
    p.asyncEngineCount = 1;
    p.unifiedAddressing = 1;
    p.memoryBusWidth = l.bus_width;
    p.l2CacheSize = l.l2_bytes;
    p.maxThreadsPerMultiProcessor = l.threads_per_sm;
    p.globalL1CacheSupported = 1;
    p.localL1CacheSupported = 1;
    p.sharedMemPerMultiprocessor = l.shared_per_sm;
    p.regsPerMultiprocessor = l.regs_per_sm;
    p.cooperativeLaunch = 1;
    p.sharedMemPerBlockOptin = l.shared_per_block;
    p.maxBlocksPerMultiProcessor = l.ctas_per_sm;
    p.hostRegisterSupported = 1;
    // Managed and pinned memory are host memory kernels address directly (src/managed.rs);
    // launches finish inside the launch call, so host access never overlaps a kernel.
    p.canMapHostMemory = 1;
    p.managedMemory = 1;
    p.concurrentManagedAccess = 1;
    p.directManagedMemAccessFromHost = 1;
    p.unifiedFunctionPointers = 1;
    p.deviceNumaId = -1;
    p.hostNumaId = -1;
    p
}

/// `cudaDeviceGetAttribute`: the common `cudaDeviceAttr` values; `None` for the rest.
pub fn attribute(l: &Limits, attr: i32) -> Option<i32> {
    let p = properties(l);
    Some(match attr {
        1 => p.maxThreadsPerBlock,
        2..=4 => p.maxThreadsDim[(attr - 2) as usize],
        5..=7 => p.maxGridSize[(attr - 5) as usize],
        8 => p.sharedMemPerBlock as i32,
        9 => p.totalConstMem as i32,
        10 => p.warpSize,
        11 => p.memPitch as i32,
        12 => p.regsPerBlock,
        13 => l.clock_khz,
        14 => p.textureAlignment as i32,
        15 => 1, // GpuOverlap
        16 => p.multiProcessorCount,
        17 => 0, // KernelExecTimeout
        18 => p.integrated,
        19 => p.canMapHostMemory,
        20 => 0, // ComputeMode default
        21 => p.maxTexture1D,
        22 | 23 => p.maxTexture2D[(attr - 22) as usize],
        24..=26 => p.maxTexture3D[(attr - 24) as usize],
        30 => p.surfaceAlignment as i32,
        31 => p.concurrentKernels,
        32 => p.ECCEnabled,
        33 => p.pciBusID,
        34 => p.pciDeviceID,
        35 => p.tccDriver,
        36 => l.memory_clock_khz,
        37 => p.memoryBusWidth,
        38 => p.l2CacheSize,
        39 => p.maxThreadsPerMultiProcessor,
        40 => p.asyncEngineCount,
        41 => p.unifiedAddressing,
        50 => p.pciDomainID,
        51 => p.texturePitchAlignment as i32,
        75 => p.major,
        76 => p.minor,
        78 => p.streamPrioritiesSupported,
        79 => p.globalL1CacheSupported,
        80 => p.localL1CacheSupported,
        81 => p.sharedMemPerMultiprocessor as i32,
        82 => p.regsPerMultiprocessor,
        83 => p.managedMemory,
        84 => p.isMultiGpuBoard,
        85 => p.multiGpuBoardGroupID,
        86 => p.hostNativeAtomicSupported,
        87 => 2, // SingleToDoublePrecisionPerfRatio
        88 => p.pageableMemoryAccess,
        89 => p.concurrentManagedAccess,
        90 => p.computePreemptionSupported,
        91 => p.canUseHostPointerForRegisteredMem,
        95 => p.cooperativeLaunch,
        97 => p.sharedMemPerBlockOptin as i32,
        98 => 0, // CanFlushRemoteWrites
        99 => p.hostRegisterSupported,
        100 => p.pageableMemoryAccessUsesHostPageTables,
        101 => p.directManagedMemAccessFromHost,
        106 => p.maxBlocksPerMultiProcessor,
        108 => p.persistingL2CacheMaxSize,
        109 => p.accessPolicyMaxWindowSize,
        111 => p.reservedSharedMemPerBlock as i32,
        112..=116 => 0,
        120 => p.clusterLaunch,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    /// Printed by a C program built with nvcc 13.5 (`sizeof`/`offsetof` on `cudaDeviceProp`);
    /// `tests/cuda/device_props.cu` checks the same layout end to end.
    #[test]
    fn layout_matches_cuda_13() {
        assert_eq!(size_of::<cudaDeviceProp>(), 1008);
        let expect = [
            (offset_of!(cudaDeviceProp, uuid), 256),
            (offset_of!(cudaDeviceProp, luid), 272),
            (offset_of!(cudaDeviceProp, luidDeviceNodeMask), 280),
            (offset_of!(cudaDeviceProp, totalGlobalMem), 288),
            (offset_of!(cudaDeviceProp, sharedMemPerBlock), 296),
            (offset_of!(cudaDeviceProp, regsPerBlock), 304),
            (offset_of!(cudaDeviceProp, warpSize), 308),
            (offset_of!(cudaDeviceProp, memPitch), 312),
            (offset_of!(cudaDeviceProp, maxThreadsPerBlock), 320),
            (offset_of!(cudaDeviceProp, maxThreadsDim), 324),
            (offset_of!(cudaDeviceProp, maxGridSize), 336),
            (offset_of!(cudaDeviceProp, totalConstMem), 352),
            (offset_of!(cudaDeviceProp, major), 360),
            (offset_of!(cudaDeviceProp, minor), 364),
            (offset_of!(cudaDeviceProp, textureAlignment), 368),
            (offset_of!(cudaDeviceProp, multiProcessorCount), 384),
            (offset_of!(cudaDeviceProp, maxTexture1D), 396),
            (offset_of!(cudaDeviceProp, surfaceAlignment), 552),
            (offset_of!(cudaDeviceProp, concurrentKernels), 560),
            (offset_of!(cudaDeviceProp, l2CacheSize), 596),
            (offset_of!(cudaDeviceProp, maxThreadsPerMultiProcessor), 604),
            (offset_of!(cudaDeviceProp, sharedMemPerMultiprocessor), 624),
            (offset_of!(cudaDeviceProp, regsPerMultiprocessor), 632),
            (offset_of!(cudaDeviceProp, managedMemory), 636),
            (offset_of!(cudaDeviceProp, sharedMemPerBlockOptin), 672),
            (offset_of!(cudaDeviceProp, maxBlocksPerMultiProcessor), 688),
            (offset_of!(cudaDeviceProp, reservedSharedMemPerBlock), 696),
            (offset_of!(cudaDeviceProp, hostRegisterSupported), 704),
            (
                offset_of!(cudaDeviceProp, gpuDirectRDMAFlushWritesOptions),
                728,
            ),
            (offset_of!(cudaDeviceProp, hostNumaId), 768),
            (
                offset_of!(cudaDeviceProp, hostNumaMultinodeIpcSupported),
                780,
            ),
            (offset_of!(cudaDeviceProp, reserved), 784),
        ];
        for (i, (got, want)) in expect.iter().enumerate() {
            assert_eq!(got, want, "field #{i}");
        }
    }

    /// The device name, up to its terminating NUL.
    fn name_of(p: &cudaDeviceProp) -> String {
        p.name
            .iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as u8 as char)
            .collect()
    }

    #[test]
    fn describes_the_gtx480_preset() {
        let l = Limits::of(&GpuConfig::load("gtx480").unwrap());
        let p = properties(&l);
        assert_eq!(name_of(&p), "warpsim (gtx480)");
        assert_eq!((p.major, p.minor, p.multiProcessorCount), (7, 5, 15));
        assert_eq!(attribute(&l, 13), Some(700_000));
        assert_eq!(attribute(&l, 39), Some(1536));
        assert_eq!(attribute(&l, 106), Some(8));
        assert_eq!(attribute(&l, 9999), None);
    }

    #[test]
    fn describes_the_titanx_pascal_preset() {
        let l = Limits::of(&GpuConfig::load("titanx-pascal").unwrap());
        let p = properties(&l);
        assert_eq!(
            (
                p.multiProcessorCount,
                p.maxThreadsPerMultiProcessor,
                p.maxBlocksPerMultiProcessor
            ),
            (28, 2048, 32)
        );
        assert_eq!(
            (
                p.regsPerMultiprocessor,
                p.sharedMemPerMultiprocessor,
                p.sharedMemPerBlock
            ),
            (65536, 96 * 1024, 48 * 1024)
        );
        assert_eq!(attribute(&l, 13), Some(1_417_000));
        assert_eq!(attribute(&l, 38), Some(3 << 20));
    }

    #[test]
    fn describes_the_qv100_preset() {
        // SM7_QV100: 80 SMs, compute capability 7.0, 32 HBM2 channels of 128 bits, 6 MB L2.
        let l = Limits::of(&GpuConfig::load("qv100").unwrap());
        let p = properties(&l);
        assert_eq!((p.major, p.minor, p.multiProcessorCount), (7, 0, 80));
        assert_eq!((attribute(&l, 75), attribute(&l, 76)), (Some(7), Some(0)));
        assert_eq!(attribute(&l, 37), Some(4096));
        assert_eq!(attribute(&l, 38), Some(6 << 20));
        assert_eq!(attribute(&l, 13), Some(1_447_000));
        assert_eq!(p.sharedMemPerMultiprocessor, 96 * 1024);
    }

    #[test]
    fn describes_the_rtx2060_preset() {
        // SM75_RTX2060: 30 SMs of 1024 threads, compute capability 7.5, 12 GDDR6 channels of
        // 16 bits at 3500.5 MHz, 3 MB L2, 64 KB shared memory per SM (48 KB per block).
        let l = Limits::of(&GpuConfig::load("rtx2060").unwrap());
        let p = properties(&l);
        assert_eq!(name_of(&p), "warpsim (rtx2060)");
        assert_eq!((p.major, p.minor, p.multiProcessorCount), (7, 5, 30));
        assert_eq!((attribute(&l, 75), attribute(&l, 76)), (Some(7), Some(5)));
        assert_eq!(attribute(&l, 39), Some(1024));
        assert_eq!(attribute(&l, 37), Some(192));
        assert_eq!(attribute(&l, 38), Some(3 << 20));
        assert_eq!(attribute(&l, 13), Some(1_365_000));
        assert_eq!(attribute(&l, 36), Some(3_500_500));
        assert_eq!(
            (p.sharedMemPerMultiprocessor, p.sharedMemPerBlock),
            (64 * 1024, 48 * 1024)
        );
    }

    #[test]
    fn describes_the_rtx3070_preset() {
        // SM86_RTX3070: 46 SMs of 1536 threads, compute capability 8.6, 16 GDDR6 channels of
        // 16 bits at 3500.5 MHz, 4 MB L2, 100 KB shared memory per SM (48 KB per block).
        let l = Limits::of(&GpuConfig::load("rtx3070").unwrap());
        let p = properties(&l);
        assert_eq!(name_of(&p), "warpsim (rtx3070)");
        assert_eq!((p.major, p.minor, p.multiProcessorCount), (8, 6, 46));
        assert_eq!((attribute(&l, 75), attribute(&l, 76)), (Some(8), Some(6)));
        assert_eq!(attribute(&l, 39), Some(1536));
        assert_eq!(attribute(&l, 37), Some(256));
        assert_eq!(attribute(&l, 38), Some(4 << 20));
        assert_eq!(attribute(&l, 13), Some(1_132_000));
        assert_eq!(attribute(&l, 36), Some(3_500_500));
        assert_eq!(
            (p.sharedMemPerMultiprocessor, p.sharedMemPerBlock),
            (100 * 1024, 48 * 1024)
        );
        assert_eq!((p.regsPerMultiprocessor, p.regsPerBlock), (65536, 65536));
    }
}
