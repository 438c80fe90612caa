//! `warpsim correlate RUNS --out DIR [--reference FILE]`: the last step of
//! `scripts/correlate.sh`. Reads the run folders the script wrote (warpsim and GPGPU-Sim
//! running the correlation set, `correlation/README.md`) and writes `DIR/correlation.csv`,
//! `DIR/correlation.md` and `DIR/correlation.svg` (GPGPU-Sim cycles against warpsim's, log
//! axes, y = x, MAE and correlation in the title); `--reference` also writes the CSV there
//! (the committed `correlation/reference/gpgpusim.csv` that
//! `crates/cli/tests/correlation.rs` holds the model to). `--gpgpusim-from REF.csv` takes
//! GPGPU-Sim's side from such a reference instead (warpsim-only runs after a model change);
//! `--merge REF.csv` keeps an earlier reference's other rows beside the runs' (a few programs
//! added or refreshed, the rest not re-run).
//!
//! A subcommand rather than a separate tool so that it draws with the report charts of
//! `plot/` (a scatter chart added there) and reads statistics with the same code paths as
//! the rest of the CLI; it never runs a simulation itself.

mod gpgpusim;
mod reference;
mod runs;
mod stats;
mod table;

use std::path::{Path, PathBuf};

use crate::exit;
use crate::plot::{self, Points, Scatter};

pub struct Options {
    pub runs: PathBuf,
    pub out: PathBuf,
    pub reference: Option<PathBuf>,
    /// Take GPGPU-Sim's side from this earlier reference CSV instead of the run folders.
    pub gpgpusim_from: Option<PathBuf>,
    /// Keep this earlier reference's rows for everything the runs do not hold.
    pub merge: Option<PathBuf>,
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn chart(rows: &[runs::Row]) -> Result<String, String> {
    let presets = table::distinct(rows, |r| &r.preset);
    let policies = table::distinct(rows, |r| &r.policy);
    let mut series = Vec::new();
    for p in &presets {
        for q in &policies {
            let points = rows
                .iter()
                .filter(|r| r.preset == *p && r.policy == *q)
                .filter_map(|r| {
                    Some((
                        r.gpgpusim.as_ref()?.cycles as f64,
                        r.warpsim.as_ref()?.cycles as f64,
                    ))
                })
                .collect();
            series.push(Points {
                label: format!("{p} {q}"),
                points,
            });
        }
    }
    let title = match table::summary(rows) {
        Some(s) => format!(
            "warpsim vs GPGPU-Sim cycles: {} runs, MAE {:.1}%, r = {}",
            s.n,
            100.0 * s.mae,
            s.r.map(|r| format!("{r:.3}")).unwrap_or_else(|| "–".into())
        ),
        None => "warpsim vs GPGPU-Sim cycles".into(),
    };
    let s = Scatter {
        title,
        x_label: "GPGPU-Sim cycles (r: correlation of log cycles)".into(),
        y_label: "warpsim cycles".into(),
        series,
    };
    plot::scatter(&s).map_err(|e| format!("scatter plot: {e}"))
}

fn correlate(o: &Options) -> Result<(), String> {
    let mut rows = runs::read_all(&o.runs)?;
    if let Some(from) = &o.gpgpusim_from {
        reference::apply(&mut rows, &reference::read(from)?);
    }
    if let Some(earlier) = &o.merge {
        rows = reference::merge(reference::read_rows(earlier)?, rows);
    }
    let csv = table::csv(&rows);
    let files = [
        (o.out.join("correlation.csv"), csv.clone()),
        (o.out.join("correlation.md"), table::markdown(&rows)),
        (o.out.join("correlation.svg"), chart(&rows)?),
    ];
    for (path, text) in &files {
        write(path, text)?;
        println!("wrote {}", path.display());
    }
    if let Some(r) = &o.reference {
        write(r, &csv)?;
        println!("wrote {}", r.display());
    }
    if let Some(s) = table::summary(&rows) {
        println!(
            "{} runs with both simulators: MAE {:.1}%, max |ratio - 1| {:.1}%",
            s.n,
            100.0 * s.mae,
            100.0 * s.max
        );
    }
    let bad = rows.iter().filter(|r| !r.problems.is_empty()).count();
    if bad > 0 {
        println!("{bad} run(s) with problems (listed in correlation.md)");
    }
    Ok(())
}

/// Exit 0 when the files were written, 2 when the runs cannot be read or a file cannot be
/// written. Runs with problems (a program failing its check, a replay that differs) are
/// listed in the report, not an error: the table is still worth having.
pub fn run(o: &Options) -> u8 {
    match correlate(o) {
        Ok(()) => exit::OK,
        Err(e) => exit::fail(exit::BAD_INPUT, e),
    }
}
