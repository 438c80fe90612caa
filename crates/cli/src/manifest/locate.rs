//! Key paths (`buffer[1].init.kind`) and where they are in the manifest text.

use std::ops::Range;
use std::path::{Path, PathBuf};

use toml_edit::{ImDocument, Item, Value};

/// The manifest's text, kept to turn key paths into `FILE:LINE:COL` positions.
pub struct Source {
    pub path: PathBuf,
    text: String,
    doc: Option<ImDocument<String>>,
}

impl Source {
    pub fn new(path: &Path, text: String) -> Source {
        let doc = ImDocument::parse(text.clone()).ok();
        Source {
            path: path.to_path_buf(),
            text,
            doc,
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// `(line, column)`, both 1-based, of byte `offset`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let col = before.rfind('\n').map_or(before.chars().count(), |nl| {
            before[nl + 1..].chars().count()
        }) + 1;
        (line, col)
    }

    /// The span of the value at `key_path`, or of its nearest enclosing item that exists.
    pub fn span_of(&self, key_path: &str) -> Option<Range<usize>> {
        let doc = self.doc.as_ref()?;
        let mut best = None;
        let mut node = Node::Item(doc.as_item());
        for seg in segments(key_path) {
            let next = match (&seg, node) {
                (Seg::Key(k), Node::Item(Item::Table(t))) => t.get(k).map(Node::Item),
                (Seg::Key(k), Node::Item(Item::Value(Value::InlineTable(t))))
                | (Seg::Key(k), Node::Value(Value::InlineTable(t))) => t.get(k).map(Node::Value),
                (Seg::Index(i), Node::Item(Item::ArrayOfTables(a))) => a.get(*i).map(Node::Table),
                (Seg::Index(i), Node::Item(Item::Value(Value::Array(a))))
                | (Seg::Index(i), Node::Value(Value::Array(a))) => a.get(*i).map(Node::Value),
                (Seg::Key(k), Node::Table(t)) => t.get(k).map(Node::Item),
                _ => None,
            };
            match next {
                Some(n) => {
                    node = n;
                    if let Some(s) = n.span() {
                        best = Some(s);
                    }
                }
                None => break,
            }
        }
        best
    }

    /// `FILE:LINE:COL: KEY: message`, or `FILE: KEY: message` when the key cannot be placed.
    pub fn diag_at(&self, span: Option<Range<usize>>, key_path: &str, message: &str) -> String {
        let mut s = self.path.display().to_string();
        if let Some(span) = span {
            let (line, col) = self.line_col(span.start);
            s.push_str(&format!(":{line}:{col}"));
        }
        if !key_path.is_empty() {
            s.push_str(": ");
            s.push_str(key_path);
        }
        s.push_str(": ");
        s.push_str(message);
        s
    }

    pub fn diag(&self, key_path: &str, message: &str) -> String {
        self.diag_at(self.span_of(key_path), key_path, message)
    }
}

#[derive(Clone, Copy)]
enum Node<'a> {
    Item(&'a Item),
    Value(&'a Value),
    Table(&'a toml_edit::Table),
}

impl Node<'_> {
    fn span(&self) -> Option<Range<usize>> {
        match self {
            Node::Item(i) => i.span(),
            Node::Value(v) => v.span(),
            Node::Table(t) => t.span(),
        }
    }
}

enum Seg {
    Key(String),
    Index(usize),
}

/// `buffer[1].init.kind` → `buffer`, `1`, `init`, `kind`.
fn segments(path: &str) -> Vec<Seg> {
    let mut out = Vec::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            out.push(Seg::Key(key.to_string()));
        }
        while let Some(r) = rest.strip_prefix('[') {
            let Some(end) = r.find(']') else { break };
            if let Ok(i) = r[..end].parse() {
                out.push(Seg::Index(i));
            }
            rest = &r[end + 1..];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "ptx = \"a.ptx\"\ngrid = [1, 2]\n\n[[buffer]]\nname = \"x\"\n\n[[buffer]]\nname = \"y\"\ninit = { kind = \"rand\" }\n";

    #[test]
    fn locates_nested_keys() {
        let src = Source::new(Path::new("m.toml"), TEXT.to_string());
        let at = |p: &str| src.span_of(p).map(|s| src.line_col(s.start));
        assert_eq!(at("ptx"), Some((1, 7)));
        assert_eq!(at("grid[1]"), Some((2, 12)));
        assert_eq!(at("buffer[1].init.kind"), Some((9, 17)));
        assert_eq!(at("buffer[0].name"), Some((5, 8)));
        // A missing key falls back to its table.
        assert!(at("buffer[1].len").is_some());
        assert_eq!(src.diag("grid[1]", "bad"), "m.toml:2:12: grid[1]: bad");
    }
}
