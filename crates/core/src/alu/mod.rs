//! Per-lane arithmetic semantics (to be written).
