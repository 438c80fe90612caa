//! Built-in workloads (to be written).
