//! Runaways a user can see: a timed `warpsim run` of a spinning kernel prints progress lines
//! (`--progress`; on a terminal without it), and Ctrl-C (SIGINT) stops it cleanly with the
//! statistics so far marked partial and exit code 130.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

use common::*;

#[test]
fn sigint_stops_a_spinning_kernel_with_partial_statistics() {
    let dir = scratch("interrupt-spin");
    std::fs::copy(data().join("faults.ptx"), dir.join("faults.ptx")).unwrap();
    // `while (1) p[0] += 1;` on 120 CTAs; no instruction limit that could end it first.
    std::fs::write(
        dir.join("spin.toml"),
        "ptx = \"faults.ptx\"\nkernel = \"_Z4spinPVi\"\ngrid = 120\nblock = 64\nmax_warp_instructions = 1000000000000\n\n\
         [[buffer]]\nname = \"p\"\ntype = \"i32\"\nlen = 1\n\n[[arg]]\nbuffer = \"p\"\n",
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_warpsim"))
        .args(["run", "spin.toml", "--progress"])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start warpsim run");
    // Wait for the first progress line (one every 2 s), then interrupt.
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    assert!(
        first.starts_with("warpsim: spin(int volatile*): cycle ")
            && first.contains("CTAs 0/120")
            && first.contains("warp instr/s"),
        "{first}"
    );
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(
        status.code(),
        Some(130),
        "stdout:\n{stdout}\nstderr:\n{first}{rest}"
    );
    assert!(
        stdout.starts_with("partial statistics (interrupted): 0 completed launches"),
        "{stdout}"
    );
    assert!(
        rest.contains("kernel `spin(int volatile*)` interrupted at cycle ")
            && rest.contains("of 120 CTAs done"),
        "{rest}"
    );
}

#[test]
fn functional_mode_and_finished_runs_are_unaffected() {
    // A run that finishes says nothing about progress when stderr is not a terminal.
    let r = warpsim(&["run", "hello.toml"], &data());
    assert_code(&r, 0);
    assert!(!r.stderr.contains("warp instr/s"), "{}", r.stderr);
}
