//! Tensor-core instructions: `wmma.load/store/mma`, `mma.sync` and `ldmatrix`. Decoding
//! checks every shape/type combination the PTX ISA allows for the forms warpsim executes and
//! reports the rest by name; binding turns each braced fragment into its registers, kept in
//! `Function::tensor` (see `ir::tensor`). Semantics: `exec::tensor`.
//!
//! Executed forms (PTX ISA §9.7.14 "Warp Level Matrix Multiply-Accumulate Instructions"):
//! * `wmma.load.{a,b,c}` / `wmma.store.d` / `wmma.mma` with shapes m16n16k16, m32n8k16,
//!   m8n32k16 over f16 (f16 or f32 accumulators), bf16 (f32), s8/u8 (s32), and m16n16k8
//!   over tf32 (f32);
//! * `mma.sync.aligned` `.row.col`: m16n8k8 and m16n8k16 over f16 (f16 or f32 accumulators)
//!   and bf16 (f32), m16n8k8 over tf32 (f32), m16n8k16 and m16n8k32 over s8/u8 (s32);
//! * `ldmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans][.shared].b16`.

use ptx::ast::{Instruction, Operand};

use super::func::FnCtx;
use super::opcode::{Decoded, Special, Suffixes, K};
use super::operand::RegUse;
use crate::error::LoadError;
use crate::ir::{Elem, Inst, Major, Matrix, Op, RegId, Space, TensorInst, TensorKind, Ty};

type R = Result<Decoded, LoadError>;

const ELEMS: &[(&str, Elem)] = &[
    ("f16", Elem::F16),
    ("bf16", Elem::Bf16),
    ("tf32", Elem::Tf32),
    ("f32", Elem::F32),
    ("s8", Elem::S8),
    ("u8", Elem::U8),
    ("s32", Elem::S32),
];

const MAJORS: &[(&str, Major)] = &[("row", Major::Row), ("col", Major::Col)];

const SPACES: &[(&str, Space)] = &[
    ("global", Space::Global),
    ("shared", Space::Shared),
    ("shared::cta", Space::Shared),
];

/// `.sync.aligned`, both required by every form.
fn sync_aligned(s: &mut Suffixes) -> Result<(), LoadError> {
    if s.has("sync") && s.has("aligned") {
        Ok(())
    } else {
        Err(s.invalid("needs .sync.aligned"))
    }
}

/// `.mMnNkK` → (M, N, K).
fn shape(s: &mut Suffixes, table: &[(&str, (u8, u8, u8))]) -> Result<(u8, u8, u8), LoadError> {
    s.pick(table).ok_or_else(|| {
        let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
        s.invalid(&format!("needs one of the shapes .{}", names.join(", .")))
    })
}

fn elem(s: &mut Suffixes) -> Result<Elem, LoadError> {
    s.pick(ELEMS)
        .ok_or_else(|| s.invalid("is missing an element type"))
}

fn major(s: &mut Suffixes) -> Result<Major, LoadError> {
    s.pick(MAJORS)
        .ok_or_else(|| s.invalid("is missing its layout (.row or .col)"))
}

const WMMA_SHAPES: &[(&str, (u8, u8, u8))] = &[
    ("m16n16k16", (16, 16, 16)),
    ("m32n8k16", (32, 8, 16)),
    ("m8n32k16", (8, 32, 16)),
    ("m16n16k8", (16, 16, 8)),
];

/// The multiplicand type a wmma shape takes: k8 is tf32's shape and tf32 has no other.
fn wmma_input_ok(s: &Suffixes, k: u8, e: Elem) -> Result<(), LoadError> {
    let ok = match e {
        Elem::Tf32 => k == 8,
        Elem::F16 | Elem::Bf16 | Elem::S8 | Elem::U8 => k == 16,
        _ => false,
    };
    if ok {
        Ok(())
    } else if k == 8 {
        Err(s.invalid("(shape m16n16k8) takes .tf32 multiplicands"))
    } else {
        Err(s.invalid(&format!(
            "takes .f16, .bf16, .s8 or .u8 multiplicands, not .{}",
            e.name()
        )))
    }
}

/// The accumulator types that go with multiplicands of type `input`.
fn accumulator_ok(input: Elem, acc: Elem) -> bool {
    match input {
        Elem::F16 => matches!(acc, Elem::F16 | Elem::F32),
        Elem::Bf16 | Elem::Tf32 => acc == Elem::F32,
        Elem::S8 | Elem::U8 => acc == Elem::S32,
        _ => false,
    }
}

fn tensor(kind: TensorKind, (m, n, k): (u8, u8, u8), name: &str) -> TensorInst {
    TensorInst {
        kind,
        m,
        n,
        k,
        major_a: Major::Row,
        major_b: Major::Row,
        a: Elem::F16,
        b: Elem::F16,
        c: Elem::F32,
        d: Elem::F32,
        satfinite: false,
        d_regs: Vec::new(),
        a_regs: Vec::new(),
        b_regs: Vec::new(),
        c_regs: Vec::new(),
        name: name.to_string(),
    }
}

fn decoded(t: TensorInst, space: Space) -> Decoded {
    let mut d = Decoded::new(Op::Tensor, Ty::B32);
    d.mods.space = space;
    d.special = Special::Tensor;
    d.tensor = Some(Box::new(t));
    d
}

/// `wmma.load.{a,b,c}…`, `wmma.store.d…`, `wmma.mma…`.
pub(super) fn wmma(s: &mut Suffixes) -> R {
    let op = s
        .pick(&[("load", 0u8), ("store", 1), ("mma", 2)])
        .ok_or_else(|| s.unsupported())?;
    if op == 2 {
        return wmma_mma(s);
    }
    let matrix = if op == 0 {
        s.pick(&[("a", Matrix::A), ("b", Matrix::B), ("c", Matrix::C)])
            .ok_or_else(|| s.invalid("needs .a, .b or .c"))?
    } else if s.has("d") {
        Matrix::C
    } else {
        return Err(s.invalid("needs .d"));
    };
    sync_aligned(s)?;
    let layout = major(s)?;
    let shp = shape(s, WMMA_SHAPES)?;
    let space = s.pick(SPACES).unwrap_or(Space::Generic);
    let e = elem(s)?;
    s.done()?;
    match matrix {
        Matrix::C if !matches!(e, Elem::F16 | Elem::F32 | Elem::S32) => {
            return Err(s.invalid("holds .f16, .f32 or .s32 accumulators"))
        }
        Matrix::C if shp.2 == 8 && e != Elem::F32 => {
            return Err(s.invalid("(shape m16n16k8) holds .f32 accumulators"))
        }
        Matrix::C => {}
        _ => wmma_input_ok(s, shp.2, e)?,
    }
    let kind = if op == 0 {
        TensorKind::WmmaLoad(matrix)
    } else {
        TensorKind::WmmaStore
    };
    let mut t = tensor(kind, shp, &s.full);
    t.major_a = layout;
    t.a = e;
    Ok(decoded(t, space))
}

/// `wmma.mma.sync.aligned.alayout.blayout.shape.dtype.ctype` (f16) or
/// `….shape.dtype.atype.btype.ctype[.satfinite]` (bf16, tf32, s8, u8).
fn wmma_mma(s: &mut Suffixes) -> R {
    sync_aligned(s)?;
    let (ma, mb) = (major(s)?, major(s)?);
    let shp = shape(s, WMMA_SHAPES)?;
    let satfinite = s.has("satfinite");
    let types: Vec<Elem> = std::iter::from_fn(|| s.pick(ELEMS)).collect();
    s.done()?;
    let (d, a, b, c) = match types[..] {
        [d, c] => (d, Elem::F16, Elem::F16, c),
        [d, a, b, c] => (d, a, b, c),
        _ => return Err(s.invalid("needs .dtype.ctype (f16) or .dtype.atype.btype.ctype")),
    };
    wmma_input_ok(s, shp.2, a)?;
    let int = matches!(a, Elem::S8 | Elem::U8);
    let same_kind = a == b || int && matches!(b, Elem::S8 | Elem::U8);
    if !same_kind || !accumulator_ok(a, c) || !accumulator_ok(a, d) {
        return Err(s.invalid(&format!(
            "cannot multiply .{} by .{} into .{} with .{} accumulators",
            a.name(),
            b.name(),
            d.name(),
            c.name()
        )));
    }
    if satfinite && !int {
        return Err(s.invalid("takes .satfinite only with integer multiplicands"));
    }
    let mut t = tensor(TensorKind::WmmaMma, shp, &s.full);
    (t.major_a, t.major_b, t.a, t.b, t.c, t.d, t.satfinite) = (ma, mb, a, b, c, d, satfinite);
    Ok(decoded(t, Space::Generic))
}

/// `mma.sync.aligned.shape.row.col[.satfinite].dtype.atype.btype.ctype`.
pub(super) fn mma(s: &mut Suffixes) -> R {
    sync_aligned(s)?;
    let shp = shape(
        s,
        &[
            ("m16n8k8", (16, 8, 8)),
            ("m16n8k16", (16, 8, 16)),
            ("m16n8k32", (16, 8, 32)),
        ],
    )?;
    let (ma, mb) = (major(s)?, major(s)?);
    let satfinite = s.has("satfinite");
    let types: Vec<Elem> = std::iter::from_fn(|| s.pick(ELEMS)).collect();
    s.done()?;
    let [d, a, b, c] = types[..] else {
        return Err(s.invalid("needs .dtype.atype.btype.ctype"));
    };
    let int = matches!(a, Elem::S8 | Elem::U8);
    let shape_ok = match a {
        Elem::F16 | Elem::Bf16 => matches!(shp.2, 8 | 16),
        Elem::Tf32 => shp.2 == 8,
        Elem::S8 | Elem::U8 => matches!(shp.2, 16 | 32),
        _ => false,
    };
    let same_kind = a == b || int && matches!(b, Elem::S8 | Elem::U8);
    if !shape_ok || !same_kind || !accumulator_ok(a, c) || !accumulator_ok(a, d) {
        return Err(s.invalid(&format!(
            "has no form multiplying .{} by .{} into .{} with .{} accumulators at m{}n{}k{}",
            a.name(),
            b.name(),
            d.name(),
            c.name(),
            shp.0,
            shp.1,
            shp.2
        )));
    }
    if (ma, mb) != (Major::Row, Major::Col) {
        return Err(s.invalid("takes .row.col (A row-major, B column-major) only"));
    }
    if satfinite && !int {
        return Err(s.invalid("takes .satfinite only with integer multiplicands"));
    }
    let mut t = tensor(TensorKind::Mma, shp, &s.full);
    (t.major_a, t.major_b, t.a, t.b, t.c, t.d, t.satfinite) = (ma, mb, a, b, c, d, satfinite);
    Ok(decoded(t, Space::Generic))
}

/// `ldmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans][.shared{::cta}].b16 d, [a]`.
pub(super) fn ldmatrix(s: &mut Suffixes) -> R {
    sync_aligned(s)?;
    if !s.has("m8n8") {
        return Err(s.unsupported());
    }
    let count = s
        .pick(&[("x1", 1u8), ("x2", 2), ("x4", 4)])
        .ok_or_else(|| s.invalid("needs .x1, .x2 or .x4"))?;
    let trans = s.has("trans");
    let space = s.pick(SPACES).unwrap_or(Space::Generic);
    if space == Space::Global {
        return Err(s.invalid("reads shared memory only"));
    }
    if s.one_type()? != Ty::B16 {
        return Err(s.unsupported());
    }
    s.done()?;
    let t = tensor(TensorKind::Ldmatrix { count, trans }, (8, 8, 0), &s.full);
    Ok(decoded(t, space))
}

/// Registers in a fragment of `rows × cols` elements of type `e`, one 32-bit register per
/// `e.per_reg()` elements. wmma's f16 multiplicand fragments are 8 registers in every shape
/// (PTX ISA "Matrix Fragments for WMMA"): they hold copies (see `exec::tensor::layout`).
fn fragment_regs(t: &TensorInst, matrix: Matrix, e: Elem) -> usize {
    let wmma = !matches!(t.kind, TensorKind::Mma);
    let (m, n, k) = (t.m as usize, t.n as usize, t.k as usize);
    let elems = match matrix {
        Matrix::A => m * k,
        Matrix::B => k * n,
        Matrix::C => m * n,
    };
    if wmma && e == Elem::F16 && matrix != Matrix::C {
        return 8;
    }
    elems / 32 / e.per_reg() as usize
}

impl FnCtx<'_, '_> {
    /// Binds the fragments (and the address and stride) of a tensor-core instruction and
    /// records its form in `Function::tensor`.
    pub(super) fn bind_tensor(
        &mut self,
        i: &Instruction,
        s: &Suffixes,
        d: &Decoded,
        inst: &mut Inst,
    ) -> Result<(), LoadError> {
        let mut t = *d.tensor.clone().expect("decoded with its form");
        let ops = &i.operands;
        let count = |lo: usize, hi: usize| {
            if (lo..=hi).contains(&ops.len()) {
                Ok(())
            } else {
                let want = if lo == hi {
                    format!("{lo}")
                } else {
                    format!("{lo} or {hi}")
                };
                Err(s.invalid(&format!("takes {want} operands, found {}", ops.len())))
            }
        };
        match t.kind {
            TensorKind::WmmaLoad(matrix) => {
                count(2, 3)?;
                let n = fragment_regs(&t, matrix, t.a);
                t.d_regs = self.fragment(&ops[0], n, s, "destination")?;
                self.bind_address(ops, 1, s, inst)?;
            }
            TensorKind::WmmaStore => {
                count(2, 3)?;
                self.bind_address(ops, 0, s, inst)?;
                let n = fragment_regs(&t, Matrix::C, t.a);
                t.c_regs = self.fragment(&ops[1], n, s, "source")?;
            }
            TensorKind::WmmaMma | TensorKind::Mma => {
                count(4, 4)?;
                t.d_regs = self.fragment(&ops[0], fragment_regs(&t, Matrix::C, t.d), s, "D")?;
                t.a_regs = self.fragment(&ops[1], fragment_regs(&t, Matrix::A, t.a), s, "A")?;
                t.b_regs = self.fragment(&ops[2], fragment_regs(&t, Matrix::B, t.b), s, "B")?;
                t.c_regs = self.fragment(&ops[3], fragment_regs(&t, Matrix::C, t.c), s, "C")?;
            }
            TensorKind::Ldmatrix { count: n, .. } => {
                count(2, 2)?;
                t.d_regs = self.fragment(&ops[0], n as usize, s, "destination")?;
                let mut mods = inst.mods;
                inst.src[0] = self.source(K::Mem, &ops[1], false, &mut mods)?;
                inst.mods.space = mods.space;
            }
        }
        self.f.tensor.push(t);
        inst.target = (self.f.tensor.len() - 1) as u32;
        Ok(())
    }

    /// `[address]` at `ops[at]` and the optional stride after the fragment.
    fn bind_address(
        &mut self,
        ops: &[Operand],
        at: usize,
        s: &Suffixes,
        inst: &mut Inst,
    ) -> Result<(), LoadError> {
        let mut mods = inst.mods;
        inst.src[0] = self.source(K::Mem, &ops[at], false, &mut mods)?;
        // A named variable's own space wins over generic addressing, as for `ld`.
        inst.mods.space = mods.space;
        if let Some(stride) = ops.get(2) {
            inst.src[1] = self
                .value(stride, Ty::U32)
                .map_err(|_| s.invalid("takes its stride as a register or an immediate"))?;
        }
        Ok(())
    }

    /// A braced list of exactly `n` registers (a single register may be written bare).
    fn fragment(
        &self,
        op: &Operand,
        n: usize,
        s: &Suffixes,
        what: &str,
    ) -> Result<Vec<RegId>, LoadError> {
        let items = match op {
            Operand::Vector(items) => &items[..],
            Operand::Reg(_) => std::slice::from_ref(op),
            _ => return Err(s.invalid(&format!("expects a braced {what} fragment"))),
        };
        if items.len() != n {
            return Err(s.invalid(&format!(
                "expects {n} register{} in its {what} fragment, found {}",
                if n == 1 { "" } else { "s" },
                items.len()
            )));
        }
        items
            .iter()
            .map(|item| match item {
                Operand::Reg(r) => match self.reg_use(r)? {
                    RegUse::Reg(id) => Ok(id),
                    _ => Err(s.invalid(&format!("`{}` cannot be a fragment register", r.name))),
                },
                _ => Err(s.invalid(&format!("expects registers in its {what} fragment"))),
            })
            .collect()
    }
}
