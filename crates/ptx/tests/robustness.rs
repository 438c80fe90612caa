//! Property tests: arbitrary bytes, token soups and mutated real PTX never make the parser
//! panic, and every error points inside the source.

use proptest::prelude::*;

const VOCAB: &[&str] = &[
    ".version",
    "9.5",
    ".target",
    "sm_75",
    ",",
    "debug",
    ".address_size",
    "64",
    ".visible",
    ".extern",
    ".weak",
    ".common",
    ".entry",
    ".func",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    ";",
    ":",
    "+",
    "-",
    "|",
    "!",
    "@",
    "=",
    "*",
    "/",
    ".param",
    ".reg",
    ".local",
    ".shared",
    ".global",
    ".const",
    ".tex",
    ".align",
    "8",
    "16",
    ".b8",
    ".b32",
    ".u64",
    ".f32",
    ".f64",
    ".pred",
    ".v2",
    ".v4",
    ".ptr",
    "%r",
    "%r1",
    "%p1",
    "%tid",
    ".x",
    "%rd7",
    "_",
    "$L__BB0_2",
    "_Z3fooi",
    "ld",
    "st",
    "mov",
    "call",
    "bra",
    ".uni",
    "ret",
    "0f3F800000",
    "0f12",
    "0d3FF0000000000000",
    "0x1F",
    "017",
    "0b101",
    "-1",
    "1.5",
    "1e-3",
    "\"str\"",
    "\"open",
    "/*",
    "*/",
    "//",
    "\n",
    ".loc",
    "1",
    "3",
    "5",
    "function_name",
    "inlined_at",
    ".file",
    ".pragma",
    ".section",
    ".debug_info",
    ".callprototype",
    ".branchtargets",
    ".calltargets",
    "prototype_0",
    ".maxntid",
    ".reqntid",
    ".noreturn",
    "generic",
    ".attribute",
    ".managed",
    ".alias",
    "#",
    "é",
    "\0",
];

fn check(src: &str) {
    if let Err(e) = ptx::parse(src) {
        let lines = src.split('\n').count() as u32;
        assert!(
            e.line >= 1 && e.line <= lines,
            "line {} out of 1..={lines}: {e}",
            e.line
        );
        assert!(e.col >= 1, "{e}");
        assert!(!e.message.is_empty());
        assert!(
            !e.found.is_empty() || e.message.contains("character"),
            "{e}"
        );
    }
}

fn corpus_sample() -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/ptx");
    std::fs::read_to_string(dir.join("printf_kernel.G.ptx")).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        check(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_ascii_never_panics(s in "[ -~\n\t]{0,400}") {
        check(&s);
    }

    #[test]
    fn token_soup_never_panics(
        toks in proptest::collection::vec(0..VOCAB.len(), 0..200),
        seps in proptest::collection::vec(0..3u8, 200),
    ) {
        let mut s = String::new();
        for (i, t) in toks.iter().enumerate() {
            s.push_str(VOCAB[*t]);
            match seps[i] { 0 => {}, 1 => s.push(' '), _ => s.push('\n') }
        }
        check(&s);
        // The same soup inside a well-formed kernel body reaches the statement parser.
        check(&format!(".version 9.5\n.target sm_75\n.entry k()\n{{\n{s}\n}}\n"));
    }

    #[test]
    fn mutated_real_ptx_never_panics(
        cut_at in 0.0f64..1.0, cut_len in 0usize..200,
        ins_at in 0.0f64..1.0, ins in 0..VOCAB.len(),
    ) {
        let src = corpus_sample();
        let mut bytes = src.into_bytes();
        let a = ((bytes.len() as f64) * cut_at) as usize;
        let b = (a + cut_len).min(bytes.len());
        bytes.drain(a..b);
        let i = ((bytes.len() as f64) * ins_at) as usize;
        let tail = bytes.split_off(i);
        bytes.extend_from_slice(VOCAB[ins].as_bytes());
        bytes.extend_from_slice(&tail);
        check(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn every_prefix_of_a_real_file_is_handled() {
    let src = corpus_sample();
    let mut cut = 0;
    while cut < src.len() {
        if src.is_char_boundary(cut) {
            check(&src[..cut]);
        }
        cut += 7;
    }
}

/// A 30,000-line kernel parses in time linear in its size (guards against quadratic
/// behaviour; the bound is loose because tests build at opt-level 1 on shared machines).
#[test]
fn large_input_is_fast() {
    let mut src = String::from(".version 9.5\n.target sm_75\n.address_size 64\n.visible .entry big(.param .u64 p)\n{\n.reg .b32 %r<100>;\n.reg .pred %p<4>;\n");
    for i in 0..10_000 {
        src.push_str(&format!(
            "$L__BB0_{i}:\n\tadd.s32 %r{}, %r{}, {i};\n",
            i % 100,
            (i + 7) % 100
        ));
        src.push_str(&format!("\t@%p1 bra $L__BB0_{};\n", i / 2));
    }
    src.push_str("\tret;\n}\n");
    assert!(src.lines().count() > 30_000);
    let t = std::time::Instant::now();
    let m = ptx::parse(&src).unwrap();
    let elapsed = t.elapsed();
    let ptx::ast::Item::Function(f) = &m.items[0] else {
        panic!()
    };
    assert_eq!(f.body.as_ref().unwrap().statements.len(), 2 + 30_000 + 1);
    assert!(elapsed.as_millis() < 2_000, "30k lines took {elapsed:?}");
}
