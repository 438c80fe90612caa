//! `--csv`, `--json` and `--markdown` of `warpsim intensity`: the table with the sums behind
//! every percentage (barrier, exit-wait and drain warp cycles, resident warp cycles), so a
//! reader can re-derive each fraction or weigh the stall reasons differently; the Markdown
//! table is the one `docs/barrier-intensity.md` shows.

use std::fmt::Write as _;

use serde_json::{json, Value};
use warpsim_suite::Size;

use super::{Class, Row, Sums, Verdict, CUTOFF, POLICIES};

/// One row per program: `program,sets,class,verdict`, then per policy its fraction, the warp
/// cycle sums, program cycles, launches and status (`verified`, `MISMATCH`, `ERROR`).
pub fn csv(rows: &[Row]) -> String {
    let mut header: Vec<String> = ["program", "sets", "class", "verdict"]
        .map(String::from)
        .into();
    for p in POLICIES {
        let p = p.name();
        header.extend(
            [
                "fraction",
                "barrier_cycles",
                "exit_wait_cycles",
                "drain_cycles",
                "resident_warp_cycles",
                "cycles",
                "launches",
                "status",
            ]
            .map(|c| format!("{p}_{c}")),
        );
    }
    let records = rows.iter().map(|r| {
        let mut f = vec![
            r.program.name.to_string(),
            r.program.sets.join(","),
            r.class.map_or("", Class::name).to_string(),
            r.verdict.name().to_string(),
        ];
        for run in &r.runs {
            match run {
                Ok(s) => f.extend([
                    format!("{:.6}", s.fraction),
                    s.barrier.to_string(),
                    s.exit_wait.to_string(),
                    s.drain.to_string(),
                    s.resident_warp_cycles.to_string(),
                    s.cycles.to_string(),
                    s.launches.to_string(),
                    "verified".into(),
                ]),
                Err(e) => {
                    f.extend(vec![String::new(); 7]);
                    f.push(e.status.to_string());
                }
            }
        }
        f
    });
    crate::csv_out::records(std::iter::once(header).chain(records))
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

/// A share of `s.resident_warp_cycles`, in percent with one decimal.
fn share(part: u64, s: &Sums) -> String {
    format!(
        "{:.1}",
        100.0 * part as f64 / s.resident_warp_cycles.max(1) as f64
    )
}

/// A Markdown table: program, expected class, each policy's percentage, the verdict, then per
/// policy the barrier / exit-wait split and the drain (which the fraction does not count).
pub fn markdown(rows: &[Row]) -> String {
    let names = POLICIES.map(|p| p.name().to_uppercase());
    let mut out = String::from("| program | class expected |");
    for n in &names {
        let _ = write!(out, " {n} % |");
    }
    out.push_str(" verdict |");
    for n in &names {
        let _ = write!(out, " {n} barrier / exit % |");
    }
    out.push_str(" drain % (not counted) |\n|---|---|");
    out.push_str(&"---:|".repeat(POLICIES.len()));
    out.push_str("---|");
    out.push_str(&"---:|".repeat(POLICIES.len() + 1));
    out.push('\n');
    for r in rows {
        // Anything but `ok` is bold, so a miss stands out in the rendered table.
        let verdict = match r.verdict {
            Verdict::Ok => r.verdict.name().to_string(),
            v => format!("**{}**", v.name()),
        };
        let _ = write!(
            out,
            "| {} | {} |",
            r.program.name,
            r.class.map_or("-", Class::name)
        );
        for run in &r.runs {
            let _ = match run {
                Ok(s) => write!(out, " {:.1} |", 100.0 * s.fraction),
                Err(f) => write!(out, " {} |", f.status),
            };
        }
        let _ = write!(out, " {verdict} |");
        for run in &r.runs {
            let _ = match run {
                Ok(s) => write!(
                    out,
                    " {} / {} |",
                    share(s.barrier, s),
                    share(s.exit_wait, s)
                ),
                Err(_) => write!(out, " - |"),
            };
        }
        let drains: Vec<String> = r
            .runs
            .iter()
            .map(|run| run.as_ref().map_or("-".into(), |s| share(s.drain, s)))
            .collect();
        let _ = writeln!(out, " {} |", drains.join(" / "));
    }
    let _ = writeln!(
        out,
        "\nCut-off {:.0}% of resident warp cycles (barrier + exit wait), under both {}.",
        100.0 * CUTOFF,
        names.join(" and ")
    );
    out
}
