//! C types and constants of the CUDA runtime API (`driver_types.h`, `vector_types.h`).

// The types keep CUDA's C names (`cudaStream_t`), so the code reads like the CUDA headers.
#![allow(non_camel_case_types)]

use std::ffi::c_void;

/// `cudaError_t` (a C enum: `int`).
pub type cudaError_t = i32;
pub type cudaStream_t = *mut c_void;
pub type cudaEvent_t = *mut c_void;
pub type cudaKernel_t = *mut c_void;

/// `dim3` / `uint3`, passed by value in registers like the C struct.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl From<dim3> for warpsim_core::device::Dim3 {
    fn from(d: dim3) -> Self {
        warpsim_core::device::Dim3::new(d.x, d.y, d.z)
    }
}

pub const cudaSuccess: cudaError_t = 0;
pub const cudaErrorInvalidValue: cudaError_t = 1;
pub const cudaErrorMemoryAllocation: cudaError_t = 2;
pub const cudaErrorInvalidConfiguration: cudaError_t = 9;
pub const cudaErrorInvalidPitchValue: cudaError_t = 12;
pub const cudaErrorInvalidSymbol: cudaError_t = 13;
pub const cudaErrorInvalidChannelDescriptor: cudaError_t = 20;
pub const cudaErrorInvalidDevicePointer: cudaError_t = 17;
pub const cudaErrorInvalidMemcpyDirection: cudaError_t = 21;
pub const cudaErrorInvalidFilterSetting: cudaError_t = 26;
pub const cudaErrorInvalidNormSetting: cudaError_t = 27;
pub const cudaErrorMissingConfiguration: cudaError_t = 52;
pub const cudaErrorInvalidDeviceFunction: cudaError_t = 98;
pub const cudaErrorInvalidDevice: cudaError_t = 101;
pub const cudaErrorInvalidKernelImage: cudaError_t = 200;
pub const cudaErrorNoKernelImageForDevice: cudaError_t = 209;
pub const cudaErrorUnsupportedLimit: cudaError_t = 215;
pub const cudaErrorInvalidPtx: cudaError_t = 218;
pub const cudaErrorInvalidResourceHandle: cudaError_t = 400;
pub const cudaErrorNotReady: cudaError_t = 600;
pub const cudaErrorIllegalAddress: cudaError_t = 700;
pub const cudaErrorLaunchTimeout: cudaError_t = 702;
pub const cudaErrorAssert: cudaError_t = 710;
pub const cudaErrorHardwareStackError: cudaError_t = 714;
pub const cudaErrorMisalignedAddress: cudaError_t = 716;
pub const cudaErrorInvalidPc: cudaError_t = 718;
pub const cudaErrorLaunchFailure: cudaError_t = 719;
pub const cudaErrorCooperativeLaunchTooLarge: cudaError_t = 720;
pub const cudaErrorNotSupported: cudaError_t = 801;
pub const cudaErrorUnknown: cudaError_t = 999;

/// Errors after which the context is unusable: every later call returns them until
/// `cudaDeviceReset` (CUDA's "sticky" errors).
pub fn is_sticky(e: cudaError_t) -> bool {
    matches!(e, 700 | 702 | 710 | 714..=719)
}

/// `cudaMemcpyKind`.
pub const cudaMemcpyHostToHost: i32 = 0;
pub const cudaMemcpyHostToDevice: i32 = 1;
pub const cudaMemcpyDeviceToHost: i32 = 2;
pub const cudaMemcpyDeviceToDevice: i32 = 3;
pub const cudaMemcpyDefault: i32 = 4;

/// `cudaStreamLegacy` and `cudaStreamPerThread`, the special handles besides 0.
pub const STREAM_LEGACY: usize = 1;
pub const STREAM_PER_THREAD: usize = 2;

/// `cudaEventDisableTiming`.
pub const cudaEventDisableTiming: u32 = 0x2;

/// `cudaFuncAttributes` (144 bytes in CUDA 13).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cudaFuncAttributes {
    pub sharedSizeBytes: usize,
    pub constSizeBytes: usize,
    pub localSizeBytes: usize,
    pub maxThreadsPerBlock: i32,
    pub numRegs: i32,
    pub ptxVersion: i32,
    pub binaryVersion: i32,
    pub cacheModeCA: i32,
    pub maxDynamicSharedSizeBytes: i32,
    pub preferredShmemCarveout: i32,
    pub clusterDimMustBeSet: i32,
    pub requiredClusterWidth: i32,
    pub requiredClusterHeight: i32,
    pub requiredClusterDepth: i32,
    pub clusterSchedulingPolicyPreference: i32,
    pub nonPortableClusterSizeAllowed: i32,
    pub deviceNodeUpdateStatus: i32,
    pub sharedMemoryMode: i32,
    pub reserved: [i32; 14],
}

/// `cudaPointerAttributes` (88 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cudaPointerAttributes {
    pub type_: i32,
    pub device: i32,
    pub devicePointer: *mut c_void,
    pub hostPointer: *mut c_void,
    pub localityDomainOrdinal: i64,
    pub reserved: [i64; 7],
}

pub const cudaMemoryTypeUnregistered: i32 = 0;
pub const cudaMemoryTypeHost: i32 = 1;
pub const cudaMemoryTypeDevice: i32 = 2;
pub const cudaMemoryTypeManaged: i32 = 3;

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    /// Sizes and offsets printed by a C program compiled with nvcc 13.5 against
    /// `driver_types.h` (see the README's "Layouts" section).
    #[test]
    fn layouts_match_the_cuda_13_headers() {
        assert_eq!(size_of::<dim3>(), 12);
        assert_eq!(size_of::<cudaFuncAttributes>(), 144);
        assert_eq!(offset_of!(cudaFuncAttributes, maxThreadsPerBlock), 24);
        assert_eq!(offset_of!(cudaFuncAttributes, numRegs), 28);
        assert_eq!(
            offset_of!(cudaFuncAttributes, maxDynamicSharedSizeBytes),
            44
        );
        assert_eq!(size_of::<cudaPointerAttributes>(), 88);
        assert_eq!(offset_of!(cudaPointerAttributes, devicePointer), 8);
    }

    #[test]
    fn sticky_errors() {
        assert!(is_sticky(cudaErrorIllegalAddress));
        assert!(is_sticky(cudaErrorLaunchFailure));
        assert!(!is_sticky(cudaErrorInvalidConfiguration));
        assert!(!is_sticky(cudaErrorInvalidValue));
    }
}
