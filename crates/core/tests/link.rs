//! Device linking over hand-written PTX units: what resolves, what stays unit-local, and the
//! errors a device linker gives.
// `DeviceError` is the API's error type: the helper returns it as the API does.
#![allow(clippy::result_large_err)]

use warpsim_core::device::{Arg, Device, DeviceError, Dim3, LaunchConfig};
use warpsim_core::link::{joined, link, LinkError, Unit};
use warpsim_core::{load_linked_ptx, LoadError};

const HEAD: &str = ".version 9.5\n.target sm_75\n.address_size 64\n";

/// A unit named `name` whose text is the header plus `body`.
fn unit(body: &str) -> String {
    format!("{HEAD}{body}")
}

/// A kernel `kernel(out)` that stores `expr_code`'s `%r9` to `out[tid]`.
fn kernel(name: &str, code: &str) -> String {
    format!(
        ".visible .entry {name}(.param .u64 out)\n{{\n.reg .b32 %r<10>;\n.reg .b64 %rd<4>;\n\
         ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd1, %rd1;\nmov.u32 %r1, %tid.x;\n\
         {code}\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r9;\nret;\n}}\n"
    )
}

/// `call (%r9), f, (%r1);` with the call sequence nvcc writes.
fn call(f: &str) -> String {
    format!(
        "{{\n.param .b32 p0;\nst.param.b32 [p0], %r1;\n.param .b32 r0;\ncall.uni (r0), {f}, (p0);\nld.param.b32 %r9, [r0];\n}}"
    )
}

/// `.func (.param .b32 ret) name(.param .b32 x)` returning `x * mul + add`.
fn func(linkage: &str, name: &str, mul: u32, add: u32) -> String {
    format!(
        "{linkage}.func (.param .b32 ret) {name}(.param .b32 x)\n{{\n.reg .b32 %r<4>;\nld.param.u32 %r1, [x];\n\
         mad.lo.s32 %r2, %r1, {mul}, {add};\nst.param.b32 [ret], %r2;\nret;\n}}\n"
    )
}

fn decl(linkage: &str, name: &str) -> String {
    format!("{linkage}.func (.param .b32 ret) {name}(.param .b32 x);\n")
}

fn units<'a>(texts: &'a [String]) -> Vec<Unit<'a>> {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| Unit {
            name: ["unit a", "unit b", "unit c"][i],
            ptx: t,
        })
        .collect()
}

/// Links `texts`, runs kernel `k` on 4 threads and returns what they stored.
fn run(texts: &[String], k: &str) -> Result<Vec<u32>, DeviceError> {
    let mut dev = Device::new();
    let m = dev.load_linked_ptx(&units(texts))?;
    let kh = dev.kernel(m, k)?;
    let out = dev.alloc_zeroed::<u32>(4)?;
    let cfg = LaunchConfig {
        grid: Dim3::from(1),
        block: Dim3::from(4),
        dynamic_shared: 0,
    };
    dev.launch(kh, cfg, &[Arg::Ptr(out)])?;
    dev.read_vec::<u32>(out, 4)
}

fn link_errors(texts: &[String]) -> Vec<LoadError> {
    load_linked_ptx(&units(texts)).expect_err("must not link").0
}

#[test]
fn a_call_across_units_reaches_the_other_units_function() {
    let a = unit(&format!(
        "{}{}",
        decl(".extern ", "_Z3addi"),
        kernel("k", &call("_Z3addi"))
    ));
    let b = unit(&func(".visible ", "_Z3addi", 10, 7));
    assert_eq!(run(&[a, b], "k").unwrap(), vec![7, 17, 27, 37]);
}

#[test]
fn an_extern_variable_is_the_other_units_definition() {
    let a = unit(&format!(
        ".extern .global .align 4 .u32 shared_x;\n.extern .const .align 4 .u32 scale;\n{}",
        kernel(
            "k",
            "ld.global.u32 %r2, [shared_x];\nld.const.u32 %r3, [scale];\nmad.lo.s32 %r9, %r1, %r3, %r2;"
        )
    ));
    let b = unit(
        ".visible .global .align 4 .u32 shared_x = 5;\n.visible .const .align 4 .u32 scale = 3;\n",
    );
    assert_eq!(
        run(&[a.clone(), b.clone()], "k").unwrap(),
        vec![5, 8, 11, 14]
    );
    // The symbol is the one variable whichever unit declares it first.
    let mut dev = Device::new();
    let m = dev.load_linked_ptx(&units(&[b, a])).unwrap();
    let (_, size) = dev.symbol(m, "shared_x").unwrap();
    assert_eq!(size, 4);
}

#[test]
fn same_named_local_functions_and_variables_stay_apart() {
    // Each unit has its own `helper` and `which` (no linkage); b's kernel calls its own.
    let local = |mul, which| {
        format!(
            "{}.global .align 4 .u32 which = {which};\n",
            func("", "helper", mul, 0)
        )
    };
    let a = unit(&format!(
        "{}{}",
        local(2, 100),
        kernel(
            "ka",
            &format!(
                "{}\nld.global.u32 %r2, [which];\nadd.s32 %r9, %r9, %r2;",
                call("helper")
            )
        )
    ));
    let b = unit(&format!(
        "{}{}",
        local(3, 200),
        kernel(
            "kb",
            &format!(
                "{}\nld.global.u32 %r2, [which];\nadd.s32 %r9, %r9, %r2;",
                call("helper")
            )
        )
    ));
    let both = [a, b];
    assert_eq!(run(&both, "ka").unwrap(), vec![100, 102, 104, 106]);
    assert_eq!(run(&both, "kb").unwrap(), vec![200, 203, 206, 209]);
}

#[test]
fn a_local_name_does_not_capture_another_units_global() {
    // a calls the visible `f` of b; c has a local `f` of its own.
    let a = unit(&format!(
        "{}{}",
        decl(".extern ", "f"),
        kernel("k", &call("f"))
    ));
    let b = unit(&func(".visible ", "f", 1, 1));
    let c = unit(&func("", "f", 0, 0));
    assert_eq!(run(&[a, b, c], "k").unwrap(), vec![1, 2, 3, 4]);
}

#[test]
fn weak_definitions_merge_and_a_strong_one_wins() {
    let user = |k: &str| {
        unit(&format!(
            "{}{}",
            func(".weak ", "_Z3inli", 1, 100),
            kernel(k, &call("_Z3inli"))
        ))
    };
    assert_eq!(
        run(&[user("ka"), user("kb")], "kb").unwrap(),
        vec![100, 101, 102, 103]
    );
    let strong = unit(&func(".visible ", "_Z3inli", 1, 500));
    assert_eq!(
        run(&[user("ka"), strong, user("kb")], "ka").unwrap(),
        vec![500, 501, 502, 503]
    );
}

#[test]
fn dynamic_shared_arrays_and_printf_declared_in_every_unit_link() {
    let body = |k: &str| {
        kernel(
            k,
            "mov.u32 %r2, dyn;\nst.shared.u32 [dyn], %r1;\nbar.sync 0;\nld.shared.u32 %r9, [dyn];",
        )
    };
    let ext = ".extern .shared .align 16 .b8 dyn[];\n.extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n";
    let a = unit(&format!("{ext}{}", body("ka")));
    let b = unit(&format!("{ext}{}", body("kb")));
    let mut dev = Device::new();
    let m = dev.load_linked_ptx(&units(&[a, b])).unwrap();
    let kb = dev.kernel(m, "kb").unwrap();
    let out = dev.alloc_zeroed::<u32>(4).unwrap();
    let cfg = LaunchConfig {
        grid: Dim3::from(1),
        block: Dim3::from(4),
        dynamic_shared: 16,
    };
    dev.launch(kb, cfg, &[Arg::Ptr(out)]).unwrap();
    let got = dev.read_vec::<u32>(out, 4).unwrap();
    // Every thread stored to the same word; all read the last value, one of 0..3.
    assert!(got.iter().all(|&v| v == got[0] && v < 4), "{got:?}");
}

#[test]
fn an_undefined_external_function_is_named_with_its_unit() {
    let a = unit(&format!(
        "{}{}",
        decl(".extern ", "_Z7missingi"),
        kernel("k", &call("_Z7missingi"))
    ));
    let b = unit(&func(".visible ", "_Z3addi", 1, 1));
    let errs = link_errors(&[a, b]);
    assert_eq!(
        errs,
        vec![LoadError::Link(LinkError::Undefined {
            kind: "function",
            name: "_Z7missingi".into(),
            users: vec!["unit a".into()],
        })]
    );
    let text = errs[0].to_string();
    assert!(text.contains("missing(int)"), "{text}");
    assert!(text.contains("used by unit a"), "{text}");
}

#[test]
fn an_undefined_external_variable_is_an_error() {
    let a = unit(&format!(
        ".extern .global .align 4 .u32 nowhere;\n{}",
        kernel("k", "ld.global.u32 %r9, [nowhere];")
    ));
    let errs = link_errors(&[a.clone(), a.replace("entry k", "entry k2")]);
    assert_eq!(
        errs[0].to_string(),
        "cannot link device code: undefined external variable `nowhere`, used by unit a, unit b"
    );
}

#[test]
fn two_strong_definitions_are_an_error() {
    let a = unit(&func(".visible ", "_Z3addi", 1, 1));
    let b = unit(&func(".visible ", "_Z3addi", 2, 2));
    assert_eq!(
        link_errors(&[a, b]),
        vec![LoadError::Link(LinkError::Duplicate {
            kind: "function",
            name: "_Z3addi".into(),
            first: "unit a".into(),
            second: "unit b".into(),
        })]
    );
    // Kernels are global even without `.visible`: two of one name collide.
    let k = unit(&kernel("k", "mov.u32 %r9, 1;"));
    let errs = link_errors(&[k.clone(), k]);
    assert!(
        errs[0]
            .to_string()
            .contains("kernel `k` is defined in unit a and again in unit b"),
        "{errs:?}"
    );
}

#[test]
fn a_name_declared_as_different_things_is_an_error() {
    let a = unit(&format!(
        ".extern .global .align 4 .u32 thing;\n{}",
        kernel("k", "ld.global.u32 %r9, [thing];")
    ));
    let b = unit(&func(".visible ", "thing", 1, 1));
    let text = link_errors(&[a, b])[0].to_string();
    assert!(
        text.contains("`thing` is a variable in unit a but a function in unit b"),
        "{text}"
    );
}

#[test]
fn different_targets_do_not_link() {
    let a = unit("");
    let b = unit("").replace("sm_75", "sm_80");
    let text = link_errors(&[a, b])[0].to_string();
    assert!(
        text.contains("unit a targets sm_75 but unit b targets sm_80"),
        "{text}"
    );
    assert!(matches!(
        load_linked_ptx(&[]).unwrap_err().0[..],
        [LoadError::Link(LinkError::NoUnits)]
    ));
}

#[test]
fn lines_count_through_the_joined_units() {
    let a = unit(&kernel("ka", "mov.u32 %r9, 1;"));
    let b = unit(&kernel("kb", "bogus.op.u32 %r9, 1;"));
    let texts = [a, b];
    let errs = link_errors(&texts);
    let text = joined(&units(&texts));
    let line = text
        .lines()
        .position(|l| l.starts_with("bogus"))
        .expect("the bad line") as u32
        + 1;
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].line(), line, "{errs:?}");
    // A syntax error too, with the unit named.
    let broken = [texts[0].clone(), unit(".visible .entry (")];
    let errs = link_errors(&broken);
    let LoadError::Parse(p) = &errs[0] else {
        panic!("{errs:?}")
    };
    assert_eq!(p.line, texts[0].lines().count() as u32 + 4, "{p}");
    assert!(p.message.contains("(in unit b)"), "{p}");
}

#[test]
fn source_files_of_each_unit_keep_their_own_numbers() {
    let with_loc = |file: &str, k: &str, line: u32| {
        unit(&format!(
            ".file 1 \"{file}\"\n{}",
            kernel(k, &format!(".loc 1 {line} 0\nmov.u32 %r9, 1;"))
        ))
    };
    let texts = [with_loc("a.cu", "ka", 11), with_loc("b.cu", "kb", 22)];
    let m = link(&units(&texts)).unwrap();
    assert_eq!(m.files, vec![(1, "a.cu".into()), (2, "b.cu".into())]);
    let ir = load_linked_ptx(&units(&texts)).unwrap();
    let (kb, f) = ir.kernels().find(|(_, f)| f.name == "kb").unwrap();
    let pc = f
        .source
        .iter()
        .position(|l| l.line != 0)
        .expect("a located instruction") as u32;
    assert_eq!(ir.source_of(kb, pc), Some(("b.cu", 22)));
}
