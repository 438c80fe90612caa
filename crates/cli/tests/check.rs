//! `warpsim check` and `warpsim list kernels`.

mod common;

use common::*;

#[test]
fn good_ptx_is_ok() {
    let r = warpsim(&["check", "faults.ptx"], &data());
    assert_code(&r, 0);
    assert_eq!(
        r.stdout.trim(),
        "faults.ptx: ok (4 kernels: _Z9oob_storePi, _Z12half_barrierPi, _Z13split_barrierPi, _Z4spinPVi, 0 functions, 40 instructions)"
    );
}

#[test]
fn syntax_error_has_file_line_col() {
    let r = warpsim(&["check", "syntax_error.ptx"], &data());
    assert_code(&r, 1);
    assert_contains(
        &r,
        "syntax_error.ptx:11:2: syntax error: expected `;` after instruction (found `add`)",
    );
    // The parser stops at its first error, and says so.
    assert_contains(
        &r,
        "syntax_error.ptx: stopped at the first syntax error (the parser does not recover)",
    );
}

#[test]
fn a_file_without_kernels_is_ok_with_a_warning() {
    let dir = scratch("check-no-kernels");
    std::fs::write(
        dir.join("lib.ptx"),
        ".version 7.5\n.target sm_75\n.address_size 64\n.visible .func f()\n{\n\tret;\n}\n",
    )
    .unwrap();
    let r = warpsim(&["check", "lib.ptx"], &dir);
    assert_code(&r, 0);
    assert_eq!(
        r.stderr,
        "lib.ptx: warning: no kernels (no `.entry`) in this file\n"
    );
    assert_contains(&r, "lib.ptx: ok (0 kernels, 1 function,");
    assert!(!warpsim(&["check", "faults.ptx"], &data())
        .stderr
        .contains("warning"));
}

#[test]
fn every_lowering_error_is_listed() {
    let r = warpsim(&["check", "unsupported.ptx"], &data());
    assert_code(&r, 1);
    assert_contains(&r, "unsupported.ptx:12:2: unsupported tex.1d.v4.f32.s32");
    assert_contains(&r, "unsupported.ptx:13: undefined register `%r9`");
}

#[test]
fn several_files_fail_if_one_fails() {
    let r = warpsim(&["check", "faults.ptx", "syntax_error.ptx"], &data());
    assert_code(&r, 1);
    assert_contains(&r, "faults.ptx: ok");
    assert_contains(&r, "syntax_error.ptx:11:2:");
}

#[test]
fn quiet_prints_only_errors() {
    let r = warpsim(&["check", "--quiet", "faults.ptx"], &data());
    assert_code(&r, 0);
    assert_eq!(r.all(), "");
    let r = warpsim(&["check", "-q", "faults.ptx", "unsupported.ptx"], &data());
    assert_code(&r, 1);
    assert!(!r.all().contains("faults.ptx"), "{}", r.all());
    assert_contains(&r, "unsupported.ptx:12:");
}

#[test]
fn missing_file_is_bad_input() {
    let r = warpsim(&["check", "no-such-file.ptx"], &data());
    assert_code(&r, 2);
    assert_contains(&r, "no-such-file.ptx: cannot read");
}

#[test]
fn example_ptx_checks() {
    let r = warpsim(&["check", "examples/manifests/saxpy/saxpy.ptx"], &repo());
    assert_code(&r, 0);
    assert_contains(&r, "ok (1 kernel: _Z5saxpyifPKfPf, 0 functions,");
}

#[test]
fn list_kernels_shows_parameters() {
    let r = warpsim(
        &["list", "kernels", "examples/manifests/saxpy/saxpy.ptx"],
        &repo(),
    );
    assert_code(&r, 0);
    assert_contains(
        &r,
        "_Z5saxpyifPKfPf\n  param 0: _Z5saxpyifPKfPf_param_0 (4 bytes",
    );
    assert_contains(&r, "param 3: _Z5saxpyifPKfPf_param_3 (8 bytes");
    let r = warpsim(&["list", "kernels", "syntax_error.ptx"], &data());
    assert_code(&r, 2);
    assert_contains(&r, "syntax_error.ptx:11:2:");
}
