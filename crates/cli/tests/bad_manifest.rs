//! Manifests with mistakes: each is rejected with exit code 2, and the message names the
//! manifest, the position and the exact key path.

mod common;

use common::*;

/// A valid manifest for the saxpy example kernel; cases edit it.
const GOOD: &str = r#"ptx = "saxpy.ptx"
grid = 4
block = 256

[[buffer]]
name = "x"
type = "f32"
len = 1000
init = { kind = "random", seed = 1, min = -1.0, max = 1.0 }

[[buffer]]
name = "y"
type = "f32"
len = 1000

[[arg]]
value = 1000
type = "i32"

[[arg]]
value = 2.5
type = "f32"

[[arg]]
buffer = "x"

[[arg]]
buffer = "y"
"#;

/// Runs `manifest` (next to a copy of the saxpy PTX) and expects exit 2 with `expected` in
/// the diagnostics.
#[track_caller]
fn rejects(name: &str, manifest: &str, expected: &str) -> Run {
    let dir = scratch(name);
    std::fs::copy(
        repo().join("examples/manifests/saxpy/saxpy.ptx"),
        dir.join("saxpy.ptx"),
    )
    .unwrap();
    std::fs::write(dir.join("m.toml"), manifest).unwrap();
    let r = warpsim(&["run", "m.toml"], &dir);
    assert_code(&r, 2);
    assert_contains(&r, expected);
    r
}

fn edit(from: &str, to: &str) -> String {
    assert!(GOOD.contains(from), "{from:?}");
    GOOD.replacen(from, to, 1)
}

#[test]
fn good_manifest_runs() {
    let dir = scratch("bad_manifest_good");
    std::fs::copy(
        repo().join("examples/manifests/saxpy/saxpy.ptx"),
        dir.join("saxpy.ptx"),
    )
    .unwrap();
    std::fs::write(dir.join("m.toml"), GOOD).unwrap();
    assert_code(&warpsim(&["run", "m.toml"], &dir), 0);
}

#[test]
fn unknown_top_level_key() {
    rejects(
        "unknown_key",
        &edit("block = 256\n", "block = 256\nthreads = 3\n"),
        "m.toml:4:1: threads: unknown key \"threads\"; expected one of ptx, kernel, grid, block,",
    );
}

#[test]
fn unknown_key_in_a_buffer() {
    rejects("unknown_buffer_key", &edit("len = 1000\n", "len = 1000\nlength = 5\n"), "m.toml:9:1: buffer[0].length: unknown key \"length\"; expected one of name, type, len, init");
}

#[test]
fn unknown_key_in_an_initializer() {
    rejects(
        "unknown_init_key",
        &edit("seed = 1,", "seed = 1, mean = 0,"),
        "buffer[0].init.mean: unknown key \"mean\"",
    );
}

#[test]
fn bad_init_kind() {
    rejects(
        "bad_init_kind",
        &edit("len = 1000\n\n[[arg]]", "len = 1000\ninit = { kind = \"rand\" }\n\n[[arg]]"),
        "m.toml:15:17: buffer[1].init.kind: unknown initializer \"rand\"; expected one of zeros, value, iota, random, file",
    );
}

#[test]
fn init_key_of_another_kind() {
    rejects(
        "init_key_other_kind",
        &edit(
            "len = 1000\n\n[[arg]]",
            "len = 1000\ninit = { kind = \"zeros\", seed = 3 }\n\n[[arg]]",
        ),
        "m.toml:15:33: buffer[1].init.seed: not used by initializer \"zeros\"",
    );
}

#[test]
fn missing_buffer() {
    rejects(
        "missing_buffer",
        &edit("buffer = \"y\"", "buffer = \"z\""),
        "m.toml:28:10: arg[3].buffer: unknown buffer \"z\"; defined buffers: x, y",
    );
}

#[test]
fn arg_count_mismatch() {
    let text = GOOD
        .trim_end()
        .strip_suffix("[[arg]]\nbuffer = \"y\"")
        .unwrap();
    rejects("arg_count", text, "m.toml:16:1: arg: kernel _Z5saxpyifPKfPf takes 4 parameters: _Z5saxpyifPKfPf_param_0 (4 bytes), _Z5saxpyifPKfPf_param_1 (4 bytes), _Z5saxpyifPKfPf_param_2 (8 bytes), _Z5saxpyifPKfPf_param_3 (8 bytes) but 3 [[arg]] are given");
}

#[test]
fn arg_size_mismatch() {
    rejects("arg_size", &edit("type = \"i32\"", "type = \"i64\""), "m.toml:18:8: arg[0].type: i64 is 8 bytes but parameter 0 (_Z5saxpyifPKfPf_param_0) is 4 bytes");
}

#[test]
fn scalar_without_type() {
    rejects(
        "scalar_no_type",
        &edit("value = 2.5\ntype = \"f32\"\n", "value = 2.5\n"),
        "arg[1].type: missing required key (a scalar argument needs its type",
    );
}

#[test]
fn scalar_out_of_range() {
    rejects(
        "scalar_range",
        &edit(
            "value = 1000\ntype = \"i32\"",
            "value = 3_000_000_000\ntype = \"i32\"",
        ),
        "m.toml:17:9: arg[0].value: 3000000000 is out of range for i32 (-2147483648..=2147483647)",
    );
}

#[test]
fn block_too_large() {
    rejects(
        "block_too_large",
        &edit("block = 256", "block = [64, 32]"),
        "m.toml:3:9: block: 2048 threads per block (64 x 32 x 1); at most 1024",
    );
}

#[test]
fn zero_and_negative_dims() {
    let r = rejects(
        "zero_dims",
        &edit("grid = 4", "grid = [4, 0, -2]"),
        "m.toml:2:12: grid[1]: extent y must be at least 1, got 0",
    );
    assert_contains(
        &r,
        "m.toml:2:15: grid[2]: extent z must be at least 1, got -2",
    );
    rejects(
        "four_dims",
        &edit("grid = 4", "grid = [1, 1, 1, 1]"),
        "m.toml:2:8: grid: expected 1 to 3 extents, got 4",
    );
}

#[test]
fn bad_type() {
    rejects("bad_type", &edit("type = \"f32\"\nlen = 1000\ninit", "type = \"float\"\nlen = 1000\ninit"), "m.toml:7:8: buffer[0].type: unknown type \"float\"; expected one of u8, i8, u16, i16, u32, i32, u64, i64, f32, f64");
}

#[test]
fn wrong_value_type() {
    rejects(
        "wrong_value_type",
        &edit("len = 1000\ninit", "len = \"1000\"\ninit"),
        "m.toml:8:7: buffer[0].len: invalid type: string \"1000\", expected an integer",
    );
}

#[test]
fn missing_ptx_file() {
    rejects(
        "missing_ptx",
        &edit("ptx = \"saxpy.ptx\"", "ptx = \"sxapy.ptx\""),
        "m.toml:1:7: ptx: PTX file \"sxapy.ptx\" not found",
    );
}

#[test]
fn missing_ptx_key() {
    rejects(
        "missing_ptx_key",
        &edit("ptx = \"saxpy.ptx\"\n", ""),
        "ptx: missing required key",
    );
}

#[test]
fn min_greater_than_max() {
    rejects(
        "min_max",
        &edit("min = -1.0, max = 1.0", "min = 1.0, max = -1.0"),
        "m.toml:9:43: buffer[0].init.min: min (1.0) is greater than max (-1.0)",
    );
}

#[test]
fn zero_length() {
    rejects(
        "zero_len",
        &edit("len = 1000\ninit", "len = 0\ninit"),
        "m.toml:8:7: buffer[0].len: must be at least 1, got 0",
    );
}

#[test]
fn missing_init_file() {
    rejects(
        "missing_init_file",
        &edit(
            "kind = \"random\", seed = 1, min = -1.0, max = 1.0",
            "kind = \"file\", path = \"x.bin\"",
        ),
        "m.toml:9:32: buffer[0].init.path: cannot read file \"x.bin\"",
    );
}

#[test]
fn init_file_of_the_wrong_size() {
    let dir = scratch("wrong_size_file");
    std::fs::copy(
        repo().join("examples/manifests/saxpy/saxpy.ptx"),
        dir.join("saxpy.ptx"),
    )
    .unwrap();
    std::fs::write(dir.join("x.bin"), [0u8; 12]).unwrap();
    std::fs::write(
        dir.join("m.toml"),
        edit(
            "kind = \"random\", seed = 1, min = -1.0, max = 1.0",
            "kind = \"file\", path = \"x.bin\"",
        ),
    )
    .unwrap();
    let r = warpsim(&["run", "m.toml"], &dir);
    assert_code(&r, 2);
    assert_contains(
        &r,
        "buffer[0].init.path: file \"x.bin\" has 12 bytes; 1000 f32 elements need 4000",
    );
}

#[test]
fn duplicate_buffer_name() {
    rejects(
        "duplicate_name",
        &edit("name = \"y\"", "name = \"x\""),
        "m.toml:12:8: buffer[1].name: duplicate buffer name \"x\" (also buffer[0])",
    );
}

#[test]
fn unknown_kernel() {
    rejects(
        "unknown_kernel",
        &edit("grid = 4", "kernel = \"saxpy\"\ngrid = 4"),
        "m.toml:2:10: kernel: unknown kernel \"saxpy\"; the module has: _Z5saxpyifPKfPf",
    );
}

#[test]
fn check_problems() {
    let text = format!("{GOOD}\n[[check]]\nbuffer = \"w\"\nexpect = {{ kind = \"zeros\" }}\n\n[[check]]\nbuffer = \"y\"\n\n[[check]]\nbuffer = \"y\"\nexpect = {{ kind = \"zeros\" }}\ntolerance = {{ rel = -1 }}\n");
    let r = rejects(
        "check_problems",
        &text,
        "m.toml:31:10: check[0].buffer: unknown buffer \"w\"; defined buffers: x, y",
    );
    assert_contains(
        &r,
        "m.toml:34:1: check[1]: needs one of equals_file, equals_buffer or expect",
    );
    assert_contains(
        &r,
        "m.toml:40:21: check[2].tolerance.rel: must be a finite number >= 0, got -1",
    );
}

#[test]
fn launch_tables_exclude_top_level_launch_keys() {
    let text = format!("{GOOD}\n[[launch]]\ngrid = 1\nblock = 32\n");
    let r = rejects(
        "launch_and_top",
        &text,
        "m.toml:2:8: grid: not allowed at the top level when [[launch]] tables are given",
    );
    assert_contains(&r, "m.toml:16:1: arg: not allowed at the top level");
}

#[test]
fn toml_syntax_error() {
    rejects("toml_syntax", &edit("grid = 4", "grid = [4"), "m.toml:3:1:");
}

#[test]
fn every_problem_is_reported() {
    let text = edit("block = 256", "block = 2000").replace("len = 1000\n\n", "len = -1\n\n");
    let r = rejects(
        "many_problems",
        &text,
        "block: extent x is 2000; at most 1024",
    );
    assert_contains(&r, "buffer[1].len: must be at least 1, got -1");
}

#[test]
fn ptx_errors_point_into_the_ptx() {
    let dir = scratch("bad_ptx");
    std::fs::copy(data().join("syntax_error.ptx"), dir.join("saxpy.ptx")).unwrap();
    std::fs::write(dir.join("m.toml"), GOOD).unwrap();
    let r = warpsim(&["run", "m.toml"], &dir);
    assert_code(&r, 2);
    assert_contains(&r, "saxpy.ptx:11:2: syntax error");
}

#[test]
fn missing_manifest() {
    let r = warpsim(&["run", "nope.toml"], &data());
    assert_code(&r, 2);
    assert_contains(&r, "nope.toml: cannot read manifest");
}

#[test]
fn table_instead_of_array_of_tables() {
    let text = "ptx = \"saxpy.ptx\"\ngrid = 1\nblock = 1\n\n[buffer]\nname = \"x\"\ntype = \"f32\"\nlen = 4\n";
    rejects("single_table", text, "m.toml:5:1: buffer: invalid type: map, expected an array (for tables: [[name]], not [name])");
}
