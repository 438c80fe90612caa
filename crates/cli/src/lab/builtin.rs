//! The built-in experiments: TOML files under `crates/cli/experiments/`, in the same format
//! as a user's `warpsim sweep FILE.toml` (copy one to start a sweep of your own), and the
//! groups `warpsim reproduce` also accepts.

use super::spec::Experiment;

macro_rules! builtin {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../experiments/", $name, ".toml")))),*]
    };
}

/// Name → TOML text, in the order `--list` shows and `reproduce baws` runs them.
const BUILTIN: &[(&str, &str)] = builtin!(
    "baws-fig1",
    "baws-fig3-6",
    "baws-fig5",
    "baws-fig8",
    "baws-fig9",
    "baws-fig10",
    "baws-ibuffer",
    "baws-fig11",
    "baws-fig12",
    "baws-fig14",
    "baws-exit-ablation",
    "baws-tls-marks",
    "pro-fig4",
    "pro-table3",
    "pro-table4",
    "pro-fig2",
    "motrr-fig8",
    "motrr-fig5",
    "motrr-fig6",
    "motrr-fig7",
    "motrr-fig2",
    "kaws-fig5",
    "kaws-table2",
    "kaws-fig6",
    "kaws-ws-ldst",
    "modern-baws-fig8",
    "modern-baws-fig11",
    "modern-pro-fig4",
    "modern-kaws-fig5",
    "modern-motrr-fig8",
    "modern-baws-why",
    "modern-motrr-why",
);

/// Named groups of experiments.
const GROUPS: &[(&str, &str, &[&str])] = &[
    (
        "baws",
        "every experiment of the BAWS paper",
        &[
            "baws-fig1",
            "baws-fig3-6",
            "baws-fig5",
            "baws-fig8",
            "baws-fig9",
            "baws-fig10",
            "baws-ibuffer",
            "baws-fig11",
            "baws-fig12",
            "baws-fig14",
            "baws-exit-ablation",
        ],
    ),
    (
        "baws-fig12-14",
        "BAWS vs SAWS vs SAWS+CFF over GTO on both sets",
        &["baws-fig12", "baws-fig14"],
    ),
    (
        "pro",
        "every experiment of the PRO paper",
        &["pro-fig4", "pro-table3", "pro-table4", "pro-fig2"],
    ),
    (
        "motrr",
        "every experiment of the MOTRR paper",
        &[
            "motrr-fig8",
            "motrr-fig5",
            "motrr-fig6",
            "motrr-fig7",
            "motrr-fig2",
        ],
    ),
    (
        "kaws",
        "every experiment of the KAWS paper",
        &["kaws-fig5", "kaws-table2", "kaws-fig6", "kaws-ws-ldst"],
    ),
    (
        "modern",
        "each paper's headline comparison on rtx3070 beside its original GPU, and why it changes",
        &[
            "modern-baws-fig8",
            "modern-baws-fig11",
            "modern-pro-fig4",
            "modern-kaws-fig5",
            "modern-motrr-fig8",
            "modern-baws-why",
            "modern-motrr-why",
        ],
    ),
];

/// Every built-in experiment, parsed.
pub fn all() -> Vec<Experiment> {
    BUILTIN
        .iter()
        .map(|(name, text)| parse(name, text))
        .collect()
}

fn parse(name: &str, text: &str) -> Experiment {
    // A malformed built-in is a bug caught by `every_builtin_parses_and_validates`.
    Experiment::from_toml(text, &format!("built-in experiment {name}"))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The experiments a name stands for (an experiment or a group), or what the names are.
pub fn resolve(name: &str) -> Result<Vec<Experiment>, String> {
    if let Some((n, t)) = BUILTIN.iter().find(|(n, _)| *n == name) {
        return Ok(vec![parse(n, t)]);
    }
    if let Some((_, _, members)) = GROUPS.iter().find(|(g, _, _)| *g == name) {
        return Ok(members
            .iter()
            .flat_map(|m| resolve(m).expect("group members are built-ins"))
            .collect());
    }
    Err(format!(
        "unknown experiment {name:?}; `warpsim reproduce --list` names them ({})",
        names().join(", ")
    ))
}

/// Experiment and group names.
pub fn names() -> Vec<&'static str> {
    BUILTIN
        .iter()
        .map(|(n, _)| *n)
        .chain(GROUPS.iter().map(|(g, _, _)| *g))
        .collect()
}

/// `--list`: one line per experiment (name, series × programs, title), then the groups.
pub fn list() -> String {
    let mut s = String::new();
    let width = names().iter().map(|n| n.len()).max().unwrap_or(0);
    for e in all() {
        let programs = e.program_names().map_or(0, |p| p.len());
        s += &format!(
            "{:<width$} {:>3} runs  {}\n",
            e.name,
            programs * e.series().len(),
            e.title
        );
    }
    s += "\ngroups:\n";
    for (g, what, members) in GROUPS {
        s += &format!("{g:<width$} {what}: {}\n", members.join(", "));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_parses_and_validates() {
        for (name, text) in BUILTIN {
            let e = Experiment::from_toml(text, name).unwrap();
            assert_eq!(&e.name, name, "file name and `name` agree");
        }
        for (g, _, members) in GROUPS {
            assert!(!members.is_empty(), "{g}");
            assert!(resolve(g).is_ok());
        }
        assert!(resolve("baws-fig99").unwrap_err().contains("baws-fig8"));
    }
}
