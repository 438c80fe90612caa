//! Decoders of memory instructions: ld, st, atom, red, cvta and the cache hints.
//!
//! Memory-ordering qualifiers (`.relaxed/.acquire/.release/.weak` with `.cta/.gpu/.sys`),
//! cache operators (`.ca/.cg/.cs/.lu/.cv/.wb/.wt`) and `.L1::…`/`.L2::…` eviction hints are
//! accepted and dropped: the functional model is sequentially consistent and has no caches.
//! `.volatile` and `.nc` are kept in [`Mods`] for the timing model.

use super::opcode::{require, Decoded, Suffixes, K};
use crate::error::LoadError;
use crate::ir::{AtomOp, Mods, Op, Space, Ty};

type R = Result<Decoded, LoadError>;

/// A state space as written. `.param` is kept apart from the IR spaces because it means the
/// kernel parameter buffer or the current frame depending on what is addressed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Written {
    Space(Space),
    Param,
}

const SPACES: &[(&str, Written)] = &[
    ("global", Written::Space(Space::Global)),
    ("shared", Written::Space(Space::Shared)),
    ("shared::cta", Written::Space(Space::Shared)),
    ("local", Written::Space(Space::Local)),
    ("const", Written::Space(Space::Const)),
    ("param", Written::Param),
    ("param::entry", Written::Param),
    ("param::func", Written::Param),
];

/// The spaces atomics may name (none means generic).
const ATOM_SPACES: &[(&str, Written)] = &[
    ("global", Written::Space(Space::Global)),
    ("shared", Written::Space(Space::Shared)),
    ("shared::cta", Written::Space(Space::Shared)),
];

const ATOM_OPS: &[(&str, AtomOp)] = {
    use AtomOp::*;
    &[
        ("add", Add),
        ("inc", Inc),
        ("dec", Dec),
        ("exch", Exch),
        ("cas", Cas),
        ("min", Min),
        ("max", Max),
        ("and", And),
        ("or", Or),
        ("xor", Xor),
    ]
};

/// Consumes the ordering, scope and hint modifiers that do not change what a memory
/// instruction computes. Returns how many extra operands they add (a cache-policy register
/// for `.L2::cache_hint`).
fn skip_ordering_and_hints(s: &mut Suffixes, cache_ops: &[&str]) -> usize {
    s.skip_all(|w| {
        matches!(
            w,
            "weak" | "relaxed" | "acquire" | "release" | "acq_rel" | "mmio"
        ) || matches!(w, "cta" | "cluster" | "gpu" | "sys")
            || cache_ops.contains(&w)
            || (w.starts_with("L1::") || w.starts_with("L2::")) && w != "L2::cache_hint"
    });
    usize::from(s.has("L2::cache_hint"))
}

/// Applies the written space to `d`: an IR space in `mods.space`, or the `.param` flag.
fn with_space(mut d: Decoded, written: Option<Written>) -> Decoded {
    match written {
        Some(Written::Space(space)) => d.mods.space = space,
        Some(Written::Param) => d.param_space = true,
        None => d.mods.space = Space::Generic,
    }
    d
}

/// `.v2`/`.v4`, else 1.
fn vector_width(s: &mut Suffixes) -> u8 {
    s.pick(&[("v2", 2u8), ("v4", 4)]).unwrap_or(1)
}

/// A type ld/st can move: any scalar up to 64 bits.
fn movable(ty: Ty) -> bool {
    !matches!(ty, Ty::B128 | Ty::Pred)
}

/// `ld[.sem][.space][.nc][.cop][.hint][.vN].ty d, [a][, policy]`.
pub(super) fn ld(s: &mut Suffixes) -> R {
    let volatile = s.has("volatile");
    let space = s.pick(SPACES);
    let nc = s.has("nc");
    // `.cg` caches in L2 only and `.cv` fetches again: neither may hit a stale L1 line.
    let l2_only = s.has("cg") | s.has("cv");
    let dropped = skip_ordering_and_hints(s, &["ca", "cs", "lu"]);
    let vec = vector_width(s);
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, movable(ty))?;
    let m = Mods {
        volatile,
        nc,
        l2_only,
        vec,
        ..Mods::default()
    };
    let d = Decoded {
        dropped,
        ..Decoded::new(Op::Ld, ty)
    };
    Ok(with_space(
        d.with_mods(m)
            .with_dst(&[K::Data(ty, vec)])
            .with_src(&[K::Mem]),
        space,
    ))
}

/// `st[.sem][.space][.cop][.hint][.vN].ty [a], b[, policy]`.
pub(super) fn st(s: &mut Suffixes) -> R {
    let volatile = s.has("volatile");
    let space = s.pick(SPACES);
    let dropped = skip_ordering_and_hints(s, &["wb", "cg", "cs", "wt"]);
    let vec = vector_width(s);
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, movable(ty))?;
    let m = Mods {
        volatile,
        vec,
        ..Mods::default()
    };
    let d = Decoded {
        dropped,
        ..Decoded::new(Op::St, ty)
    };
    Ok(with_space(
        d.with_mods(m).with_src(&[K::Mem, K::Data(ty, vec)]),
        space,
    ))
}

/// `atom[.sem][.scope][.space].op[.noftz].ty d, [a], b[, c]` and `red…` (no `d`).
pub(super) fn atom(s: &mut Suffixes, op: Op) -> R {
    let space = s.pick(ATOM_SPACES);
    let aop = s.pick(ATOM_OPS);
    s.has("noftz");
    let dropped = skip_ordering_and_hints(s, &[]);
    let ty = s.one_type()?;
    s.done()?;
    use Ty::*;
    require(
        s,
        ty,
        matches!(ty, B32 | B64 | U32 | S32 | U64 | S64 | F32 | F64),
    )?;
    let aop = aop.ok_or_else(|| s.invalid("needs an operation such as .add"))?;
    if op == Op::Red && aop == AtomOp::Cas {
        return Err(s.unsupported());
    }
    let mut src = vec![K::Mem, K::V(ty)];
    if aop == AtomOp::Cas {
        src.push(K::V(ty));
    }
    let dst: &[K] = if op == Op::Atom { &[K::V(ty)] } else { &[] };
    let m = Mods {
        atom: aop,
        ..Mods::default()
    };
    let d = Decoded {
        dropped,
        ..Decoded::new(op, ty)
    };
    Ok(with_space(
        d.with_mods(m).with_dst(dst).with_src(&src),
        space,
    ))
}

/// `mbarrier.{init,inval,arrive,test_wait,try_wait}[.parity]….b64` (sm_80+) on an mbarrier
/// object in shared (or generic) memory: each is an `atom`/`red` of its 64-bit word with an
/// mbarrier operation (`exec::mbarrier`), so it is checked and timed like a shared atomic.
/// `try_wait`'s optional suspend-time hint is accepted and ignored; `arrive`'s count is
/// optional (absent: 1).
pub(super) fn mbarrier(s: &mut Suffixes) -> R {
    let try_wait = s.has("try_wait");
    let kind = if try_wait {
        Some(AtomOp::MbarTest)
    } else {
        s.pick(&[
            ("init", AtomOp::MbarInit),
            ("inval", AtomOp::MbarInval),
            ("arrive", AtomOp::MbarArrive),
            ("test_wait", AtomOp::MbarTest),
        ])
    };
    let parity = s.has("parity");
    let space = s.pick(&ATOM_SPACES[1..]);
    let dropped = skip_ordering_and_hints(s, &[]);
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, ty == Ty::B64)?;
    let kind = kind.ok_or_else(|| s.invalid("needs init, inval, arrive, test_wait or try_wait"))?;
    if parity && kind != AtomOp::MbarTest {
        return Err(s.unsupported());
    }
    let waits = kind == AtomOp::MbarTest;
    let (op, aop, dst, src, optional): (Op, AtomOp, &[K], &[K], usize) = match kind {
        AtomOp::MbarInit => (Op::Red, kind, &[], &[K::Mem, K::V(Ty::U32)], 0),
        AtomOp::MbarInval => (Op::Red, kind, &[], &[K::Mem], 0),
        AtomOp::MbarArrive => (
            Op::Atom,
            kind,
            &[K::V(Ty::B64)],
            &[K::Mem, K::V(Ty::U32)],
            1,
        ),
        _ if parity => (
            Op::Atom,
            AtomOp::MbarTestParity,
            &[K::V(Ty::Pred)],
            &[K::Mem, K::V(Ty::U32), K::V(Ty::U32)],
            1,
        ),
        _ => (
            Op::Atom,
            AtomOp::MbarTest,
            &[K::V(Ty::Pred)],
            &[K::Mem, K::V(Ty::B64), K::V(Ty::U32)],
            1,
        ),
    };
    // test_wait has no hint operand.
    let src = if waits && !try_wait { &src[..2] } else { src };
    let optional = if waits && !try_wait { 0 } else { optional };
    let m = Mods {
        atom: aop,
        ..Mods::default()
    };
    let d = Decoded {
        dropped,
        optional,
        ..Decoded::new(op, ty)
    };
    Ok(with_space(
        d.with_mods(m).with_dst(dst).with_src(src),
        space,
    ))
}

/// `cp.async.mbarrier.arrive[.noinc].shared{::cta}.b64 [a]`: the mbarrier arrival that
/// follows the thread's earlier `cp.async` copies. They have completed at issue in warpsim, so
/// the arrival happens now: `.noinc` counts as one arrival, the plain form (which first adds
/// one to the pending count) changes nothing.
fn cp_async_mbarrier_arrive(s: &mut Suffixes) -> R {
    let arrive = s.has("arrive");
    let noinc = s.has("noinc");
    let space = s.pick(&ATOM_SPACES[1..]);
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, ty == Ty::B64)?;
    if !arrive {
        return Err(s.unsupported());
    }
    let m = Mods {
        atom: if noinc {
            AtomOp::MbarArrive
        } else {
            AtomOp::MbarKeep
        },
        ..Mods::default()
    };
    Ok(with_space(
        Decoded::new(Op::Red, ty).with_mods(m).with_src(&[K::Mem]),
        space,
    ))
}

/// `cvta[.to].space.size d, a`: between generic and a space's own addresses.
pub(super) fn cvta(s: &mut Suffixes) -> R {
    let to_space = s.has("to");
    let space = s.pick(SPACES);
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, matches!(ty, Ty::U32 | Ty::U64))?;
    let space = space.ok_or_else(|| s.invalid("needs a state space"))?;
    let m = Mods {
        to_space,
        ..Mods::default()
    };
    Ok(with_space(Decoded::alu(Op::Cvta, ty, m, 1), Some(space)))
}

/// `prefetch[.space].level [a]`, `prefetchu.L1 [a]`: no functional effect.
pub(super) fn prefetch(s: &mut Suffixes) -> R {
    let space = s.pick(&SPACES[..5]);
    s.skip_all(|w| w == "L1" || w == "L2" || w.starts_with("L2::"));
    s.done()?;
    Ok(with_space(
        Decoded::new(Op::MemHint, Ty::B8).with_src(&[K::Mem]),
        space,
    ))
}

/// `discard.global.L2 [a], 128`: drops cached data; no functional effect here.
pub(super) fn discard(s: &mut Suffixes) -> R {
    let space = s.pick(&SPACES[..1]);
    s.has("L2");
    s.done()?;
    let d = Decoded::new(Op::MemHint, Ty::B8).with_src(&[K::Mem, K::V(Ty::U64)]);
    Ok(with_space(d, space))
}

/// `cp.async.{ca,cg}.shared{::cta}.global[.L2::…] [d], [s], size[, src_size][, policy]`,
/// `cp.async.commit_group`, `cp.async.wait_group N`, `cp.async.wait_all`. Every other `cp…`
/// (`cp.async.bulk`, `cp.async.mbarrier.arrive`, `cp.reduce.async…`) is unsupported. The
/// copy size is checked once the operands are bound ([`check_cp_async`]).
pub(super) fn cp(s: &mut Suffixes) -> R {
    if !s.has("async") {
        return Err(s.unsupported());
    }
    if s.has("mbarrier") {
        return cp_async_mbarrier_arrive(s);
    }
    if let Some(which) = s.pick(&[
        ("commit_group", Op::CpAsyncCommit),
        ("wait_group", Op::CpAsyncWait),
        ("wait_all", Op::CpAsyncWaitAll),
    ]) {
        s.done()?;
        let d = Decoded::new(which, Ty::B8);
        return Ok(if which == Op::CpAsyncWait {
            d.with_src(&[K::V(Ty::U32)])
        } else {
            d
        });
    }
    let cache = s.pick(&[("ca", false), ("cg", true)]);
    let to_shared = s.has("shared") | s.has("shared::cta");
    let from_global = s.has("global");
    let dropped = skip_ordering_and_hints(s, &[]);
    // A form with other modifiers (`.bulk`, `.mbarrier…`) is a different instruction.
    let rest = s.done();
    let (Some(l2_only), true, true, Ok(())) = (cache, to_shared, from_global, rest) else {
        return Err(s.unsupported());
    };
    let m = Mods {
        space: Space::Generic,
        l2_only,
        vec: 1,
        ..Mods::default()
    };
    let mut d = Decoded {
        dropped,
        optional: 1,
        ..Decoded::new(Op::CpAsync, Ty::B32)
    };
    d = d
        .with_mods(m)
        .with_src(&[K::Mem, K::Mem, K::V(Ty::U32), K::V(Ty::U32)]);
    Ok(d)
}

/// A bound `cp.async` copy of `operands` operands: the size must be the immediate 4, 8 or 16
/// (16 only for `.cg`), which sets the type; the addresses are lowered as generic (one is
/// shared, the other global) and the instruction is timed as global. With
/// `.L2::cache_hint` the last operand is the cache policy, so four operands have no src-size.
pub(super) fn check_cp_async(
    inst: &mut crate::ir::Inst,
    full: &str,
    operands: usize,
    line: u32,
) -> Result<(), LoadError> {
    if full.contains("L2::cache_hint") && operands == 4 {
        inst.src[3] = crate::ir::Opnd::None;
    }
    let size = match inst.src[2] {
        crate::ir::Opnd::Imm(n) => n,
        _ => {
            return Err(LoadError::Invalid {
                message: format!("`{full}` needs the copy size as an immediate 4, 8 or 16"),
                line,
            })
        }
    };
    inst.ty = match (size, inst.mods.l2_only) {
        (16, _) => Ty::B128,
        (8, false) => Ty::B64,
        (4, false) => Ty::B32,
        _ => {
            return Err(LoadError::Invalid {
                message: format!("`{full}` cannot copy {size} bytes (.ca: 4, 8 or 16; .cg: 16)"),
                line,
            })
        }
    };
    inst.ty2 = inst.ty;
    inst.mods.space = Space::Global;
    Ok(())
}
