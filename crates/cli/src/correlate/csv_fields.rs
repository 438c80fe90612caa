//! Splitting a line of the correlation CSV (`correlation/reference/gpgpusim.csv`), whose
//! `problems` field may be quoted. One function, shared with `tests/correlation.rs` (which
//! includes this file by path).

/// Splits a CSV line whose fields may be quoted (the `problems` column).
pub fn fields(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    out.push(cur);
    out
}
