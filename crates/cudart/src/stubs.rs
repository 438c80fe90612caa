//! Entry points programs commonly import that warpsim does not implement. Each prints
//! `warpsim: <name> is not supported` once on stderr and returns `cudaErrorNotSupported`
//! (801), recorded as the last error like any failure.
//!
//! The stubs take no parameters: under the C calling convention the caller owns its
//! arguments, so a callee that ignores them is safe for any signature returning
//! `cudaError_t`. (Functions returning structs by value, such as `cudaCreateChannelDesc`,
//! must not be stubbed this way and are absent.)

use crate::runtime::{guard, lock};
use crate::types::*;

fn not_supported(name: &'static str) -> cudaError_t {
    guard(name, cudaErrorNotSupported, || {
        let mut rt = lock();
        let e = rt.unsupported(name);
        rt.record(e)
    })
}

macro_rules! stubs {
    ($($name:ident),* $(,)?) => {
        $(
            unsafe extern "C" fn $name() -> cudaError_t {
                not_supported(stringify!($name))
            }
        )*
        export!($($name),*);
        /// Names of every stubbed entry point.
        #[cfg(test)]
        pub const STUBS: &[&str] = &[$(stringify!($name)),*];
    };
}

stubs!(
    // Managed-memory queries.
    cudaMemRangeGetAttribute,
    // Stream-ordered allocation and memory pools.
    cudaMallocAsync,
    cudaFreeAsync,
    cudaMallocFromPoolAsync,
    cudaDeviceGetDefaultMemPool,
    cudaDeviceGetMemPool,
    cudaDeviceSetMemPool,
    cudaMemPoolCreate,
    cudaMemPoolDestroy,
    cudaMemPoolSetAttribute,
    cudaMemPoolGetAttribute,
    cudaMemPoolTrimTo,
    // Mipmapped arrays, 3-D memset, array-to-array copies.
    cudaMallocMipmappedArray,
    cudaFreeMipmappedArray,
    cudaMemset3D,
    cudaMemset3DAsync,
    cudaMemset2DAsync,
    cudaMemcpyArrayToArray,
    // Several devices.
    cudaMemcpyPeer,
    cudaMemcpyPeerAsync,
    cudaDeviceEnablePeerAccess,
    cudaDeviceDisablePeerAccess,
    cudaDeviceGetP2PAttribute,
    cudaSetValidDevices,
    cudaDeviceGetByPCIBusId,
    cudaDeviceGetPCIBusId,
    cudaIpcGetMemHandle,
    cudaIpcOpenMemHandle,
    cudaIpcCloseMemHandle,
    cudaIpcGetEventHandle,
    cudaIpcOpenEventHandle,
    // Launch variants and driver interop.
    cudaLaunchKernelExC,
    cudaGetFuncBySymbol,
    cudaGetDriverEntryPoint,
    cudaGetDriverEntryPointByVersion,
    cudaGetExportTable,
    cudaOccupancyMaxActiveClusters,
    cudaOccupancyMaxPotentialClusterSize,
    cudaStreamGetAttribute,
    cudaStreamSetAttribute,
    cudaCtxResetPersistingL2Cache,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stubs_report_not_supported() {
        assert!(STUBS.contains(&"cudaMemRangeGetAttribute"));
        let mut seen = std::collections::HashSet::new();
        assert!(STUBS.iter().all(|s| seen.insert(*s)), "duplicate stub");
        assert_eq!(unsafe { cudaMemRangeGetAttribute() }, cudaErrorNotSupported);
        assert_eq!(unsafe { cudaMemRangeGetAttribute() }, cudaErrorNotSupported);
        assert!(lock().reported.contains("cudaMemRangeGetAttribute"));
    }
}
