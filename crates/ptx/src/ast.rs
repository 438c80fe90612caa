//! The typed syntax tree of a PTX module.
//!
//! The tree keeps what the source says and nothing more: opcodes stay as their base word plus
//! the dot-suffixes in source order (`ld.global.nc.v4.f32` is opcode `ld`, modifiers
//! `[global, nc, v4, f32]`), names stay strings. Giving them meaning (types, state spaces,
//! register numbers, label targets) is the job of lowering in `warpsim-core`, so that the
//! parser accepts every instruction PTX can spell and lowering alone decides what is
//! supported, with the instruction's name and line in the error.

/// A position in the source: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub line: u32,
    pub col: u32,
}

impl std::fmt::Display for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// One `.ptx` file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Module {
    /// `.version 9.5` → `(9, 5)`.
    pub version: (u32, u32),
    /// `.target sm_75, debug` → `["sm_75", "debug"]`.
    pub target: Vec<String>,
    /// `.address_size 64`; 64 when absent.
    pub address_size: u32,
    /// Module-scope declarations in source order.
    pub items: Vec<Item>,
    /// `.file N "path"` directives (N, path).
    pub files: Vec<(u32, String)>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Function(Function),
    Var(VarDecl),
    Pragma(String, Span),
}

/// Linkage / visibility attributes written before a declaration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Linkage {
    #[default]
    None,
    Visible,
    Extern,
    Weak,
    Common,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionKind {
    /// `.entry`: a kernel.
    Entry,
    /// `.func`: a device function.
    Func,
}

/// A kernel or device function; `body` is `None` for a declaration (`.extern .func vprintf(...);`
/// or a forward declaration ending in `;`).
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub span: Span,
    pub name: String,
    pub kind: FunctionKind,
    pub linkage: Linkage,
    /// `.func (.param .b32 func_retval0) f(...)`: the return parameters.
    pub returns: Vec<ParamDecl>,
    pub params: Vec<ParamDecl>,
    pub perf: PerfDirectives,
    pub body: Option<Block>,
}

/// Performance-tuning directives between the parameter list and the body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerfDirectives {
    /// `.maxntid x[, y[, z]]` (missing dimensions are 1).
    pub maxntid: Option<[u32; 3]>,
    /// `.reqntid x[, y[, z]]`.
    pub reqntid: Option<[u32; 3]>,
    pub minnctapersm: Option<u32>,
    pub maxnctapersm: Option<u32>,
    pub maxnreg: Option<u32>,
    /// `.noreturn` on a `.func`.
    pub noreturn: bool,
}

/// A scalar element type: `.u32`, `.f64`, `.pred`, `.b8`, …
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    B8,
    B16,
    B32,
    B64,
    B128,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    F16x2,
    BF16,
    BF16x2,
    F32,
    F64,
    Pred,
}

impl ScalarType {
    /// Parses a type suffix without its dot: `"u32"` → `U32`.
    pub fn from_suffix(s: &str) -> Option<ScalarType> {
        use ScalarType::*;
        Some(match s {
            "b8" => B8,
            "b16" => B16,
            "b32" => B32,
            "b64" => B64,
            "b128" => B128,
            "u8" => U8,
            "u16" => U16,
            "u32" => U32,
            "u64" => U64,
            "s8" => S8,
            "s16" => S16,
            "s32" => S32,
            "s64" => S64,
            "f16" => F16,
            "f16x2" => F16x2,
            "bf16" => BF16,
            "bf16x2" => BF16x2,
            "f32" => F32,
            "f64" => F64,
            "pred" => Pred,
            _ => return None,
        })
    }

    /// Size in bytes (a predicate counts as 1 byte, as in `.param .pred`).
    pub fn size(self) -> u32 {
        use ScalarType::*;
        match self {
            B8 | U8 | S8 | Pred => 1,
            B16 | U16 | S16 | F16 | BF16 => 2,
            B32 | U32 | S32 | F32 | F16x2 | BF16x2 => 4,
            B64 | U64 | S64 | F64 => 8,
            B128 => 16,
        }
    }
}

/// State spaces of variables and parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateSpace {
    Reg,
    Param,
    Global,
    Shared,
    Local,
    Const,
    Tex,
}

/// A parameter in a function's parameter or return list.
/// `.param .align 8 .b8 p[16]` → ty B8, align Some(8), array Some(16).
#[derive(Clone, Debug, PartialEq)]
pub struct ParamDecl {
    pub span: Span,
    pub space: StateSpace,
    pub ty: ScalarType,
    pub align: Option<u32>,
    /// Element count for an array parameter.
    pub array: Option<u32>,
    pub name: String,
    /// `.ptr` attributes (`.ptr .global .align 8`) are accepted and recorded here as written.
    pub ptr_attrs: Vec<String>,
}

/// `{ … }`: a function body or a nested scope inside one. Registers declared in a block are
/// visible only inside it and shadow outer names.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Block {
    pub span: Span,
    pub statements: Vec<Statement>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    Reg(RegDecl),
    Var(VarDecl),
    Label(String, Span),
    Instruction(Instruction),
    Block(Block),
    Loc(Loc),
    Pragma(String, Span),
    /// `name: .callprototype (.param .b32 _) _ (.param .b32 _, …);`
    CallPrototype(CallPrototype),
    /// `name: .branchtargets L1, L2, …;`
    BranchTargets {
        name: String,
        labels: Vec<String>,
        span: Span,
    },
}

/// `.reg .b32 %r<98>;` or `.reg .u32 %r0, %alo;` or `.reg .v2 .f32 %v;`
#[derive(Clone, Debug, PartialEq)]
pub struct RegDecl {
    pub span: Span,
    pub ty: ScalarType,
    /// `.v2`/`.v4` vector registers.
    pub vector: Option<u8>,
    pub names: Vec<RegName>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegName {
    /// `%alo`
    Single(String),
    /// `%r<98>` declares `%r0` … `%r97`.
    Range { prefix: String, count: u32 },
}

/// A variable in any state space, at module scope or in a body.
/// `.shared .align 4 .b8 tile[4096];`, `.extern .shared .align 16 .b8 dyn[];`,
/// `.const .align 8 .f64 c = 0d3FF8000000000000;`, `.global .align 8 .u64 ops[2] = {f, g};`
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub span: Span,
    pub linkage: Linkage,
    pub space: StateSpace,
    pub align: Option<u32>,
    pub ty: ScalarType,
    pub vector: Option<u8>,
    pub name: String,
    /// Array dimensions in source order; `None` for an unsized dimension (`[]`).
    pub dims: Vec<Option<u32>>,
    pub init: Option<Initializer>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Initializer {
    Value(InitValue),
    /// `{a, b, {c, d}}`
    List(Vec<Initializer>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum InitValue {
    /// Integer literal, two's-complement bits (negative literals are negated with wrapping).
    Int(i64),
    /// `0fXXXXXXXX` bits.
    F32(u32),
    /// `0dXXXXXXXXXXXXXXXX` bits.
    F64(u64),
    /// Decimal float literal such as `1.5` or `1e-3`.
    Float(f64),
    /// A symbol's address, optionally plus an offset: `f`, `generic(arr)+8`.
    Symbol {
        name: String,
        offset: i64,
        generic: bool,
    },
}

/// `.loc file line col[, function_name …, inlined_at …]`; only the first three are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loc {
    pub span: Span,
    pub file: u32,
    pub line: u32,
    pub col: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CallPrototype {
    pub span: Span,
    pub name: String,
    pub returns: Vec<ParamDecl>,
    pub params: Vec<ParamDecl>,
}

/// One instruction: `@!%p1 ld.global.nc.v4.f32 {%f1,%f2,%f3,%f4}, [%rd7+16];`
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    pub span: Span,
    pub guard: Option<Guard>,
    /// The base opcode word: `ld`, `setp`, `bar`, `call`, …
    pub opcode: String,
    /// The dot-suffixes in source order, without dots: `["global", "nc", "v4", "f32"]`.
    pub modifiers: Vec<String>,
    pub operands: Vec<Operand>,
}

/// `@%p` or `@!%p`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    pub negated: bool,
    pub pred: String,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// A register, possibly a special register with a component: `%r1`, `%tid.x`, `%SP`.
    Reg(RegRef),
    /// `!%p` as a source operand (setp's `.and`/`.or` source, `selp`'s predicate…).
    NotReg(RegRef),
    Imm(Immediate),
    /// A name that is not a register: a label, a function, a variable; with an optional
    /// `+imm` offset (`sym+8`, `sym+-8`).
    Symbol {
        name: String,
        offset: i64,
    },
    /// `[base+offset]`.
    Address(Address),
    /// `{%f1, %f2}`: vector operand for ld/st/mov pack/unpack; `_` may appear inside as Sink.
    Vector(Vec<Operand>),
    /// `%r17|%p3`: an instruction with two destinations (shfl, setp).
    Pair(RegRef, RegRef),
    /// `( a, b )`: the return or argument list of a `call`.
    List(Vec<Operand>),
    /// `[%rd7, {%r1}]`: a texture/surface reference with coordinates.
    TexRef(Vec<Operand>),
    /// `_`: a discarded result.
    Sink,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegRef {
    pub name: String,
    /// `.x/.y/.z/.w` (or `.r/.g/.b/.a`) component as written after the name.
    pub component: Option<char>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Immediate {
    /// Integer literal (decimal, `0x`, octal `0…`, `0b`, optional `U` suffix), two's-complement bits.
    Int(i64),
    /// `0f3F800000`
    F32(u32),
    /// `0d3FF0000000000000`
    F64(u64),
    /// `1.5`, `1e-3`
    Float(f64),
}

/// The inside of `[…]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Address {
    pub base: AddressBase,
    /// `+imm` / `+-imm` / `-imm` offset in bytes.
    pub offset: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AddressBase {
    Reg(RegRef),
    Symbol(String),
    /// `[0x1000]`: an absolute address.
    Absolute,
}
