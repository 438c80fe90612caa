//! Libraries loaded at run time (`cudaLibraryLoadData`, `cudaLibraryLoadFromFile`): PTX text
//! or a fatbinary (a container, or nvcc's wrapper pointing at one) with PTX inside, loaded into
//! the device like a registered module (`register::load`), so that `cudaDeviceReset` reloads it
//! too. A cubin alone cannot run (warpsim executes PTX): `cudaErrorNoKernelImageForDevice`
//! with a diagnostic, as for a SASS-only program.
//!
//! Each kernel of a library gets a `cudaKernel_t`, registered like a host stub: the program can
//! launch it with `cudaLaunchKernel((void *)kernel, …)`, put it in a graph, ask for its
//! attributes and occupancy, exactly as CUDA allows. JIT and library options are accepted and
//! ignored. `cudaLibraryGetGlobal` gives a `__device__`/`__constant__` variable's address and
//! size. Also here: `cudaKernelSetAttributeForDevice`, `cudaFuncGetParamCount` and
//! `cudaFuncGetParamInfo`, which work on any kernel.

use crate::fatbin::{CONTAINER_MAGIC, WRAPPER_MAGIC};
use crate::runtime::{api, diag, put, query, Function, Module, ModuleState, Runtime, Source};
use crate::streams::{free_handle, new_handle};
use crate::types::*;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};

// CUDA's C name.
#[allow(non_camel_case_types)]
pub type cudaLibrary_t = *mut c_void;

pub const cudaErrorSymbolNotFound: cudaError_t = 500;

/// A loaded library: its module and its kernels' handles, by (mangled) name.
#[derive(Debug, Default)]
pub struct Library {
    module: usize,
    kernels: Vec<(String, usize)>,
}

#[derive(Debug, Default)]
pub struct Libraries {
    libs: HashMap<usize, Library>,
}

/// ELF's magic: a cubin.
const ELF_MAGIC: &[u8; 4] = b"\x7fELF";

/// Loads `code` (which must stay readable during the call) as a module.
unsafe fn load_code(rt: &mut Runtime, what: &str, code: *const u8) -> Result<Module, cudaError_t> {
    let head = std::slice::from_raw_parts(code, 4);
    let magic = u32::from_le_bytes(head.try_into().expect("4 bytes"));
    if magic == CONTAINER_MAGIC || magic == WRAPPER_MAGIC {
        return Ok(crate::register::load(rt, code as *const c_void));
    }
    if head == ELF_MAGIC {
        diag(&format!("{what}: the code is a cubin (machine code); warpsim runs PTX: load the PTX, or a fatbinary with PTX in it"));
        return Err(cudaErrorNoKernelImageForDevice);
    }
    let ptx = CStr::from_ptr(code as *const c_char)
        .to_str()
        .map_err(|_| {
            diag(&format!(
                "{what}: the code is neither a fatbinary, a cubin nor PTX text"
            ));
            cudaErrorInvalidPtx
        })?;
    Ok(match rt.device.load_ptx(ptx) {
        Ok(h) => Module {
            state: ModuleState::Loaded(h),
            ptx: Some(Source::One(ptx.to_owned())),
            images: Default::default(),
        },
        Err(e) => {
            let message = format!("{what}: cannot load the PTX:\n{e}");
            diag(&message);
            Module {
                state: ModuleState::Failed {
                    code: cudaErrorInvalidPtx,
                    message,
                },
                ptx: Some(Source::One(ptx.to_owned())),
                images: Default::default(),
            }
        }
    })
}

/// Options come as parallel arrays; a count with a null array is an invalid value.
fn check_options(n: c_uint, keys: *const c_void, values: *const c_void) -> Result<(), cudaError_t> {
    if n > 0 && (keys.is_null() || values.is_null()) {
        return Err(cudaErrorInvalidValue);
    }
    Ok(())
}

/// Loads `code` and registers its kernels; the library handle goes to `out`.
unsafe fn load_library(
    rt: &mut Runtime,
    what: &str,
    out: *mut cudaLibrary_t,
    code: *const u8,
) -> Result<(), cudaError_t> {
    if out.is_null() || code.is_null() {
        return Err(cudaErrorInvalidValue);
    }
    let module = load_code(rt, what, code)?;
    let h = match &module.state {
        ModuleState::Loaded(h) => *h,
        ModuleState::Failed { code, .. } => return Err(*code),
        ModuleState::Empty => {
            diag(&format!("{what}: the fatbinary holds no code"));
            return Err(cudaErrorInvalidKernelImage);
        }
    };
    let index = rt.modules.len();
    let names: Vec<String> = rt
        .device
        .module_ir(h)
        .map_err(|_| cudaErrorInvalidKernelImage)?
        .kernels()
        .map(|(_, f)| f.name.clone())
        .collect();
    rt.modules.push(module);
    let mut kernels = Vec::with_capacity(names.len());
    for name in names {
        let stub = new_handle();
        rt.functions.insert(
            stub,
            Function {
                module: index,
                c_name: std::ffi::CString::new(name.clone()).unwrap_or_default(),
                name: name.clone(),
                handle: None,
                max_dynamic_shared: None,
                reported: false,
            },
        );
        kernels.push((name, stub));
    }
    let lib = new_handle();
    rt.libraries.libs.insert(
        lib,
        Library {
            module: index,
            kernels,
        },
    );
    put(out, lib as cudaLibrary_t)
}

// Entry points: the parameters are CUDA's C signatures.
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn cudaLibraryLoadData(
    out: *mut cudaLibrary_t,
    code: *const c_void,
    jit_keys: *const c_int,
    jit_values: *const *mut c_void,
    jit_n: c_uint,
    lib_keys: *const c_int,
    lib_values: *const *mut c_void,
    lib_n: c_uint,
) -> cudaError_t {
    const WHAT: &str = "cudaLibraryLoadData";
    api(WHAT, |rt| {
        check_options(jit_n, jit_keys.cast(), jit_values.cast())?;
        check_options(lib_n, lib_keys.cast(), lib_values.cast())?;
        load_library(rt, WHAT, out, code as *const u8)
    })
}

#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn cudaLibraryLoadFromFile(
    out: *mut cudaLibrary_t,
    path: *const c_char,
    jit_keys: *const c_int,
    jit_values: *const *mut c_void,
    jit_n: c_uint,
    lib_keys: *const c_int,
    lib_values: *const *mut c_void,
    lib_n: c_uint,
) -> cudaError_t {
    const WHAT: &str = "cudaLibraryLoadFromFile";
    api(WHAT, |rt| {
        check_options(jit_n, jit_keys.cast(), jit_values.cast())?;
        check_options(lib_n, lib_keys.cast(), lib_values.cast())?;
        if path.is_null() {
            return Err(cudaErrorInvalidValue);
        }
        let path = CStr::from_ptr(path).to_string_lossy().into_owned();
        let mut bytes = std::fs::read(&path).map_err(|e| {
            diag(&format!("{WHAT}: cannot read {path}: {e}"));
            cudaErrorInvalidValue
        })?;
        if bytes.len() < 4 {
            diag(&format!("{WHAT}: {path} is too short to hold code"));
            return Err(cudaErrorInvalidKernelImage);
        }
        // PTX text from a file has no terminating NUL.
        bytes.push(0);
        load_library(rt, WHAT, out, bytes.as_ptr())
    })
}

fn library(rt: &Runtime, lib: cudaLibrary_t) -> Result<&Library, cudaError_t> {
    rt.libraries
        .libs
        .get(&(lib as usize))
        .ok_or(cudaErrorInvalidResourceHandle)
}

/// The library's kernels and module go; launching one of its kernels afterwards is
/// `cudaErrorInvalidDeviceFunction`.
unsafe extern "C" fn cudaLibraryUnload(lib: cudaLibrary_t) -> cudaError_t {
    api("cudaLibraryUnload", |rt| {
        let l = rt
            .libraries
            .libs
            .remove(&(lib as usize))
            .ok_or(cudaErrorInvalidResourceHandle)?;
        for (_, stub) in l.kernels {
            rt.functions.remove(&stub);
            free_handle(stub);
        }
        rt.modules[l.module].state = ModuleState::Empty;
        rt.modules[l.module].ptx = None;
        free_handle(lib as usize);
        Ok(())
    })
}

unsafe extern "C" fn cudaLibraryGetKernel(
    out: *mut cudaKernel_t,
    lib: cudaLibrary_t,
    name: *const c_char,
) -> cudaError_t {
    const WHAT: &str = "cudaLibraryGetKernel";
    api(WHAT, |rt| {
        if name.is_null() {
            return Err(cudaErrorInvalidValue);
        }
        let name = CStr::from_ptr(name).to_string_lossy();
        let l = library(rt, lib)?;
        let Some((_, stub)) = l.kernels.iter().find(|(n, _)| *n == name) else {
            let names: Vec<&str> = l.kernels.iter().map(|(n, _)| n.as_str()).collect();
            diag(&format!(
                "{WHAT}: no kernel `{name}` in the library (it has: {})",
                names.join(", ")
            ));
            return Err(cudaErrorSymbolNotFound);
        };
        put(out, *stub as cudaKernel_t)
    })
}

unsafe extern "C" fn cudaLibraryGetKernelCount(
    out: *mut c_uint,
    lib: cudaLibrary_t,
) -> cudaError_t {
    api("cudaLibraryGetKernelCount", |rt| {
        let n = library(rt, lib)?.kernels.len();
        put(out, n as c_uint)
    })
}

/// Fills at most `n` handles, in the order the PTX defines the kernels.
unsafe extern "C" fn cudaLibraryEnumerateKernels(
    out: *mut cudaKernel_t,
    n: c_uint,
    lib: cudaLibrary_t,
) -> cudaError_t {
    api("cudaLibraryEnumerateKernels", |rt| {
        let l = library(rt, lib)?;
        if out.is_null() {
            return Err(cudaErrorInvalidValue);
        }
        for (i, (_, stub)) in l.kernels.iter().take(n as usize).enumerate() {
            *out.add(i) = *stub as cudaKernel_t;
        }
        Ok(())
    })
}

unsafe extern "C" fn cudaLibraryGetGlobal(
    dptr: *mut *mut c_void,
    bytes: *mut usize,
    lib: cudaLibrary_t,
    name: *const c_char,
) -> cudaError_t {
    const WHAT: &str = "cudaLibraryGetGlobal";
    api(WHAT, |rt| {
        if name.is_null() {
            return Err(cudaErrorInvalidValue);
        }
        let name = CStr::from_ptr(name).to_string_lossy();
        let module = library(rt, lib)?.module;
        let ModuleState::Loaded(m) = rt.modules[module].state else {
            return Err(cudaErrorInvalidResourceHandle);
        };
        let (p, size) = rt.device.symbol(m, &name).map_err(|e| {
            diag(&format!("{WHAT}: {e}"));
            cudaErrorSymbolNotFound
        })?;
        if !dptr.is_null() {
            put(dptr, p.0 as *mut c_void)?;
        }
        if !bytes.is_null() {
            put(bytes, size as usize)?;
        }
        Ok(())
    })
}

/// One device: `cudaFuncSetAttribute` on device 0.
unsafe extern "C" fn cudaKernelSetAttributeForDevice(
    kernel: cudaKernel_t,
    attr: c_int,
    value: c_int,
    device: c_int,
) -> cudaError_t {
    if device != 0 {
        return api("cudaKernelSetAttributeForDevice", |_| {
            Err(cudaErrorInvalidDevice)
        });
    }
    crate::device::cudaFuncSetAttribute(kernel as *const c_void, attr, value)
}

unsafe extern "C" fn cudaFuncGetParamCount(func: *const c_void, count: *mut usize) -> cudaError_t {
    query("cudaFuncGetParamCount", |rt| {
        let k = crate::launch::kernel_of(rt, func as usize)?;
        let n = rt.device.kernel_info(k).params.len();
        put(count, n)
    })
}

/// A parameter's offset and size in the kernel's parameter buffer (the PTX `.param` layout).
unsafe extern "C" fn cudaFuncGetParamInfo(
    func: *const c_void,
    index: usize,
    offset: *mut usize,
    size: *mut usize,
) -> cudaError_t {
    query("cudaFuncGetParamInfo", |rt| {
        let k = crate::launch::kernel_of(rt, func as usize)?;
        let p = rt
            .device
            .kernel_info(k)
            .params
            .get(index)
            .ok_or(cudaErrorInvalidValue)?;
        let (o, s) = (p.offset as usize, p.size as usize);
        put(offset, o)?;
        put(size, s)
    })
}

export!(
    cudaLibraryLoadData,
    cudaLibraryLoadFromFile,
    cudaLibraryUnload,
    cudaLibraryGetKernel,
    cudaLibraryGetKernelCount,
    cudaLibraryEnumerateKernels,
    cudaLibraryGetGlobal,
    cudaKernelSetAttributeForDevice,
    cudaFuncGetParamCount,
    cudaFuncGetParamInfo,
);
