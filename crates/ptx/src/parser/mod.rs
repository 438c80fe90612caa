//! Recursive-descent parser: tokens to [`ast::Module`](crate::ast::Module).
//!
//! The parser works on the flat token vector of [`crate::lexer`] with one token of lookahead
//! (two where a label must be told from an instruction). Every loop consumes a token or
//! returns an error, and every recursion (nested blocks, vector operands, initializer lists)
//! is bounded by [`MAX_DEPTH`], so no input can make it loop forever or overflow the stack.
//!
//! Split: this file holds the cursor, errors, literals and module-scope directives;
//! `decl.rs` functions, parameters and variables; `instr.rs` bodies, instructions and operands.

mod decl;
mod instr;

use crate::ast::{Linkage, Module, Span};
use crate::lexer::{tokenize, LineIndex, Tok, Token};
use crate::ParseError;

/// How deep blocks, vector/list operands and initializer lists may nest.
const MAX_DEPTH: u32 = 100;

type PResult<T> = Result<T, ParseError>;

/// Parses a whole PTX module.
pub fn parse(source: &str) -> Result<Module, ParseError> {
    let mut p = Parser::new(source);
    p.module()
}

struct Parser<'a> {
    src: &'a str,
    toks: Vec<Token>,
    pos: usize,
    lines: LineIndex,
    depth: u32,
}

impl<'a> Parser<'a> {
    fn new(src: &'a str) -> Parser<'a> {
        Parser {
            src,
            toks: tokenize(src),
            pos: 0,
            lines: LineIndex::new(src),
            depth: 0,
        }
    }

    // ---- cursor ----

    fn peek(&self) -> Token {
        self.toks[self.pos]
    }

    fn kind(&self) -> Tok {
        self.toks[self.pos].kind
    }

    /// The kind `n` tokens ahead (`Eof` past the end).
    fn kind_at(&self, n: usize) -> Tok {
        self.toks.get(self.pos + n).map_or(Tok::Eof, |t| t.kind)
    }

    fn text(&self, t: Token) -> &'a str {
        &self.src[t.start..t.end]
    }

    fn cur_text(&self) -> &'a str {
        self.text(self.peek())
    }

    /// Returns the current token and moves past it (never past `Eof`).
    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos];
        if t.kind != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    fn at(&self, k: Tok) -> bool {
        self.kind() == k
    }

    fn eat(&mut self, k: Tok) -> bool {
        if self.at(k) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn at_dotted(&self, word: &str) -> bool {
        self.at(Tok::Dotted) && self.cur_text() == word
    }

    fn expect(&mut self, k: Tok, msg: &str) -> PResult<Token> {
        if self.at(k) {
            Ok(self.bump())
        } else {
            Err(self.err_here(msg))
        }
    }

    fn span_of(&self, t: Token) -> Span {
        let (line, col) = self.lines.position(self.src, t.start);
        Span { line, col }
    }

    fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_DEPTH {
            return Err(self.err_here("nesting too deep"));
        }
        self.depth += 1;
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    // ---- errors ----

    fn err_here(&self, msg: &str) -> ParseError {
        self.err_at(self.peek(), msg)
    }

    /// An error at token `t`. A lexically broken token reports its own problem instead of
    /// `msg`, since that is the real cause.
    fn err_at(&self, t: Token, msg: &str) -> ParseError {
        let span = self.span_of(t);
        let message = match t.kind {
            Tok::Error => "unexpected character".to_string(),
            Tok::UnterminatedStr => "unterminated string".to_string(),
            Tok::UnterminatedComment => "unterminated block comment".to_string(),
            _ => msg.to_string(),
        };
        let found = match t.kind {
            Tok::Eof => "<end of input>".to_string(),
            Tok::UnterminatedComment => "/*".to_string(),
            _ => {
                let s = self.text(t);
                match s.char_indices().nth(60) {
                    Some((i, _)) => format!("{}…", &s[..i]),
                    None => s.to_string(),
                }
            }
        };
        ParseError {
            line: span.line,
            col: span.col,
            message,
            found,
        }
    }

    // ---- literals ----

    /// An integer token's value as two's-complement bits.
    fn int_value(&self, t: Token) -> PResult<u64> {
        parse_int(self.text(t)).ok_or_else(|| self.err_at(t, "invalid integer literal"))
    }

    /// Expects a non-negative integer that fits in `u32`.
    fn expect_u32(&mut self, msg: &str) -> PResult<u32> {
        let t = self.expect(Tok::Int, msg)?;
        let v = self.int_value(t)?;
        u32::try_from(v).map_err(|_| self.err_at(t, "integer out of range"))
    }

    fn hex_f32(&self, t: Token) -> PResult<u32> {
        let digits = &self.text(t)[2..];
        if digits.len() != 8 {
            return Err(self.err_at(t, "invalid hex float literal (`0f` needs 8 hex digits)"));
        }
        u32::from_str_radix(digits, 16).map_err(|_| self.err_at(t, "invalid hex float literal"))
    }

    fn hex_f64(&self, t: Token) -> PResult<u64> {
        let digits = &self.text(t)[2..];
        if digits.len() != 16 {
            return Err(self.err_at(t, "invalid hex float literal (`0d` needs 16 hex digits)"));
        }
        u64::from_str_radix(digits, 16).map_err(|_| self.err_at(t, "invalid hex float literal"))
    }

    fn float_value(&self, t: Token) -> PResult<f64> {
        self.text(t)
            .parse::<f64>()
            .map_err(|_| self.err_at(t, "invalid float literal"))
    }

    fn string_value(&self, t: Token) -> String {
        let s = self.text(t);
        unescape(&s[1..s.len() - 1])
    }

    // ---- module scope ----

    fn module(&mut self) -> PResult<Module> {
        let mut m = Module {
            address_size: 64,
            ..Module::default()
        };
        loop {
            let t = self.peek();
            match t.kind {
                Tok::Eof => break,
                Tok::Dotted => match self.text(t) {
                    ".version" => {
                        self.bump();
                        m.version = self.version()?;
                    }
                    ".target" => {
                        self.bump();
                        m.target.clear();
                        loop {
                            let name =
                                self.expect(Tok::Ident, "expected a target name after `.target`")?;
                            m.target.push(self.text(name).to_string());
                            if !self.eat(Tok::Comma) {
                                break;
                            }
                        }
                    }
                    ".address_size" => {
                        self.bump();
                        m.address_size =
                            self.expect_u32("expected a number after `.address_size`")?;
                    }
                    ".file" => {
                        self.bump();
                        m.files.push(self.file_directive()?);
                    }
                    ".pragma" => {
                        let pt = self.bump();
                        let span = self.span_of(pt);
                        let text = self.pragma_strings()?;
                        m.items.push(crate::ast::Item::Pragma(text, span));
                    }
                    ".section" => self.skip_section()?,
                    ".alias" => self.skip_to_semi("expected `;` after `.alias`")?,
                    _ => self.module_declaration(&mut m.items)?,
                },
                _ => return Err(self.err_here("expected a directive at module scope")),
            }
        }
        Ok(m)
    }

    fn version(&mut self) -> PResult<(u32, u32)> {
        let t = self.peek();
        let msg = "expected a version number `MAJOR.MINOR` after `.version`";
        if t.kind != Tok::Float {
            return Err(self.err_at(t, msg));
        }
        let text = self.text(t);
        let (a, b) = text.split_once('.').ok_or_else(|| self.err_at(t, msg))?;
        match (a.parse::<u32>(), b.parse::<u32>()) {
            (Ok(a), Ok(b)) => {
                self.bump();
                Ok((a, b))
            }
            _ => Err(self.err_at(t, msg)),
        }
    }

    /// `.file N "path"[, timestamp, size]` (after `.file`).
    fn file_directive(&mut self) -> PResult<(u32, String)> {
        let n = self.expect_u32("expected a file number after `.file`")?;
        let s = self.expect(Tok::Str, "expected a file name string after `.file N`")?;
        let path = self.string_value(s);
        // Optional timestamp and size.
        while self.eat(Tok::Comma) {
            self.expect(Tok::Int, "expected a number in `.file`")?;
        }
        Ok((n, path))
    }

    /// `"a"[, "b"…];` after `.pragma`; several strings are joined with `, `.
    fn pragma_strings(&mut self) -> PResult<String> {
        let mut out = String::new();
        loop {
            let s = self.expect(Tok::Str, "expected a string after `.pragma`")?;
            if !out.is_empty() {
                out.push_str(", ");
            }
            out.push_str(&self.string_value(s));
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::Semi, "expected `;` after `.pragma`")?;
        Ok(out)
    }

    /// `.section name { … }`: DWARF data, skipped by brace matching.
    fn skip_section(&mut self) -> PResult<()> {
        self.bump(); // .section
        while !self.at(Tok::LBrace) {
            if matches!(self.kind(), Tok::Eof | Tok::Semi | Tok::RBrace) {
                return Err(self.err_here("expected `{` after `.section` name"));
            }
            self.bump();
        }
        let open = self.bump();
        let mut depth = 1usize;
        loop {
            match self.kind() {
                Tok::Eof | Tok::UnterminatedComment => {
                    let s = self.span_of(open);
                    let msg =
                        format!("unterminated `.section` block (the `{{` at {s} is never closed)");
                    return Err(self.err_here(&msg));
                }
                Tok::LBrace => depth += 1,
                Tok::RBrace => {
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return Ok(());
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }

    /// Skips to and past the next `;` (for directives we accept but do not keep).
    fn skip_to_semi(&mut self, msg: &str) -> PResult<()> {
        self.bump();
        loop {
            match self.kind() {
                Tok::Semi => {
                    self.bump();
                    return Ok(());
                }
                Tok::Eof | Tok::LBrace | Tok::RBrace => return Err(self.err_here(msg)),
                _ => {
                    self.bump();
                }
            }
        }
    }

    /// Reads linkage words (`.visible`, `.extern`, `.weak`, `.common`); the last one wins.
    fn linkage(&mut self) -> Linkage {
        let mut linkage = Linkage::None;
        while self.at(Tok::Dotted) {
            linkage = match self.cur_text() {
                ".visible" => Linkage::Visible,
                ".extern" => Linkage::Extern,
                ".weak" => Linkage::Weak,
                ".common" => Linkage::Common,
                _ => break,
            };
            self.bump();
        }
        linkage
    }
}

/// Parses an integer literal's text: decimal, `0x` hex, `0b` binary, octal with a leading 0,
/// each with an optional `U` suffix. `None` when malformed or over 64 bits.
pub(crate) fn parse_int(text: &str) -> Option<u64> {
    let t = text.strip_suffix('U').unwrap_or(text);
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        (b, 2)
    } else if t.len() > 1 && t.starts_with('0') {
        (&t[1..], 8)
    } else {
        (t, 10)
    };
    if digits.is_empty() {
        return None;
    }
    u64::from_str_radix(digits, radix).ok()
}

/// Decodes the backslash escapes of a string literal's body.
fn unescape(body: &str) -> String {
    if !body.contains('\\') {
        return body.to_string();
    }
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('a') => out.push('\x07'),
            Some('b') => out.push('\x08'),
            Some('f') => out.push('\x0C'),
            Some('v') => out.push('\x0B'),
            Some('x') => {
                let mut v = 0u32;
                let mut n = 0;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(16)) {
                    if n == 2 {
                        break;
                    }
                    v = v * 16 + d;
                    n += 1;
                    chars.next();
                }
                out.push(char::from_u32(v).unwrap_or('\u{FFFD}'));
            }
            Some(d @ '0'..='7') => {
                let mut v = d.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(v).unwrap_or('\u{FFFD}'));
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}
