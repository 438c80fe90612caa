//! Splitting a sweep over machines. `--shard i/n` (1 ≤ i ≤ n) runs the runs whose position in
//! the sweep's deterministic run list is ≡ i−1 (mod n); every shard computes the same list, so
//! the shards together run each run exactly once. Under a Slurm job array the shard comes from
//! `SLURM_ARRAY_TASK_ID` (minus `SLURM_ARRAY_TASK_MIN`) and `SLURM_ARRAY_TASK_COUNT`.
//! `--sbatch` prints a job-array script that does this, with a collect step after it.

use std::fmt;
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based.
    pub index: usize,
    pub count: usize,
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

impl Shard {
    /// `i/n` with 1 ≤ i ≤ n.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {s:?}: expected I/N with 1 <= I <= N (e.g. 2/4)");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (i, n): (usize, usize) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if n == 0 || i == 0 || i > n {
            return Err(bad());
        }
        Ok(Shard {
            index: i - 1,
            count: n,
        })
    }

    /// The shard of this Slurm array task, if running under one (`get` reads the
    /// environment; a test passes its own).
    pub fn from_slurm(get: impl Fn(&str) -> Option<String>) -> Result<Option<Shard>, String> {
        let (Some(id), Some(count)) = (get("SLURM_ARRAY_TASK_ID"), get("SLURM_ARRAY_TASK_COUNT"))
        else {
            return Ok(None);
        };
        let num = |name: &str, v: &str| {
            v.trim()
                .parse::<usize>()
                .map_err(|_| format!("{name}={v:?} is not a number"))
        };
        let id = num("SLURM_ARRAY_TASK_ID", &id)?;
        let min = match get("SLURM_ARRAY_TASK_MIN") {
            Some(m) => num("SLURM_ARRAY_TASK_MIN", &m)?,
            None => 0,
        };
        let count = num("SLURM_ARRAY_TASK_COUNT", &count)?;
        if count == 0 || id < min || id - min >= count {
            return Err(format!("SLURM_ARRAY_TASK_ID={id} is outside the array (min {min}, count {count}); use --array=0-{}", count.max(1) - 1));
        }
        Ok(Some(Shard {
            index: id - min,
            count,
        }))
    }

    /// Whether the run at position `i` of the run list is this shard's.
    pub fn owns(&self, i: usize) -> bool {
        i % self.count == self.index
    }
}

/// What `--sbatch` needs to write a script.
pub struct SbatchPlan<'a> {
    pub exe: &'a Path,
    pub workdir: &'a Path,
    /// The arguments naming what to run (`reproduce baws --size small`, `sweep my.toml`).
    pub args: &'a [String],
    pub out: &'a Path,
    pub tasks: usize,
    pub cpus: usize,
    pub job: &'a str,
}

/// A Slurm job-array script: `tasks` array tasks each run their shard (from the array
/// environment); a second job, started when all of them succeeded, collects.
pub fn sbatch_script(p: &SbatchPlan) -> String {
    let q = |s: &str| shell_quote(s);
    let exe = q(&p.exe.display().to_string());
    let args: Vec<String> = p.args.iter().map(|a| q(a)).collect();
    let args = args.join(" ");
    let out = q(&p.out.display().to_string());
    let logs = p.out.join("slurm");
    format!(
        "#!/bin/bash\n\
         # warpsim {args_plain}: {tasks} Slurm array tasks, then a collect job.\n\
         # Submit with:  bash THIS_FILE   (it calls sbatch twice)\n\
         set -euo pipefail\n\
         mkdir -p {logs}\n\
         cd {workdir}\n\
         array=$(sbatch --parsable --job-name={job} --array=0-{last} --cpus-per-task={cpus} \\\n    --output={logs}/%A_%a.log \\\n    --wrap=\"{exe} {args} --out {out} --jobs {cpus}\")\n\
         sbatch --parsable --job-name={job}-collect --dependency=afterok:${{array}} \\\n    --output={logs}/collect-%j.log \\\n    --wrap=\"{exe} {args} --out {out} --collect\"\n\
         echo \"submitted array job ${{array}} ({tasks} tasks) and its collect job\"\n",
        args_plain = p.args.join(" "),
        tasks = p.tasks,
        last = p.tasks.saturating_sub(1),
        cpus = p.cpus,
        job = p.job,
        logs = q(&logs.display().to_string()),
        workdir = q(&p.workdir.display().to_string()),
    )
}

/// Single-quoted for the shell unless it is plainly safe.
fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:+@,".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_runs() {
        let shards: Vec<Shard> = (1..=3)
            .map(|i| Shard::parse(&format!("{i}/3")).unwrap())
            .collect();
        for run in 0..10 {
            assert_eq!(
                shards.iter().filter(|s| s.owns(run)).count(),
                1,
                "run {run}"
            );
        }
        for bad in ["0/3", "4/3", "1/0", "x/2", "2", "-1/2"] {
            assert!(
                Shard::parse(bad).unwrap_err().contains("expected I/N"),
                "{bad}"
            );
        }
        assert_eq!(Shard::parse("2/4").unwrap().to_string(), "2/4");
    }

    #[test]
    fn slurm_array_environment_gives_the_shard() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                vars.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(Shard::from_slurm(env(&[])).unwrap(), None);
        assert_eq!(
            Shard::from_slurm(env(&[
                ("SLURM_ARRAY_TASK_ID", "2"),
                ("SLURM_ARRAY_TASK_COUNT", "4")
            ]))
            .unwrap(),
            Some(Shard { index: 2, count: 4 })
        );
        assert_eq!(
            Shard::from_slurm(env(&[
                ("SLURM_ARRAY_TASK_ID", "5"),
                ("SLURM_ARRAY_TASK_MIN", "4"),
                ("SLURM_ARRAY_TASK_COUNT", "2")
            ]))
            .unwrap(),
            Some(Shard { index: 1, count: 2 })
        );
        assert!(Shard::from_slurm(env(&[
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "4")
        ]))
        .is_err());
        assert!(Shard::from_slurm(env(&[
            ("SLURM_ARRAY_TASK_ID", "a"),
            ("SLURM_ARRAY_TASK_COUNT", "4")
        ]))
        .is_err());
    }

    #[test]
    fn the_sbatch_script_runs_shards_then_collects() {
        let args = ["reproduce".to_string(), "baws-fig8".to_string()];
        let s = sbatch_script(&SbatchPlan {
            exe: Path::new("/opt/w s/warpsim"),
            workdir: Path::new("/home/u"),
            args: &args,
            out: Path::new("/shared/res"),
            tasks: 4,
            cpus: 2,
            job: "warpsim",
        });
        assert!(s.starts_with("#!/bin/bash\n"));
        assert!(s.contains("--array=0-3 --cpus-per-task=2"));
        assert!(s.contains("'/opt/w s/warpsim' reproduce baws-fig8 --out /shared/res --jobs 2"));
        assert!(s.contains("--dependency=afterok:${array}"));
        assert!(s.contains("--out /shared/res --collect"));
    }
}
