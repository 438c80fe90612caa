//! Malformed inputs: each must fail with the exact position, the offending token and a
//! message saying what was expected.

const H: &str = ".version 9.5\n.target sm_75\n.address_size 64\n";

/// A kernel `k` whose body (starting on line 6) is `body`.
fn kernel(body: &str) -> String {
    format!("{H}.entry k()\n{{\n{body}\n}}\n")
}

#[test]
fn error_table() {
    // (source, line, col, message fragment, found)
    let cases: Vec<(String, u32, u32, &str, &str)> = vec![
        // missing `;`: reported at the next instruction's first token
        (
            kernel("\tmov.u32 %r1, %r2\n\tret;"),
            7,
            2,
            "expected `;` after instruction",
            "ret",
        ),
        // unterminated `{`
        (
            format!("{H}.entry k()\n{{\n\tret;\n"),
            7,
            1,
            "unterminated block (the `{` at 5:1",
            "<end of input>",
        ),
        // bad hex floats
        (
            kernel("\tmov.f32 %f1, 0f123;"),
            6,
            15,
            "invalid hex float literal",
            "0f123",
        ),
        (
            kernel("\tadd.f64 %fd1, %fd1, 0d3FF00000;"),
            6,
            22,
            "invalid hex float literal",
            "0d3FF00000",
        ),
        (
            kernel("\tmov.f32 %f1, 0f3F800000AA;"),
            6,
            15,
            "invalid hex float literal",
            "0f3F800000AA",
        ),
        // stray `]`
        (
            kernel("\tld.u32 %r1, %rd1];"),
            6,
            18,
            "expected `;` after instruction",
            "]",
        ),
        // unknown type in `.reg`
        (
            kernel("\t.reg .u33 %r<4>;"),
            6,
            7,
            "unknown type `.u33`",
            ".u33",
        ),
        // garbage after `.version`
        (
            ".version abc\n".to_string(),
            1,
            10,
            "expected a version number",
            "abc",
        ),
        (
            ".version 9.5 garbage\n".to_string(),
            1,
            14,
            "expected a directive at module scope",
            "garbage",
        ),
        // unterminated string
        (
            format!("{H}.file 1 \"unterminated\n"),
            4,
            9,
            "unterminated string",
            "\"unterminated",
        ),
        // `%r<` without a count
        (
            kernel("\t.reg .b32 %r<;"),
            6,
            15,
            "expected a register count after `<`",
            ";",
        ),
        (
            kernel("\t.reg .b32 %r<4;"),
            6,
            16,
            "expected `>` after register count",
            ";",
        ),
        (
            kernel("\t.reg .b32 %r<4>\n\tret;"),
            7,
            2,
            "expected `;` after register declaration",
            "ret",
        ),
        // addresses and operands
        (
            kernel("\tld.u32 %r1, [%rd1;"),
            6,
            19,
            "expected `]` after address",
            ";",
        ),
        (
            kernel("\tld.u32 %r1, [;"),
            6,
            15,
            "expected a register, symbol or address",
            ";",
        ),
        (
            kernel("\tmov.u32 %r1, -0f3F800000;"),
            6,
            16,
            "expected a number after `-`",
            "0f3F800000",
        ),
        (
            kernel("\tmov.u32 %r1, %tid.q;"),
            6,
            19,
            "unexpected suffix after register",
            ".q",
        ),
        (
            kernel("\tmov.b64 {%r1, %r2, %rd1;"),
            6,
            25,
            "expected `,` or `}` in vector operand",
            ";",
        ),
        (
            kernel("\tmov.u32 %r1, \"s\";"),
            6,
            15,
            "expected an operand",
            "\"s\"",
        ),
        (
            kernel("\tadd.u32 %r1, 99999999999999999999999, 1;"),
            6,
            15,
            "invalid integer literal",
            "99999999999999999999999",
        ),
        (
            kernel("\tadd.u32 %r1, 089, 1;"),
            6,
            15,
            "invalid integer literal",
            "089",
        ),
        (
            kernel("\t%r1 = 5;"),
            6,
            2,
            "expected an instruction opcode",
            "%r1",
        ),
        // lexical problems
        (
            kernel("\tmov.u32 %r1, # ;"),
            6,
            15,
            "unexpected character",
            "#",
        ),
        (
            kernel("\tmov.u32 é, 1;"),
            6,
            10,
            "unexpected character",
            "é",
        ),
        (
            kernel("\t/* never closed"),
            6,
            2,
            "unterminated block comment",
            "/*",
        ),
        // directives and declarations
        (
            kernel("\t.loc 1 2\n\tret;"),
            7,
            2,
            "expected a column number in `.loc`",
            "ret",
        ),
        (
            kernel("\t.weird 1;"),
            6,
            2,
            "unknown directive `.weird`",
            ".weird",
        ),
        (
            format!("{H}.foo bar;\n"),
            4,
            1,
            "unknown module-scope directive",
            ".foo",
        ),
        (
            format!("{H}.section .debug_info {{ .b8 1\n"),
            5,
            1,
            "unterminated `.section` block",
            "<end of input>",
        ),
        (
            format!("{H}.global .u32 x\n.global .u32 y;\n"),
            5,
            1,
            "expected `;` after variable declaration",
            ".global",
        ),
        (
            format!("{H}.global .b8 s[2] = {{1, 2;\n"),
            4,
            25,
            "expected `,` or `}` in initializer list",
            ";",
        ),
        (
            format!("{H}.entry k(.param .u32 a\n{{ }}\n"),
            5,
            1,
            "expected `,` or `)` in parameter list",
            "{",
        ),
        (
            format!("{H}.entry k() .maxntid {{ }}\n"),
            4,
            21,
            "expected a number after `.maxntid`",
            "{",
        ),
        (
            format!("{H}.entry k(.param a) {{ }}\n"),
            4,
            17,
            "expected a parameter type",
            "a",
        ),
        (
            format!("{H}.entry k() ret;\n"),
            4,
            12,
            "expected `{` or `;` after function header",
            "ret",
        ),
        (
            format!("{H}.visible .reg .b32 r;\n"),
            4,
            10,
            "expected `.entry`, `.func` or a variable declaration",
            ".reg",
        ),
        (
            format!("{H}.entry k()\n{{\n\tret;\n}}\n}}\n"),
            8,
            1,
            "expected a directive at module scope",
            "}",
        ),
    ];
    assert!(cases.len() >= 10);
    for (src, line, col, msg, found) in &cases {
        let err = match ptx::parse(src) {
            Ok(m) => panic!("expected an error for {src:?}, got {m:?}"),
            Err(e) => e,
        };
        assert_eq!(
            (err.line, err.col),
            (*line, *col),
            "position for {src:?}: {err}"
        );
        assert!(
            err.message.contains(msg),
            "message for {src:?}: got `{}`, want `{msg}`",
            err.message
        );
        assert_eq!(err.found, *found, "found for {src:?}");
    }
}

#[test]
fn error_display_format() {
    let e = ptx::parse(&kernel("\tmov.f32 %f1, 0f123;")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "6:15: invalid hex float literal (`0f` needs 8 hex digits) (found `0f123`)"
    );
}

#[test]
fn found_text_is_truncated() {
    let long = "x".repeat(500);
    let e = ptx::parse(&kernel(&format!("\tmov.u32 %r1, 1 {long};"))).unwrap_err();
    assert_eq!(e.message, "expected `;` after instruction");
    assert!(e.found.chars().count() <= 61, "{}", e.found);
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = "{".repeat(100_000);
    let e = ptx::parse(&kernel(&deep)).unwrap_err();
    assert_eq!(e.message, "nesting too deep");
    let deep_vec = format!("\tmov.b32 %r1, {};", "{".repeat(100_000));
    assert_eq!(
        ptx::parse(&kernel(&deep_vec)).unwrap_err().message,
        "nesting too deep"
    );
    let deep_init = format!("{H}.global .b8 x[1] = {};", "{".repeat(100_000));
    assert_eq!(
        ptx::parse(&deep_init).unwrap_err().message,
        "nesting too deep"
    );
}

#[test]
fn byte_order_mark_is_skipped() {
    let m = ptx::parse("\u{FEFF}.version 9.5\n.target sm_75\n").unwrap();
    assert_eq!(m.version, (9, 5));
}
