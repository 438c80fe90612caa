//! Every PTX file of the parser's corpus (real nvcc 13.5 output at -O3/-O0/-G/-lineinfo/
//! --use_fast_math, see `crates/ptx/tests/corpus/regen.sh`) and of the built-in suite lowers
//! without error, and the result is self-consistent. Files that are not there yet are skipped.

use std::path::{Path, PathBuf};

use warpsim_core::ir::{AddrRel, Callee, Module, Op, Opnd, Reloc, NO_PC};

/// The parser's corpus, plus the committed PTX of the built-in suite (`crates/suite/kernels`).
fn corpus_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    collect_ptx(&root.join("ptx/tests/corpus/ptx"), &mut files);
    collect_ptx(&root.join("suite/kernels"), &mut files);
    files.sort();
    files
}

fn collect_ptx(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.map(|e| e.unwrap().path()) {
        if path.is_dir() {
            collect_ptx(&path, out);
        } else if path.extension().is_some_and(|x| x == "ptx") {
            out.push(path);
        }
    }
}

#[test]
fn every_corpus_file_lowers() {
    let files = corpus_files();
    let mut failures = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        match warpsim_core::load_ptx(&src) {
            Ok(m) => check_invariants(&m, f),
            Err(e) => failures.push(format!("{}:\n{e}", f.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} files failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// Structural invariants every lowered module must satisfy.
fn check_invariants(m: &Module, file: &Path) {
    let name = file.file_name().unwrap().to_string_lossy();
    for f in &m.functions {
        let len = f.insts.len() as u32;
        assert_eq!(f.reg_names.len() as u32, f.num_regs, "{name}: {}", f.name);
        assert_eq!(f.reg_bits.len() as u32, f.num_regs, "{name}: {}", f.name);
        assert!(f.frame_align >= 8 || !f.has_body, "{name}: {}", f.name);
        assert_eq!(
            f.frame_bytes % f.frame_align.max(1),
            0,
            "{name}: {}",
            f.name
        );
        for (pc, i) in f.insts.iter().enumerate() {
            let ctx = || format!("{name}: {} pc {pc} line {}: {i:?}", f.name, i.line);
            match i.op {
                Op::Bra => {
                    assert!(i.target <= len, "{}", ctx());
                    assert!(i.reconv != NO_PC && i.reconv <= len, "{}", ctx());
                }
                Op::BrxIdx => assert!(i.reconv != NO_PC, "{}", ctx()),
                Op::Call => assert!((i.target as usize) < f.call_sites.len(), "{}", ctx()),
                _ => assert_eq!(i.reconv, NO_PC, "{}", ctx()),
            }
            for o in i.dst.iter().chain(&i.src) {
                match *o {
                    Opnd::Reg(r) => assert!(r < f.num_regs, "{}", ctx()),
                    Opnd::Pred { id, .. } => assert!(u32::from(id) < f.num_preds, "{}", ctx()),
                    Opnd::Addr { base: Some(r), .. } => assert!(r < f.num_regs, "{}", ctx()),
                    _ => {}
                }
            }
            if let Some(p) = i.guard.pred {
                assert!(u32::from(p) < f.num_preds, "{}", ctx());
            }
            assert!(i.line > 0, "{}", ctx());
        }
    }
}

/// Lowers one file of the parser's corpus, or `None` when the corpus is not there.
fn corpus_module(name: &str) -> Option<Module> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../ptx/tests/corpus/ptx")
        .join(name);
    let src = std::fs::read_to_string(path).ok()?;
    Some(warpsim_core::load_ptx(&src).unwrap_or_else(|e| panic!("{name}: {e}")))
}

fn ops(m: &Module) -> impl Iterator<Item = &warpsim_core::ir::Inst> {
    m.functions.iter().flat_map(|f| f.insts.iter())
}

#[test]
fn printf_calls_become_vprintf_at_every_optimisation_level() {
    for level in ["O3", "O0", "G", "lineinfo", "fastmath"] {
        let Some(m) = corpus_module(&format!("printf_kernel.{level}.ptx")) else {
            return;
        };
        let n = ops(&m).filter(|i| i.op == Op::Vprintf).count();
        assert!(n > 0, "printf_kernel.{level}: no Vprintf");
        for i in ops(&m).filter(|i| i.op == Op::Vprintf) {
            assert!(
                matches!(
                    i.src[0],
                    Opnd::Addr {
                        base: None,
                        rel: AddrRel::Frame,
                        ..
                    }
                ),
                "{i:?}"
            );
            assert!(
                matches!(
                    i.src[1],
                    Opnd::Addr {
                        base: None,
                        rel: AddrRel::Frame,
                        ..
                    }
                ),
                "{i:?}"
            );
        }
    }
}

#[test]
fn function_pointer_tables_are_relocated() {
    let Some(m) = corpus_module("func_pointers.O3.ptx") else {
        return;
    };
    assert!(!m.relocs.is_empty());
    for r in &m.relocs {
        if let Reloc::Func { func, .. } = r {
            assert!(m.functions[*func as usize].has_body, "{r:?}");
        }
    }
    let indirect = m
        .functions
        .iter()
        .flat_map(|f| &f.call_sites)
        .filter(|c| matches!(c.callee, Callee::Indirect(_)));
    assert!(indirect.count() > 0);
}

#[test]
fn recursion_calls_itself() {
    let Some(m) = corpus_module("recursion.O3.ptx") else {
        return;
    };
    let self_call = m.functions.iter().enumerate().any(|(id, f)| {
        f.call_sites
            .iter()
            .any(|c| c.callee == Callee::Direct(id as warpsim_core::ir::FuncId))
    });
    assert!(self_call);
}

#[test]
fn dynamic_shared_memory() {
    let Some(m) = corpus_module("dyn_shared.O3.ptx") else {
        return;
    };
    let k = m.kernels().next().unwrap().1;
    assert_eq!(k.dyn_shared_align, 16);
    assert!(k.insts.iter().any(|i| i.src[0]
        == Opnd::SymAddr {
            rel: AddrRel::DynShared,
            offset: 0
        }));
}
