//! Prints statistics and simulation speed of a few kernels (`cargo test --release -p
//! warpsim-timing --test report -- --ignored --nocapture`).
mod common;

use common::*;

#[test]
#[ignore]
fn print_stats_and_speed() {
    let cfg = gtx480();
    let chain: String = (0..200).map(|_| "add.s32 %r6, %r6, 1;\n").collect();
    let src = kernel("", &format!("mov.u32 %r6, %r2;\n{chain}mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r6;"));
    let f = run(&src, 120, 256, 120 * 256, None);
    println!(
        "functional mode, grid 120 block 256: {:.3} ms",
        f.seconds * 1e3
    );
    for (grid, block) in [(1u32, 32u32), (1, 512), (120, 256), (600, 256)] {
        for p in POLICIES {
            let o = run(&src, grid, block, (grid * block) as usize, Some((&cfg, p)));
            let dt = o.seconds;
            let s = o.stats.unwrap();
            println!(
                "grid {grid} block {block} {:6}: cycles {} warp_insts {} ipc {:.3} issue {:?} stalls {:?} | {:.2} Mcycles/s {:.2} Mwarp-inst/s",
                s.policy, s.cycles, s.warp_instructions, s.ipc, s.issue, s.stalls, s.cycles as f64 / dt / 1e6, s.warp_instructions as f64 / dt / 1e6
            );
        }
    }
}
