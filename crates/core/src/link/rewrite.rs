//! Moving one unit's items into the linked module: module-scope names renamed (a unit's
//! local symbols that another unit also names), source lines shifted so they count from
//! the start of the units' joined text, and `.loc` file numbers moved past the files of
//! the units before.

use std::collections::{HashMap, HashSet};

use ptx::ast::{
    Block, Function, InitValue, Initializer, Item, Operand, ParamDecl, Span, Statement, VarDecl,
};

/// How one unit's items change on their way into the linked module.
pub(super) struct Rewrite<'a> {
    /// Module-scope names of this unit and their names in the linked module.
    pub renames: &'a HashMap<String, String>,
    /// Lines of the units before this one in the joined text.
    pub line_offset: u32,
    /// Added to every `.file`/`.loc` number of this unit.
    pub file_offset: u32,
}

impl Rewrite<'_> {
    pub fn item(&self, item: &mut Item) {
        match item {
            Item::Function(f) => self.function(f),
            Item::Var(v) => {
                self.span(&mut v.span);
                self.rename(&mut v.name);
                self.init(v.init.as_mut(), &HashSet::new());
            }
            Item::Pragma(_, span) => self.span(span),
        }
    }

    fn span(&self, s: &mut Span) {
        if s.line > 0 {
            s.line += self.line_offset;
        }
    }

    fn rename(&self, name: &mut String) {
        if let Some(new) = self.renames.get(name.as_str()) {
            name.clone_from(new);
        }
    }

    /// Renames `name` unless something in the function shadows the module-scope name.
    fn rename_in(&self, name: &mut String, shadowed: &HashSet<String>) {
        if !shadowed.contains(name.as_str()) {
            self.rename(name);
        }
    }

    fn function(&self, f: &mut Function) {
        self.span(&mut f.span);
        self.rename(&mut f.name);
        // Parameters, labels, prototypes and body variables are scoped to the function and
        // hide a module-scope symbol of the same name (one set for the whole body: PTX code
        // from compilers never reuses a module-scope name inside a function).
        let mut shadowed = HashSet::new();
        for p in f.returns.iter_mut().chain(f.params.iter_mut()) {
            self.param(p);
            shadowed.insert(p.name.clone());
        }
        if let Some(body) = &mut f.body {
            local_names(body, &mut shadowed);
            self.block(body, &shadowed);
        }
    }

    fn param(&self, p: &mut ParamDecl) {
        self.span(&mut p.span);
    }

    fn block(&self, b: &mut Block, shadowed: &HashSet<String>) {
        self.span(&mut b.span);
        for st in &mut b.statements {
            match st {
                Statement::Reg(r) => self.span(&mut r.span),
                Statement::Var(v) => self.body_var(v, shadowed),
                Statement::Label(_, span) | Statement::Pragma(_, span) => self.span(span),
                Statement::Instruction(i) => {
                    self.span(&mut i.span);
                    for o in &mut i.operands {
                        self.operand(o, shadowed);
                    }
                }
                Statement::Block(inner) => self.block(inner, shadowed),
                Statement::Loc(l) => {
                    self.span(&mut l.span);
                    l.file += self.file_offset;
                }
                Statement::CallPrototype(p) => {
                    self.span(&mut p.span);
                    p.returns.iter_mut().for_each(|p| self.param(p));
                    p.params.iter_mut().for_each(|p| self.param(p));
                }
                Statement::BranchTargets { span, .. } => self.span(span),
            }
        }
    }

    fn body_var(&self, v: &mut VarDecl, shadowed: &HashSet<String>) {
        self.span(&mut v.span);
        self.init(v.init.as_mut(), shadowed);
    }

    fn init(&self, init: Option<&mut Initializer>, shadowed: &HashSet<String>) {
        match init {
            Some(Initializer::List(items)) => {
                for i in items {
                    self.init(Some(i), shadowed);
                }
            }
            Some(Initializer::Value(InitValue::Symbol { name, .. })) => {
                self.rename_in(name, shadowed)
            }
            Some(Initializer::Value(_)) | None => {}
        }
    }

    fn operand(&self, o: &mut Operand, shadowed: &HashSet<String>) {
        match o {
            Operand::Symbol { name, .. } => self.rename_in(name, shadowed),
            Operand::Address(a) => {
                if let ptx::ast::AddressBase::Symbol(name) = &mut a.base {
                    self.rename_in(name, shadowed);
                }
            }
            Operand::Vector(v) | Operand::List(v) | Operand::TexRef(v) => {
                for o in v {
                    self.operand(o, shadowed);
                }
            }
            Operand::Reg(_)
            | Operand::NotReg(_)
            | Operand::Imm(_)
            | Operand::Pair(..)
            | Operand::Sink => {}
        }
    }
}

/// Names declared inside a body: labels, variables, call prototypes, branch-target lists.
fn local_names(b: &Block, out: &mut HashSet<String>) {
    for st in &b.statements {
        match st {
            Statement::Var(v) => {
                out.insert(v.name.clone());
            }
            Statement::Label(name, _) => {
                out.insert(name.clone());
            }
            Statement::CallPrototype(p) => {
                out.insert(p.name.clone());
            }
            Statement::BranchTargets { name, .. } => {
                out.insert(name.clone());
            }
            Statement::Block(inner) => local_names(inner, out),
            Statement::Reg(_)
            | Statement::Instruction(_)
            | Statement::Loc(_)
            | Statement::Pragma(..) => {}
        }
    }
}
