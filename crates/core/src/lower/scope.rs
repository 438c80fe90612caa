//! Names and what they resolve to: module-scope symbols, and the lexical scopes of a body.
//!
//! PTX scoping: registers and variables declared in a `{ }` block are visible only inside it
//! and shadow outer declarations of the same name; a function's parameters form the
//! outermost scope of its body; module-scope variables and functions are visible everywhere.
//! Labels, call prototypes and branch-target lists are function-scoped even when written in a
//! nested block; they live in [`Labels`].

use std::collections::HashMap;

use crate::ir::{FuncId, Pc, PredId, RegId};

/// What a name denotes after lowering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sym {
    /// A register; `vec` is 0 for a scalar and 2 or 4 for a `.v2`/`.v4` register, whose
    /// components are the consecutive slots `id..id + vec`.
    Reg {
        id: RegId,
        vec: u8,
    },
    Pred(PredId),
    /// A kernel parameter at `offset` in the parameter buffer.
    KernelParam {
        offset: u32,
        size: u32,
    },
    /// A `.local` variable, a device function's parameter or return value, or a call-sequence
    /// `.param`: `offset` bytes into the current frame.
    Frame {
        offset: u32,
        size: u32,
    },
    /// A static `.shared` variable at `offset` in the CTA's shared memory.
    Shared {
        offset: u32,
    },
    /// A `.extern .shared` array: the start of dynamic shared memory.
    DynShared,
    /// A `.global` or `.const` variable at `offset` in the module image.
    Global {
        offset: u32,
        is_const: bool,
    },
    Func(FuncId),
}

/// The stack of lexical scopes of the body being lowered.
#[derive(Default)]
pub(super) struct Scopes {
    stack: Vec<HashMap<String, Sym>>,
}

impl Scopes {
    pub fn push(&mut self) {
        self.stack.push(HashMap::new());
    }

    pub fn pop(&mut self) {
        self.stack.pop();
    }

    /// Declares `name` in the innermost scope. Returns `false` when the name is already
    /// declared in that same scope (shadowing an outer scope is fine).
    pub fn declare(&mut self, name: &str, sym: Sym) -> bool {
        let scope = self.stack.last_mut().expect("declare outside any scope");
        if scope.contains_key(name) {
            return false;
        }
        scope.insert(name.to_string(), sym);
        true
    }

    /// The innermost declaration of `name`, if any.
    pub fn lookup(&self, name: &str) -> Option<Sym> {
        self.stack.iter().rev().find_map(|s| s.get(name).copied())
    }
}

/// Function-scoped names: labels (to PCs), call prototypes (to their return and parameter
/// counts) and `.branchtargets` lists.
#[derive(Default)]
pub(super) struct Labels<'a> {
    pub pcs: HashMap<&'a str, Pc>,
    pub prototypes: HashMap<&'a str, &'a ptx::ast::CallPrototype>,
    pub tables: HashMap<&'a str, &'a [String]>,
}

impl<'a> Labels<'a> {
    /// Whether `name` is already used by a label, a prototype or a branch-target list.
    pub fn contains(&self, name: &str) -> bool {
        self.pcs.contains_key(name)
            || self.prototypes.contains_key(name)
            || self.tables.contains_key(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_scope_shadows_and_pops() {
        let mut s = Scopes::default();
        s.push();
        assert!(s.declare("%r0", Sym::Reg { id: 0, vec: 0 }));
        assert!(!s.declare("%r0", Sym::Reg { id: 5, vec: 0 }));
        s.push();
        assert!(s.declare("%r0", Sym::Reg { id: 1, vec: 0 }));
        assert_eq!(s.lookup("%r0"), Some(Sym::Reg { id: 1, vec: 0 }));
        s.pop();
        assert_eq!(s.lookup("%r0"), Some(Sym::Reg { id: 0, vec: 0 }));
        assert_eq!(s.lookup("%r1"), None);
    }
}
