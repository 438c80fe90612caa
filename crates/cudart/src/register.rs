//! Registration entry points, called by nvcc-generated static constructors before `main`:
//! `__cudaRegisterFatBinary` (loads the PTX into the device), `__cudaRegisterFunction`
//! (host stub → kernel name), `__cudaRegisterVar` (host shadow → variable name), and their
//! companions.

use crate::fatbin::{self, EntryKind};
use crate::runtime::{diag, guard, lock, Function, Module, ModuleState, Runtime, Source, Var};
use crate::types::*;
use std::ffi::{c_char, c_int, c_void, CStr};

unsafe fn name_of(p: *const c_char) -> Option<String> {
    (!p.is_null()).then(|| CStr::from_ptr(p).to_string_lossy().into_owned())
}

/// Reads and loads one fatbinary; never fails (a broken module is recorded as `Failed`).
pub(crate) unsafe fn load(rt: &mut crate::runtime::Runtime, fat: *const c_void) -> Module {
    let failed = |code, message: String| Module {
        state: ModuleState::Failed { code, message },
        ptx: None,
        images: Default::default(),
    };
    if fat.is_null() {
        return failed(cudaErrorInvalidKernelImage, "null fatbinary".into());
    }
    let (wrapper, bytes) = match fatbin::read_wrapper(fat as *const u8) {
        Ok(x) => x,
        Err(e) => {
            let m = format!("cannot read the program's fatbinary: {e}");
            diag(&m);
            return failed(cudaErrorInvalidKernelImage, m);
        }
    };
    let entries = match fatbin::parse_containers(bytes) {
        Ok(e) => e,
        Err(e) => {
            let m = format!("cannot read the program's fatbinary: {e}");
            diag(&m);
            return failed(cudaErrorInvalidKernelImage, m);
        }
    };
    if let Some(w) = wrapper.filter(|w| w.version == 2) {
        // The device-link stub: empty in a whole-program build; with -rdc it carries the linked
        // cubin plus the list of the translation units' fatbinaries, whose PTX is linked here.
        if fatbin::has_prelinked(&w) {
            return crate::rdc::load(rt, &w, &entries);
        }
        if entries.is_empty() {
            return Module {
                state: ModuleState::Empty,
                ptx: None,
                images: Default::default(),
            };
        }
    }
    let images = match fatbin::images(&entries) {
        Ok(i) => i,
        Err(e) => {
            let m = format!("cannot read the program's fatbinary: {e}");
            diag(&m);
            return failed(cudaErrorInvalidKernelImage, m);
        }
    };
    let Some((sm, ptx)) = images.ptx.clone() else {
        if entries.is_empty() {
            return Module {
                state: ModuleState::Empty,
                ptx: None,
                images,
            };
        }
        let sms: Vec<String> = entries
            .iter()
            .filter(|e| e.kind == EntryKind::Elf)
            .map(|e| format!("sm_{}", e.sm))
            .collect();
        let m = format!(
            "the program embeds no PTX (only {}); warpsim runs PTX: rebuild with -arch=sm_75 or add -gencode arch=compute_75,code=compute_75",
            if sms.is_empty() { "unknown images".into() } else { sms.join(", ") }
        );
        diag(&m);
        return Module {
            state: ModuleState::Failed {
                code: cudaErrorNoKernelImageForDevice,
                message: m,
            },
            ptx: None,
            images,
        };
    };
    match rt.device.load_ptx(&ptx) {
        Ok(h) => Module {
            state: ModuleState::Loaded(h),
            ptx: Some(Source::One(ptx)),
            images,
        },
        Err(e) => {
            let mut m = format!("cannot load the program's compute_{sm} PTX; its kernels will fail with cudaErrorInvalidPtx:\n{e}");
            if tensor_core(&m) {
                m.push_str("\nwarpsim executes wmma.{load,store,mma}, mma.sync (m16n8k8/k16/k32) and ldmatrix in functional mode, but not stmatrix, movmatrix or other tensor-core forms");
            }
            diag(&m);
            Module {
                state: ModuleState::Failed {
                    code: cudaErrorInvalidPtx,
                    message: m,
                },
                ptx: Some(Source::One(ptx)),
                images,
            }
        }
    }
}

/// Where `WARPSIM_DUMP_PTX` puts module `index`'s PTX: `DIR/module<N>.compute_<SM>.ptx`.
pub fn ptx_path(rt: &Runtime, index: usize, module: &Module) -> Option<std::path::PathBuf> {
    let dir = rt.config.dump_ptx.as_ref()?;
    let (sm, _) = module.images.ptx.as_ref()?;
    Some(dir.join(format!("module{index}.compute_{sm}.ptx")))
}

/// Writes module `index`'s PTX to the `WARPSIM_DUMP_PTX` folder (once, at registration).
fn dump_ptx(rt: &Runtime, index: usize, module: &Module) {
    let (Some(path), Some((_, ptx))) = (ptx_path(rt, index, module), module.images.ptx.as_ref())
    else {
        return;
    };
    if let Err(e) = std::fs::create_dir_all(path.parent().expect("a file in a folder"))
        .and_then(|_| std::fs::write(&path, ptx))
    {
        diag(&format!(
            "WARPSIM_DUMP_PTX: cannot write {}: {e}",
            path.display()
        ));
    }
}

/// Where the PTX line numbers of module `index`'s messages can be looked up.
pub fn ptx_hint(rt: &Runtime, index: usize, module: &Module) -> String {
    match ptx_path(rt, index, module) {
        Some(p) => format!("(PTX line numbers refer to {})", p.display()),
        None => "(PTX line numbers refer to the program's embedded PTX: `warpsim exec --dump-ptx DIR` writes it)".into(),
    }
}

/// Whether a load error names a tensor-core instruction warpsim does not execute (a form
/// outside those `lower::op_tensor` lists, or stmatrix/movmatrix).
fn tensor_core(message: &str) -> bool {
    // `line N: unsupported wmma.…` (an opcode or form warpsim does not execute) or
    // `line N: \`mma.…\` has no form …` (a shape or type combination it rejects).
    message.lines().any(|l| {
        ["unsupported ", ": `"].iter().any(|lead| {
            let what = l.split(lead).nth(1).unwrap_or("");
            ["wmma.", "mma.", "ldmatrix.", "stmatrix.", "movmatrix."]
                .iter()
                .any(|p| what.starts_with(p))
        })
    })
}

unsafe extern "C" fn __cudaRegisterFatBinary(fat_cubin: *mut c_void) -> *mut *mut c_void {
    guard("__cudaRegisterFatBinary", std::ptr::null_mut(), || {
        let mut rt = lock();
        let module = load(&mut rt, fat_cubin);
        let index = rt.modules.len();
        dump_ptx(&rt, index, &module);
        if let ModuleState::Failed {
            code: cudaErrorInvalidPtx,
            ..
        } = module.state
        {
            diag(&ptx_hint(&rt, index, &module));
        }
        rt.modules.push(module);
        // The handle is a fresh pointer-sized cell the program keeps and passes back.
        let handle = Box::into_raw(Box::new(std::ptr::null_mut::<c_void>()));
        rt.handles.insert(handle as usize, index);
        handle
    })
}

unsafe extern "C" fn __cudaRegisterFatBinaryEnd(_handle: *mut *mut c_void) {}

unsafe extern "C" fn __cudaUnregisterFatBinary(handle: *mut *mut c_void) {
    // Called from atexit handlers: forget the handle, keep the module (its kernels' host
    // stubs may still be called by other exit handlers).
    guard("__cudaUnregisterFatBinary", (), || {
        lock().handles.remove(&(handle as usize));
    })
}

unsafe extern "C" fn __cudaRegisterFunction(
    handle: *mut *mut c_void,
    host_fun: *const c_char,
    _device_fun: *mut c_char,
    device_name: *const c_char,
    _thread_limit: c_int,
    _tid: *mut c_void,
    _bid: *mut c_void,
    _bdim: *mut dim3,
    _gdim: *mut dim3,
    _wsize: *mut c_int,
) {
    guard("__cudaRegisterFunction", (), || {
        let mut rt = lock();
        let (Some(&module), Some(name)) =
            (rt.handles.get(&(handle as usize)), name_of(device_name))
        else {
            diag("__cudaRegisterFunction: unknown module handle or null name; kernel ignored");
            return;
        };
        let c_name = std::ffi::CString::new(name.clone()).unwrap_or_default();
        let f = Function {
            module,
            name,
            c_name,
            handle: None,
            max_dynamic_shared: None,
            reported: false,
        };
        rt.functions.insert(host_fun as usize, f);
    })
}

unsafe extern "C" fn __cudaRegisterVar(
    handle: *mut *mut c_void,
    host_var: *mut c_char,
    _device_address: *mut c_char,
    device_name: *const c_char,
    _ext: c_int,
    _size: usize,
    _constant: c_int,
    _global: c_int,
) {
    guard("__cudaRegisterVar", (), || {
        let mut rt = lock();
        let (Some(&module), Some(name)) =
            (rt.handles.get(&(handle as usize)), name_of(device_name))
        else {
            diag("__cudaRegisterVar: unknown module handle or null name; variable ignored");
            return;
        };
        rt.vars.insert(host_var as usize, Var { module, name });
    })
}

/// A `__managed__` variable: its module's variables move to host-visible memory and the
/// program's shadow pointer (`*host_var_ptr`, through which host code reads the variable) is
/// pointed at the variable's bytes.
unsafe extern "C" fn __cudaRegisterManagedVar(
    handle: *mut *mut c_void,
    host_var_ptr: *mut *mut c_void,
    _device_address: *mut c_char,
    device_name: *const c_char,
    _ext: c_int,
    _size: usize,
    _constant: c_int,
    _global: c_int,
) {
    guard("__cudaRegisterManagedVar", (), || {
        let mut rt = lock();
        let (Some(&module), Some(name)) =
            (rt.handles.get(&(handle as usize)), name_of(device_name))
        else {
            diag("__cudaRegisterManagedVar: unknown module handle or null name; variable ignored");
            return;
        };
        if host_var_ptr.is_null() {
            diag(&format!(
                "__cudaRegisterManagedVar: null shadow pointer for `{name}`; variable ignored"
            ));
            return;
        }
        let v = crate::managed::ManagedVar {
            module,
            name: name.clone(),
            host_ptr: host_var_ptr as usize,
        };
        match crate::managed::bind(&mut rt, &v) {
            Ok(()) => {
                rt.vars.insert(host_var_ptr as usize, Var { module, name });
                rt.managed_vars.push(v);
            }
            // A module that failed to load already said so; its kernels cannot run anyway.
            Err(e) => diag(&format!("__managed__ variable `{name}`: {e}")),
        }
    })
}

/// `__cudaInitModule`: modules are loaded at registration; nothing left to do.
unsafe extern "C" fn __cudaInitModule(_handle: *mut *mut c_void) -> c_char {
    1
}

unsafe extern "C" fn __cudaRegisterTexture(
    _handle: *mut *mut c_void,
    _host_var: *const c_void,
    _device_address: *const *const c_void,
    _device_name: *const c_char,
    _dim: c_int,
    _norm: c_int,
    _ext: c_int,
) {
    guard("__cudaRegisterTexture", (), || {
        lock().unsupported("texture references");
    })
}

unsafe extern "C" fn __cudaRegisterSurface(
    _handle: *mut *mut c_void,
    _host_var: *const c_void,
    _device_address: *const *const c_void,
    _device_name: *const c_char,
    _dim: c_int,
    _ext: c_int,
) {
    guard("__cudaRegisterSurface", (), || {
        lock().unsupported("surface references");
    })
}

export!(
    __cudaRegisterFatBinary,
    __cudaRegisterFatBinaryEnd,
    __cudaUnregisterFatBinary,
    __cudaRegisterFunction,
    __cudaRegisterVar,
    __cudaRegisterManagedVar,
    __cudaInitModule,
    __cudaRegisterTexture,
    __cudaRegisterSurface,
);

#[cfg(test)]
mod tests {
    use super::tensor_core;

    #[test]
    fn tensor_core_instructions_are_recognised() {
        assert!(tensor_core("cannot load PTX:\n  line 33: unsupported wmma.load.a.sync.aligned.row.m16n16k16.global.f16"));
        assert!(tensor_core(
            "line 9: unsupported mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
        ));
        assert!(tensor_core(
            "line 9: unsupported ldmatrix.sync.aligned.m8n8.x4.shared.b16"
        ));
        assert!(tensor_core(
            "line 9: `wmma.load.a.sync.aligned.row.m8n8k32.s4` needs one of the shapes .m16n16k16"
        ));
        assert!(!tensor_core("line 9: unsupported tex.1d.v4.f32.s32"));
        assert!(!tensor_core(
            "line 9: `cp.async.ca.shared.global` cannot copy 2 bytes"
        ));
        assert!(!tensor_core(
            "line 9: unsupported cp.async.bulk.shared::cluster.global"
        ));
    }
}
