//! Turning experiments into runs and running them. The plan is every (program, series) of
//! every experiment, in declaration order, each resolved to a model and a cache key;
//! duplicates (the same key from two experiments: `reproduce baws` shares LRR and GTO runs
//! between figures) are merged. Runs found in the cache are reused; the rest run in parallel
//! (rayon, one fresh device each), each stored the moment it finishes, so an interrupted
//! sweep resumes where it stopped. A shard runs only its share of the plan.

use std::time::Instant;

use indicatif::ProgressBar;
use warpsim_core::device::DeviceOptions;
use warpsim_suite::{Program, Size};

use super::cache::Cache;
use super::key::{simulator_id, RunIdentity};
use super::phases;
use super::record::{sm0_cta_spans, stats_of, RunRecord};
use super::shard::Shard;
use super::spec::{Experiment, Series};
use crate::model::{Mode, Model, ModelArgs};
use crate::suite::par_map;
use crate::workload::run_program;
use warpsim_timing::stat_table as st;

/// One simulation to have.
pub struct PlannedRun {
    pub key: String,
    pub program: &'static Program,
    pub series: Series,
    pub config: String,
    pub size: Size,
    pub model: Model,
    /// Record the event log and keep the warp phases and the policy's CTA order (an RTRU,
    /// timeline or CTA-order view needs them).
    pub phases: bool,
}

/// Options shared by every run of a sweep.
#[derive(Clone, Copy, Debug)]
pub struct RunOptions {
    /// `--size`, overriding each experiment's own.
    pub size: Option<Size>,
    pub max_cycles: u64,
}

/// The size an experiment runs at.
pub fn size_of(e: &Experiment, o: &RunOptions) -> Result<Size, String> {
    match o.size {
        Some(s) => Ok(s),
        None => e.size().map_err(|m| format!("{}: {m}", e.name)),
    }
}

/// The resolved model of one series of `e`.
fn model_of(e: &Experiment, s: &Series, o: &RunOptions, phases: bool) -> Result<Model, String> {
    let args = ModelArgs {
        mode: Mode::Timing,
        config: s.variant.config_in(e).to_string(),
        cfg: s.variant.cfg.clone(),
        policy: s.scheduler.clone(),
        fetch: None,
        max_cycles: o.max_cycles,
        event_log: phases,
        cta_order_log: phases,
        stats: None,
        synccheck: false,
        threads: 1,
    };
    Model::resolve(&args).map_err(|m| format!("{}: series {}: {m}", e.name, s.label))
}

/// The runs of one experiment, in its order (programs outer, series inner).
pub fn runs_of(e: &Experiment, o: &RunOptions) -> Result<Vec<PlannedRun>, String> {
    let size = size_of(e, o)?;
    let phases = e.needs_phases();
    let mut out = Vec::new();
    for name in e.program_names().map_err(|m| format!("{}: {m}", e.name))? {
        let program = warpsim_suite::program(name).expect("validated program name");
        for s in e.series() {
            let model = model_of(e, &s, o, phases)?;
            let key = RunIdentity {
                resolved_config: &model.config.to_toml(),
                policy: &model.policy.name(),
                program: name,
                size: size.name(),
                max_cycles: model.max_cycles,
            }
            .key();
            out.push(PlannedRun {
                key,
                program,
                config: s.variant.config_in(e).to_string(),
                series: s,
                size,
                model,
                phases,
            });
        }
    }
    Ok(out)
}

/// Every run of `experiments`, each key once (a run wanted with phases by any experiment
/// records them).
pub fn plan(experiments: &[Experiment], o: &RunOptions) -> Result<Vec<PlannedRun>, String> {
    let mut out: Vec<PlannedRun> = Vec::new();
    for e in experiments {
        for r in runs_of(e, o)? {
            match out.iter_mut().find(|x| x.key == r.key) {
                Some(x) => {
                    x.phases |= r.phases;
                    x.model.event_log |= r.phases;
                    x.model.cta_order_log |= r.phases;
                }
                None => out.push(r),
            }
        }
    }
    Ok(out)
}

/// Whether a stored record answers a planned run.
pub fn satisfies(rec: &RunRecord, r: &PlannedRun) -> bool {
    !r.phases || rec.phases.is_some() || !rec.ok()
}

/// What a sweep did.
pub struct Outcome {
    pub ran: usize,
    pub reused: usize,
    /// One line per failed run (its own or reused).
    pub failures: Vec<String>,
}

/// Runs what the cache lacks (all with `fresh`) of this shard's share of `plan`.
pub fn execute(
    plan: &[PlannedRun],
    cache: &Cache,
    shard: Option<Shard>,
    fresh: bool,
    jobs: Option<usize>,
    progress: &ProgressBar,
) -> Result<Outcome, String> {
    let mine: Vec<&PlannedRun> = plan
        .iter()
        .enumerate()
        .filter(|(i, _)| !matches!(shard, Some(s) if !s.owns(*i)))
        .map(|(_, r)| r)
        .collect();
    let mut todo = Vec::new();
    let mut failures = Vec::new();
    let mut reused = 0;
    for r in &mine {
        match cache.load(&r.key).filter(|rec| !fresh && satisfies(rec, r)) {
            Some(rec) => {
                reused += 1;
                if let Some(e) = &rec.error {
                    failures.push(failure_line(r, e));
                }
            }
            None => todo.push(*r),
        }
    }
    progress.set_length(todo.len() as u64);
    let results = par_map(&todo, jobs, progress, |r| {
        let rec = run_one(r);
        let stored = cache.store(&rec);
        if let Some(e) = &rec.error {
            progress.println(format!("warpsim: {}", failure_line(r, e)));
        }
        (rec.error, stored)
    })?;
    for (r, (error, stored)) in todo.iter().zip(results) {
        stored?;
        if let Some(e) = error {
            failures.push(failure_line(r, &e));
        }
    }
    Ok(Outcome {
        ran: todo.len(),
        reused,
        failures,
    })
}

fn failure_line(r: &PlannedRun, error: &str) -> String {
    format!(
        "{} under {} ({}{}): {error}",
        r.program.name,
        r.series.scheduler,
        r.config,
        if r.series.variant.cfg.is_empty() {
            String::new()
        } else {
            format!(" {}", r.series.variant.cfg.join(" "))
        }
    )
}

/// Runs one simulation and makes its record.
pub fn run_one(r: &PlannedRun) -> RunRecord {
    let start = Instant::now();
    let run = run_program(r.program, r.size, &r.model, DeviceOptions::default());
    let wall = start.elapsed();
    let mut stats = stats_of(&run);
    let phases = if r.phases && run.result.is_ok() {
        let p = phases::of_run(&run.rows);
        for (d, v) in [
            (&st::RTRU, p.rtru),
            (&st::RTRU_BARRIERS_ONLY, p.rtru_barriers_only),
        ] {
            if let (Some(name), Some(v)) = (d.record, v) {
                stats.insert(name.into(), v);
            }
        }
        Some(p.lanes)
    } else {
        None
    };
    let cta_order = if r.phases && run.result.is_ok() {
        Some(phases::cta_order(&run.rows))
    } else {
        None
    };
    let cta_spans = if run.result.is_ok() {
        sm0_cta_spans(&run.rows)
    } else {
        None
    };
    RunRecord {
        key: r.key.clone(),
        program: r.program.name.to_string(),
        scheduler: r.series.scheduler.clone(),
        config: r.config.clone(),
        variant: r.series.variant.label.clone(),
        overrides: r.series.variant.cfg.clone(),
        size: r.size.name().to_string(),
        simulator: simulator_id(),
        error: run.result.err().map(|e| e.to_string()),
        stats,
        phases,
        cta_order,
        cta_spans,
        wall_seconds: wall.as_secs_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::builtin;

    const OPTS: RunOptions = RunOptions {
        size: None,
        max_cycles: 1_000,
    };

    #[test]
    fn experiments_share_runs_and_a_shared_run_records_phases_if_any_wants_them() {
        let fig1 = builtin::resolve("baws-fig1").unwrap();
        let fig5 = builtin::resolve("baws-fig5").unwrap();
        let alone = plan(&fig1, &OPTS).unwrap();
        assert_eq!(alone.len(), 26);
        assert!(alone.iter().all(|r| !r.phases && !r.model.event_log));
        let both = plan(&[fig1, fig5].concat(), &OPTS).unwrap();
        assert_eq!(
            both.len(),
            26,
            "fig 5 runs the same 13 programs under the same two schedulers"
        );
        assert!(both.iter().all(|r| r.phases && r.model.event_log));
        let keys: Vec<&str> = both.iter().map(|r| r.key.as_str()).collect();
        assert_eq!(
            keys,
            alone.iter().map(|r| r.key.as_str()).collect::<Vec<_>>(),
            "same keys, same order"
        );
    }

    #[test]
    fn a_config_override_that_changes_nothing_is_the_same_run() {
        // sm.ibuffer_entries=2 is gtx480's own value: the resolved config, hence the key, is
        // the default's.
        let ib = builtin::resolve("baws-ibuffer").unwrap();
        let fig8 = builtin::resolve("baws-fig8").unwrap();
        let ib_keys: Vec<String> = plan(&ib, &OPTS)
            .unwrap()
            .into_iter()
            .filter(|r| r.series.label == "gto@ib2")
            .map(|r| r.key)
            .collect();
        let gto_keys: Vec<String> = plan(&fig8, &OPTS)
            .unwrap()
            .into_iter()
            .filter(|r| r.series.label == "gto")
            .map(|r| r.key)
            .collect();
        assert_eq!(ib_keys, gto_keys);
        let ib4: Vec<String> = plan(&ib, &OPTS)
            .unwrap()
            .into_iter()
            .filter(|r| r.series.label == "gto@ib4")
            .map(|r| r.key)
            .collect();
        assert!(ib4.iter().all(|k| !gto_keys.contains(k)));
    }

    /// A variant with a preset of its own runs there: `modern-baws-fig8`'s gtx480 series are
    /// `baws-fig8`'s runs (same keys: `reproduce modern` reuses them), its rtx3070 series are
    /// new runs on the rtx3070 config.
    #[test]
    fn a_variant_on_another_preset_runs_there_and_shares_the_rest() {
        let modern = plan(&builtin::resolve("modern-baws-fig8").unwrap(), &OPTS).unwrap();
        let fig8 = plan(&builtin::resolve("baws-fig8").unwrap(), &OPTS).unwrap();
        let on = |c: &str| modern.iter().filter(|r| r.config == c).count();
        assert_eq!((on("gtx480"), on("rtx3070")), (fig8.len(), fig8.len()));
        for r in &modern {
            assert_eq!(r.model.config.name, r.config, "{}", r.series.label);
        }
        let shared = |r: &PlannedRun| fig8.iter().any(|f| f.key == r.key);
        assert!(modern.iter().all(|r| shared(r) == (r.config == "gtx480")));
    }
}
