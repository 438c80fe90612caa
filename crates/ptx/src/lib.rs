//! `ptx`: PTX source text to a typed syntax tree.
//!
//! ```text
//! text ──lexer (logos)──► tokens ──parser (recursive descent)──► ast::Module
//! ```
//!
//! Architecture invariant: this crate knows nothing about execution or timing; it accepts any
//! well-formed instruction (opcode + dot-modifiers + operands) and leaves meaning to lowering.
//! Every error carries the 1-based line and column and the offending token.

pub mod ast;
mod lexer;
mod parser;

pub use parser::parse;

/// A syntax error with its position and the token found there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {message} (found `{found}`)")]
pub struct ParseError {
    pub line: u32,
    pub col: u32,
    pub message: String,
    /// The offending token's text (`<end of input>` at the end).
    pub found: String,
}
