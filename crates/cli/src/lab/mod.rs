//! The experiment layer: `warpsim reproduce NAME` and `warpsim sweep FILE.toml`. An
//! experiment is data ([`spec`]); the built-in ones are TOML files ([`builtin`]). A sweep is
//! planned into runs ([`runner`]), each keyed by everything its result depends on ([`key`])
//! and stored in a result cache ([`cache`]) so re-running reuses finished runs; shards split a
//! plan over machines ([`shard`]). Results are laid out per experiment ([`grid`]), turned into
//! tables ([`table`]), compared with the paper's claims ([`claims`]), drawn ([`figures`]) and
//! written with a report ([`output`]).

pub mod builtin;
pub mod cache;
pub mod claims;
pub mod command;
pub mod figures;
pub mod grid;
pub mod key;
pub mod output;
pub mod phases;
pub mod record;
pub mod runner;
pub mod shard;
pub mod spec;
pub mod table;
