//! Symbol resolution: which declaration of each module-scope name the linked module keeps,
//! and which unit-local names must be renamed so that units do not see each other's.
//!
//! A name is *global* when some unit declares it `.visible`, `.extern`, `.weak` or `.common`
//! (or it is a kernel: the runtime launches kernels by name, so they are never renamed);
//! otherwise it is local to each unit that declares it. For a global name the linked module
//! keeps its one strong definition (`.visible`, or a kernel without linkage), else its first
//! `.weak`/`.common` one (templates and inline functions are emitted `.weak` in every unit
//! that uses them), and drops every other declaration of it.

use std::collections::{BTreeMap, HashMap, HashSet};

use ptx::ast::{FunctionKind, Item, Linkage, Module, StateSpace};

use super::LinkError;

/// What a declaration declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Entry,
    Func,
    Var(StateSpace),
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Entry => "kernel",
            Kind::Func => "function",
            Kind::Var(StateSpace::Const) => "constant variable",
            Kind::Var(StateSpace::Shared) => "shared variable",
            Kind::Var(_) => "variable",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// Seen only by its own unit.
    Local,
    /// The definition other units link to.
    Strong,
    /// A definition any other definition replaces.
    Weak,
    /// A declaration that needs a definition from somewhere.
    Reference,
}

#[derive(Clone, Copy, Debug)]
struct Decl {
    unit: usize,
    item: usize,
    kind: Kind,
    class: Class,
    /// `.align` of a variable (a dynamic shared array keeps the largest).
    align: u32,
}

/// What linking does to each unit's items.
pub(super) struct Plan {
    /// Per unit, per item: whether the linked module keeps it.
    pub keep: Vec<Vec<bool>>,
    /// Per unit: its local names that another unit also uses, and their new names.
    pub renames: Vec<HashMap<String, String>>,
}

fn classify(item: &Item) -> Option<(&str, Kind, Class, u32)> {
    match item {
        Item::Function(f) => {
            let kind = match f.kind {
                FunctionKind::Entry => Kind::Entry,
                FunctionKind::Func => Kind::Func,
            };
            let defined = f.body.is_some();
            let class = match (f.linkage, defined) {
                (Linkage::Extern, _) | (_, false) if f.linkage != Linkage::None => Class::Reference,
                (Linkage::Visible, true) => Class::Strong,
                (Linkage::Weak | Linkage::Common, true) => Class::Weak,
                // A kernel is found by name at launch: it is global even without linkage.
                (Linkage::None, true) if kind == Kind::Entry => Class::Strong,
                (Linkage::None, false) if kind == Kind::Entry => Class::Reference,
                _ => Class::Local,
            };
            Some((&f.name, kind, class, 0))
        }
        Item::Var(v) => {
            let class = match v.linkage {
                Linkage::Extern => Class::Reference,
                Linkage::Visible => Class::Strong,
                Linkage::Weak | Linkage::Common => Class::Weak,
                Linkage::None => Class::Local,
            };
            Some((&v.name, Kind::Var(v.space), class, v.align.unwrap_or(1)))
        }
        Item::Pragma(..) => None,
    }
}

/// External functions the simulator provides itself (lowering turns calls of them into
/// built-in operations, or reports them unsupported as in a whole-program build): the
/// printf/assert/heap built-ins, and the device runtime's `cuda*` calls of dynamic
/// parallelism, which come from `libcudadevrt` rather than from any unit.
fn provided(name: &str) -> bool {
    matches!(name, "vprintf" | "__assertfail" | "malloc" | "free") || name.starts_with("cuda")
}

/// Decides what the linked module keeps and renames; `names` describe the units in messages.
pub(super) fn plan(names: &[String], units: &[Module]) -> Result<Plan, Vec<LinkError>> {
    let mut keep: Vec<Vec<bool>> = units.iter().map(|m| vec![true; m.items.len()]).collect();
    let mut locals: Vec<HashSet<&str>> = vec![HashSet::new(); units.len()];
    let mut globals: BTreeMap<&str, Vec<Decl>> = BTreeMap::new();
    let mut users: HashMap<&str, HashSet<usize>> = HashMap::new();
    for (unit, m) in units.iter().enumerate() {
        for (item, it) in m.items.iter().enumerate() {
            let Some((name, kind, class, align)) = classify(it) else {
                continue;
            };
            users.entry(name).or_default().insert(unit);
            let decl = Decl {
                unit,
                item,
                kind,
                class,
                align,
            };
            if class == Class::Local {
                locals[unit].insert(name);
            } else {
                globals.entry(name).or_default().push(decl);
            }
        }
    }
    let mut errors = Vec::new();
    for (name, decls) in &globals {
        // A unit that also declares the name without linkage keeps it for itself.
        match choose(name, decls, names) {
            Ok(chosen) => {
                for d in decls {
                    keep[d.unit][d.item] = d.item == chosen.item && d.unit == chosen.unit;
                }
            }
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let taken: HashSet<&str> = users.keys().copied().collect();
    let renames = locals
        .iter()
        .enumerate()
        .map(|(unit, names)| {
            let mut sorted: Vec<&str> = names.iter().copied().collect();
            sorted.sort_unstable();
            sorted
                .into_iter()
                .filter(|n| users[n].len() > 1)
                .map(|n| (n.to_string(), fresh_name(n, unit, &taken)))
                .collect()
        })
        .collect();
    Ok(Plan { keep, renames })
}

/// `name$unit` (PTX identifiers may hold `$`; compilers do not write it), made unique.
fn fresh_name(name: &str, unit: usize, taken: &HashSet<&str>) -> String {
    let mut new = format!("{name}${unit}");
    while taken.contains(new.as_str()) {
        new.push('$');
    }
    new
}

/// The declaration of a global name the linked module keeps.
fn choose(name: &str, decls: &[Decl], names: &[String]) -> Result<Decl, LinkError> {
    let first = decls[0];
    if let Some(other) = decls.iter().find(|d| d.kind != first.kind) {
        return Err(LinkError::Mismatch {
            name: name.to_string(),
            first: names[first.unit].clone(),
            first_kind: first.kind.word(),
            second: names[other.unit].clone(),
            second_kind: other.kind.word(),
        });
    }
    let mut strong = decls.iter().filter(|d| d.class == Class::Strong);
    if let Some(&one) = strong.next() {
        if let Some(two) = strong.next() {
            return Err(LinkError::Duplicate {
                kind: one.kind.word(),
                name: name.to_string(),
                first: names[one.unit].clone(),
                second: names[two.unit].clone(),
            });
        }
        return Ok(one);
    }
    if let Some(&weak) = decls.iter().find(|d| d.class == Class::Weak) {
        return Ok(weak);
    }
    match first.kind {
        // `.extern .shared` arrays without a definition are the dynamic shared segment.
        Kind::Var(StateSpace::Shared) => Ok(*decls
            .iter()
            .rev()
            .max_by_key(|d| d.align)
            .expect("a global name has a declaration")),
        Kind::Func if provided(name) => Ok(first),
        kind => {
            let mut users: Vec<usize> = decls.iter().map(|d| d.unit).collect();
            users.dedup();
            Err(LinkError::Undefined {
                kind: kind.word(),
                name: name.to_string(),
                users: users.iter().map(|&u| names[u].clone()).collect(),
            })
        }
    }
}
