//! Tokens: a logos lexer over the whole source, producing a flat vector of `(kind, byte range)`.
//!
//! Token texts are never copied: the parser slices the source with the byte range. Lexical
//! problems (an unknown character, an unterminated string or comment) become tokens of their
//! own kinds so that the parser reports them, with their position, where it meets them.

use logos::{Filter, Logos};

/// The kind of a token. Texts are recovered from the source by byte range.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\x0B\x0C\x00\u{FEFF}]+")]
#[logos(skip r"//[^\n]*")]
pub enum Tok {
    /// `%r1`, `%tid`, `$L__BB0_2`, `_Z3fooPfi`, `ld`, `_`.
    #[regex(r"[A-Za-z_$%][A-Za-z0-9_$]*")]
    Ident,
    /// `.reg`, `.u32`, `.x`, `.2d`, `.L2::128B`, `.shared::cta`.
    #[regex(r"\.[A-Za-z0-9_$]+(::[A-Za-z0-9_$]+)*")]
    Dotted,
    /// Decimal, octal (leading 0), `0x` hex, `0b` binary, each with an optional `U` suffix.
    #[regex(r"[0-9]+U?")]
    #[regex(r"0[xX][0-9a-fA-F]+U?")]
    #[regex(r"0[bB][01]+U?")]
    Int,
    /// `0f` + hex digits (valid with exactly 8; checked by the parser).
    #[regex(r"0[fF][0-9a-fA-F]*")]
    HexF32,
    /// `0d` + hex digits (valid with exactly 16; checked by the parser).
    #[regex(r"0[dD][0-9a-fA-F]*")]
    HexF64,
    /// `1.5`, `1e-3`, `2.0E+5`.
    #[regex(r"[0-9]+\.[0-9]+([eE][+-]?[0-9]+)?")]
    #[regex(r"[0-9]+[eE][+-]?[0-9]+")]
    Float,
    /// `"…"` with backslash escapes.
    #[regex(r#""([^"\\\n]|\\[^\n])*""#)]
    Str,
    /// A string that reaches the end of its line without a closing quote.
    #[regex(r#""([^"\\\n]|\\[^\n])*"#)]
    UnterminatedStr,
    /// `/*` without a matching `*/` (terminated block comments are skipped).
    #[token("/*", block_comment)]
    UnterminatedComment,
    #[token(",")]
    Comma,
    #[token(";")]
    Semi,
    #[token(":")]
    Colon,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("|")]
    Pipe,
    #[token("!")]
    Bang,
    #[token("@")]
    At,
    #[token("=")]
    Eq,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    /// A character that starts no token.
    Error,
    /// The end of the input (always the last token of the vector).
    Eof,
}

fn block_comment(lex: &mut logos::Lexer<'_, Tok>) -> Filter<()> {
    let rest = lex.remainder();
    match rest.find("*/") {
        Some(i) => {
            lex.bump(i + 2);
            Filter::Skip
        }
        None => {
            lex.bump(rest.len());
            Filter::Emit(())
        }
    }
}

/// One token: its kind and byte range in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Tok,
    pub start: usize,
    pub end: usize,
}

/// Lexes the whole source. The result always ends with one `Eof` token at `source.len()`.
pub fn tokenize(source: &str) -> Vec<Token> {
    // A rough guess (one token per 4 bytes) avoids most re-allocations.
    let mut out = Vec::with_capacity(source.len() / 4 + 1);
    let mut lex = Tok::lexer(source);
    while let Some(res) = lex.next() {
        let span = lex.span();
        let kind = res.unwrap_or(Tok::Error);
        out.push(Token {
            kind,
            start: span.start,
            end: span.end,
        });
    }
    out.push(Token {
        kind: Tok::Eof,
        start: source.len(),
        end: source.len(),
    });
    out
}

/// Maps byte offsets to 1-based (line, column-in-characters) positions.
pub struct LineIndex {
    starts: Vec<usize>,
    /// The line of the last lookup: lookups mostly move forward a line or two at a time.
    hint: std::cell::Cell<usize>,
}

impl LineIndex {
    pub fn new(source: &str) -> LineIndex {
        let mut starts = Vec::with_capacity(source.len() / 32 + 1);
        starts.push(0);
        starts.extend(line_breaks(source.as_bytes()));
        LineIndex {
            starts,
            hint: std::cell::Cell::new(0),
        }
    }

    /// 1-based line and column of byte offset `off` (which must be a char boundary).
    pub fn position(&self, source: &str, off: usize) -> (u32, u32) {
        let contains = |l: usize| {
            self.starts[l] <= off && off < self.starts.get(l + 1).copied().unwrap_or(usize::MAX)
        };
        let h = self.hint.get();
        let line = if contains(h) {
            h
        } else if h + 1 < self.starts.len() && contains(h + 1) {
            h + 1
        } else {
            match self.starts.binary_search(&off) {
                Ok(i) => i,
                Err(i) => i - 1,
            }
        };
        self.hint.set(line);
        let start = self.starts[line];
        let col = source.get(start..off).map_or(0, |s| {
            if s.is_ascii() {
                s.len()
            } else {
                s.chars().count()
            }
        });
        (line as u32 + 1, col as u32 + 1)
    }
}

fn line_breaks(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .map(|(i, _)| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Tok, &str)> {
        tokenize(s)
            .into_iter()
            .map(|t| (t.kind, &s[t.start..t.end]))
            .collect()
    }

    #[test]
    fn lexes_the_basic_forms() {
        use Tok::*;
        assert_eq!(
            kinds("mov.u32 %r1, %tid.x; // c\n@!%p1 bra $L__BB0_2;\0"),
            vec![
                (Ident, "mov"),
                (Dotted, ".u32"),
                (Ident, "%r1"),
                (Comma, ","),
                (Ident, "%tid"),
                (Dotted, ".x"),
                (Semi, ";"),
                (At, "@"),
                (Bang, "!"),
                (Ident, "%p1"),
                (Ident, "bra"),
                (Ident, "$L__BB0_2"),
                (Semi, ";"),
                (Eof, ""),
            ]
        );
        assert_eq!(
            kinds("0x1F 017 0b101U 42U 0f3F800000 0d3FF0000000000000 1.5 1e-3 2.0E+5 0f12"),
            vec![
                (Int, "0x1F"),
                (Int, "017"),
                (Int, "0b101U"),
                (Int, "42U"),
                (HexF32, "0f3F800000"),
                (HexF64, "0d3FF0000000000000"),
                (Float, "1.5"),
                (Float, "1e-3"),
                (Float, "2.0E+5"),
                (HexF32, "0f12"),
                (Eof, ""),
            ]
        );
        assert_eq!(
            kinds("/* a\n * b **/ \"x\\\"y\" \"open\n.L2::128B #"),
            vec![
                (Str, "\"x\\\"y\""),
                (UnterminatedStr, "\"open"),
                (Dotted, ".L2::128B"),
                (Error, "#"),
                (Eof, ""),
            ]
        );
        assert_eq!(
            kinds("a /* open"),
            vec![(Ident, "a"), (UnterminatedComment, "/* open"), (Eof, "")]
        );
    }

    #[test]
    fn positions_count_characters() {
        let s = "ab\n  é x\n";
        let idx = LineIndex::new(s);
        assert_eq!(idx.position(s, 0), (1, 1));
        assert_eq!(idx.position(s, 3), (2, 1));
        let x = s.find('x').unwrap();
        assert_eq!(idx.position(s, x), (2, 5));
        assert_eq!(idx.position(s, s.len()), (3, 1));
        // Backward lookups (after a forward one) still work.
        assert_eq!(idx.position(s, 1), (1, 2));
        assert_eq!(idx.position(s, x), (2, 5));
        assert_eq!(idx.position(s, 2), (1, 3));
    }
}
