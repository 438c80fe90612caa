//! Entry points of NVIDIA's `libcudart.so.13` that warpsim does not implement. Each is exported
//! (a program that merely links to one still starts, and `tests/exports.rs` checks that every
//! public symbol of the real library is exported), prints `warpsim: <name> is not supported`
//! once on stderr and returns `cudaErrorNotSupported` (801), recorded as the last error like
//! any failure. A `_ptsz`/`_ptds` spelling reports the name the program's source used.
//!
//! The stubs take no parameters: under the C calling convention the caller owns its
//! arguments, so a callee that ignores them is safe for any signature returning
//! `cudaError_t`. Every function listed here returns `cudaError_t` in CUDA 13.5's headers
//! (checked one by one against `cuda_runtime_api.h` and the interop headers). Three kinds are
//! in no header: the subgrid calls, which return an `int` status in NVIDIA's library (4 when
//! it has no driver), and the two registration calls, whose result, if they have one, is not
//! known; a value left in the return register of a `void` function is harmless.
//! Functions returning anything else, such as `cudaCreateChannelDesc` (a struct by value) or
//! `__cudaGetProcAddress` (a pointer), must not be stubbed this way.

use crate::runtime::{guard, lock};
use crate::types::*;

/// The name a program's source uses for an entry point: without the per-thread-stream suffix.
fn source_name(symbol: &'static str) -> &'static str {
    symbol
        .strip_suffix("_ptsz")
        .or_else(|| symbol.strip_suffix("_ptds"))
        .unwrap_or(symbol)
}

fn not_supported(name: &'static str) -> cudaError_t {
    let name = source_name(name);
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
    // Mipmapped arrays, array-to-array copies.
    cudaMallocMipmappedArray,
    cudaFreeMipmappedArray,
    cudaMemcpyArrayToArray,
    // Several devices.
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
    cudaGetFuncBySymbol,
    cudaGetDriverEntryPoint,
    cudaGetDriverEntryPointByVersion,
    cudaGetExportTable,
    cudaOccupancyMaxActiveClusters,
    cudaOccupancyMaxPotentialClusterSize,
    cudaStreamGetAttribute,
    cudaStreamSetAttribute,
    cudaCtxResetPersistingL2Cache,
    // Graphics interop (OpenGL, EGL, VDPAU): the simulated GPU has no graphics API to share with.
    cudaGLGetDevices,
    cudaGLMapBufferObject,
    cudaGLMapBufferObjectAsync,
    cudaGLRegisterBufferObject,
    cudaGLSetBufferObjectMapFlags,
    cudaGLSetGLDevice,
    cudaGLUnmapBufferObject,
    cudaGLUnmapBufferObjectAsync,
    cudaGLUnregisterBufferObject,
    cudaGraphicsGLRegisterBuffer,
    cudaGraphicsGLRegisterImage,
    cudaEGLStreamConsumerAcquireFrame,
    cudaEGLStreamConsumerConnect,
    cudaEGLStreamConsumerConnectWithFlags,
    cudaEGLStreamConsumerDisconnect,
    cudaEGLStreamConsumerReleaseFrame,
    cudaEGLStreamProducerConnect,
    cudaEGLStreamProducerDisconnect,
    cudaEGLStreamProducerPresentFrame,
    cudaEGLStreamProducerReturnFrame,
    cudaEventCreateFromEGLSync,
    cudaGraphicsEGLRegisterImage,
    cudaGraphicsResourceGetMappedEglFrame,
    cudaVDPAUGetDevice,
    cudaVDPAUSetVDPAUDevice,
    cudaGraphicsVDPAURegisterOutputSurface,
    cudaGraphicsVDPAURegisterVideoSurface,
    cudaGraphicsMapResources,
    cudaGraphicsUnmapResources,
    cudaGraphicsResourceGetMappedMipmappedArray,
    cudaGraphicsResourceGetMappedPointer,
    cudaGraphicsResourceSetMapFlags,
    cudaGraphicsSubResourceGetMappedArray,
    cudaGraphicsUnregisterResource,
    // External memory and semaphores (Vulkan, Direct3D, NvSciSync) and their graph nodes: nothing
    // outside the process shares the simulated GPU's memory.
    cudaImportExternalMemory,
    cudaExternalMemoryGetMappedBuffer,
    cudaExternalMemoryGetMappedMipmappedArray,
    cudaDestroyExternalMemory,
    cudaImportExternalSemaphore,
    cudaSignalExternalSemaphoresAsync,
    cudaSignalExternalSemaphoresAsync_ptsz,
    cudaWaitExternalSemaphoresAsync,
    cudaWaitExternalSemaphoresAsync_ptsz,
    cudaDestroyExternalSemaphore,
    cudaDeviceGetNvSciSyncAttributes,
    cudaGraphAddExternalSemaphoresSignalNode,
    cudaGraphAddExternalSemaphoresWaitNode,
    cudaGraphExternalSemaphoresSignalNodeGetParams,
    cudaGraphExternalSemaphoresSignalNodeSetParams,
    cudaGraphExternalSemaphoresWaitNodeGetParams,
    cudaGraphExternalSemaphoresWaitNodeSetParams,
    cudaGraphExecExternalSemaphoresSignalNodeSetParams,
    cudaGraphExecExternalSemaphoresWaitNodeSetParams,
    // Green contexts, execution contexts and device resources (partitions of the SMs).
    cudaGreenCtxCreate,
    cudaDevResourceGenerateDesc,
    cudaDevSmResourceSplit,
    cudaDevSmResourceSplitByCount,
    cudaDeviceGetDevResource,
    cudaDeviceGetExecutionCtx,
    cudaExecutionCtxDestroy,
    cudaExecutionCtxGetDevResource,
    cudaExecutionCtxGetDevice,
    cudaExecutionCtxGetId,
    cudaExecutionCtxRecordEvent,
    cudaExecutionCtxStreamCreate,
    cudaExecutionCtxSynchronize,
    cudaExecutionCtxWaitEvent,
    cudaStreamGetDevResource,
    cudaStreamGetDevResource_ptsz,
    // Memory pools shared between processes or devices, per-location pools, and the per-thread
    // spellings of the stream-ordered allocations above.
    cudaMemPoolExportPointer,
    cudaMemPoolExportToShareableHandle,
    cudaMemPoolImportFromShareableHandle,
    cudaMemPoolImportPointer,
    cudaMemPoolGetAccess,
    cudaMemPoolSetAccess,
    cudaMemGetDefaultMemPool,
    cudaMemGetMemPool,
    cudaMemSetMemPool,
    cudaMallocAsync_ptsz,
    cudaFreeAsync_ptsz,
    cudaMallocFromPoolAsync_ptsz,
    // Managed-memory range queries, placement and batched prefetch/discard.
    cudaMemRangeGetAttributes,
    cudaMemGetLocationInfo,
    cudaMemPrefetchBatchAsync,
    cudaMemPrefetchBatchAsync_ptsz,
    cudaMemDiscardBatchAsync,
    cudaMemDiscardBatchAsync_ptsz,
    cudaMemDiscardAndPrefetchBatchAsync,
    cudaMemDiscardAndPrefetchBatchAsync_ptsz,
    // Mipmapped, sparse and multi-planar arrays, resource views, 2-D array-to-array copies and
    // the per-thread spelling of those above.
    cudaGetMipmappedArrayLevel,
    cudaMipmappedArrayGetMemoryRequirements,
    cudaMipmappedArrayGetSparseProperties,
    cudaArrayGetMemoryRequirements,
    cudaArrayGetSparseProperties,
    cudaArrayGetPlane,
    cudaGetTextureObjectResourceViewDesc,
    cudaMemcpy2DArrayToArray,
    cudaMemcpy2DArrayToArray_ptds,
    cudaMemcpyArrayToArray_ptds,
    // Graphs: conditional nodes, the generic node-parameter API (`cudaGraphNodeParams`),
    // kernel-node attributes, recapture.
    cudaGraphConditionalHandleCreate,
    cudaGraphConditionalHandleCreate_v2,
    cudaGraphAddNode,
    cudaGraphNodeGetParams,
    cudaGraphNodeSetParams,
    cudaGraphExecNodeSetParams,
    cudaGraphKernelNodeCopyAttributes,
    cudaGraphKernelNodeGetAttribute,
    cudaGraphKernelNodeSetAttribute,
    cudaStreamBeginRecaptureToGraph,
    cudaStreamBeginRecaptureToGraph_ptsz,
    // Libraries loaded at run time: managed variables and unified function tables.
    cudaLibraryGetManaged,
    cudaLibraryGetUnifiedFunction,
    // Launch, function and stream variants.
    cudaGetDriverEntryPoint_ptsz,
    cudaGetDriverEntryPointByVersion_ptsz,
    cudaStreamGetAttribute_ptsz,
    cudaStreamSetAttribute_ptsz,
    cudaStreamCopyAttributes,
    cudaStreamCopyAttributes_ptsz,
    // Device capabilities and notifications.
    cudaDeviceGetTexture1DLinearMaxWidth,
    cudaDeviceGetHostAtomicCapabilities,
    cudaDeviceGetP2PAtomicCapabilities,
    cudaDeviceFlushGPUDirectRDMAWrites,
    cudaDeviceRegisterAsyncNotification,
    cudaDeviceUnregisterAsyncNotification,
    // Logs (`cudaLogs*`): the shim's messages go to stderr.
    cudaLogsCurrent,
    cudaLogsDumpToFile,
    cudaLogsDumpToMemory,
    cudaLogsRegisterCallback,
    cudaLogsUnregisterCallback,
    // Subgrids: exported by CUDA 13.5's runtime, declared in none of its headers.
    cudaSubgridCreate,
    cudaSubgridWorkerGridCreate,
    cudaSubgridWorksetCreate,
    // Registration calls nvcc emits for features warpsim does not model (host variables and
    // unified function tables); their arguments are ignored.
    __cudaRegisterHostVar,
    __cudaRegisterUnifiedTable,
);

/// Undocumented; NVIDIA's library returns NULL from it whatever the arguments (its whole body
/// is `xor eax, eax; ret` in 13.5), and so does the shim.
unsafe extern "C" fn __cudaGetProcAddress() -> *mut std::ffi::c_void {
    std::ptr::null_mut()
}

export!(__cudaGetProcAddress);

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
        assert_eq!(source_name("cudaMallocAsync_ptsz"), "cudaMallocAsync");
        assert_eq!(source_name("cudaMemset3D_ptds"), "cudaMemset3D");
        assert_eq!(
            source_name("cudaLaunchHostFunc_v2"),
            "cudaLaunchHostFunc_v2"
        );
    }
}
