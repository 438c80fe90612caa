//! Function bodies: blocks, statements, instructions and operands.

use super::decl::{is_linkage, var_space};
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;

impl<'a> Parser<'a> {
    /// `{ statements }` with the cursor on `{`.
    pub(super) fn block(&mut self) -> PResult<Block> {
        let open = self.peek();
        self.enter()?;
        self.bump();
        let mut statements = Vec::new();
        loop {
            match self.kind() {
                Tok::RBrace => {
                    self.bump();
                    break;
                }
                Tok::Eof => {
                    let s = self.span_of(open);
                    let msg = format!("unterminated block (the `{{` at {s} is never closed)");
                    return Err(self.err_here(&msg));
                }
                _ => self.statement(&mut statements)?,
            }
        }
        self.leave();
        Ok(Block {
            span: self.span_of(open),
            statements,
        })
    }

    fn statement(&mut self, out: &mut Vec<Statement>) -> PResult<()> {
        let t = self.peek();
        match t.kind {
            Tok::LBrace => out.push(Statement::Block(self.block()?)),
            Tok::At => out.push(Statement::Instruction(self.instruction()?)),
            Tok::Ident if self.kind_at(1) == Tok::Colon => self.labelled(out)?,
            Tok::Ident => out.push(Statement::Instruction(self.instruction()?)),
            Tok::Dotted => self.body_directive(out)?,
            _ => return Err(self.err_here("expected an instruction, a label or a directive")),
        }
        Ok(())
    }

    fn body_directive(&mut self, out: &mut Vec<Statement>) -> PResult<()> {
        let t = self.peek();
        let word = self.text(t);
        match word {
            ".reg" => out.push(Statement::Reg(self.reg_decl()?)),
            ".loc" => out.push(Statement::Loc(self.loc()?)),
            ".pragma" => {
                self.bump();
                let text = self.pragma_strings()?;
                out.push(Statement::Pragma(text, self.span_of(t)));
            }
            w if is_linkage(w) || var_space(w).is_some() => {
                let linkage = self.linkage();
                if !self.at(Tok::Dotted) || var_space(self.cur_text()).is_none() {
                    return Err(self.err_here("expected a state space in variable declaration"));
                }
                let vars = self.var_decl(linkage, t)?;
                out.extend(vars.into_iter().map(Statement::Var));
            }
            _ => {
                let msg = format!("unknown directive `{word}` in function body");
                return Err(self.err_at(t, &msg));
            }
        }
        Ok(())
    }

    /// `.loc file line col[, function_name sym[+off], inlined_at file line col]`.
    fn loc(&mut self) -> PResult<Loc> {
        let t = self.bump();
        let file = self.expect_u32("expected a file number after `.loc`")?;
        let line = self.expect_u32("expected a line number in `.loc`")?;
        let col = self.expect_u32("expected a column number in `.loc`")?;
        while self.eat(Tok::Comma) {
            let attr = self.expect(
                Tok::Ident,
                "expected `function_name` or `inlined_at` in `.loc`",
            )?;
            match self.text(attr) {
                "function_name" => {
                    self.expect(Tok::Ident, "expected a symbol after `function_name`")?;
                    self.symbol_offset()?;
                }
                "inlined_at" => {
                    for _ in 0..3 {
                        self.expect_u32("expected a number after `inlined_at`")?;
                    }
                }
                _ => {
                    return Err(
                        self.err_at(attr, "expected `function_name` or `inlined_at` in `.loc`")
                    )
                }
            }
        }
        Ok(Loc {
            span: self.span_of(t),
            file,
            line,
            col,
        })
    }

    /// `name:` followed by a label's statement, `.callprototype`, `.branchtargets` or
    /// `.calltargets` (the last is accepted and dropped).
    fn labelled(&mut self, out: &mut Vec<Statement>) -> PResult<()> {
        let name_tok = self.bump();
        self.bump(); // ':'
        let name = self.text(name_tok).to_string();
        let span = self.span_of(name_tok);
        if self.at(Tok::Dotted) {
            match self.cur_text() {
                ".callprototype" => {
                    self.bump();
                    let returns = if self.at(Tok::LParen) {
                        self.param_list()?
                    } else {
                        Vec::new()
                    };
                    let sink = self.expect(Tok::Ident, "expected `_` in `.callprototype`")?;
                    if self.text(sink) != "_" {
                        return Err(self.err_at(sink, "expected `_` in `.callprototype`"));
                    }
                    let params = if self.at(Tok::LParen) {
                        self.param_list()?
                    } else {
                        Vec::new()
                    };
                    self.perf_directives()?;
                    self.expect(Tok::Semi, "expected `;` after `.callprototype`")?;
                    out.push(Statement::CallPrototype(CallPrototype {
                        span,
                        name,
                        returns,
                        params,
                    }));
                    return Ok(());
                }
                ".branchtargets" | ".calltargets" => {
                    let kw = self.bump();
                    let mut labels = Vec::new();
                    loop {
                        let l = self.expect(Tok::Ident, "expected a label name")?;
                        labels.push(self.text(l).to_string());
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                    }
                    self.expect(Tok::Semi, "expected `;` after target list")?;
                    if self.text(kw) == ".branchtargets" {
                        out.push(Statement::BranchTargets { name, labels, span });
                    }
                    return Ok(());
                }
                _ => {}
            }
        }
        out.push(Statement::Label(name, span));
        Ok(())
    }

    /// `[@[!]pred] opcode[.mod…] [operand {, operand}];`
    fn instruction(&mut self) -> PResult<Instruction> {
        let start = self.peek();
        let mut guard = None;
        if self.eat(Tok::At) {
            let negated = self.eat(Tok::Bang);
            let p = self.expect(Tok::Ident, "expected a predicate register after `@`")?;
            guard = Some(Guard {
                negated,
                pred: self.text(p).to_string(),
            });
        }
        let op = self.peek();
        if op.kind != Tok::Ident || self.text(op).starts_with('%') {
            return Err(self.err_here("expected an instruction opcode"));
        }
        self.bump();
        let mut modifiers = Vec::new();
        while self.at(Tok::Dotted) {
            modifiers.push(self.cur_text()[1..].to_string());
            self.bump();
        }
        let mut operands = Vec::new();
        if !self.eat(Tok::Semi) {
            loop {
                operands.push(self.operand()?);
                if self.eat(Tok::Comma) {
                    continue;
                }
                self.expect(Tok::Semi, "expected `;` after instruction")?;
                break;
            }
        }
        Ok(Instruction {
            span: self.span_of(start),
            guard,
            opcode: self.text(op).to_string(),
            modifiers,
            operands,
        })
    }

    fn operand(&mut self) -> PResult<Operand> {
        let t = self.peek();
        match t.kind {
            Tok::Ident => {
                let text = self.text(t);
                if text == "_" {
                    self.bump();
                    return Ok(Operand::Sink);
                }
                if text.starts_with('%') {
                    let r = self.reg_ref()?;
                    if self.eat(Tok::Pipe) {
                        return Ok(Operand::Pair(r, self.reg_ref()?));
                    }
                    return Ok(Operand::Reg(r));
                }
                self.bump();
                if self.eat(Tok::Pipe) {
                    let first = RegRef {
                        name: text.to_string(),
                        component: None,
                    };
                    return Ok(Operand::Pair(first, self.reg_ref()?));
                }
                let offset = self.symbol_offset()?;
                Ok(Operand::Symbol {
                    name: text.to_string(),
                    offset,
                })
            }
            Tok::Bang => {
                self.bump();
                Ok(Operand::NotReg(self.reg_ref()?))
            }
            Tok::Minus => {
                self.bump();
                let n = self.peek();
                match n.kind {
                    Tok::Int => {
                        self.bump();
                        Ok(Operand::Imm(Immediate::Int(
                            (self.int_value(n)? as i64).wrapping_neg(),
                        )))
                    }
                    Tok::Float => {
                        self.bump();
                        Ok(Operand::Imm(Immediate::Float(-self.float_value(n)?)))
                    }
                    _ => Err(self.err_here("expected a number after `-`")),
                }
            }
            Tok::Int | Tok::HexF32 | Tok::HexF64 | Tok::Float => {
                Ok(Operand::Imm(self.immediate()?))
            }
            Tok::LBracket => self.address(),
            Tok::LBrace => Ok(Operand::Vector(
                self.operand_seq(Tok::RBrace, "expected `,` or `}` in vector operand")?,
            )),
            Tok::LParen => Ok(Operand::List(
                self.operand_seq(Tok::RParen, "expected `,` or `)` in operand list")?,
            )),
            _ => Err(self.err_here("expected an operand")),
        }
    }

    fn immediate(&mut self) -> PResult<Immediate> {
        let t = self.bump();
        Ok(match t.kind {
            Tok::Int => Immediate::Int(self.int_value(t)? as i64),
            Tok::HexF32 => Immediate::F32(self.hex_f32(t)?),
            Tok::HexF64 => Immediate::F64(self.hex_f64(t)?),
            _ => Immediate::Float(self.float_value(t)?),
        })
    }

    /// `open operand {, operand} close`, possibly empty; the cursor is on the opener.
    fn operand_seq(&mut self, close: Tok, msg: &str) -> PResult<Vec<Operand>> {
        self.enter()?;
        self.bump();
        let mut items = Vec::new();
        if !self.eat(close) {
            loop {
                items.push(self.operand()?);
                if self.eat(Tok::Comma) {
                    continue;
                }
                self.expect(close, msg)?;
                break;
            }
        }
        self.leave();
        Ok(items)
    }

    /// A register name with an optional `.x/.y/.z/.w/.r/.g/.b/.a` component.
    fn reg_ref(&mut self) -> PResult<RegRef> {
        let t = self.expect(Tok::Ident, "expected a register")?;
        let mut component = None;
        if self.at(Tok::Dotted) {
            let d = self.cur_text();
            let mut cs = d[1..].chars();
            match (cs.next(), cs.next()) {
                (Some(c @ ('x' | 'y' | 'z' | 'w' | 'r' | 'g' | 'b' | 'a')), None) => {
                    self.bump();
                    component = Some(c);
                }
                _ => return Err(self.err_here("unexpected suffix after register")),
            }
        }
        Ok(RegRef {
            name: self.text(t).to_string(),
            component,
        })
    }

    /// `[base]`, `[base+imm]`, `[imm]`, or a texture reference `[tex, {coords}…]`.
    fn address(&mut self) -> PResult<Operand> {
        self.enter()?;
        self.bump(); // '['
        let t = self.peek();
        let (base, mut offset) = match t.kind {
            Tok::Int => {
                self.bump();
                (AddressBase::Absolute, self.int_value(t)? as i64)
            }
            Tok::Ident if self.text(t).starts_with('%') => (AddressBase::Reg(self.reg_ref()?), 0),
            Tok::Ident => {
                self.bump();
                (AddressBase::Symbol(self.text(t).to_string()), 0)
            }
            _ => return Err(self.err_here("expected a register, symbol or address inside `[…]`")),
        };
        if self.at(Tok::Comma) {
            let first = match base {
                AddressBase::Reg(r) => Operand::Reg(r),
                AddressBase::Symbol(name) => Operand::Symbol { name, offset: 0 },
                AddressBase::Absolute => Operand::Imm(Immediate::Int(offset)),
            };
            let mut items = vec![first];
            while self.eat(Tok::Comma) {
                items.push(self.operand()?);
            }
            self.expect(Tok::RBracket, "expected `]` after texture operands")?;
            self.leave();
            return Ok(Operand::TexRef(items));
        }
        offset = offset.wrapping_add(self.symbol_offset()?);
        self.expect(Tok::RBracket, "expected `]` after address")?;
        self.leave();
        Ok(Operand::Address(Address { base, offset }))
    }
}
