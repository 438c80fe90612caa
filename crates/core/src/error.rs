//! Errors of loading a module (parse + lowering).

/// One problem found while loading PTX. Every variant names the PTX line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("syntax error at {0}")]
    Parse(#[from] ptx::ParseError),
    /// An instruction, modifier combination, directive or operand form warpsim does not
    /// execute. `what` is the full opcode as written (`tex.1d.v4.f32.s32`) or the construct.
    #[error("line {line}: unsupported {what}")]
    Unsupported { what: String, line: u32 },
    /// A register, label, variable or function that is used but never declared.
    #[error("line {line}: undefined {kind} `{name}`")]
    Undefined {
        kind: &'static str,
        name: String,
        line: u32,
    },
    /// Well-formed syntax that is not valid PTX (wrong operand count, a type that does not fit
    /// the instruction, a duplicate label…).
    #[error("line {line}: {message}")]
    Invalid { message: String, line: u32 },
    /// Translation units that do not link into one program (see [`crate::link`]); not tied
    /// to one line.
    #[error("cannot link device code: {0}")]
    Link(#[from] crate::link::LinkError),
}

impl LoadError {
    pub fn line(&self) -> u32 {
        match self {
            LoadError::Parse(e) => e.line,
            LoadError::Unsupported { line, .. }
            | LoadError::Undefined { line, .. }
            | LoadError::Invalid { line, .. } => *line,
            LoadError::Link(_) => 0,
        }
    }
}

/// All problems found in one module, in source order.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))]
pub struct LoadErrors(pub Vec<LoadError>);
