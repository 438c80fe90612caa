//! What an experiment is: data. Programs (names or `set:NAME`) × schedulers (issue+fetch
//! names) × config variants (labelled `-c` override lists on one preset) at one size, plus
//! the views (tables and figures) to derive and the paper's claims to check. Built-in
//! experiments (`builtin.rs`) and user TOML files (`warpsim sweep FILE.toml`) are the same
//! type, so a user's sweep gets everything a built-in gets.

use serde::{Deserialize, Serialize};
use warpsim_suite::Size;
use warpsim_timing::PolicyKind;

use super::table::StatView;

/// One experiment. Field names are the TOML keys of `warpsim sweep FILE.toml`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// Folder name of its outputs; letters, digits, `-`, `_`.
    pub name: String,
    #[serde(default)]
    pub title: String,
    /// What it measures and how to read it (the report's first paragraph).
    #[serde(default)]
    pub description: String,
    /// Built-in program names, or `set:NAME` for every program of a set.
    pub programs: Vec<String>,
    /// Scheduler names as `--policy` takes them (`gto`, `mwf-gto+cff`, `tls:4`).
    pub schedulers: Vec<String>,
    /// GPU preset or config file.
    #[serde(default = "default_config")]
    pub config: String,
    /// Config variants; none means one unnamed variant with no overrides.
    #[serde(default)]
    pub variants: Vec<Variant>,
    /// `small` or `paper`; the command line's `--size` wins.
    #[serde(default = "default_size")]
    pub size: String,
    /// The series speedups and normalised views are relative to (a series label, see
    /// [`Experiment::series`]).
    #[serde(default)]
    pub baseline: Option<String>,
    #[serde(default)]
    pub views: Vec<View>,
    #[serde(default)]
    pub claims: Vec<Claim>,
}

fn default_config() -> String {
    "gtx480".into()
}

fn default_size() -> String {
    "small".into()
}

/// A labelled list of config overrides (`-c KEY=VALUE`), on the experiment's `config` or on
/// a preset of its own (`config`: one experiment can put the same comparison on two GPUs).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    pub label: String,
    #[serde(default)]
    pub cfg: Vec<String>,
    /// GPU preset or config file of this variant; absent: the experiment's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<String>,
}

impl Variant {
    /// The preset or config file this variant runs on, in experiment `e`.
    pub fn config_in<'a>(&'a self, e: &'a Experiment) -> &'a str {
        self.config.as_deref().unwrap_or(&e.config)
    }
}

/// A table (and its figure) derived from the runs. `series` restricts and orders the series
/// shown (default: all, in declaration order).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum View {
    /// Baseline cycles / cycles per program, geometric mean row; grouped bar chart. `baseline`
    /// overrides the experiment's (PRO's Figure 4 shows PRO over three baselines).
    Speedup {
        #[serde(default)]
        series: Vec<String>,
        #[serde(default)]
        baseline: Option<String>,
    },
    /// Barrier and exit-wait warp cycles over resident warp cycles per program (BAWS Fig. 1).
    Fractions {
        #[serde(default)]
        series: Vec<String>,
    },
    /// Stall breakdown (control, data, structural, barrier, exit, fetch) of each series,
    /// normalised to the baseline's total stall cycles per program (BAWS Fig. 10).
    Stalls {
        #[serde(default)]
        series: Vec<String>,
    },
    /// Issue-slot ratios per program: idle, scoreboard and pipeline slots over all slots of
    /// every scheduler (PRO Table III), or, with `baseline`, over that series' idle +
    /// scoreboard + pipeline slots (KAWS Fig. 6: the stall breakdown normalised to LRR).
    IssueSlots {
        #[serde(default)]
        series: Vec<String>,
        #[serde(default)]
        baseline: Option<String>,
    },
    /// One recorded statistic per program and series (`stat`: one of
    /// `table::STAT_VIEWS`), or, with `baseline`, its ratio to that series' value (MOTRR
    /// Figs. 2, 5–7). Mean row (geometric mean of ratios); grouped bars.
    Stat {
        stat: ViewStat,
        #[serde(default)]
        series: Vec<String>,
        #[serde(default)]
        baseline: Option<String>,
    },
    /// Mean RTRU per program (BAWS Fig. 5, eq. 1).
    Rtru {
        #[serde(default)]
        series: Vec<String>,
    },
    /// The issue policy's CTA order on SM 0 of the program's longest launch every 1000
    /// cycles: the first `rows` samples, the first `ranks` ranks (PRO Table IV).
    CtaOrder {
        program: String,
        series: String,
        #[serde(default = "default_order_ranks")]
        ranks: u32,
        #[serde(default = "default_order_rows")]
        rows: u32,
    },
    /// When each CTA ran on SM 0 in the program's longest launch (dispatch to exit), the
    /// first `ctas` CTAs, one panel per series (PRO Figure 2).
    CtaSpans {
        program: String,
        series: Vec<String>,
        #[serde(default = "default_span_ctas")]
        ctas: u32,
    },
    /// Warp-phase timeline of the first `ctas` CTAs of SM 0 in the program's longest launch
    /// (BAWS Figs. 3, 4, 6).
    Timeline {
        program: String,
        series: String,
        #[serde(default = "default_timeline_ctas")]
        ctas: u32,
    },
}

fn default_order_ranks() -> u32 {
    8
}

fn default_order_rows() -> u32 {
    20
}

fn default_span_ctas() -> u32 {
    24
}

fn default_timeline_ctas() -> u32 {
    2
}

impl View {
    /// Short name, used for file names (`speedup.csv`, `timeline-baws_bt-gto.svg`).
    pub fn file_stem(&self) -> String {
        match self {
            View::Speedup { baseline: None, .. } => "speedup".into(),
            View::Speedup {
                baseline: Some(b), ..
            } => format!("speedup-over-{}", b.replace(['+', '@', ':'], "_")),
            View::IssueSlots { baseline: None, .. } => "issue-slots".into(),
            View::IssueSlots {
                baseline: Some(b), ..
            } => format!("issue-slots-over-{}", b.replace(['+', '@', ':'], "_")),
            View::Fractions { .. } => "fractions".into(),
            View::Stalls { .. } => "stalls".into(),
            View::Rtru { .. } => "rtru".into(),
            View::Stat { stat, baseline, .. } => match baseline {
                None => stat.name().replace('.', "-"),
                Some(b) => format!(
                    "{}-over-{}",
                    stat.name().replace('.', "-"),
                    b.replace(['+', '@', ':'], "_")
                ),
            },
            View::Timeline {
                program, series, ..
            } => format!(
                "timeline-{program}-{}",
                series.replace(['+', '@', ':'], "_")
            ),
            View::CtaOrder {
                program, series, ..
            } => format!(
                "cta-order-{program}-{}",
                series.replace(['+', '@', ':'], "_")
            ),
            View::CtaSpans { program, .. } => format!("cta-spans-{program}"),
        }
    }

    /// Whether its runs need the event log (phases).
    pub fn needs_phases(&self) -> bool {
        matches!(
            self,
            View::Rtru { .. } | View::Timeline { .. } | View::CtaOrder { .. }
        )
    }
}

/// A claim of the paper and the number of ours it compares with. Direction: the sign of
/// `value − neutral` for ours and for the paper's; claims without `neutral` are listed
/// without a verdict.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// What the paper says, in words.
    pub label: String,
    pub ours: Measure,
    pub paper: f64,
    #[serde(default)]
    pub neutral: Option<f64>,
}

/// A number derived from a view's table.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(tag = "of", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Measure {
    /// The geometric-mean row of a speedup view for a series.
    Geomean { series: String },
    /// The geometric mean of series `a`'s speedups over series `b`'s (per program, then GM).
    GeomeanRatio { a: String, b: String },
    /// The arithmetic mean over programs of a fractions / RTRU view's column for `series`
    /// (`stat`: `barrier`, `exit`, `barrier+exit`, or `rtru`).
    Mean { series: String, stat: MeanStat },
    /// The largest per-program value of the same.
    Max { series: String, stat: MeanStat },
    /// Mean of `a`'s column minus mean of `b`'s (fractions / RTRU views).
    MeanDifference {
        a: String,
        b: String,
        stat: MeanStat,
    },
    /// One program's speedup for a series.
    Program { program: String, series: String },
    /// Series `a`'s statistic over series `b`'s (a name of `table::STAT_VIEWS`): the
    /// geometric mean over programs, or one program's ratio with `program`.
    StatRatio {
        a: String,
        b: String,
        stat: ViewStat,
        #[serde(default)]
        program: Option<String>,
    },
}

/// The statistic `Measure::Mean`, `Max` and `MeanDifference` read (a fractions / RTRU
/// view's column); an unknown name fails when the experiment is read, naming these.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum MeanStat {
    /// Barrier stall cycles / resident warp cycles.
    Barrier,
    /// Exit-wait stall cycles / resident warp cycles.
    Exit,
    /// The two together.
    #[serde(rename = "barrier+exit")]
    BarrierExit,
    /// Mean RTRU.
    Rtru,
}

/// The statistic of a `stat` view or a `stat-ratio` claim: one of `table::STAT_VIEWS`, by
/// its record name; an unknown name fails when the experiment is read, naming the valid ones.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(try_from = "String", into = "String")]
pub struct ViewStat(pub &'static StatView);

impl TryFrom<String> for ViewStat {
    type Error = String;
    fn try_from(name: String) -> Result<ViewStat, String> {
        // Inside a tagged view or claim the error's path stops at the entry: name the key.
        super::table::stat_view(&name)
            .map(ViewStat)
            .map_err(|e| format!("`stat`: {e}"))
    }
}

impl From<ViewStat> for String {
    fn from(v: ViewStat) -> String {
        v.0.name().to_string()
    }
}

impl ViewStat {
    /// Its name in records and in the experiment TOML.
    pub fn name(&self) -> &'static str {
        self.0.name()
    }
}

/// An experiment's series labels, which views and claims must name.
struct SeriesLabels(Vec<String>);

impl SeriesLabels {
    /// `label` is one of them (`key` names where it was given).
    fn known(&self, label: &str, key: &str) -> Result<(), String> {
        if self.0.iter().any(|x| x == label) {
            Ok(())
        } else {
            Err(format!(
                "key `{key}`: no series {label:?}; series: {}",
                self.0.join(", ")
            ))
        }
    }
}

/// One series: a scheduler on one config variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub label: String,
    pub scheduler: String,
    pub variant: Variant,
}

impl Experiment {
    /// Reads a sweep file; errors name the file and the key.
    pub fn from_toml(text: &str, origin: &str) -> Result<Experiment, String> {
        let de = toml::Deserializer::new(text);
        let e: Experiment = serde_path_to_error::deserialize(de).map_err(|err| {
            let path = err.path().to_string();
            let inner = err.into_inner();
            if path == "." {
                format!("{origin}: {}", inner.message().trim())
            } else {
                format!("{origin}: key `{path}`: {}", inner.message().trim())
            }
        })?;
        e.validate().map_err(|m| format!("{origin}: {m}"))?;
        Ok(e)
    }

    /// The series: scheduler × variant, labelled `SCHEDULER` with one variant and
    /// `SCHEDULER@VARIANT` with several.
    pub fn series(&self) -> Vec<Series> {
        let variants = if self.variants.is_empty() {
            vec![Variant {
                label: String::new(),
                cfg: Vec::new(),
                config: None,
            }]
        } else {
            self.variants.clone()
        };
        let several = variants.len() > 1;
        let mut out = Vec::new();
        for v in &variants {
            for s in &self.schedulers {
                let label = if several {
                    format!("{s}@{}", v.label)
                } else {
                    s.clone()
                };
                out.push(Series {
                    label,
                    scheduler: s.clone(),
                    variant: v.clone(),
                });
            }
        }
        out
    }

    /// The presets or config files its runs use, in order, each once (`, `-separated): the
    /// experiment's `config`, or its variants' own.
    pub fn configs(&self) -> String {
        let mut out: Vec<&str> = Vec::new();
        if self.variants.is_empty() {
            out.push(&self.config);
        }
        for v in &self.variants {
            let c = v.config_in(self);
            if !out.contains(&c) {
                out.push(c);
            }
        }
        out.join(", ")
    }

    pub fn size(&self) -> Result<Size, String> {
        self.size.parse().map_err(|e| format!("key `size`: {e}"))
    }

    /// The programs, sets expanded, each once, in the order named.
    pub fn program_names(&self) -> Result<Vec<&'static str>, String> {
        let mut out: Vec<&'static str> = Vec::new();
        for p in &self.programs {
            let found: Vec<&'static str> = match p.strip_prefix("set:") {
                Some(set) => warpsim_suite::set(set)
                    .ok_or_else(|| {
                        let names: Vec<&str> = warpsim_suite::SETS.iter().map(|s| s.name).collect();
                        format!(
                            "key `programs`: unknown set {set:?}; sets: {}",
                            names.join(", ")
                        )
                    })?
                    .iter()
                    .map(|p| p.name)
                    .collect(),
                None => vec![
                    crate::workload::find(p)
                        .map_err(|e| format!("key `programs`: {e}"))?
                        .name,
                ],
            };
            for f in found {
                if !out.contains(&f) {
                    out.push(f);
                }
            }
        }
        Ok(out)
    }

    /// Everything that can be checked without running: names, schedulers, series references.
    pub fn validate(&self) -> Result<(), String> {
        if self.name.is_empty()
            || !self
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(format!(
                "key `name`: {:?} must be letters, digits, `-` or `_`",
                self.name
            ));
        }
        if self.programs.is_empty() {
            return Err("key `programs`: name at least one program or `set:NAME`".into());
        }
        if self.schedulers.is_empty() {
            return Err("key `schedulers`: name at least one scheduler".into());
        }
        self.program_names()?;
        self.size()?;
        for s in &self.schedulers {
            PolicyKind::parse(s).map_err(|e| format!("key `schedulers`: {e}"))?;
        }
        let mut seen = Vec::new();
        for v in &self.variants {
            if v.label.is_empty() || v.label.contains(['@', '/', ' ']) {
                return Err(format!(
                    "key `variants`: label {:?} must be non-empty, without `@`, `/` or spaces",
                    v.label
                ));
            }
            if seen.contains(&&v.label) {
                return Err(format!("key `variants`: label {:?} given twice", v.label));
            }
            seen.push(&v.label);
        }
        let series = SeriesLabels(self.series().into_iter().map(|s| s.label).collect());
        if let Some(b) = &self.baseline {
            series.known(b, "baseline")?;
        }
        for v in &self.views {
            self.validate_view(v, &series)?;
        }
        for c in &self.claims {
            self.validate_claim(c, &series)?;
        }
        Ok(())
    }

    /// A view's references: series, programs, bounds.
    fn validate_view(&self, v: &View, series_labels: &SeriesLabels) -> Result<(), String> {
        let known = |l: &str, key: &str| series_labels.known(l, key);
        match v {
            View::Speedup {
                series,
                baseline: Some(b),
            }
            | View::IssueSlots {
                series,
                baseline: Some(b),
            } => {
                known(b, "views.baseline")?;
                series.iter().try_for_each(|s| known(s, "views.series"))?
            }
            View::Speedup {
                series,
                baseline: None,
            }
            | View::Stalls { series } => {
                if self.baseline.is_none() {
                    return Err(format!(
                        "key `views`: a `{}` view needs `baseline`",
                        v.file_stem()
                    ));
                }
                series.iter().try_for_each(|s| known(s, "views.series"))?
            }
            View::Fractions { series }
            | View::Rtru { series }
            | View::IssueSlots {
                series,
                baseline: None,
            } => series.iter().try_for_each(|s| known(s, "views.series"))?,
            View::Stat {
                series, baseline, ..
            } => {
                if let Some(b) = baseline {
                    known(b, "views.baseline")?;
                }
                series.iter().try_for_each(|s| known(s, "views.series"))?
            }
            View::CtaOrder {
                program,
                series,
                ranks,
                rows,
            } => {
                known(series, "views.series")?;
                self.has_program(program, "views.program")?;
                in_range(
                    "views.ranks",
                    *ranks as usize,
                    super::record::CTA_ORDER_RANKS,
                )?;
                in_range("views.rows", *rows as usize, 10_000)?;
            }
            View::CtaSpans {
                program,
                series,
                ctas,
            } => {
                if series.is_empty() {
                    return Err(
                        "key `views.series`: a `cta-spans` view names at least one series".into(),
                    );
                }
                series.iter().try_for_each(|s| known(s, "views.series"))?;
                self.has_program(program, "views.program")?;
                in_range("views.ctas", *ctas as usize, super::record::CTA_SPANS_KEPT)?;
            }
            View::Timeline {
                program,
                series,
                ctas,
            } => {
                known(series, "views.series")?;
                self.has_program(program, "views.program")?;
                in_range("views.ctas", *ctas as usize, super::phases::TIMELINE_CTAS)?;
            }
        }
        Ok(())
    }

    /// A claim's references: series and programs.
    fn validate_claim(&self, c: &Claim, series_labels: &SeriesLabels) -> Result<(), String> {
        let known = |l: &str, key: &str| series_labels.known(l, key);
        match &c.ours {
            Measure::Geomean { series } => known(series, "claims.ours.series")?,
            Measure::GeomeanRatio { a, b } => {
                known(a, "claims.ours.a")?;
                known(b, "claims.ours.b")?
            }
            Measure::Mean { series, .. } | Measure::Max { series, .. } => {
                known(series, "claims.ours.series")?
            }
            Measure::MeanDifference { a, b, .. } => {
                known(a, "claims.ours.a")?;
                known(b, "claims.ours.b")?
            }
            Measure::Program { program, series } => {
                known(series, "claims.ours.series")?;
                self.has_program(program, "claims.ours.program")?;
            }
            Measure::StatRatio { a, b, program, .. } => {
                known(a, "claims.ours.a")?;
                known(b, "claims.ours.b")?;
                if let Some(p) = program {
                    self.has_program(p, "claims.ours.program")?;
                }
            }
        }
        Ok(())
    }

    /// `program` is one of the experiment's (`key` names where it was given).
    fn has_program(&self, program: &str, key: &str) -> Result<(), String> {
        if self.program_names()?.contains(&program) {
            Ok(())
        } else {
            Err(format!(
                "key `{key}`: {program:?} is not among the experiment's programs"
            ))
        }
    }

    /// Whether any view needs the event log.
    pub fn needs_phases(&self) -> bool {
        self.views.iter().any(View::needs_phases)
    }
}

/// A view's count `value` under `key` must be in `1..=max`.
fn in_range(key: &str, value: usize, max: usize) -> Result<(), String> {
    if value == 0 || value > max {
        return Err(format!("key `{key}`: {value} is out of range 1..={max}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SWEEP: &str = r#"
name = "ib"
programs = ["baws_bt", "set:baws-barrier"]
schedulers = ["lrr", "mwf-gto+cff"]
baseline = "lrr@ib2"
variants = [{ label = "ib2", cfg = ["sm.ibuffer_entries=2"] }, { label = "ib4", cfg = ["sm.ibuffer_entries=4"] }]
views = [{ kind = "speedup" }]
claims = [{ label = "x", ours = { of = "geomean", series = "mwf-gto+cff@ib4" }, paper = 1.1, neutral = 1.0 }]
"#;

    #[test]
    fn a_sweep_file_expands_sets_once_and_labels_series_by_variant() {
        let e = Experiment::from_toml(SWEEP, "ib.toml").unwrap();
        let p = e.program_names().unwrap();
        assert_eq!(p[0], "baws_bt");
        assert_eq!(
            p.iter().filter(|n| **n == "baws_bt").count(),
            1,
            "baws_bt is also in the set"
        );
        assert_eq!(p.len(), 13);
        let labels: Vec<String> = e.series().into_iter().map(|s| s.label).collect();
        assert_eq!(
            labels,
            ["lrr@ib2", "mwf-gto+cff@ib2", "lrr@ib4", "mwf-gto+cff@ib4"]
        );
    }

    #[test]
    fn bad_sweeps_name_the_key() {
        let cases = [
            (
                SWEEP.replace("\"lrr\", \"mwf", "\"lrx\", \"mwf"),
                "key `schedulers`",
            ),
            (
                SWEEP.replace("baseline = \"lrr@ib2\"", "baseline = \"lrr\""),
                "key `baseline`: no series \"lrr\"",
            ),
            (SWEEP.replace("set:baws-barrier", "set:nope"), "unknown set"),
            (
                SWEEP.replace("name = \"ib\"", "name = \"a b\""),
                "key `name`",
            ),
            (
                SWEEP.replace("kind = \"speedup\"", "kind = \"speed\""),
                "key `views",
            ),
            (format!("{SWEEP}\ncolour = 1\n"), "colour"),
            (
                SWEEP.replace("label = \"ib4\"", "label = \"ib2\""),
                "given twice",
            ),
        ];
        for (text, want) in cases {
            let err = Experiment::from_toml(&text, "ib.toml").unwrap_err();
            assert!(
                err.starts_with("ib.toml: ") && err.contains(want),
                "{err:?} should mention {want:?}"
            );
        }
    }

    /// Issue 37: a misspelt statistic is an error when the experiment is read, naming the
    /// valid ones, never an empty column.
    #[test]
    fn an_unknown_statistic_fails_at_load_naming_the_valid_ones() {
        let with = |views: &str, claims: &str| {
            format!(
                "name = \"s\"\nprograms = [\"baws_bt\"]\nschedulers = [\"lrr\", \"gto\"]\nviews = [{views}]\nclaims = [{claims}]\n"
            )
        };
        let good = with(
            r#"{ kind = "stat", stat = "issue.pipeline" }"#,
            r#"{ label = "x", paper = 1.0, ours = { of = "stat-ratio", a = "gto", b = "lrr", stat = "ipc" } }, { label = "y", paper = 0.1, ours = { of = "mean", series = "gto", stat = "barrier+exit" } }"#,
        );
        let e = Experiment::from_toml(&good, "s.toml").unwrap();
        assert_eq!(e.views[0].file_stem(), "issue-pipeline");
        let cases = [
            (
                good.replace("\"issue.pipeline\"", "\"issue_pipeline\""),
                "key `views[0]`: `stat`: \"issue_pipeline\" is not one of cycles, ipc,",
            ),
            (
                good.replace("stat = \"ipc\"", "stat = \"IPC\""),
                "`stat`: \"IPC\" is not one of cycles, ipc,",
            ),
            (
                good.replace("\"barrier+exit\"", "\"barrier+exits\""),
                "`barrier`, `exit`, `barrier+exit`, `rtru`",
            ),
        ];
        for (text, want) in cases {
            let err = Experiment::from_toml(&text, "s.toml").unwrap_err();
            assert!(err.starts_with("s.toml: ") && err.contains(want), "{err}");
        }
    }
}
