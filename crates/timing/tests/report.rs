//! Statistics writers (`report.rs`) and a printout of statistics and simulation speed
//! (`cargo test --release -p warpsim-timing --test integration -- report:: --ignored --nocapture`; the
//! speed harness proper is `examples/bench.rs`).
use crate::common;

use common::*;
use warpsim_timing::report;

fn barrier_kernel() -> String {
    kernel(
        ".shared .align 4 .b8 sh[1024];",
        "shl.b32 %r6, %r5, 2;\nmov.u32 %r7, sh;\nadd.s32 %r8, %r7, %r6;\nst.shared.u32 [%r8], %r2;\nbar.sync 0;\n\
         ld.shared.u32 %r12, [%r8];\nmul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r12;",
    )
}

#[test]
fn text_csv_and_json_cover_every_declared_statistic() {
    let cfg = gtx480();
    let a = run(
        &barrier_kernel(),
        8,
        128,
        1024,
        Some((&cfg, warpsim_timing::PolicyKind::GTO)),
    )
    .stats
    .unwrap();
    let b = run(
        &barrier_kernel(),
        4,
        64,
        256,
        Some((&cfg, warpsim_timing::PolicyKind::LRR)),
    )
    .stats
    .unwrap();
    let t = report::text(&a);
    for (d, _) in report::launch_stats() {
        assert!(
            t.contains(d.name) && t.contains(d.description),
            "{}",
            d.name
        );
    }
    assert!(
        t.contains(&format!("cycles                   = {:>14}", a.cycles)),
        "{t}"
    );
    assert!(t.contains(&format!("W32:{}", a.issued_lanes[32])), "{t}");
    let csv = report::csv(&[a.clone(), b.clone()]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4); // header, two launches, total
    let header: Vec<&str> = lines[0].split(',').collect();
    let total: Vec<&str> = lines[3].split(',').collect();
    assert_eq!(header.len(), total.len());
    let col = |n: &str| header.iter().position(|h| *h == n).unwrap();
    assert_eq!(total[0], "total");
    assert_eq!(total[col("cycles")], (a.cycles + b.cycles).to_string());
    assert_eq!(
        total[col("warp_instructions")],
        (a.warp_instructions + b.warp_instructions).to_string()
    );
    assert_eq!(
        total[col("stall_barrier")],
        (a.stalls.barrier + b.stalls.barrier).to_string()
    );
    let tot = report::totals(&[a.clone(), b.clone()]);
    let frac = (a.stalls.barrier + b.stalls.barrier) as f64
        / (report::resident_warp_cycles(&a) + report::resident_warp_cycles(&b)) as f64;
    assert!((tot.barrier_stall_fraction - frac).abs() < 1e-12);
    assert!(
        (report::resident_warp_cycles(&a) as f64 * a.barrier_stall_fraction
            - a.stalls.barrier as f64)
            .abs()
            < 1e-6
    );
    let j = report::json(&a);
    assert_eq!(j["cycles"], a.cycles);
    assert_eq!(
        j["descriptions"]["stall_barrier"],
        "warp-cycles waiting at a barrier"
    );
    let rate = report::simulation_rate(&a, std::time::Duration::from_millis(500));
    assert!(
        rate.contains(&format!("{:.0} cycles/s", a.cycles as f64 * 2.0)),
        "{rate}"
    );
}

#[test]
fn event_log_is_opt_in_and_records_the_barrier_phases() {
    let cfg = gtx480();
    let s = run(
        &barrier_kernel(),
        2,
        64,
        128,
        Some((&cfg, warpsim_timing::PolicyKind::GTO)),
    )
    .stats
    .unwrap();
    assert!(s.events.is_empty());
    EVENTS.with(|e| e.set(true));
    let s = run(
        &barrier_kernel(),
        2,
        64,
        128,
        Some((&cfg, warpsim_timing::PolicyKind::GTO)),
    )
    .stats
    .unwrap();
    EVENTS.with(|e| e.set(false));
    use warpsim_timing::stats::LogKind::*;
    let count = |f: &dyn Fn(&warpsim_timing::stats::LogKind) -> bool| {
        s.events.iter().filter(|e| f(&e.kind)).count()
    };
    assert_eq!(count(&|k| matches!(k, CtaStart { .. })), 2);
    assert_eq!(count(&|k| matches!(k, CtaEnd { .. })), 2);
    assert_eq!(count(&|k| matches!(k, BarrierArrive { .. })), 4);
    assert_eq!(count(&|k| matches!(k, BarrierRelease { .. })), 2);
    assert_eq!(count(&|k| matches!(k, WarpFinish { .. })), 4);
    // Every CTA's end event matches its record; each warp's finish is logged at its done cycle.
    for c in &s.ctas {
        assert!(s
            .events
            .iter()
            .any(|e| e.kind == CtaEnd { cta: c.linear } && e.cycle == c.end && e.sm == c.sm));
        assert!(s
            .events
            .iter()
            .any(|e| e.kind == CtaStart { cta: c.linear } && e.cycle == c.start));
    }
    for w in &s.warps {
        assert!(s.events.iter().any(|e| e.kind
            == WarpFinish {
                cta: w.cta,
                warp: w.warp
            }
            && e.cycle == w.done));
    }
    // The release of each CTA's barrier follows both arrivals, at the PC of the `bar.sync`.
    for c in 0..2u64 {
        let arr: Vec<_> = s
            .events
            .iter()
            .filter(|e| matches!(e.kind, BarrierArrive { cta, .. } if cta == c))
            .collect();
        let rel = s
            .events
            .iter()
            .find(|e| matches!(e.kind, BarrierRelease { cta, .. } if cta == c))
            .unwrap();
        let BarrierArrive { pc, .. } = arr[0].kind else {
            unreachable!()
        };
        assert_eq!(rel.kind, BarrierRelease { cta: c, pc });
        assert!(arr.iter().all(|a| a.cycle <= rel.cycle));
    }
    assert!(serde_json::to_string(&s.events)
        .unwrap()
        .contains("\"event\":\"barrier_release\""));
}

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
        for p in policies() {
            let o = run(&src, grid, block, (grid * block) as usize, Some((&cfg, p)));
            let s = o.stats.unwrap();
            println!(
                "grid {grid} block {block}\n{}{}",
                report::text(&s),
                report::simulation_rate(&s, std::time::Duration::from_secs_f64(o.seconds))
            );
        }
    }
}
