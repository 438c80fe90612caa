//! Decoders of control flow, barriers and fences, and warp-level instructions.

use super::opcode::{require, Decoded, Special, Suffixes, K};
use crate::error::LoadError;
use crate::ir::{BarKind, Mods, Op, Opnd, ReduxOp, ShflMode, Ty, VoteMode};

type R = Result<Decoded, LoadError>;

/// The member mask legacy (non-`.sync`) warp instructions imply: the whole warp.
const FULL_MASK: Opnd = Opnd::Imm(0xFFFF_FFFF);

/// `bra[.uni] target`.
pub(super) fn bra(s: &mut Suffixes) -> R {
    let m = Mods {
        uni: s.has("uni"),
        ..Mods::default()
    };
    s.done()?;
    Ok(Decoded {
        special: Special::Bra,
        ..Decoded::new(Op::Bra, Ty::B32).with_mods(m)
    })
}

/// `brx.idx[.uni] index, table`.
pub(super) fn brx(s: &mut Suffixes) -> R {
    let idx = s.has("idx");
    let m = Mods {
        uni: s.has("uni"),
        ..Mods::default()
    };
    s.done()?;
    if !idx {
        return Err(s.unsupported());
    }
    Ok(Decoded {
        special: Special::BrxIdx,
        ..Decoded::new(Op::BrxIdx, Ty::U32).with_mods(m)
    })
}

/// `call[.uni] …`: operands are lowered by `calls.rs`.
pub(super) fn call(s: &mut Suffixes) -> R {
    let m = Mods {
        uni: s.has("uni"),
        ..Mods::default()
    };
    s.done()?;
    Ok(Decoded {
        special: Special::Call,
        ..Decoded::new(Op::Call, Ty::B32).with_mods(m)
    })
}

/// An instruction without operands (`ret[.uni]`, `exit`, `trap`); `allowed` lists the
/// modifiers it may carry (all ignored but `.uni`).
pub(super) fn simple(s: &mut Suffixes, op: Op, allowed: &[&str]) -> R {
    let uni = s.has("uni");
    s.skip_all(|w| allowed.contains(&w));
    s.done()?;
    Ok(Decoded::new(op, Ty::B32).with_mods(Mods {
        uni,
        ..Mods::default()
    }))
}

/// `bar`/`barrier` `[.cta].sync/.arrive/.red[.aligned]` and `bar.warp.sync`.
pub(super) fn bar(s: &mut Suffixes) -> R {
    s.has("cta");
    s.has("aligned");
    if s.has("warp") {
        let sync = s.has("sync");
        s.done()?;
        if !sync {
            return Err(s.unsupported());
        }
        return Ok(Decoded::new(Op::BarWarpSync, Ty::B32).with_src(&[K::V(Ty::B32)]));
    }
    let kind = s.pick(&[("sync", 0), ("arrive", 1), ("red", 2)]);
    // `bar.sync` is `barrier.sync.aligned`; alignment does not matter functionally.
    s.has("aligned");
    let two = [K::V(Ty::U32), K::V(Ty::U32)];
    match kind {
        Some(0) => {
            s.done()?;
            let d = Decoded::new(Op::Bar, Ty::B32).with_src(&two);
            Ok(Decoded { optional: 1, ..d })
        }
        Some(1) => {
            s.done()?;
            let m = Mods {
                bar: BarKind::Arrive,
                ..Mods::default()
            };
            Ok(Decoded::new(Op::Bar, Ty::B32).with_mods(m).with_src(&two))
        }
        Some(_) => bar_red(s),
        None => Err(s.invalid("needs .sync, .arrive or .red")),
    }
}

/// `bar.red.popc.u32 d, a{, b}, {!}c` / `bar.red.and|or.pred p, a{, b}, {!}c`.
fn bar_red(s: &mut Suffixes) -> R {
    let kind = s.pick(&[
        ("popc", BarKind::RedPopc),
        ("and", BarKind::RedAnd),
        ("or", BarKind::RedOr),
    ]);
    let ty = s.one_type()?;
    s.done()?;
    let kind = kind.ok_or_else(|| s.invalid("needs .popc, .and or .or"))?;
    let want = if kind == BarKind::RedPopc {
        Ty::U32
    } else {
        Ty::Pred
    };
    require(s, ty, ty == want)?;
    let m = Mods {
        bar: kind,
        ..Mods::default()
    };
    let d = Decoded::new(Op::Bar, ty).with_mods(m).with_dst(&[K::V(ty)]);
    let d = d.with_src(&[K::V(Ty::U32), K::V(Ty::U32), K::V(Ty::Pred)]);
    Ok(Decoded {
        special: Special::BarRed,
        ..d
    })
}

/// `membar.cta/.gl/.sys`.
pub(super) fn membar(s: &mut Suffixes) -> R {
    let level = s.pick(&[("cta", ()), ("gl", ()), ("sys", ())]);
    s.done()?;
    level.ok_or_else(|| s.invalid("needs .cta, .gl or .sys"))?;
    Ok(Decoded::new(Op::Membar, Ty::B32))
}

/// `fence.*`: every flavour only orders memory, which the functional model already does.
pub(super) fn fence(s: &mut Suffixes) -> R {
    s.skip_all(|_| true);
    Ok(Decoded {
        special: Special::IgnoreOperands,
        ..Decoded::new(Op::Membar, Ty::B32)
    })
}

/// `griddepcontrol.wait` / `griddepcontrol.launch_dependents` (sm_90 programmatic dependent
/// launch; CUB emits both for sm_90). warpsim runs a device's launches one after another, so
/// when a grid starts every grid it could depend on has finished and its writes are visible
/// (what `.wait` waits for), and there is no dependent grid to start early (what
/// `.launch_dependents` allows): both are no-ops, timed as one ALU instruction.
pub(super) fn griddepcontrol(s: &mut Suffixes) -> R {
    let action = s.pick(&[("wait", ()), ("launch_dependents", ())]);
    s.done()?;
    action.ok_or_else(|| s.invalid("needs .wait or .launch_dependents"))?;
    Ok(Decoded::new(Op::Nop, Ty::B32))
}

/// `nanosleep.u32 t`.
pub(super) fn nanosleep(s: &mut Suffixes) -> R {
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, ty == Ty::U32)?;
    Ok(Decoded::new(Op::Nanosleep, ty).with_src(&[K::V(Ty::U32)]))
}

/// `shfl.sync.mode.b32 d[|p], a, b, c, mask`; legacy `shfl.mode.b32 d[|p], a, b, c`.
pub(super) fn shfl(s: &mut Suffixes) -> R {
    use ShflMode::*;
    let sync = s.has("sync");
    let mode = s.pick(&[("up", Up), ("down", Down), ("bfly", Bfly), ("idx", Idx)]);
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, ty == Ty::B32)?;
    let mode = mode.ok_or_else(|| s.invalid("needs .up, .down, .bfly or .idx"))?;
    let m = Mods {
        shfl: mode,
        ..Mods::default()
    };
    let d = Decoded::new(Op::Shfl, ty)
        .with_mods(m)
        .with_dst(&[K::RegPred(ty)]);
    Ok(with_mask(
        d,
        &[K::V(ty), K::V(Ty::U32), K::V(Ty::U32)],
        sync,
    ))
}

/// `vote.sync.mode.ty d, {!}p, mask`; legacy `vote.mode.ty d, {!}p`.
pub(super) fn vote(s: &mut Suffixes) -> R {
    use VoteMode::*;
    let sync = s.has("sync");
    let mode = s.pick(&[("all", All), ("any", Any), ("uni", Uni), ("ballot", Ballot)]);
    let ty = s.one_type()?;
    s.done()?;
    let mode = mode.ok_or_else(|| s.invalid("needs .all, .any, .uni or .ballot"))?;
    let want = if mode == Ballot { Ty::B32 } else { Ty::Pred };
    require(s, ty, ty == want)?;
    let m = Mods {
        vote: mode,
        ..Mods::default()
    };
    let d = Decoded::new(Op::Vote, ty)
        .with_mods(m)
        .with_dst(&[K::V(ty)]);
    Ok(with_mask(d, &[K::V(Ty::Pred)], sync))
}

/// `activemask.b32 d`.
pub(super) fn activemask(s: &mut Suffixes) -> R {
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, ty == Ty::B32)?;
    Ok(Decoded::new(Op::Activemask, ty).with_dst(&[K::V(ty)]))
}

/// `match.any.sync.ty d, a, mask` / `match.all.sync.ty d[|p], a, mask`; `d` is a b32 mask.
pub(super) fn match_(s: &mut Suffixes) -> R {
    let all = s.pick(&[("any", false), ("all", true)]);
    let sync = s.has("sync");
    let ty = s.one_type()?;
    s.done()?;
    require(s, ty, matches!(ty, Ty::B32 | Ty::B64))?;
    let all = all.ok_or_else(|| s.invalid("needs .any or .all"))?;
    if !sync {
        return Err(s.invalid("needs .sync"));
    }
    let m = Mods {
        match_all: all,
        ..Mods::default()
    };
    let d = Decoded::new(Op::Match, ty)
        .with_mods(m)
        .with_dst(&[K::RegPred(Ty::B32)]);
    Ok(d.with_src(&[K::V(ty), K::V(Ty::B32)]))
}

/// `redux.sync.op.ty d, a, mask`.
pub(super) fn redux(s: &mut Suffixes) -> R {
    use ReduxOp::*;
    let sync = s.has("sync");
    let op = s.pick(&[
        ("add", Add),
        ("min", Min),
        ("max", Max),
        ("and", And),
        ("or", Or),
        ("xor", Xor),
    ]);
    let ty = s.one_type()?;
    s.done()?;
    let op = op.ok_or_else(|| s.invalid("needs an operation such as .add"))?;
    let arith = matches!(op, Add | Min | Max);
    require(
        s,
        ty,
        if arith {
            matches!(ty, Ty::U32 | Ty::S32)
        } else {
            ty == Ty::B32
        },
    )?;
    if !sync {
        return Err(s.invalid("needs .sync"));
    }
    let m = Mods {
        redux: op,
        ..Mods::default()
    };
    Ok(Decoded::alu(Op::Redux, ty, m, 1).with_src(&[K::V(ty), K::V(Ty::B32)]))
}

/// Appends the member-mask source: written for `.sync` forms, the full warp otherwise.
fn with_mask(d: Decoded, srcs: &[K], sync: bool) -> Decoded {
    let mut all = srcs.to_vec();
    if sync {
        all.push(K::V(Ty::B32));
        d.with_src(&all)
    } else {
        Decoded {
            implied: vec![(srcs.len(), FULL_MASK)],
            ..d.with_src(&all)
        }
    }
}
