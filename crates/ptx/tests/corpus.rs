//! Every PTX file of the corpus (nvcc 13.5 output, see corpus/regen.sh) parses, plus
//! structural checks on a few of them.

use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/ptx")
}

#[test]
fn every_corpus_file_parses() {
    let mut files: Vec<_> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 75, "corpus has only {} files", files.len());
    let mut failures = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        if let Err(e) = ptx::parse(&src) {
            failures.push(format!("{}: {e}", f.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

use ptx::ast::*;

fn load(name: &str) -> Module {
    let src = std::fs::read_to_string(corpus_dir().join(name)).unwrap();
    ptx::parse(&src).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn functions(m: &Module) -> Vec<&Function> {
    m.items
        .iter()
        .filter_map(|i| {
            if let Item::Function(f) = i {
                Some(f)
            } else {
                None
            }
        })
        .collect()
}

fn function<'m>(m: &'m Module, name: &str) -> &'m Function {
    functions(m)
        .into_iter()
        .find(|f| f.name == name && f.body.is_some())
        .unwrap_or_else(|| panic!("no {name}"))
}

/// All instructions of a block, nested blocks included, in order.
fn instructions(b: &Block) -> Vec<&Instruction> {
    let mut out = Vec::new();
    fn walk<'b>(b: &'b Block, out: &mut Vec<&'b Instruction>) {
        for s in &b.statements {
            match s {
                Statement::Instruction(i) => out.push(i),
                Statement::Block(inner) => walk(inner, out),
                _ => {}
            }
        }
    }
    walk(b, &mut out);
    out
}

fn all_statements(b: &Block) -> Vec<&Statement> {
    let mut out = Vec::new();
    fn walk<'b>(b: &'b Block, out: &mut Vec<&'b Statement>) {
        for s in &b.statements {
            out.push(s);
            if let Statement::Block(inner) = s {
                walk(inner, out);
            }
        }
    }
    walk(b, &mut out);
    out
}

fn reg(n: &str) -> Operand {
    Operand::Reg(RegRef {
        name: n.into(),
        component: None,
    })
}

#[test]
fn reduce_shared_structure() {
    let m = load("reduce_shared.O3.ptx");
    assert_eq!(
        (m.version, m.target.clone(), m.address_size),
        ((9, 5), vec!["sm_75".to_string()], 64)
    );
    let names: Vec<_> = functions(&m).iter().map(|f| f.name.clone()).collect();
    assert_eq!(
        names,
        vec!["_Z10reduce_sumPKfPfi", "_Z13reduce_max_2dPKiPiii"]
    );
    let k = function(&m, "_Z10reduce_sumPKfPfi");
    assert_eq!(
        (k.kind, k.linkage, k.params.len()),
        (FunctionKind::Entry, Linkage::Visible, 3)
    );
    assert_eq!(k.params[2].ty, ScalarType::U32);
    assert_eq!(k.perf.maxntid, Some([256, 1, 1]));
    let body = k.body.as_ref().unwrap();
    assert!(body.statements.iter().any(|s| matches!(s, Statement::Var(v)
        if v.space == StateSpace::Shared && v.dims == vec![Some(1024)] && v.ty == ScalarType::B8)));
    let ins = instructions(body);
    let bar = ins.iter().find(|i| i.opcode == "bar").expect("bar.sync");
    assert_eq!(bar.modifiers, vec!["sync"]);
    assert_eq!(bar.operands, vec![Operand::Imm(Immediate::Int(0))]);
    assert!(ins.iter().any(|i| i.opcode == "mov"
        && i.operands.get(1)
            == Some(&Operand::Reg(RegRef {
                name: "%tid".into(),
                component: Some('x')
            }))));
    assert!(ins
        .iter()
        .any(|i| (i.opcode == "atom" || i.opcode == "red")
            && i.modifiers.contains(&"f32".to_string())));
    assert_eq!(ins.last().unwrap().opcode, "ret");
}

#[test]
fn warp_ops_structure() {
    let m = load("warp_ops.O3.ptx");
    let k = function(&m, "_Z8warp_opsPKiPiPj");
    assert_eq!(k.params.len(), 3);
    let ins = instructions(k.body.as_ref().unwrap());
    let shfl = ins.iter().find(|i| i.opcode == "shfl").unwrap();
    assert_eq!(shfl.modifiers, vec!["sync", "down", "b32"]);
    assert!(
        matches!(&shfl.operands[0], Operand::Pair(a, b) if a.name.starts_with("%r") && b.name.starts_with("%p"))
    );
    assert_eq!(shfl.operands.len(), 5);
    assert!(ins
        .iter()
        .any(|i| i.opcode == "vote" && i.modifiers == vec!["sync", "ballot", "b32"]));
    assert!(ins.iter().any(|i| i.opcode == "activemask"));
    assert!(ins.iter().any(|i| i.opcode == "match"
        && i.modifiers.contains(&"all".to_string())
        && matches!(i.operands[0], Operand::Pair(..))));
    assert!(ins.iter().any(|i| i.guard.is_some()));
}

#[test]
fn printf_structure() {
    let m = load("printf_kernel.O3.ptx");
    let vprintf = functions(&m)
        .into_iter()
        .find(|f| f.name == "vprintf")
        .unwrap();
    assert_eq!(
        (vprintf.linkage, vprintf.body.is_none()),
        (Linkage::Extern, true)
    );
    assert_eq!((vprintf.returns.len(), vprintf.params.len()), (1, 2));
    let s = m
        .items
        .iter()
        .find_map(|i| match i {
            Item::Var(v) if v.name == "$str" => Some(v),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        (s.space, s.align, s.dims.clone()),
        (StateSpace::Global, Some(1), vec![Some(28)])
    );
    let Some(Initializer::List(bytes)) = &s.init else {
        panic!()
    };
    assert_eq!(bytes[0], Initializer::Value(InitValue::Int(b't' as i64)));
    assert_eq!(bytes.len(), 27);
    let k = function(&m, "_Z5helloifd");
    let ins = instructions(k.body.as_ref().unwrap());
    let call = ins.iter().find(|i| i.opcode == "call").unwrap();
    assert_eq!(call.modifiers, vec!["uni"]);
    let sym = |n: &str| Operand::Symbol {
        name: n.into(),
        offset: 0,
    };
    assert_eq!(
        call.operands,
        vec![
            Operand::List(vec![sym("retval0")]),
            sym("vprintf"),
            Operand::List(vec![sym("param0"), sym("param1")])
        ]
    );
    // The call sits in a `{ // callseq }` block that declares its own param variables.
    let blocks: Vec<_> = k
        .body
        .as_ref()
        .unwrap()
        .statements
        .iter()
        .filter(|s| matches!(s, Statement::Block(_)))
        .collect();
    assert_eq!(blocks.len(), 2);
}

#[test]
fn function_pointer_structure() {
    let m = load("func_pointers.O3.ptx");
    let ops = m
        .items
        .iter()
        .find_map(|i| match i {
            Item::Var(v) if v.name == "ops" => Some(v),
            _ => None,
        })
        .unwrap();
    let sym = |n: &str| {
        Initializer::Value(InitValue::Symbol {
            name: n.into(),
            offset: 0,
            generic: false,
        })
    };
    assert_eq!(
        ops.init,
        Some(Initializer::List(vec![
            sym("_Z5opAddff"),
            sym("_Z5opMulff"),
            sym("_Z5opMinff")
        ]))
    );
    assert_eq!(ops.dims, vec![Some(3)]);
    let k = functions(&m)
        .into_iter()
        .find(|f| f.kind == FunctionKind::Entry)
        .unwrap();
    let body = k.body.as_ref().unwrap();
    let protos: Vec<_> = all_statements(body)
        .into_iter()
        .filter_map(|s| {
            if let Statement::CallPrototype(p) = s {
                Some(p)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(protos.len(), 2);
    assert_eq!((protos[0].returns.len(), protos[0].params.len()), (1, 2));
    assert_eq!((protos[1].returns.len(), protos[1].params.len()), (0, 2));
    let indirect: Vec<_> = instructions(body)
        .into_iter()
        .filter(|i| i.opcode == "call")
        .collect();
    assert_eq!(indirect.len(), 2);
    let ops0 = &indirect[0].operands;
    assert!(matches!(&ops0[0], Operand::List(l) if l.len() == 1));
    assert!(matches!(&ops0[1], Operand::Reg(r) if r.name.starts_with("%rd")));
    assert!(matches!(&ops0[2], Operand::List(l) if l.len() == 2));
    assert_eq!(
        ops0[3],
        Operand::Symbol {
            name: protos[0].name.clone(),
            offset: 0
        }
    );
    assert_eq!(indirect[1].operands.len(), 3);
}

#[test]
fn struct_params_and_returns() {
    let m = load("structs.O3.ptx");
    let cross = function(&m, "_Z5cross4Vec3S_");
    assert_eq!(cross.kind, FunctionKind::Func);
    let r = &cross.returns[0];
    assert_eq!(
        (r.name.as_str(), r.ty, r.align, r.array),
        ("func_retval0", ScalarType::B8, Some(4), Some(12))
    );
    assert_eq!(cross.params.len(), 2);
    assert_eq!(
        (cross.params[0].align, cross.params[0].array),
        (Some(4), Some(12))
    );
    let mix = function(&m, "_Z3mix4Pair3Big");
    assert_eq!(
        (mix.returns[0].align, mix.returns[0].array),
        (Some(16), Some(16))
    );
    let ins = instructions(mix.body.as_ref().unwrap());
    assert!(ins.iter().any(|i| i.opcode == "st"
        && i.operands[0]
            == Operand::Address(Address {
                base: AddressBase::Symbol("func_retval0".into()),
                offset: 8
            })));
}

#[test]
fn debug_variants_have_files_locs_and_debug_target() {
    for name in ["atomics.G.ptx", "warp_ops.G.ptx", "double_math.G.ptx"] {
        let m = load(name);
        assert!(m.target.contains(&"debug".to_string()), "{name}");
        assert!(!m.files.is_empty(), "{name}");
        let locs = functions(&m)
            .iter()
            .filter_map(|f| f.body.as_ref())
            .flat_map(all_statements)
            .filter(|s| matches!(s, Statement::Loc(l) if l.file >= 1 && l.line >= 1))
            .count();
        assert!(locs > 5, "{name}: {locs} .loc lines");
    }
    let m = load("atomics.lineinfo.ptx");
    assert_eq!(m.target, vec!["sm_75".to_string()]);
    assert!(m.files.iter().any(|(_, p)| p.ends_with("atomics.cu")));
}

#[test]
fn misc_variants() {
    let m = load("dyn_shared.O3.ptx");
    let dynv = m
        .items
        .iter()
        .find_map(|i| match i {
            Item::Var(v) if v.name == "dyn" => Some(v),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        (dynv.linkage, dynv.space, dynv.dims.clone(), dynv.align),
        (Linkage::Extern, StateSpace::Shared, vec![None], Some(16))
    );

    let m = load("sm80_reduce.O3.ptx");
    assert_eq!(m.target, vec!["sm_80".to_string()]);
    let k = function(&m, "_Z11sm80_reducePKjPjPi");
    let ins = instructions(k.body.as_ref().unwrap());
    let redux = ins
        .iter()
        .find(|i| i.opcode == "redux" && i.modifiers == vec!["sync", "add", "s32"])
        .unwrap();
    assert_eq!(redux.operands.len(), 3);
    assert_eq!(redux.operands[0], reg("%r2"));

    let m = load("constant_mem.O3.ptx");
    let table = m
        .items
        .iter()
        .find_map(|i| match i {
            Item::Var(v) if v.name == "table" => Some(v),
            _ => None,
        })
        .unwrap();
    assert_eq!(table.space, StateSpace::Const);
    let dscale = m
        .items
        .iter()
        .find_map(|i| match i {
            Item::Var(v) if v.name == "dscale" => Some(v),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        dscale.init,
        Some(Initializer::Value(InitValue::F64(1.5f64.to_bits())))
    );
}
