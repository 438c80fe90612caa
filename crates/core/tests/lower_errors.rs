//! Unsupported and invalid PTX: the exact `LoadError` (variant, text, line) of each case, and
//! that every error of a module is reported, in source order.

use crate::lower_util as util;

use util::{first_body_line, kernel, lower_errors, HEADER};
use warpsim_core::LoadError;

fn unsupported(what: &str, line: u32) -> LoadError {
    LoadError::Unsupported {
        what: what.to_string(),
        line,
    }
}

fn invalid(message: &str, line: u32) -> LoadError {
    LoadError::Invalid {
        message: message.to_string(),
        line,
    }
}

fn undefined(kind: &'static str, name: &str, line: u32) -> LoadError {
    LoadError::Undefined {
        kind,
        name: name.to_string(),
        line,
    }
}

/// Lowers the standard kernel with `body` (its first line is `first_body_line()`) and expects
/// exactly `want`, where each entry's line is relative to the body (0 = its first line).
fn check(body: &str, want: &[LoadError]) {
    let base = first_body_line();
    let want: Vec<LoadError> = want
        .iter()
        .map(|e| match e.clone() {
            LoadError::Unsupported { what, line } => LoadError::Unsupported {
                what,
                line: line + base,
            },
            LoadError::Invalid { message, line } => LoadError::Invalid {
                message,
                line: line + base,
            },
            LoadError::Undefined { kind, name, line } => LoadError::Undefined {
                kind,
                name,
                line: line + base,
            },
            other => other,
        })
        .collect();
    assert_eq!(lower_errors(&kernel(body)), want, "body:\n{body}");
}

#[test]
fn texture_forms_warpsim_does_not_execute_are_named() {
    check(
        "tex.a2d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [%rd1, {%r1,%f5,%f6,%f6}];\n\
         tex.level.2d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [%rd1, {%f5,%f6}], %f7;\n\
         suld.p.2d.v4.b32.trap {%r1,%r2,%r3,%r4}, [%rd1, {%r2,%r3}];\n\
         tex.2d.v4.f16.f32 {%rs1,%rs2,%rs3,%rs4}, [%rd1, {%f5,%f6}];\n\
         tex.1d.v4.f32.s32 {%f1,%f2,%f3,%f4}, [%rd1, %rd2, {%r1}];\n\
         tex.2d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [%rd1, {%f5,%f6}], %p1;",
        &[
            unsupported("tex.a2d.v4.f32.f32 (layered, cube and multisample textures and surfaces are not supported)", 0),
            unsupported("tex.level.2d.v4.f32.f32 (explicit level of detail: mipmapped textures are not supported)", 1),
            unsupported("suld.p.2d.v4.b32.trap (formatted surface access (.p) is not supported; use .b)", 2),
            unsupported("tex.2d.v4.f16.f32 (half-precision texture results are not supported)", 3),
            unsupported("tex.1d.v4.f32.s32 (a separate sampler operand (independent texture mode) is not supported)", 4),
            unsupported(
                "tex.2d.v4.f32.f32 (3 operands: offsets, depth compare and residency predicates are not supported)",
                5,
            ),
        ],
    );
}

#[test]
fn cp_async_sizes_are_checked() {
    check(
        "cp.async.cg.shared.global [%r1], [%rd1], 8;\n\
         cp.async.ca.shared.global [%r1], [%rd1], 2;\n\
         cp.async.ca.shared.global [%r1], [%rd1], %r2;",
        &[
            invalid(
                "`cp.async.cg.shared.global` cannot copy 8 bytes (.ca: 4, 8 or 16; .cg: 16)",
                0,
            ),
            invalid(
                "`cp.async.ca.shared.global` cannot copy 2 bytes (.ca: 4, 8 or 16; .cg: 16)",
                1,
            ),
            invalid(
                "`cp.async.ca.shared.global` needs the copy size as an immediate 4, 8 or 16",
                2,
            ),
        ],
    );
}

#[test]
fn malformed_tensor_core_forms_are_named() {
    let a8 = "{%r0,%r1,%r2,%r3,%r4,%r5,%r6,%r7}";
    let f4 = "{%f0,%f1,%f2,%f3}";
    let body = format!(
        "wmma.load.a.sync.aligned.row.m16n16k8.f16 {a8}, [%rd1];\n\
         wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f16 {a8}, {a8}, {a8}, {a8};\n\
         mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {f4}, {f4}, {{%r0,%r1}}, {f4};\n\
         mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32 {f4}, {f4}, {{%r0,%r1}}, {f4};\n\
         mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{%f0,%f1,%f2}}, {f4}, {{%r0,%r1}}, {f4};\n\
         ldmatrix.sync.aligned.m8n8.x3.shared.b16 {{%r0,%r1,%r2}}, [%r4];\n\
         wmma.load.a.aligned.row.m16n16k16.f16 {a8}, [%rd1];\n\
         mma.sync.aligned.m16n8k16.row.col.satfinite.f32.f16.f16.f32 {f4}, {f4}, {{%r0,%r1}}, {f4};\n\
         wmma.store.d.sync.aligned.row.m16n16k16.f16 [%rd1], {{%r0,%r1,%r2,%r3}}, %p1;\n\
         mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {f4}, {f4}, {{%r0,%r1}}, {f4};\n\
         ldmatrix.sync.aligned.m8n8.x1.shared.b16 {{%r0}}, [%rd1], %r2;\n\
         wmma.load.c.sync.aligned.row.m16n16k16.bf16 {a8}, [%rd1];\n\
         mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {f4}, {{%r0,%r1}}, {{%r2}}, {{%f4,%f5,%f6,0f00000000}};"
    );
    let mma = "mma.sync.aligned.m16n8k16.row.col";
    check(
        &body,
        &[
            invalid("`wmma.load.a.sync.aligned.row.m16n16k8.f16` (shape m16n16k8) takes .tf32 multiplicands", 0),
            invalid("`wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f16` cannot multiply .bf16 by .bf16 into .f32 with .f16 accumulators", 1),
            invalid(&format!("`{mma}.f32.tf32.tf32.f32` has no form multiplying .tf32 by .tf32 into .f32 with .f32 accumulators at m16n8k16"), 2),
            invalid("`mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32` takes .row.col (A row-major, B column-major) only", 3),
            invalid(&format!("`{mma}.f32.f16.f16.f32` expects 4 registers in its D fragment, found 3"), 4),
            invalid("`ldmatrix.sync.aligned.m8n8.x3.shared.b16` needs .x1, .x2 or .x4", 5),
            invalid("`wmma.load.a.aligned.row.m16n16k16.f16` needs .sync.aligned", 6),
            invalid(&format!("`{mma}.satfinite.f32.f16.f16.f32` takes .satfinite only with integer multiplicands"), 7),
            invalid("`wmma.store.d.sync.aligned.row.m16n16k16.f16` takes its stride as a register or an immediate", 8),
            invalid("`mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32` needs one of the shapes .m16n8k8, .m16n8k16, .m16n8k32", 9),
            invalid("`ldmatrix.sync.aligned.m8n8.x1.shared.b16` takes 2 operands, found 3", 10),
            invalid("`wmma.load.c.sync.aligned.row.m16n16k16.bf16` holds .f16, .f32 or .s32 accumulators", 11),
            invalid("`mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32` expects registers in its C fragment", 12),
        ],
    );
}

#[test]
fn other_unsupported_opcodes() {
    check(
        "cp.async.bulk.shared::cluster.global [%r1], [%rd1], 16;\n\
         stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r1], {%r2};\n\
         sured.b.add.1d.u32.trap [%rd1, {%r2}], %r3;\n\
         setp.lt.f16 %p1, %rs1, %rs2;\n\
         ex2.approx.f16 %rs1, %rs2;",
        &[
            unsupported("cp.async.bulk.shared::cluster.global", 0),
            unsupported("stmatrix.sync.aligned.m8n8.x1.shared.b16", 1),
            unsupported("sured.b.add.1d.u32.trap", 2),
            unsupported("setp.lt.f16", 3),
            unsupported("ex2.approx.f16", 4),
        ],
    );
}

#[test]
fn unknown_modifier_is_named() {
    check(
        "add.foo.s32 %r1, %r2, %r3;",
        &[unsupported("modifier .foo in add.foo.s32", 0)],
    );
    check(
        "ld.shared::cluster.u32 %r1, [%r2];",
        &[unsupported(
            "modifier .shared::cluster in ld.shared::cluster.u32",
            0,
        )],
    );
    check(
        "max.NaN.f32 %f1, %f2, %f3;",
        &[unsupported("modifier .NaN in max.NaN.f32", 0)],
    );
}

#[test]
fn undefined_register() {
    check("add.s32 %r1, %r99, 1;", &[undefined("register", "%r99", 0)]);
    check("@%q bra $L;\n$L:", &[undefined("register", "%q", 0)]);
}

#[test]
fn undefined_label() {
    check("bra $L__nowhere;", &[undefined("label", "$L__nowhere", 0)]);
}

#[test]
fn duplicate_label() {
    check(
        "$L1:\nadd.s32 %r1, %r1, 1;\n$L1:\nbra $L1;",
        &[invalid("label `$L1` is defined twice", 2)],
    );
}

#[test]
fn labels_in_nested_blocks_are_function_scoped() {
    check(
        "{\n$L1:\nadd.s32 %r1, %r1, 1;\n}\n{\n$L1:\n}",
        &[invalid("label `$L1` is defined twice", 5)],
    );
}

#[test]
fn wrong_operand_count() {
    check(
        "add.s32 %r1, %r2;",
        &[invalid("`add.s32` takes 3 operands, found 2", 0)],
    );
    check(
        "bar.sync 0, 1, 2;",
        &[invalid("`bar.sync` takes 1 to 2 operands, found 3", 0)],
    );
    check("bra;", &[invalid("`bra` takes 1 operand, found 0", 0)]);
}

#[test]
fn wrong_operand_kinds() {
    check(
        "add.s32 %r1, %p1, 1;",
        &[invalid("predicate `%p1` used as a value", 0)],
    );
    check(
        "setp.eq.s32 %r1, %r2, 1;",
        &[invalid("`%r1` is not a predicate", 0)],
    );
    check(
        "ld.global.u32 %r1, %rd1;",
        &[invalid("expected an address in brackets", 0)],
    );
    check(
        "add.f32 %f1, %f2, 1;",
        &[invalid(
            "integer literal where a floating-point value is expected",
            0,
        )],
    );
    check(
        "add.s32 %r1, %r2, 1.5;",
        &[invalid(
            "floating-point literal where a .s32 value is expected",
            0,
        )],
    );
    check(
        "ld.global.v4.f32 {%f1, %f2}, [%rd1];",
        &[invalid("expected a vector of 4 elements, found 2", 0)],
    );
    check(
        "st.global.v2.u32 [%rd1], {%r1, 0};",
        &[unsupported("immediate inside a vector operand", 0)],
    );
    check(
        "mov.u32 %tid.x, %r1;",
        &[invalid("special register `%tid` cannot be written", 0)],
    );
    check(
        "add.s32 %r1.x, %r2, 1;",
        &[invalid("`%r1` has no component .x", 0)],
    );
}

#[test]
fn missing_required_modifiers() {
    check(
        "mul.s32 %r1, %r2, %r3;",
        &[invalid("`mul.s32` needs .lo, .hi or .wide", 0)],
    );
    check(
        "setp.s32 %p1, %r2, %r3;",
        &[invalid("`setp.s32` needs a comparison such as .lt", 0)],
    );
    check(
        "add %r1, %r2, %r3;",
        &[invalid("`add` is missing its type", 0)],
    );
    check(
        "sin.f32 %f1, %f2;",
        &[invalid("`sin.f32` needs .approx", 0)],
    );
}

#[test]
fn wrong_state_space_for_a_variable() {
    check(
        "ld.shared.u32 %r1, [gbuf];",
        &[invalid(
            "`gbuf` is not in the state space the instruction names",
            0,
        )],
    );
    check(
        "ld.global.u32 %r1, [nowhere];",
        &[undefined("symbol", "nowhere", 0)],
    );
}

#[test]
fn call_to_an_unknown_external_function_is_unsupported() {
    let src = format!(
        "{HEADER}.extern .func (.param .b64 func_retval0) aligned_alloc(.param .b64 p0);\n\
         .entry m()\n{{\n.reg .b64 %rd<3>;\n{{\n.param .b64 param0;\nst.param.b64 [param0], 64;\n\
         .param .b64 retval0;\ncall.uni (retval0), aligned_alloc, (param0);\nld.param.b64 %rd1, [retval0];\n}}\nret;\n}}\n"
    );
    let line = HEADER.lines().count() as u32 + 9;
    assert_eq!(
        lower_errors(&src),
        vec![unsupported(
            "call to external function `aligned_alloc`",
            line
        )]
    );
}

#[test]
fn malloc_with_the_wrong_arity_is_rejected() {
    let src = format!(
        "{HEADER}.extern .func (.param .b64 func_retval0) malloc(.param .b64 a, .param .b64 b);\n\
         .entry m()\n{{\n.reg .b64 %rd<3>;\n{{\n.param .b64 param0;\nst.param.b64 [param0], 64;\n\
         .param .b64 retval0;\ncall.uni (retval0), malloc, (param0);\nld.param.b64 %rd1, [retval0];\n}}\nret;\n}}\n"
    );
    assert_eq!(lower_errors(&src).len(), 1, "{:?}", lower_errors(&src));
}

#[test]
fn call_arity_mismatch() {
    check(
        "{\n.param .b32 param0;\n.param .b32 retval0;\ncall.uni (retval0), callee, (param0);\n}",
        &[invalid(
            "call to `callee` passes 1 argument(s) and 1 return value(s); it takes 2 and 1",
            3,
        )],
    );
}

#[test]
fn bad_calls() {
    check("call.uni nosuch;", &[undefined("function", "nosuch", 0)]);
    check(
        "{\n.param .b32 param0;\n.param .b64 param1;\n.param .b32 retval0;\ncall (retval0), %rd1, (param0, param1);\n}",
        &[invalid("an indirect call needs a .callprototype", 4)],
    );
    check(
        "{\n.param .b32 param0;\n.param .b64 param1;\n.param .b32 retval0;\ncall (retval0), %rd1, (param0, param1), proto;\n}",
        &[undefined("prototype", "proto", 4)],
    );
}

#[test]
fn declarations() {
    check(
        ".reg .b32 %x;\n.reg .b32 %x;",
        &[invalid("`%x` is declared twice in the same scope", 1)],
    );
    check(".reg .b128 %q;", &[unsupported(".reg .b128", 0)]);
    check(
        ".global .b32 g;",
        &[unsupported(".global variable `g` inside a function", 0)],
    );
}

#[test]
fn bad_initializers() {
    let src =
        format!("{HEADER}.global .align 4 .f32 fx = 1;\n.global .align 4 .u32 ux[1] = {{1, 2}};\n");
    let line = HEADER.lines().count() as u32 + 1;
    assert_eq!(
        lower_errors(&src),
        vec![
            invalid(
                "initializer of `fx`: integer literal where a floating-point value is expected",
                line
            ),
            invalid("`ux` has 2 initial values but room for 1", line + 1),
        ]
    );
}

#[test]
fn all_errors_are_reported_in_source_order() {
    // Errors in two functions and at module scope, found in different passes, come back sorted.
    let src = format!(
        "{HEADER}.func f()\n{{\nadd.foo.s32 %r1, %r2, %r3;\nret;\n}}\n\
         .global .align 4 .f32 fx = 1;\n\
         .entry g()\n{{\n.reg .b32 %r<3>;\nbra $nowhere;\ntex.cube.v4.f32.f32 {{%r1,%r1,%r1,%r1}}, [%r1, {{%r1,%r1,%r1,%r1}}];\nret;\n}}\n"
    );
    let h = HEADER.lines().count() as u32;
    assert_eq!(
        lower_errors(&src),
        vec![
            unsupported("modifier .foo in add.foo.s32", h + 3),
            invalid("initializer of `fx`: integer literal where a floating-point value is expected", h + 6),
            undefined("label", "$nowhere", h + 10),
            unsupported("tex.cube.v4.f32.f32 (layered, cube and multisample textures and surfaces are not supported)", h + 11),
        ]
    );
}
