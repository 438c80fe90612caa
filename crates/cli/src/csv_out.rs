//! The CLI's CSV files, written and read through the `csv` crate: rows whose columns are
//! fixed are serde structs (the header is their field names), rows whose columns depend on
//! the data (statistics, series, policies) are records of fields. The conventions of every
//! committed CSV: `\n` line ends, a field quoted only when it holds a comma, a quote or a
//! line break.

use serde::Serialize;

pub use warpsim_timing::report::csv_text as records;

/// Serde rows as CSV text under a header of `R`'s field names (written even without rows:
/// then from `R::default()`, whose values are dropped).
pub fn serde_rows<R: Serialize + Default>(rows: impl IntoIterator<Item = R>) -> String {
    let mut w = writer();
    let mut any = false;
    for r in rows {
        // Plain structs of strings and numbers into memory: nothing can fail.
        w.serialize(&r).expect("CSV into memory");
        any = true;
    }
    if !any {
        w.serialize(R::default()).expect("CSV into memory");
        let text = into_string(w);
        return text
            .lines()
            .next()
            .map_or(String::new(), |h| format!("{h}\n"));
    }
    into_string(w)
}

fn writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new())
}

fn into_string(w: csv::Writer<Vec<u8>>) -> String {
    let bytes = w.into_inner().expect("CSV into memory");
    String::from_utf8(bytes).expect("CSV of UTF-8 fields")
}

/// A reader of CSV text with a header row.
pub fn reader(text: &str) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Default)]
    struct Row<'a> {
        name: &'a str,
        value: String,
    }

    /// The quoting and line ends every committed CSV has.
    #[test]
    fn quotes_only_what_needs_it() {
        let text = serde_rows([
            Row {
                name: "scale(float*, int)",
                value: "1".into(),
            },
            Row {
                name: "say \"hi\"",
                value: String::new(),
            },
            Row {
                name: "plain",
                value: "0.25".into(),
            },
        ]);
        assert_eq!(
            text,
            "name,value\n\"scale(float*, int)\",1\n\"say \"\"hi\"\"\",\nplain,0.25\n"
        );
        assert_eq!(serde_rows(Vec::<Row>::new()), "name,value\n");
        assert_eq!(
            records([
                vec!["a".to_string(), "b,c".into()],
                vec![String::new(), "d".into()]
            ]),
            "a,\"b,c\"\n,d\n"
        );
    }

    #[test]
    fn reads_quoted_fields() {
        let mut r = reader("a,b\nx,\"y, \"\"z\"\"\"\n");
        let rec = r.records().next().unwrap().unwrap();
        assert_eq!(rec.iter().collect::<Vec<_>>(), ["x", "y, \"z\""]);
    }
}
