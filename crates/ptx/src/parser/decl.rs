//! Declarations: functions, parameter lists, performance directives, variables,
//! initializers and register declarations.

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::{Tok, Token};

/// The state space a dotted word names in a variable declaration, if any.
pub(super) fn var_space(word: &str) -> Option<StateSpace> {
    Some(match word {
        ".global" => StateSpace::Global,
        ".shared" | ".shared::cta" | ".shared::cluster" => StateSpace::Shared,
        ".local" => StateSpace::Local,
        ".const" => StateSpace::Const,
        ".param" | ".param::entry" | ".param::func" => StateSpace::Param,
        ".tex" => StateSpace::Tex,
        _ => return None,
    })
}

pub(super) fn is_linkage(word: &str) -> bool {
    matches!(word, ".visible" | ".extern" | ".weak" | ".common")
}

impl<'a> Parser<'a> {
    /// A declaration at module scope: a function or variables, after optional linkage.
    pub(super) fn module_declaration(&mut self, items: &mut Vec<Item>) -> PResult<()> {
        let start = self.peek();
        let linkage = self.linkage();
        if self.at(Tok::Dotted) {
            match self.cur_text() {
                ".entry" | ".func" => {
                    let f = self.function(linkage, start)?;
                    items.push(Item::Function(f));
                    return Ok(());
                }
                w if var_space(w).is_some() => {
                    let vars = self.var_decl(linkage, start)?;
                    items.extend(vars.into_iter().map(Item::Var));
                    return Ok(());
                }
                _ => {}
            }
        }
        let msg = if linkage == Linkage::None {
            "unknown module-scope directive"
        } else {
            "expected `.entry`, `.func` or a variable declaration after linkage"
        };
        Err(self.err_here(msg))
    }

    /// `.entry name(params) perf { body }` or `.func (rets) name(params) perf { body }` or a
    /// declaration ending in `;`. The cursor is on `.entry`/`.func`.
    fn function(&mut self, linkage: Linkage, start: Token) -> PResult<Function> {
        let kw = self.bump();
        let kind = if self.text(kw) == ".entry" {
            FunctionKind::Entry
        } else {
            FunctionKind::Func
        };
        let mut returns = Vec::new();
        if kind == FunctionKind::Func && self.at(Tok::LParen) {
            returns = self.param_list()?;
        }
        let name = self.expect(Tok::Ident, "expected a function name")?;
        let name = self.text(name).to_string();
        let params = if self.at(Tok::LParen) {
            self.param_list()?
        } else {
            Vec::new()
        };
        let perf = self.perf_directives()?;
        let body = if self.eat(Tok::Semi) {
            None
        } else if self.at(Tok::LBrace) {
            Some(self.block()?)
        } else {
            return Err(self.err_here("expected `{` or `;` after function header"));
        };
        Ok(Function {
            span: self.span_of(start),
            name,
            kind,
            linkage,
            returns,
            params,
            perf,
            body,
        })
    }

    /// `( param, param… )`, possibly empty. The cursor is on `(`.
    pub(super) fn param_list(&mut self) -> PResult<Vec<ParamDecl>> {
        self.bump();
        let mut params = Vec::new();
        if self.eat(Tok::RParen) {
            return Ok(params);
        }
        loop {
            params.push(self.param()?);
            if self.eat(Tok::Comma) {
                continue;
            }
            self.expect(Tok::RParen, "expected `,` or `)` in parameter list")?;
            return Ok(params);
        }
    }

    /// `.param [.align N] .type [.ptr [.space] [.align N]] name[[N]]`, or `.reg .type name`.
    fn param(&mut self) -> PResult<ParamDecl> {
        let t = self.peek();
        let space = match self.text(t) {
            ".param" if t.kind == Tok::Dotted => StateSpace::Param,
            ".reg" if t.kind == Tok::Dotted => StateSpace::Reg,
            _ => return Err(self.err_here("expected `.param` or `.reg` in parameter list")),
        };
        self.bump();
        let mut align = None;
        let mut ty = None;
        let mut ptr = false;
        let mut ptr_attrs = Vec::new();
        while self.at(Tok::Dotted) {
            let w = self.cur_text();
            match w {
                ".align" => {
                    self.bump();
                    let n = self.expect_u32("expected an alignment after `.align`")?;
                    if ptr {
                        ptr_attrs.push(format!("align {n}"));
                    } else {
                        align = Some(n);
                    }
                }
                ".ptr" => {
                    self.bump();
                    ptr = true;
                }
                ".global" | ".shared" | ".const" | ".local" if ptr => {
                    self.bump();
                    ptr_attrs.push(w[1..].to_string());
                }
                _ if ty.is_none() => ty = Some(self.scalar_type()?),
                _ => return Err(self.err_here("unexpected attribute in parameter")),
            }
        }
        let Some(ty) = ty else {
            return Err(self.err_here("expected a parameter type"));
        };
        let name = self.expect(Tok::Ident, "expected a parameter name")?;
        let mut array = None;
        if self.eat(Tok::LBracket) {
            array = Some(self.expect_u32("expected an array size")?);
            self.expect(Tok::RBracket, "expected `]` after array size")?;
        }
        Ok(ParamDecl {
            span: self.span_of(t),
            space,
            ty,
            align,
            array,
            name: self.text(name).to_string(),
            ptr_attrs,
        })
    }

    /// A type word such as `.u32` at the cursor.
    pub(super) fn scalar_type(&mut self) -> PResult<ScalarType> {
        let t = self.peek();
        if t.kind == Tok::Dotted {
            if let Some(ty) = ScalarType::from_suffix(&self.text(t)[1..]) {
                self.bump();
                return Ok(ty);
            }
            let msg = format!("unknown type `{}`", self.text(t));
            return Err(self.err_at(t, &msg));
        }
        Err(self.err_at(t, "expected a type"))
    }

    /// `.maxntid`, `.reqntid`, `.minnctapersm`, `.maxnctapersm`, `.maxnreg`, `.noreturn`, and the
    /// cluster directives (accepted, not kept).
    pub(super) fn perf_directives(&mut self) -> PResult<PerfDirectives> {
        let mut perf = PerfDirectives::default();
        while self.at(Tok::Dotted) {
            match self.cur_text() {
                ".maxntid" => {
                    self.bump();
                    perf.maxntid = Some(self.dims3("expected a number after `.maxntid`")?);
                }
                ".reqntid" => {
                    self.bump();
                    perf.reqntid = Some(self.dims3("expected a number after `.reqntid`")?);
                }
                ".minnctapersm" => {
                    self.bump();
                    perf.minnctapersm =
                        Some(self.expect_u32("expected a number after `.minnctapersm`")?);
                }
                ".maxnctapersm" => {
                    self.bump();
                    perf.maxnctapersm =
                        Some(self.expect_u32("expected a number after `.maxnctapersm`")?);
                }
                ".maxnreg" => {
                    self.bump();
                    perf.maxnreg = Some(self.expect_u32("expected a number after `.maxnreg`")?);
                }
                ".noreturn" => {
                    self.bump();
                    perf.noreturn = true;
                }
                ".explicitcluster" => {
                    self.bump();
                }
                ".reqnctapercluster" | ".maxclusterrank" => {
                    self.bump();
                    self.dims3("expected a number after cluster directive")?;
                }
                _ => return Err(self.err_here("unknown function directive")),
            }
        }
        Ok(perf)
    }

    /// `x[, y[, z]]`, missing dimensions 1.
    fn dims3(&mut self, msg: &str) -> PResult<[u32; 3]> {
        let mut d = [1u32; 3];
        d[0] = self.expect_u32(msg)?;
        for slot in d.iter_mut().skip(1) {
            if !self.eat(Tok::Comma) {
                break;
            }
            *slot = self.expect_u32("expected a number after `,`")?;
        }
        Ok(d)
    }

    /// `space [.align N] [.vN] .type name[dims] [= init] {, name…};` after linkage; the cursor
    /// is on the state space. `start` is the declaration's first token.
    pub(super) fn var_decl(&mut self, linkage: Linkage, start: Token) -> PResult<Vec<VarDecl>> {
        let sp = self.bump();
        let space =
            var_space(self.text(sp)).ok_or_else(|| self.err_at(sp, "expected a state space"))?;
        let mut align = None;
        let mut vector = None;
        let mut ty = None;
        while self.at(Tok::Dotted) {
            match self.cur_text() {
                ".align" => {
                    self.bump();
                    align = Some(self.expect_u32("expected an alignment after `.align`")?);
                }
                ".v2" => {
                    self.bump();
                    vector = Some(2);
                }
                ".v4" => {
                    self.bump();
                    vector = Some(4);
                }
                ".v8" => {
                    self.bump();
                    vector = Some(8);
                }
                ".attribute" => self.skip_attribute()?,
                _ if ty.is_none() => ty = Some(self.scalar_type()?),
                _ => return Err(self.err_here("unexpected attribute in variable declaration")),
            }
        }
        let Some(ty) = ty else {
            return Err(self.err_here("expected a variable type"));
        };
        let span = self.span_of(start);
        let mut vars = Vec::new();
        loop {
            let name = self.expect(Tok::Ident, "expected a variable name")?;
            let mut dims = Vec::new();
            while self.eat(Tok::LBracket) {
                if self.eat(Tok::RBracket) {
                    dims.push(None);
                } else {
                    dims.push(Some(self.expect_u32("expected an array size")?));
                    self.expect(Tok::RBracket, "expected `]` after array size")?;
                }
            }
            let init = if self.eat(Tok::Eq) {
                Some(self.initializer()?)
            } else {
                None
            };
            vars.push(VarDecl {
                span,
                linkage,
                space,
                align,
                ty,
                vector,
                name: self.text(name).to_string(),
                dims,
                init,
            });
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::Semi, "expected `;` after variable declaration")?;
        Ok(vars)
    }

    /// `.attribute(.managed)` or `.attribute(.unified(0x12, 0x34))`: accepted and dropped.
    fn skip_attribute(&mut self) -> PResult<()> {
        self.bump();
        self.expect(Tok::LParen, "expected `(` after `.attribute`")?;
        let mut depth = 1u32;
        while depth > 0 {
            match self.kind() {
                Tok::LParen => depth += 1,
                Tok::RParen => depth -= 1,
                Tok::Dotted | Tok::Comma | Tok::Int | Tok::Ident => {}
                _ => return Err(self.err_here("expected `)` after attribute list")),
            }
            self.bump();
        }
        Ok(())
    }

    /// A value or a `{…}` list (nested lists allowed).
    fn initializer(&mut self) -> PResult<Initializer> {
        if !self.at(Tok::LBrace) {
            return Ok(Initializer::Value(self.init_value()?));
        }
        self.enter()?;
        self.bump();
        let mut items = Vec::new();
        if !self.eat(Tok::RBrace) {
            loop {
                items.push(self.initializer()?);
                if self.eat(Tok::Comma) {
                    continue;
                }
                self.expect(Tok::RBrace, "expected `,` or `}` in initializer list")?;
                break;
            }
        }
        self.leave();
        Ok(Initializer::List(items))
    }

    fn init_value(&mut self) -> PResult<InitValue> {
        let t = self.peek();
        match t.kind {
            Tok::Minus => {
                self.bump();
                let n = self.peek();
                match n.kind {
                    Tok::Int => {
                        self.bump();
                        Ok(InitValue::Int((self.int_value(n)? as i64).wrapping_neg()))
                    }
                    Tok::Float => {
                        self.bump();
                        Ok(InitValue::Float(-self.float_value(n)?))
                    }
                    _ => Err(self.err_here("expected a number after `-`")),
                }
            }
            Tok::Int => {
                self.bump();
                Ok(InitValue::Int(self.int_value(t)? as i64))
            }
            Tok::HexF32 => {
                self.bump();
                Ok(InitValue::F32(self.hex_f32(t)?))
            }
            Tok::HexF64 => {
                self.bump();
                Ok(InitValue::F64(self.hex_f64(t)?))
            }
            Tok::Float => {
                self.bump();
                Ok(InitValue::Float(self.float_value(t)?))
            }
            Tok::Ident => {
                self.bump();
                let mut generic = false;
                let name = if self.text(t) == "generic" && self.at(Tok::LParen) {
                    self.bump();
                    generic = true;
                    let n = self.expect(Tok::Ident, "expected a symbol in `generic(…)`")?;
                    self.expect(Tok::RParen, "expected `)` after `generic(symbol`")?;
                    self.text(n).to_string()
                } else {
                    self.text(t).to_string()
                };
                let offset = self.symbol_offset()?;
                Ok(InitValue::Symbol {
                    name,
                    offset,
                    generic,
                })
            }
            _ => Err(self.err_here("expected an initializer value")),
        }
    }

    /// An optional `+imm`, `+-imm` or `-imm` after a symbol or address base.
    pub(super) fn symbol_offset(&mut self) -> PResult<i64> {
        let neg;
        if self.at(Tok::Plus) {
            self.bump();
            neg = self.eat(Tok::Minus);
        } else if self.at(Tok::Minus) && self.kind_at(1) == Tok::Int {
            self.bump();
            neg = true;
        } else {
            return Ok(0);
        }
        let t = self.expect(Tok::Int, "expected an integer offset")?;
        let v = self.int_value(t)? as i64;
        Ok(if neg { v.wrapping_neg() } else { v })
    }

    /// `.reg [.vN] .type names;` with the cursor on `.reg`.
    pub(super) fn reg_decl(&mut self) -> PResult<RegDecl> {
        let start = self.bump();
        let mut vector = None;
        match self.cur_text() {
            ".v2" if self.at(Tok::Dotted) => vector = Some(2),
            ".v4" if self.at(Tok::Dotted) => vector = Some(4),
            ".v8" if self.at(Tok::Dotted) => vector = Some(8),
            _ => {}
        }
        if vector.is_some() {
            self.bump();
        }
        if self.at_dotted(".align") {
            self.bump();
            self.expect_u32("expected an alignment after `.align`")?;
        }
        let ty = self.scalar_type()?;
        let mut names = Vec::new();
        loop {
            let n = self.expect(Tok::Ident, "expected a register name")?;
            let name = self.text(n).to_string();
            if self.eat(Tok::Lt) {
                let count = self.expect_u32("expected a register count after `<`")?;
                self.expect(Tok::Gt, "expected `>` after register count")?;
                names.push(RegName::Range {
                    prefix: name,
                    count,
                });
            } else {
                names.push(RegName::Single(name));
            }
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::Semi, "expected `;` after register declaration")?;
        Ok(RegDecl {
            span: self.span_of(start),
            ty,
            vector,
            names,
        })
    }
}
