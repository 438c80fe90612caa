//! The module image: the initial bytes of every `.global`/`.const` variable, and relocations
//! for initialisers that hold addresses (function-pointer tables, pointers to other globals).
//!
//! Initialiser values follow the variable's element type, with the same literal rules as
//! instruction immediates (`operand::literal_bits`): `.b8` arrays take bytes, `.u64` values are
//! 8 little-endian bytes, `.f32` takes `0f`/`0d`/decimal floats. Nested lists (`{{1,2},{3,4}}`)
//! are flattened in order; missing trailing elements stay zero.

use ptx::ast::{Immediate, InitValue, Initializer};

use super::operand::literal_bits;
use super::scope::Sym;
use super::symbols::{GlobalSlot, ModuleSyms};
use crate::error::LoadError;
use crate::ir::{GlobalVar, Reloc, Ty};

/// The image bytes, its relocations and the variable table.
pub(super) struct Image {
    pub bytes: Vec<u8>,
    pub relocs: Vec<Reloc>,
    pub vars: Vec<GlobalVar>,
}

pub(super) fn build(m: &ModuleSyms, errors: &mut Vec<LoadError>) -> Image {
    let mut img = Image {
        bytes: vec![0; m.global_bytes as usize],
        relocs: Vec::new(),
        vars: Vec::new(),
    };
    for slot in &m.globals {
        let d = slot.decl;
        img.vars.push(GlobalVar {
            name: d.name.clone(),
            offset: slot.offset,
            size: slot.size,
            is_const: d.space == ptx::ast::StateSpace::Const,
        });
        if let Some(init) = &d.init {
            if let Err(e) = write_init(&mut img, m, slot, init) {
                errors.push(e);
            }
        }
    }
    img
}

/// Writes one variable's initialiser into the image.
fn write_init(
    img: &mut Image,
    m: &ModuleSyms,
    slot: &GlobalSlot,
    init: &Initializer,
) -> Result<(), LoadError> {
    let d = slot.decl;
    let line = d.span.line;
    let ty = Ty::from_ast(d.ty);
    let elem = ty.bytes();
    let mut values = Vec::new();
    flatten(init, &mut values);
    if values.len() as u64 * u64::from(elem) > u64::from(slot.size) {
        let message = format!(
            "`{}` has {} initial values but room for {}",
            d.name,
            values.len(),
            slot.size / elem
        );
        return Err(LoadError::Invalid { message, line });
    }
    for (k, v) in values.into_iter().enumerate() {
        let at = slot.offset + k as u32 * elem;
        match v {
            InitValue::Symbol { name, offset, .. } => {
                if elem != 8 {
                    let what = format!(
                        "address of `{name}` in a {}-bit initializer of `{}`",
                        elem * 8,
                        d.name
                    );
                    return Err(LoadError::Unsupported { what, line });
                }
                img.relocs.push(symbol_reloc(m, name, *offset, at, line)?);
            }
            lit => {
                let bits =
                    literal_bits(&as_immediate(lit), ty).map_err(|msg| LoadError::Invalid {
                        message: format!("initializer of `{}`: {msg}", d.name),
                        line,
                    })?;
                let at = at as usize;
                img.bytes[at..at + elem as usize]
                    .copy_from_slice(&bits.to_le_bytes()[..elem as usize]);
            }
        }
    }
    Ok(())
}

/// A relocation for `name+offset`: a function handle, or a global variable's address.
fn symbol_reloc(
    m: &ModuleSyms,
    name: &str,
    offset: i64,
    at: u32,
    line: u32,
) -> Result<Reloc, LoadError> {
    match m.names.get(name) {
        Some(Sym::Func(func)) if offset == 0 => Ok(Reloc::Func { at, func: *func }),
        Some(Sym::Global { offset: base, .. }) => Ok(Reloc::Global {
            at,
            target_offset: (i64::from(*base) + offset) as u64,
        }),
        Some(_) => Err(LoadError::Unsupported {
            what: format!("initializer holding the address of `{name}`"),
            line,
        }),
        None => Err(LoadError::Undefined {
            kind: "symbol",
            name: name.to_string(),
            line,
        }),
    }
}

fn flatten<'i>(init: &'i Initializer, out: &mut Vec<&'i InitValue>) {
    match init {
        Initializer::Value(v) => out.push(v),
        Initializer::List(items) => items.iter().for_each(|i| flatten(i, out)),
    }
}

/// A literal initial value as the immediate it would be in an instruction.
fn as_immediate(v: &InitValue) -> Immediate {
    match *v {
        InitValue::Int(i) => Immediate::Int(i),
        InitValue::F32(b) => Immediate::F32(b),
        InitValue::F64(b) => Immediate::F64(b),
        InitValue::Float(f) => Immediate::Float(f),
        InitValue::Symbol { .. } => unreachable!("symbols are relocated, not encoded"),
    }
}
