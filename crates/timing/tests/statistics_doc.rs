//! `docs/STATISTICS.md` lists every statistic as `stat_table::markdown` makes it, between two
//! markers; the rest of the page is written by hand. `WARPSIM_BLESS=1 cargo test -p
//! warpsim-timing --test integration -- statistics_doc` rewrites the generated part.

use warpsim_timing::stat_table;

const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/STATISTICS.md");
const BEGIN: &str = "<!-- BEGIN generated from crates/timing/src/stat_table.rs: WARPSIM_BLESS=1 cargo test -p warpsim-timing --test integration -- statistics_doc -->\n";
const END: &str = "<!-- END generated -->\n";

#[test]
fn statistics_doc_lists_the_table() {
    let text = std::fs::read_to_string(DOC).expect("docs/STATISTICS.md");
    let start = text.find(BEGIN).expect("the BEGIN marker") + BEGIN.len();
    let end = start + text[start..].find(END).expect("the END marker");
    let want = stat_table::markdown();
    if text[start..end] == want {
        return;
    }
    if std::env::var_os("WARPSIM_BLESS").is_some() {
        let new = format!("{}{want}{}", &text[..start], &text[end..]);
        std::fs::write(DOC, new).expect("write docs/STATISTICS.md");
        return;
    }
    panic!(
        "docs/STATISTICS.md's statistics differ from stat_table.rs; regenerate with \
         WARPSIM_BLESS=1 cargo test -p warpsim-timing --test integration -- statistics_doc"
    );
}

#[test]
fn every_statistic_is_in_the_generated_table() {
    let md = stat_table::markdown();
    for d in stat_table::STATS {
        let name = d.record.unwrap_or(d.name);
        assert!(md.contains(&format!("`{name}`")), "{name}");
        assert!(md.contains(d.description), "{}", d.name);
    }
}
