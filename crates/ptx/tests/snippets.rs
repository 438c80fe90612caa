//! Data-driven parser tests: small snippets and the AST pieces they must produce.

use ptx::ast::*;

// ---------- helpers ----------

const HEADER: &str = ".version 9.5\n.target sm_75\n.address_size 64\n";

fn module(src: &str) -> Module {
    ptx::parse(src).unwrap_or_else(|e| panic!("parse failed: {e}\n--- source ---\n{src}"))
}

/// The statements of a kernel whose body is `body`.
fn body(body: &str) -> Vec<Statement> {
    let src = format!("{HEADER}.entry k()\n{{\n{body}\n}}\n");
    let m = module(&src);
    match m.items.into_iter().next() {
        Some(Item::Function(f)) => f.body.expect("kernel has a body").statements,
        other => panic!("expected a function, got {other:?}"),
    }
}

fn one_instr(src: &str) -> Instruction {
    let mut st = body(src);
    assert_eq!(st.len(), 1, "expected one statement from {src:?}: {st:?}");
    match st.remove(0) {
        Statement::Instruction(i) => i,
        other => panic!("expected an instruction from {src:?}, got {other:?}"),
    }
}

fn items(src: &str) -> Vec<Item> {
    module(&format!("{HEADER}{src}")).items
}

fn only_function(src: &str) -> Function {
    let mut it = items(src);
    assert_eq!(it.len(), 1, "{it:?}");
    match it.remove(0) {
        Item::Function(f) => f,
        other => panic!("expected a function, got {other:?}"),
    }
}

fn only_var(src: &str) -> VarDecl {
    let mut it = items(src);
    assert_eq!(it.len(), 1, "{it:?}");
    match it.remove(0) {
        Item::Var(v) => v,
        other => panic!("expected a variable, got {other:?}"),
    }
}

fn rr(name: &str) -> RegRef {
    RegRef {
        name: name.into(),
        component: None,
    }
}
fn reg(name: &str) -> Operand {
    Operand::Reg(rr(name))
}
fn regc(name: &str, c: char) -> Operand {
    Operand::Reg(RegRef {
        name: name.into(),
        component: Some(c),
    })
}
fn int(v: i64) -> Operand {
    Operand::Imm(Immediate::Int(v))
}
fn sym(name: &str, offset: i64) -> Operand {
    Operand::Symbol {
        name: name.into(),
        offset,
    }
}
fn at_reg(name: &str, offset: i64) -> Operand {
    Operand::Address(Address {
        base: AddressBase::Reg(rr(name)),
        offset,
    })
}
fn at_sym(name: &str, offset: i64) -> Operand {
    Operand::Address(Address {
        base: AddressBase::Symbol(name.into()),
        offset,
    })
}
fn list(ops: Vec<Operand>) -> Operand {
    Operand::List(ops)
}
fn sp(line: u32, col: u32) -> Span {
    Span { line, col }
}

// ---------- instructions ----------

#[test]
fn instruction_table() {
    use Operand::*;
    #[rustfmt::skip]
    let cases: Vec<(&str, &str, &[&str], Vec<Operand>)> = vec![
        ("mov.u32 %r1, %tid.x;", "mov", &["u32"], vec![reg("%r1"), regc("%tid", 'x')]),
        ("mov.u32 %r1, %ctaid.y;", "mov", &["u32"], vec![reg("%r1"), regc("%ctaid", 'y')]),
        ("mov.u32 %r1, %envreg3;", "mov", &["u32"], vec![reg("%r1"), reg("%envreg3")]),
        // nvcc's `warpSize`: the predefined identifier is an ordinary name to the parser.
        ("mov.u32 %r1, WARP_SZ;", "mov", &["u32"], vec![reg("%r1"), sym("WARP_SZ", 0)]),
        ("add.s32 %r1, %r2, WARP_SZ;", "add", &["s32"], vec![reg("%r1"), reg("%r2"), sym("WARP_SZ", 0)]),
        ("mov.u32 %r1, %cluster_nctaid.x;", "mov", &["u32"], vec![reg("%r1"), regc("%cluster_nctaid", 'x')]),
        ("mov.u64 %rd1, %pm0_64;", "mov", &["u64"], vec![reg("%rd1"), reg("%pm0_64")]),
        ("shfl.sync.down.b32 %r17|%p3, %r2, 16, 31, -1;", "shfl", &["sync", "down", "b32"],
            vec![Pair(rr("%r17"), rr("%p3")), reg("%r2"), int(16), int(31), int(-1)]),
        ("cvt.rn.f32.s32 %f1, %r1;", "cvt", &["rn", "f32", "s32"], vec![reg("%f1"), reg("%r1")]),
        ("cp.async.ca.shared.global [%r1], [%rd1], 16;", "cp", &["async", "ca", "shared", "global"],
            vec![at_reg("%r1", 0), at_reg("%rd1", 0), int(16)]),
        ("ld.global.L1::no_allocate.L2::128B.b32 %r1, [%rd1];", "ld", &["global", "L1::no_allocate", "L2::128B", "b32"],
            vec![reg("%r1"), at_reg("%rd1", 0)]),
        ("ld.shared::cta.u32 %r1, [%r2];", "ld", &["shared::cta", "u32"], vec![reg("%r1"), at_reg("%r2", 0)]),
        ("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd7, {%f5, %f6}];", "tex", &["2d", "v4", "f32", "f32"],
            vec![Vector(vec![reg("%f1"), reg("%f2"), reg("%f3"), reg("%f4")]),
                 TexRef(vec![reg("%rd7"), Vector(vec![reg("%f5"), reg("%f6")])])]),
        ("tex.1d.v4.s32.s32 {%r1,%r2,%r3,%r4}, [tex0, smp, {%r5}];", "tex", &["1d", "v4", "s32", "s32"],
            vec![Vector(vec![reg("%r1"), reg("%r2"), reg("%r3"), reg("%r4")]),
                 TexRef(vec![sym("tex0", 0), sym("smp", 0), Vector(vec![reg("%r5")])])]),
        ("setp.lt.and.s32 %p1, %r1, 0, !%p2;", "setp", &["lt", "and", "s32"],
            vec![reg("%p1"), reg("%r1"), int(0), NotReg(rr("%p2"))]),
        ("setp.ne.s32 %p1|%p2, %r1, 7;", "setp", &["ne", "s32"], vec![Pair(rr("%p1"), rr("%p2")), reg("%r1"), int(7)]),
        ("fma.rn.f32 %f1, %f2, 0f3F800000, %f3;", "fma", &["rn", "f32"],
            vec![reg("%f1"), reg("%f2"), Imm(Immediate::F32(0x3F80_0000)), reg("%f3")]),
        ("add.f64 %fd1, %fd2, 0d3FF0000000000000;", "add", &["f64"],
            vec![reg("%fd1"), reg("%fd2"), Imm(Immediate::F64(0x3FF0_0000_0000_0000))]),
        ("add.f64 %fd1, 0D3ff8000000000000, 0F3f000000;", "add", &["f64"],
            vec![reg("%fd1"), Imm(Immediate::F64(0x3FF8_0000_0000_0000)), Imm(Immediate::F32(0x3F00_0000))]),
        ("add.f32 %f1, 1.5, 1e-3;", "add", &["f32"], vec![reg("%f1"), Imm(Immediate::Float(1.5)), Imm(Immediate::Float(1e-3))]),
        ("add.f32 %f1, 2.0E+5, -0.25;", "add", &["f32"], vec![reg("%f1"), Imm(Immediate::Float(2.0e5)), Imm(Immediate::Float(-0.25))]),
        ("add.s32 %r1, 0x1F, 017;", "add", &["s32"], vec![reg("%r1"), int(31), int(15)]),
        ("add.u32 %r1, 0b101, 42U;", "add", &["u32"], vec![reg("%r1"), int(5), int(42)]),
        ("add.u64 %rd1, 0xFFFFFFFFFFFFFFFF, 0XffU;", "add", &["u64"], vec![reg("%rd1"), int(-1), int(255)]),
        ("add.s32 %r1, -2147483648, 0;", "add", &["s32"], vec![reg("%r1"), int(-2147483648), int(0)]),
        ("vote.sync.ballot.b32 %r1, %p1, -1;", "vote", &["sync", "ballot", "b32"], vec![reg("%r1"), reg("%p1"), int(-1)]),
        ("ld.global.nc.v4.f32 {%f1,%f2,%f3,%f4}, [%rd7+16];", "ld", &["global", "nc", "v4", "f32"],
            vec![Vector(vec![reg("%f1"), reg("%f2"), reg("%f3"), reg("%f4")]), at_reg("%rd7", 16)]),
        ("ld.param.u64 %rd1, [_Z6kernelPfi_param_0];", "ld", &["param", "u64"], vec![reg("%rd1"), at_sym("_Z6kernelPfi_param_0", 0)]),
        ("st.param.b64 [param0+0], %rd4;", "st", &["param", "b64"], vec![at_sym("param0", 0), reg("%rd4")]),
        ("ld.shared.f32 %f1, [tile+8];", "ld", &["shared", "f32"], vec![reg("%f1"), at_sym("tile", 8)]),
        ("ld.local.u32 %r1, [%rd1+-4];", "ld", &["local", "u32"], vec![reg("%r1"), at_reg("%rd1", -4)]),
        ("ld.local.u32 %r1, [%rd1-0x10];", "ld", &["local", "u32"], vec![reg("%r1"), at_reg("%rd1", -16)]),
        ("ld.global.u32 %r1, [0x1000];", "ld", &["global", "u32"],
            vec![reg("%r1"), Address(ptx::ast::Address { base: AddressBase::Absolute, offset: 0x1000 })]),
        ("ld.global.u32 %r1, [%r2.x];", "ld", &["global", "u32"],
            vec![reg("%r1"), Address(ptx::ast::Address { base: AddressBase::Reg(RegRef { name: "%r2".into(), component: Some('x') }), offset: 0 })]),
        ("mov.b64 {%r1, _}, %rd1;", "mov", &["b64"], vec![Vector(vec![reg("%r1"), Sink]), reg("%rd1")]),
        ("mov.b32 %r1, {%rs1, %rs2};", "mov", &["b32"], vec![reg("%r1"), Vector(vec![reg("%rs1"), reg("%rs2")])]),
        ("mov.u64 %rd1, $str+8;", "mov", &["u64"], vec![reg("%rd1"), sym("$str", 8)]),
        ("mov.u64 %rd1, arr+-8;", "mov", &["u64"], vec![reg("%rd1"), sym("arr", -8)]),
        ("mov.u64 %rd1, arr-8;", "mov", &["u64"], vec![reg("%rd1"), sym("arr", -8)]),
        ("mov.u64 %rd1, __local_depot0;", "mov", &["u64"], vec![reg("%rd1"), sym("__local_depot0", 0)]),
        ("atom.global.exch.b32 _, [%rd1], %r1;", "atom", &["global", "exch", "b32"], vec![Sink, at_reg("%rd1", 0), reg("%r1")]),
        ("call.uni (retval0),\n  _Z3fooi,\n  (\n  param0,\n  param1\n  );", "call", &["uni"],
            vec![list(vec![sym("retval0", 0)]), sym("_Z3fooi", 0), list(vec![sym("param0", 0), sym("param1", 0)])]),
        ("call f, (a);", "call", &[], vec![sym("f", 0), list(vec![sym("a", 0)])]),
        ("call f;", "call", &[], vec![sym("f", 0)]),
        ("call.uni f, ();", "call", &["uni"], vec![sym("f", 0), list(vec![])]),
        ("call (r), %rd11, (p0, p1), prototype_2;", "call", &[],
            vec![list(vec![sym("r", 0)]), reg("%rd11"), list(vec![sym("p0", 0), sym("p1", 0)]), sym("prototype_2", 0)]),
        ("ret;", "ret", &[], vec![]),
        ("exit;", "exit", &[], vec![]),
        ("bar.sync 0;", "bar", &["sync"], vec![int(0)]),
        ("membar.gl;", "membar", &["gl"], vec![]),
        ("brx.idx %r1, ts;", "brx", &["idx"], vec![reg("%r1"), sym("ts", 0)]),
        ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1}, {%r1}, {%r2}, {%f2};", "mma",
            &["sync", "aligned", "m16n8k16", "row", "col", "f32", "f16", "f16", "f32"],
            vec![Vector(vec![reg("%f1")]), Vector(vec![reg("%r1")]), Vector(vec![reg("%r2")]), Vector(vec![reg("%f2")])]),
    ];
    for (src, opcode, mods, operands) in cases {
        let i = one_instr(src);
        assert_eq!(i.opcode, opcode, "{src}");
        assert_eq!(
            i.modifiers,
            mods.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            "{src}"
        );
        assert_eq!(i.operands, operands, "{src}");
        assert_eq!(i.guard, None, "{src}");
    }
}

#[test]
fn guards_and_spans() {
    let st = body("@%p1 bra $L__BB0_2;\n  @!%p2 bra.uni $L__BB0_3;");
    let Statement::Instruction(a) = &st[0] else {
        panic!()
    };
    assert_eq!(
        a.guard,
        Some(Guard {
            negated: false,
            pred: "%p1".into()
        })
    );
    assert_eq!(a.opcode, "bra");
    assert_eq!(a.operands, vec![sym("$L__BB0_2", 0)]);
    assert_eq!(a.span, sp(6, 1));
    let Statement::Instruction(b) = &st[1] else {
        panic!()
    };
    assert_eq!(
        b.guard,
        Some(Guard {
            negated: true,
            pred: "%p2".into()
        })
    );
    assert_eq!(b.modifiers, vec!["uni".to_string()]);
    assert_eq!(b.span, sp(7, 3));
}

// ---------- body statements ----------

#[test]
fn statement_table() {
    let cases: Vec<(&str, Vec<Statement>)> = vec![
        (
            "$L__BB0_2:",
            vec![Statement::Label("$L__BB0_2".into(), sp(6, 1))],
        ),
        (
            "a: b:\nc: ret;",
            vec![
                Statement::Label("a".into(), sp(6, 1)),
                Statement::Label("b".into(), sp(6, 4)),
                Statement::Label("c".into(), sp(7, 1)),
                Statement::Instruction(Instruction {
                    span: sp(7, 4),
                    guard: None,
                    opcode: "ret".into(),
                    modifiers: vec![],
                    operands: vec![],
                }),
            ],
        ),
        (
            ".reg .pred %p<32>;",
            vec![Statement::Reg(RegDecl {
                span: sp(6, 1),
                ty: ScalarType::Pred,
                vector: None,
                names: vec![RegName::Range {
                    prefix: "%p".into(),
                    count: 32,
                }],
            })],
        ),
        (
            "\t.reg .b32 \t%r<98>;",
            vec![Statement::Reg(RegDecl {
                span: sp(6, 2),
                ty: ScalarType::B32,
                vector: None,
                names: vec![RegName::Range {
                    prefix: "%r".into(),
                    count: 98,
                }],
            })],
        ),
        (
            ".reg .u32 %r0, %alo;",
            vec![Statement::Reg(RegDecl {
                span: sp(6, 1),
                ty: ScalarType::U32,
                vector: None,
                names: vec![
                    RegName::Single("%r0".into()),
                    RegName::Single("%alo".into()),
                ],
            })],
        ),
        (
            ".reg .v4 .f32 %v;",
            vec![Statement::Reg(RegDecl {
                span: sp(6, 1),
                ty: ScalarType::F32,
                vector: Some(4),
                names: vec![RegName::Single("%v".into())],
            })],
        ),
        (
            ".reg .f16x2 %h<3>, %q;",
            vec![Statement::Reg(RegDecl {
                span: sp(6, 1),
                ty: ScalarType::F16x2,
                vector: None,
                names: vec![
                    RegName::Range {
                        prefix: "%h".into(),
                        count: 3,
                    },
                    RegName::Single("%q".into()),
                ],
            })],
        ),
        (
            ".local .align 8 .b8 __local_depot0[128];",
            vec![Statement::Var(var(
                sp(6, 1),
                StateSpace::Local,
                Some(8),
                ScalarType::B8,
                "__local_depot0",
                vec![Some(128)],
            ))],
        ),
        (
            ".shared .align 4 .b8 tile[4096];",
            vec![Statement::Var(var(
                sp(6, 1),
                StateSpace::Shared,
                Some(4),
                ScalarType::B8,
                "tile",
                vec![Some(4096)],
            ))],
        ),
        (
            ".param .b64 param0;",
            vec![Statement::Var(var(
                sp(6, 1),
                StateSpace::Param,
                None,
                ScalarType::B64,
                "param0",
                vec![],
            ))],
        ),
        (
            ".param .align 8 .b8 retval0[16];",
            vec![Statement::Var(var(
                sp(6, 1),
                StateSpace::Param,
                Some(8),
                ScalarType::B8,
                "retval0",
                vec![Some(16)],
            ))],
        ),
        (
            ".loc 1 3 5",
            vec![Statement::Loc(Loc {
                span: sp(6, 1),
                file: 1,
                line: 3,
                col: 5,
            })],
        ),
        (
            ".loc\t2 112 3, function_name $L__info_string0, inlined_at 1 9 9",
            vec![Statement::Loc(Loc {
                span: sp(6, 1),
                file: 2,
                line: 112,
                col: 3,
            })],
        ),
        (
            ".pragma \"nounroll\";",
            vec![Statement::Pragma("nounroll".into(), sp(6, 1))],
        ),
        (
            "prototype_2 : .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);",
            vec![Statement::CallPrototype(CallPrototype {
                span: sp(6, 1),
                name: "prototype_2".into(),
                returns: vec![param(
                    sp(6, 31),
                    StateSpace::Param,
                    ScalarType::B32,
                    None,
                    None,
                    "_",
                )],
                params: vec![
                    param(
                        sp(6, 49),
                        StateSpace::Param,
                        ScalarType::B32,
                        None,
                        None,
                        "_",
                    ),
                    param(
                        sp(6, 64),
                        StateSpace::Param,
                        ScalarType::B32,
                        None,
                        None,
                        "_",
                    ),
                ],
            })],
        ),
        (
            "prototype_1 : .callprototype ()_ (.param .b64 _, .param .align 8 .b8 _[16]);",
            vec![Statement::CallPrototype(CallPrototype {
                span: sp(6, 1),
                name: "prototype_1".into(),
                returns: vec![],
                params: vec![
                    param(
                        sp(6, 35),
                        StateSpace::Param,
                        ScalarType::B64,
                        None,
                        None,
                        "_",
                    ),
                    param(
                        sp(6, 50),
                        StateSpace::Param,
                        ScalarType::B8,
                        Some(8),
                        Some(16),
                        "_",
                    ),
                ],
            })],
        ),
        (
            "ts: .branchtargets L1, L2, $L__BB0_3;",
            vec![Statement::BranchTargets {
                name: "ts".into(),
                labels: vec!["L1".into(), "L2".into(), "$L__BB0_3".into()],
                span: sp(6, 1),
            }],
        ),
        ("ct: .calltargets f, g;", vec![]),
    ];
    for (src, expected) in cases {
        assert_eq!(body(src), expected, "{src}");
    }
}

fn var(
    span: Span,
    space: StateSpace,
    align: Option<u32>,
    ty: ScalarType,
    name: &str,
    dims: Vec<Option<u32>>,
) -> VarDecl {
    VarDecl {
        span,
        linkage: Linkage::None,
        space,
        align,
        ty,
        vector: None,
        name: name.into(),
        dims,
        init: None,
    }
}

fn param(
    span: Span,
    space: StateSpace,
    ty: ScalarType,
    align: Option<u32>,
    array: Option<u32>,
    name: &str,
) -> ParamDecl {
    ParamDecl {
        span,
        space,
        ty,
        align,
        array,
        name: name.into(),
        ptr_attrs: vec![],
    }
}

#[test]
fn nested_blocks() {
    let st = body(
        "{ // callseq 0, 0\n\t.reg .b32 temp_param_reg;\n\t.param .b64 param0;\n\tst.param.b64 [param0+0], %rd4;\n\t{ ret; }\n\t} // callseq 0\n$L__BB0_2:",
    );
    assert_eq!(st.len(), 2);
    let Statement::Block(b) = &st[0] else {
        panic!("{st:?}")
    };
    assert_eq!(b.span, sp(6, 1));
    assert_eq!(b.statements.len(), 4);
    assert!(
        matches!(&b.statements[0], Statement::Reg(r) if r.names == vec![RegName::Single("temp_param_reg".into())])
    );
    assert!(
        matches!(&b.statements[1], Statement::Var(v) if v.space == StateSpace::Param && v.name == "param0")
    );
    let Statement::Block(inner) = &b.statements[3] else {
        panic!()
    };
    assert!(matches!(&inner.statements[0], Statement::Instruction(i) if i.opcode == "ret"));
    assert_eq!(st[1], Statement::Label("$L__BB0_2".into(), sp(12, 1)));
}

// ---------- module scope ----------

#[test]
fn module_header_and_files() {
    let m = module(
        ".version 9.5\n.target sm_75, debug\n.address_size 64\n.file 1 \"/tmp/a b.cu\"\n.file\t2 \"C:\\\\x\\\"q\\\".h\", 1700000000, 1234\n.pragma \"nounroll\";\n\0",
    );
    assert_eq!(m.version, (9, 5));
    assert_eq!(m.target, vec!["sm_75".to_string(), "debug".to_string()]);
    assert_eq!(m.address_size, 64);
    assert_eq!(
        m.files,
        vec![
            (1, "/tmp/a b.cu".to_string()),
            (2, "C:\\x\"q\".h".to_string())
        ]
    );
    assert_eq!(m.items, vec![Item::Pragma("nounroll".into(), sp(6, 1))]);

    let m = module(".version 7.0\n.target sm_80\n");
    assert_eq!((m.version, m.address_size), ((7, 0), 64));
    let m = module(".version 8.10 .target sm_90a, texmode_independent .address_size 32");
    assert_eq!(
        (m.version, m.target.len(), m.address_size),
        ((8, 10), 2, 32)
    );
}

#[test]
fn functions() {
    let f = only_function(
        ".visible .entry _Z6kernelPfi(\n\t.param .u64 .ptr .global .align 8 _Z6kernelPfi_param_0,\n\t.param .u32 _Z6kernelPfi_param_1\n)\n.maxntid 256, 1, 1\n.minnctapersm 2\n{\n\tret;\n}\n",
    );
    assert_eq!(f.name, "_Z6kernelPfi");
    assert_eq!(f.kind, FunctionKind::Entry);
    assert_eq!(f.linkage, Linkage::Visible);
    assert_eq!(f.span, sp(4, 1));
    assert_eq!(f.params.len(), 2);
    assert_eq!(
        f.params[0].ptr_attrs,
        vec!["global".to_string(), "align 8".to_string()]
    );
    assert_eq!(f.params[0].align, None);
    assert_eq!(f.params[0].ty, ScalarType::U64);
    assert_eq!(f.params[0].span, sp(5, 2));
    assert_eq!(
        f.params[1],
        param(
            sp(6, 2),
            StateSpace::Param,
            ScalarType::U32,
            None,
            None,
            "_Z6kernelPfi_param_1"
        )
    );
    assert_eq!(f.perf.maxntid, Some([256, 1, 1]));
    assert_eq!(f.perf.minnctapersm, Some(2));
    assert_eq!(f.body.as_ref().unwrap().statements.len(), 1);

    let f = only_function(".entry k .reqntid 32 .maxnctapersm 4 .maxnreg 64 { }");
    assert!(f.params.is_empty());
    assert_eq!(f.perf.reqntid, Some([32, 1, 1]));
    assert_eq!((f.perf.maxnctapersm, f.perf.maxnreg), (Some(4), Some(64)));
    assert_eq!(
        f.body,
        Some(Block {
            span: sp(4, 50),
            statements: vec![]
        })
    );

    let f = only_function(".weak .func (.param .align 8 .b8 func_retval0[16]) _Z3mixv(.param .align 8 .b8 p[16], .reg .b32 %x)\n.noreturn\n{\nret;\n}");
    assert_eq!(f.kind, FunctionKind::Func);
    assert_eq!(f.linkage, Linkage::Weak);
    assert_eq!(
        f.returns,
        vec![param(
            sp(4, 14),
            StateSpace::Param,
            ScalarType::B8,
            Some(8),
            Some(16),
            "func_retval0"
        )]
    );
    assert_eq!(
        f.params[0],
        param(
            sp(4, 60),
            StateSpace::Param,
            ScalarType::B8,
            Some(8),
            Some(16),
            "p"
        )
    );
    assert_eq!(
        f.params[1],
        param(
            sp(4, 87),
            StateSpace::Reg,
            ScalarType::B32,
            None,
            None,
            "%x"
        )
    );
    assert!(f.perf.noreturn);

    let f = only_function(".extern .func  (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0,\n\t.param .b64 vprintf_param_1\n)\n;");
    assert_eq!(
        (f.linkage, f.name.as_str(), f.params.len(), f.returns.len()),
        (Linkage::Extern, "vprintf", 2, 1)
    );
    assert_eq!(f.body, None);

    let f = only_function(".func fwd;");
    assert_eq!(
        (f.name.as_str(), f.body.is_none(), f.linkage),
        ("fwd", true, Linkage::None)
    );
    let f = only_function(".common .func f() { }");
    assert_eq!(f.linkage, Linkage::Common);
    let f = only_function(
        ".entry k(.param .u64 .ptr .align 1 p) .explicitcluster .reqnctapercluster 2, 1, 1 { }",
    );
    assert_eq!(f.params[0].ptr_attrs, vec!["align 1".to_string()]);
}

#[test]
fn variables() {
    use InitValue as V;
    use Initializer as I;
    let v = only_var(".extern .shared .align 16 .b8 dyn[];");
    assert_eq!(
        (v.linkage, v.space, v.align, v.ty),
        (
            Linkage::Extern,
            StateSpace::Shared,
            Some(16),
            ScalarType::B8
        )
    );
    assert_eq!(
        (v.name.as_str(), v.dims.clone(), v.init.clone()),
        ("dyn", vec![None], None)
    );
    assert_eq!(v.span, sp(4, 1));

    let v = only_var(".const .align 4 .f32 c;");
    assert_eq!(
        (v.space, v.ty, v.dims.len()),
        (StateSpace::Const, ScalarType::F32, 0)
    );

    let v = only_var(".visible .const .align 8 .f64 c = 0d3FF8000000000000;");
    assert_eq!(v.init, Some(I::Value(V::F64(0x3FF8_0000_0000_0000))));
    assert_eq!(v.linkage, Linkage::Visible);

    let v = only_var(".global .align 1 .b8 $str[5] = {109, 105, 0x6E, -1, 0};");
    assert_eq!(v.dims, vec![Some(5)]);
    let want: Vec<I> = [109, 105, 110, -1, 0]
        .iter()
        .map(|&x| I::Value(V::Int(x)))
        .collect();
    assert_eq!(v.init, Some(I::List(want)));

    let v =
        only_var(".visible .global .align 8 .u64 ops[3] = {_Z5opAddff, generic(arr)+8, tbl+-4};");
    let sym = |n: &str, offset, generic| {
        I::Value(V::Symbol {
            name: n.into(),
            offset,
            generic,
        })
    };
    assert_eq!(
        v.init,
        Some(I::List(vec![
            sym("_Z5opAddff", 0, false),
            sym("arr", 8, true),
            sym("tbl", -4, false)
        ]))
    );

    let v = only_var(".global .f32 m[2][3] = {{1.0, 0f3F800000, 2}, {-1.5, 1e2, 0}};");
    assert_eq!(v.dims, vec![Some(2), Some(3)]);
    let Some(I::List(rows)) = &v.init else {
        panic!()
    };
    assert_eq!(
        rows[0],
        I::List(vec![
            I::Value(V::Float(1.0)),
            I::Value(V::F32(0x3F80_0000)),
            I::Value(V::Int(2))
        ])
    );
    assert_eq!(
        rows[1],
        I::List(vec![
            I::Value(V::Float(-1.5)),
            I::Value(V::Float(100.0)),
            I::Value(V::Int(0))
        ])
    );

    let v = only_var(".global .v4 .f32 vv;");
    assert_eq!((v.vector, v.ty), (Some(4), ScalarType::F32));
    let v = only_var(".shared .align 8 .v2 .u64 pairs[4];");
    assert_eq!(
        (v.vector, v.ty, v.align),
        (Some(2), ScalarType::U64, Some(8))
    );
    let v = only_var(".weak .global .align 4 .u32 w = 7;");
    assert_eq!(
        (v.linkage, v.init.clone()),
        (Linkage::Weak, Some(I::Value(V::Int(7))))
    );
    let v = only_var(".common .global .align 4 .b8 cm[4];");
    assert_eq!(v.linkage, Linkage::Common);
    let v = only_var(".global .attribute(.managed) .align 4 .u32 managed_x;");
    assert_eq!(v.name, "managed_x");
    let v = only_var(".global .attribute(.unified(0x1234, 77)) .f32 uni;");
    assert_eq!((v.name.as_str(), v.ty), ("uni", ScalarType::F32));
    let v = only_var(".tex .u64 texref0;");
    assert_eq!(v.space, StateSpace::Tex);

    let it = items(".global .u32 a, b[2] = {1, 2}, c;");
    let names: Vec<_> = it
        .iter()
        .map(|i| match i {
            Item::Var(v) => v.name.clone(),
            _ => panic!(),
        })
        .collect();
    assert_eq!(names, vec!["a", "b", "c"]);
}

#[test]
fn sections_and_skipped_directives() {
    let it = items(
        ".entry k() { ret; }\n.section .debug_info\n{\n.b32 1234\n.b8 2, 0\n.b32 .debug_abbrev\n.b64 $L__tmp1\n$L__info_string0:\n.b8 95,90,0\n{ nested } \"str\" @ # 0f12\n}\n.section\t.debug_loc\t{\t}\n.alias a, b;\n.entry j() { }",
    );
    let names: Vec<_> = it
        .iter()
        .map(|i| match i {
            Item::Function(f) => f.name.clone(),
            _ => panic!(),
        })
        .collect();
    assert_eq!(names, vec!["k", "j"]);
}

#[test]
fn comments_and_nul_bytes() {
    let st = body("/* block\n comment */ mov.u32 %r1, 1; // trailing\n\0\0");
    assert_eq!(st.len(), 1);
    let Statement::Instruction(i) = &st[0] else {
        panic!()
    };
    assert_eq!(i.span, sp(7, 13));
}
