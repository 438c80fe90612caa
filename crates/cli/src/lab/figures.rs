// PLACEHOLDER until the plot branch lands (not to be committed).
use super::grid::Grid;
use super::spec::View;
pub fn draw(_g: &Grid, _v: &View) -> Result<Option<String>, String> { Ok(None) }
