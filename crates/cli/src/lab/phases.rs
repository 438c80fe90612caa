// PLACEHOLDER until the analysis branch lands (not to be committed).
use super::record::Lane;
use crate::stats_out::KernelRow;
pub struct RunPhases { pub lanes: Vec<Lane>, pub rtru: Option<f64> }
pub fn of_run(_rows: &[KernelRow]) -> RunPhases { RunPhases { lanes: Vec::new(), rtru: None } }
