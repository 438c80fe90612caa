//! Programs built with relocatable device code (`nvcc -rdc=true`, or `nvcc -dc` then
//! `nvcc -dlink`): their translation units' PTX, linked here as the device linker linked
//! their cubins.
//!
//! What nvcc 13.5 generates (`crates/cudart/README.md`, "Relocatable device code"): each unit's
//! constructor hands its own fatbinary (relocatable cubin and, unless built for SASS only,
//! PTX) to `__cudaRegisterLinkedBinary_<module id>`, a function of the *host* object the
//! device link wrote (`crt/link.stub`). When the last unit has called in, that object calls
//! `__cudaRegisterFatBinary` with a version-2 wrapper: `data` is the linked fatbinary (only
//! the linked cubin, or nothing for a PTX-only build) and the third field a NULL-terminated
//! list of the units' containers. Then every unit registers its kernels and variables on
//! the handle returned, so one module holds the whole program.

use crate::fatbin::{self, Entry, EntryKind, FatbinError, Wrapper, PREFERRED_MAX_SM};
use crate::runtime::{diag, Module, ModuleState, Runtime, Source};
use crate::types::*;
use std::collections::BTreeSet;

/// Loads the program of a device-link stub whose wrapper lists the units' fatbinaries;
/// `linked` are the entries of the stub's own container (the linked cubin). Never fails: a
/// program that cannot be loaded is a `Failed` module whose launches return its code.
///
/// # Safety
/// `w` must be a version-2 wrapper as nvcc's device link generates.
pub(crate) unsafe fn load(rt: &mut Runtime, w: &Wrapper, linked: &[Entry]) -> Module {
    let units = match read_units(w) {
        Ok(u) => u,
        Err((code, m)) => return failed(code, m),
    };
    let units: Vec<Vec<Entry>> = units.into_iter().filter(|u| !device_runtime(u)).collect();
    let (sm, sources) = match choose_ptx(&units) {
        Ok(x) => x,
        Err(m) => return failed(cudaErrorNoKernelImageForDevice, m),
    };
    let n = sources.len();
    let named: Vec<(String, String)> = sources
        .into_iter()
        .enumerate()
        .map(|(k, ptx)| (unit_name(k + 1, n, &ptx), ptx))
        .collect();
    // Register counts come from the linked cubin: the relocatable ones lack the callees'.
    let mut images = fatbin::images(linked).unwrap_or_default();
    let joined = warpsim_core::link::joined(
        &named
            .iter()
            .map(|(name, ptx)| warpsim_core::link::Unit { name, ptx })
            .collect::<Vec<_>>(),
    );
    images.ptx = Some((sm, joined));
    images.ptx_targets = vec![sm];
    let source = Source::Linked(named);
    match source.load(&mut rt.device) {
        Ok(h) => Module {
            state: ModuleState::Loaded(h),
            ptx: Some(source),
            images,
        },
        Err(e) => {
            let units = if n == 1 {
                "its translation unit"
            } else {
                "its translation units"
            };
            let m = format!(
                "cannot link and load the compute_{sm} PTX of {units} (relocatable device code, {n} in all); the program's kernels will fail with cudaErrorInvalidPtx:\n{e}"
            );
            diag(&m);
            Module {
                state: ModuleState::Failed {
                    code: cudaErrorInvalidPtx,
                    message: m,
                },
                ptx: Some(source),
                images,
            }
        }
    }
}

fn failed(code: cudaError_t, message: String) -> Module {
    diag(&message);
    Module {
        state: ModuleState::Failed { code, message },
        ptx: None,
        images: Default::default(),
    }
}

/// Every unit's fatbinary entries, in the order the units registered.
unsafe fn read_units(w: &Wrapper) -> Result<Vec<Vec<Entry>>, (cudaError_t, String)> {
    let unreadable = |k: usize, e: FatbinError| {
        (
            cudaErrorInvalidKernelImage,
            format!(
                "cannot read the fatbinary of translation unit {k} (relocatable device code): {e}"
            ),
        )
    };
    let list = fatbin::prelinked(w).map_err(|e| unreadable(0, e))?;
    list.into_iter()
        .enumerate()
        .map(|(k, p)| {
            let (_, bytes) = fatbin::read_wrapper(p).map_err(|e| unreadable(k + 1, e))?;
            fatbin::parse_containers(bytes).map_err(|e| unreadable(k + 1, e))
        })
        .collect()
}

/// Whether a unit is NVIDIA's device runtime (`libcudadevrt`'s `cuda_device_runtime.o`, the
/// device side of dynamic parallelism). nvcc's device link lists it with the program's units
/// when it leaves linking to the driver (a PTX-only build); it carries PTX for one recent
/// target only, and warpsim does not run dynamic parallelism (calls into it are reported
/// unsupported when the program is loaded), so it is left out. Its names carry its source
/// file's module id, `…_cuda_device_runtime_cu_…`.
fn device_runtime(unit: &[Entry]) -> bool {
    const MARK: &[u8] = b"_cuda_device_runtime_cu_";
    unit.iter()
        .any(|e| e.kind == EntryKind::Ptx && e.data.windows(MARK.len()).any(|w| w == MARK))
}

/// The PTX target every unit has (the highest ≤ [`PREFERRED_MAX_SM`], else the lowest), and
/// each unit's PTX for it.
fn choose_ptx(units: &[Vec<Entry>]) -> Result<(u32, Vec<String>), String> {
    let targets = |u: &[Entry]| -> BTreeSet<u32> {
        u.iter()
            .filter(|e| e.kind == EntryKind::Ptx)
            .map(|e| e.sm)
            .collect()
    };
    let n = units.len();
    for (k, u) in units.iter().enumerate() {
        if targets(u).is_empty() {
            let sms: Vec<String> = u
                .iter()
                .filter(|e| e.kind == EntryKind::Elf)
                .map(|e| format!("sm_{}", e.sm))
                .collect();
            return Err(format!(
                "translation unit {} of {n} of this relocatable-device-code program embeds no PTX (only {}); warpsim links and runs PTX: rebuild with -arch=sm_75 or add -gencode arch=compute_75,code=compute_75",
                k + 1,
                if sms.is_empty() { "unknown images".into() } else { sms.join(", ") }
            ));
        }
    }
    let common = units
        .iter()
        .map(|u| targets(u))
        .reduce(|a, b| a.intersection(&b).copied().collect())
        .unwrap_or_default();
    let sm = common
        .iter()
        .copied()
        .filter(|&sm| sm <= PREFERRED_MAX_SM)
        .max()
        .or_else(|| common.first().copied())
        .ok_or_else(|| {
            let each: Vec<String> = units
                .iter()
                .enumerate()
                .map(|(k, u)| {
                    let t: Vec<String> = targets(u).iter().map(|s| format!("compute_{s}")).collect();
                    format!("unit {}: {}", k + 1, t.join(", "))
                })
                .collect();
            format!(
                "the translation units of this relocatable-device-code program have no PTX target in common ({}); rebuild them with one -arch",
                each.join("; ")
            )
        })?;
    let sources = units
        .iter()
        .enumerate()
        .map(|(k, u)| {
            let e = u
                .iter()
                .find(|e| e.kind == EntryKind::Ptx && e.sm == sm)
                .expect("every unit has the common target");
            String::from_utf8(e.data.clone()).map_err(|_| {
                format!(
                    "the compute_{sm} PTX of translation unit {} of {n} is not UTF-8 text",
                    k + 1
                )
            })
        })
        .collect::<Result<_, _>>()?;
    Ok((sm, sources))
}

/// How messages name unit `k` of `n`: by its source file when the PTX has line information,
/// else by the first kernel or visible function it defines.
fn unit_name(k: usize, n: usize, ptx: &str) -> String {
    let what = source_file(ptx).or_else(|| first_definition(ptx));
    match what {
        Some(w) => format!("translation unit {k} of {n} ({w})"),
        None => format!("translation unit {k} of {n}"),
    }
}

/// `.file 1 "/path/a.cu"` → `a.cu`.
fn source_file(ptx: &str) -> Option<String> {
    let line = ptx.lines().find(|l| l.trim_start().starts_with(".file"))?;
    let path = line.split('"').nth(1)?;
    Some(path.rsplit('/').next().unwrap_or(path).to_string())
}

/// `.visible .entry _Z2kaPi(` → `defines ka(int*)`: the first kernel, else the first visible
/// function.
fn first_definition(ptx: &str) -> Option<String> {
    let name_after = |keyword: &str| {
        ptx.lines().find_map(|l| {
            let l = l.trim_start();
            if !l.starts_with(".visible") && !l.starts_with(".weak") {
                return None;
            }
            let rest = l.split_once(keyword)?.1.trim_start();
            // A function's return parameters come first: `(.param .b32 r) name(`.
            let rest = match rest.strip_prefix('(') {
                Some(r) => r.split_once(')')?.1.trim_start(),
                None => rest,
            };
            let name = rest.split(['(', ' ', ';']).next()?;
            (!name.is_empty()).then(|| warpsim_core::demangle(name))
        })
    };
    name_after(".entry")
        .or_else(|| name_after(".func"))
        .map(|n| format!("defines {n}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ptx(sm: u32, text: &str) -> Entry {
        Entry {
            kind: EntryKind::Ptx,
            sm,
            flags: 0,
            data: text.as_bytes().to_vec(),
        }
    }

    #[test]
    fn units_are_named_by_file_else_by_their_first_kernel_or_function() {
        let k = ".visible .entry _Z2kaPi(\n.param .u64 p\n)\n{\nret;\n}\n";
        assert_eq!(
            unit_name(1, 2, k),
            "translation unit 1 of 2 (defines ka(int*))"
        );
        let f = ".visible .func  (.param .b32 func_retval0) _Z7add_onei(\n";
        assert_eq!(
            unit_name(2, 2, f),
            "translation unit 2 of 2 (defines add_one(int))"
        );
        let with_file = format!(".file 1 \"/tmp/x/b.cu\"\n{f}");
        assert_eq!(
            unit_name(2, 3, &with_file),
            "translation unit 2 of 3 (b.cu)"
        );
        assert_eq!(unit_name(1, 1, ".version 9.5\n"), "translation unit 1 of 1");
    }

    #[test]
    fn the_ptx_target_is_one_every_unit_has() {
        let units = vec![
            vec![ptx(75, "a75"), ptx(80, "a80"), ptx(100, "a100")],
            vec![ptx(80, "b80"), ptx(75, "b75")],
        ];
        assert_eq!(
            choose_ptx(&units).unwrap(),
            (80, vec!["a80".to_string(), "b80".to_string()])
        );
        let apart = vec![vec![ptx(75, "a")], vec![ptx(80, "b")]];
        let e = choose_ptx(&apart).unwrap_err();
        assert!(
            e.contains("no PTX target in common (unit 1: compute_75; unit 2: compute_80)"),
            "{e}"
        );
        let sass_only = vec![
            vec![ptx(75, "a")],
            vec![Entry {
                kind: EntryKind::Elf,
                sm: 75,
                flags: 0,
                data: vec![],
            }],
        ];
        let e = choose_ptx(&sass_only).unwrap_err();
        assert!(e.contains("translation unit 2 of 2"), "{e}");
        assert!(e.contains("(only sm_75)"), "{e}");
    }
}
