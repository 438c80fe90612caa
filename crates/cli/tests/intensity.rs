//! `warpsim intensity`: the table, its CSV/JSON with the sums behind each percentage, the
//! exit code (failed runs only, not class misses) and bad input.

mod common;

use common::*;

/// `baws_sp` is the quickest barrier-intensive program (one launch).
#[test]
fn measures_one_program_under_lrr_and_gto() {
    let dir = scratch("intensity-sp");
    let run = |jobs: &str| {
        let r = warpsim(
            &[
                "intensity",
                "--workload",
                "baws_sp",
                "--jobs",
                jobs,
                "--csv",
                "sp.csv",
                "--json",
                "sp.json",
                "--markdown",
                "sp.md",
            ],
            &dir,
        );
        assert_code(&r, 0);
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
        (r, read("sp.csv"), read("sp.json"), read("sp.md"))
    };
    let (r, csv, json, md) = run("1");
    let mut lines = r.stdout.lines();
    let header: Vec<&str> = lines
        .next()
        .unwrap()
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        header,
        [
            "program",
            "set",
            "class expected",
            "LRR %",
            "GTO %",
            "verdict"
        ],
        "{}",
        r.stdout
    );
    let row: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    assert_eq!(
        row[..3],
        ["baws_sp", "baws-barrier", "barrier-intensive"],
        "{}",
        r.stdout
    );
    assert_contains(&r, "1 programs: ");
    assert_contains(&r, "(small, gtx480; ");

    // Each percentage is barrier + exit-wait over resident warp cycles, as the CSV's sums say,
    // and the verdict follows from the two against the 15% cut-off.
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        (
            v["config"].as_str(),
            v["size"].as_str(),
            v["cutoff"].as_f64()
        ),
        (Some("gtx480"), Some("small"), Some(0.15))
    );
    let p = &v["programs"][0];
    assert_eq!(
        (p["program"].as_str(), p["class"].as_str()),
        (Some("baws_sp"), Some("barrier-intensive"))
    );
    let mut fractions = Vec::new();
    for (i, policy) in ["lrr", "gto"].into_iter().enumerate() {
        let m = &p[policy];
        let n = |k: &str| m[k].as_u64().unwrap() as f64;
        assert_eq!(m["verified"], true);
        assert!(
            n("resident_warp_cycles") > 0.0 && n("cycles") > 0.0 && n("launches") == 1.0,
            "{m}"
        );
        let f = m["fraction"].as_f64().unwrap();
        assert!(
            (f - (n("barrier") + n("exit_wait")) / n("resident_warp_cycles")).abs() < 1e-12,
            "{m}"
        );
        assert_eq!(row[3 + i], format!("{:.1}%", 100.0 * f), "{}", r.stdout);
        fractions.push(f);
    }
    let verdict = if fractions.iter().all(|&f| f > 0.15) {
        "ok"
    } else {
        "MISSES CLASS"
    };
    assert_eq!(p["verdict"].as_str(), Some(verdict));
    assert_eq!(row[5..].join(" "), verdict);
    let csv_lines: Vec<&str> = csv.lines().collect();
    assert_eq!(csv_lines.len(), 2, "{csv}");
    assert!(
        csv_lines[0].starts_with("program,sets,class,verdict,lrr_fraction,"),
        "{csv}"
    );
    assert!(
        csv_lines[1].starts_with(&format!(
            "baws_sp,baws-barrier,barrier-intensive,{verdict},{:.6},",
            fractions[0]
        )),
        "{csv}"
    );

    // The Markdown table: the same percentages, then each policy's barrier / exit split (which
    // add up to its percentage) and the drain.
    let md_lines: Vec<&str> = md.lines().collect();
    assert!(
        md_lines[0].starts_with(
            "| program | class expected | LRR % | GTO % | verdict | LRR barrier / exit % |"
        ),
        "{md}"
    );
    let cells: Vec<&str> = md_lines[2].split('|').map(str::trim).collect();
    assert_eq!(
        cells[1..4],
        [
            "baws_sp",
            "barrier-intensive",
            &format!("{:.1}", 100.0 * fractions[0])
        ],
        "{md}"
    );
    assert_eq!(
        cells[5],
        if verdict == "ok" {
            "ok".to_string()
        } else {
            format!("**{verdict}**")
        },
        "{md}"
    );
    let m = &p["lrr"];
    let pct = |k: &str| {
        100.0 * m[k].as_u64().unwrap() as f64 / m["resident_warp_cycles"].as_u64().unwrap() as f64
    };
    assert_eq!(
        cells[6],
        format!("{:.1} / {:.1}", pct("barrier"), pct("exit_wait")),
        "{md}"
    );
    assert!(md.contains("Cut-off 15%"), "{md}");

    // The thread count changes nothing.
    let (r2, csv2, json2, md2) = run("2");
    assert_eq!((r.stdout, csv, json, md), (r2.stdout, csv2, json2, md2));
}

#[test]
fn failed_runs_set_the_exit_code() {
    // Ten cycles is too few for any launch: both runs fail, so the verdict is FAILED.
    let r = warpsim(
        &["intensity", "--workload", "baws_sp", "--max-cycles", "10"],
        &data(),
    );
    assert_code(&r, 3);
    let row = r.stdout.lines().nth(1).unwrap();
    assert!(
        row.starts_with("baws_sp") && row.contains("ERROR") && row.ends_with("FAILED"),
        "{}",
        r.stdout
    );
    assert_contains(&r, "1 failed");
    assert_contains(&r, "warpsim: error: baws_sp (lrr): ");
    assert_contains(&r, "warpsim: error: baws_sp (gto): ");
}

#[test]
fn bad_input_is_explained() {
    let r = warpsim(&["intensity", "--set", "nope"], &data());
    assert_code(&r, 2);
    assert_contains(&r, "unknown program set \"nope\"; sets: basic, baws-barrier, baws-nonbarrier, rodinia-extra, pro");
    let r = warpsim(&["intensity", "--workload", "nope"], &data());
    assert_code(&r, 2);
    assert_contains(&r, "unknown workload \"nope\"; available: scalar_prod,");
    let r = warpsim(
        &["intensity", "--workload", "baws_sp", "--config", "nope"],
        &data(),
    );
    assert_code(&r, 2);
    assert_contains(&r, "--config nope: unknown preset");
    // Tensor-core programs cannot be timed on gtx480: skipped with the reason, and a selection
    // of nothing else is an error, not a run that fails.
    let r = warpsim(&["intensity", "--set", "tensor"], &data());
    assert_code(&r, 2);
    assert_contains(&r, "skipped tc_gemm: needs tensor cores");
    assert_contains(&r, "no program of the selection can be timed on `gtx480`");
    let r = warpsim(
        &[
            "intensity",
            "--workload",
            "baws_sp",
            "--csv",
            "no/such/dir/x.csv",
        ],
        &scratch("intensity-bad"),
    );
    assert_code(&r, 2);
    assert_contains(&r, "--csv: cannot create no/such/dir/x.csv");
    assert!(
        r.stdout.is_empty(),
        "nothing runs before the output files exist: {}",
        r.stdout
    );
}
