//! `--csv` and `--json` of `warpsim intensity`: the table with the sums behind every
//! percentage (barrier, exit-wait and drain warp cycles, resident warp cycles), so a reader
//! can re-derive each fraction or weigh the stall reasons differently.

use std::fmt::Write as _;

use serde_json::{json, Value};
use warpsim_suite::Size;

use super::{Class, Row, Sums, CUTOFF, POLICIES};
use crate::stats_out::csv_field;

/// One row per program: `program,sets,class,verdict`, then per policy its fraction, the warp
/// cycle sums, program cycles, launches and status (`verified`, `MISMATCH`, `ERROR`).
pub fn csv(rows: &[Row]) -> String {
    let mut out = String::from("program,sets,class,verdict");
    for p in POLICIES {
        let p = p.name();
        let _ =
            write!(out, ",{p}_fraction,{p}_barrier_cycles,{p}_exit_wait_cycles,{p}_drain_cycles,{p}_resident_warp_cycles,{p}_cycles,{p}_launches,{p}_status");
    }
    out.push('\n');
    for r in rows {
        let _ = write!(out, "{},{},{},{}", r.program.name, csv_field(&r.program.sets.join(",")), r.class.map_or("", Class::name), csv_field(r.verdict.name()));
        for run in &r.runs {
            let _ = match run {
                Ok(s) => {
                    write!(out, ",{:.6},{},{},{},{},{},{},verified", s.fraction, s.barrier, s.exit_wait, s.drain, s.resident_warp_cycles, s.cycles, s.launches)
                }
                Err(f) => write!(out, ",,,,,,,,{}", f.status),
            };
        }
        out.push('\n');
    }
    out
}

fn run_json(run: &Result<Sums, super::Failure>) -> Value {
    match run {
        Ok(s) => {
            let mut v = json!(s);
            v["verified"] = json!(true);
            v
        }
        Err(f) => json!({"verified": false, "status": f.status, "error": f.message}),
    }
}

/// `{config, size, cutoff, policies, programs: [{program, sets, class, verdict, lrr, gto}]}`.
pub fn json(rows: &[Row], size: Size, config: &str) -> String {
    let programs: Vec<Value> = rows
        .iter()
        .map(|r| {
            let mut v = json!({
                "program": r.program.name,
                "sets": r.program.sets,
                "class": r.class.map(Class::name),
                "verdict": r.verdict.name(),
            });
            for (p, run) in POLICIES.iter().zip(&r.runs) {
                v[p.name()] = run_json(run);
            }
            v
        })
        .collect();
    let doc = json!({
        "config": config,
        "size": size.name(),
        "cutoff": CUTOFF,
        "policies": POLICIES.map(|p| p.name()),
        "programs": programs,
    });
    serde_json::to_string_pretty(&doc).expect("intensity JSON serializes") + "\n"
}
