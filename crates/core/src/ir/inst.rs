//! One decoded instruction.
//!
//! Operand convention for every op: `dst[0]` is the primary destination, `dst[1]` a second
//! destination (`setp`'s `|%q`, `shfl`'s `|%p`); `src[..]` are the sources in PTX order.
//! Unused slots hold [`Opnd::None`]. The per-op comments below name the exceptions.

use super::types::*;

/// Index of a 64-bit register slot in a function's register file.
pub type RegId = u32;
/// Index of a predicate in a function's predicate file (a 32-bit lane mask per warp).
pub type PredId = u16;
/// Instruction index inside a function.
pub type Pc = u32;
/// Index into `Module::functions`.
pub type FuncId = u32;

/// Sentinel `reconv` for instructions that are not branches.
pub const NO_PC: Pc = u32::MAX;

/// What an address or a symbol's value is relative to; the executor adds the base at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum AddrRel {
    /// Nothing to add: the register (+offset) or the immediate is the address.
    #[default]
    Absolute,
    /// The current call frame's base in per-thread local memory (`.local` variables,
    /// device-function parameters, call-sequence `.param` variables, `__local_depot`).
    Frame,
    /// The base of the dynamic (`.extern .shared`) shared array, i.e. the launched kernel's
    /// static shared size rounded up to the array's alignment.
    DynShared,
    /// The base address of the module's image of `.global`/`.const` variables in global memory.
    ModuleGlobals,
}

/// An operand after lowering.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum Opnd {
    #[default]
    None,
    Reg(RegId),
    /// A predicate register; `negated` for `!%p` sources.
    Pred {
        id: PredId,
        negated: bool,
    },
    /// Immediate bits. Integer literals are sign-extended to 64 bits; `0f` floats are their
    /// 32 bits; `0d` floats their 64 bits; a decimal float literal is converted to the
    /// instruction's float type at lowering.
    Imm(u64),
    Sreg(Sreg),
    /// A symbol used as a value (`mov.u64 %rd, sym`): `rel` base + `offset`, in the symbol's
    /// own state space (a shared variable gives a shared-space offset, a local one a
    /// local-space address, a global one a global address). Functions used as values are
    /// `Imm(layout::FUNC_HANDLE_BASE + func_id)`.
    SymAddr {
        rel: AddrRel,
        offset: i64,
    },
    /// `[base + offset]`, plus the `rel` base. `base: None` for `[sym]`/`[imm]` forms.
    Addr {
        base: Option<RegId>,
        rel: AddrRel,
        offset: i64,
    },
    /// `{%a, %b, %c, %d}`: `n` registers; `u32::MAX` in a slot is a sink (`_`).
    Vec {
        regs: [RegId; 4],
        n: u8,
    },
    /// `_` as a destination.
    Sink,
}

/// The decoded operation. Integer and floating-point arithmetic are separate variants so the
/// executor and the timing model's unit classification never look at the type to decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Op {
    #[default]
    Nop,
    // ---- integer arithmetic (ty: b/u/s 16/32/64) ----
    /// `add` (also `add.sat.s32`: mods.sat). With `mods.cc`: writes the carry-out flag.
    IAdd,
    /// `addc[.cc]`: a + b + carry-in.
    IAddC,
    ISub,
    /// `subc[.cc]`: a - b - borrow-in.
    ISubC,
    IMulLo,
    IMulHi,
    /// `mul.wide`: ty is the *source* type; result is twice as wide.
    IMulWide,
    /// `mad.lo` (mods.cc: carry-out of the add; `madc.lo` = IMadC with mods.hi false).
    IMadLo,
    IMadHi,
    /// `mad.wide`: ty is the source type; src[2] and the result are twice as wide.
    IMadWide,
    /// `madc.lo` / `madc.hi` (mods.hi) with carry-in; mods.cc writes carry-out.
    IMadC,
    /// `mul24.lo/.hi` (mods.hi), `mad24` with src[2].
    IMul24,
    IMad24,
    IDiv,
    IRem,
    IAbs,
    INeg,
    IMin,
    IMax,
    /// `popc`: result is u32.
    Popc,
    /// `clz`: result is u32.
    Clz,
    Brev,
    /// `bfind[.shiftamt]` (mods.shiftamt): result u32, 0xFFFFFFFF when not found.
    Bfind,
    /// `bfe`: src = a, pos, len.
    Bfe,
    /// `bfi`: src = a (field), b (base), pos, len.
    Bfi,
    /// `prmt.b32[.mode]`: src = a, b, selector; mode in mods.prmt_mode.
    Prmt,
    /// `sad`: |a - b| + c.
    Sad,
    // ---- bitwise (ty b16/b32/b64 or Pred: then operands are Pred) ----
    And,
    Or,
    Xor,
    Not,
    Cnot,
    Shl,
    /// Arithmetic shift for signed ty, logical otherwise. Shift amounts ≥ width clamp.
    Shr,
    /// `shf.l/.r` funnel shift (mods.hi = right): src = a, b, c; mods.clamp for `.clamp`.
    Shf,
    /// `bmsk.{clamp,wrap}.b32` (mods.clamp): a mask of `b` bits from bit `a`.
    Bmsk,
    // ---- floating point (ty F32/F64; F16 later) ----
    FAdd,
    FSub,
    FMul,
    /// `fma` and `mad.f32/.f64` (mad.rnd is fma).
    FFma,
    FDiv,
    FAbs,
    FNeg,
    FMin,
    FMax,
    FRcp,
    FSqrt,
    FRsqrt,
    FEx2,
    FLg2,
    FSin,
    FCos,
    FTanh,
    /// `testp.op` (mods.testp): dst is a predicate.
    Testp,
    /// `copysign`: src = a (sign source), b.
    Copysign,
    // ---- comparison / selection / movement ----
    /// `setp.CMP[.BOOL].ty p[|q], a, b[, c]`: dst[0] = Pred, dst[1] = Pred or None,
    /// src[2] = combining predicate (possibly negated) when mods.boolop is Some.
    Setp,
    /// `set.CMP[.BOOL].dty.ty d, a, b[, c]`: ty2 is the compared type, ty the destination type.
    Set,
    /// `selp.ty d, a, b, p`: src[2] is a Pred.
    Selp,
    /// `slct.dty.ty2 d, a, b, c`: d = c >= 0 ? a : b (c of type ty2).
    Slct,
    /// `mov`: plain copy, or pack (`mov.b64 d, {a, b}`: src[0] is Vec) or unpack
    /// (`mov.b64 {a, b}, s`: dst[0] is Vec). Pred moves have Pred operands.
    Mov,
    /// `cvt[.rnd][.ftz][.sat].ty.ty2 d, a`: convert from ty2 to ty.
    Cvt,
    /// `cvta[.to].space.size`: mods.space is the window, mods.to_space true for `.to`.
    Cvta,
    // ---- memory ----
    /// `ld[.space][.nc][.volatile][.vN].ty d, [a]`: dst[0] = Reg or Vec, src[0] = Addr.
    Ld,
    /// `st[.space][.vN].ty [a], b`: src[0] = Addr, src[1] = Reg/Imm/Vec.
    St,
    /// `atom[.space].op.ty d, [a], b[, c]`: src[0] = Addr, src[1] = b, src[2] = c (cas).
    Atom,
    /// `red[.space].op.ty [a], b`: src[0] = Addr, src[1] = b.
    Red,
    /// `prefetch`/`prefetchu`, `discard`…: no effect.
    MemHint,
    /// `cp.async.{ca,cg}.shared.global [d], [s], size[, src_size]`: src[0] = shared Addr,
    /// src[1] = global Addr, src[2] = Imm size (4, 8, 16; ty is B32/B64/B128), src[3] = the
    /// bytes to read (the rest is zero-filled) or None. mods.space is Global (the side the
    /// timing model times); mods.l2_only for `.cg`. Functionally the copy happens at issue.
    CpAsync,
    /// `cp.async.commit_group`: closes the warp's open group of cp.async copies.
    CpAsyncCommit,
    /// `cp.async.wait_group N`: src[0] = Imm N; waits until at most the N newest committed
    /// groups are in flight (timing only: functionally every copy is done at issue).
    CpAsyncWait,
    /// `cp.async.wait_all` = commit_group + wait_group 0.
    CpAsyncWaitAll,
    // ---- control ----
    /// `bra[.uni] target`: `Inst::target` is the target PC, `Inst::reconv` the immediate
    /// post-dominator (reconvergence PC; the function's exit sentinel `insts.len()` when the
    /// paths only meet at return).
    Bra,
    /// `brx.idx index, table`: src[0] = index register; `Inst::target` indexes
    /// `Function::branch_tables`.
    BrxIdx,
    /// `call`: `Inst::target` indexes `Function::call_sites`.
    Call,
    Ret,
    Exit,
    Trap,
    /// `bar.sync`/`barrier.sync`/`bar.red`/`bar.arrive`: src[0] = barrier id, src[1] = thread
    /// count or None; mods.bar says which.
    Bar,
    /// `bar.warp.sync mask`.
    BarWarpSync,
    /// `membar.{cta,gl,sys}` / `fence.*`: ordering only; functionally a no-op.
    Membar,
    Nanosleep,
    // ---- warp-level ----
    /// `shfl.sync.mode.b32 d[|p], a, b, c, membermask`.
    Shfl,
    /// `vote.sync.mode.ty d, {!}p, membermask`: d is Pred for all/any/uni, Reg for ballot.
    Vote,
    /// `activemask.b32 d`.
    Activemask,
    /// `match.any/all.sync.ty d[|p], a, membermask` (mods.match_all).
    Match,
    /// `redux.sync.op.ty d, a, membermask`.
    Redux,
    /// A call of the built-in `vprintf(fmt, args)`: src[0] = fmt address, src[1] = arg buffer
    /// address; dst[0] receives the count (lowered from a `call` to the extern `vprintf`).
    Vprintf,
    /// `__assertfail(msg, file, line, function, charSize)`: src[0..4] from the call's params.
    AssertFail,
    /// Device-side `malloc(size)` (so `new`): src[0] = size, dst[0] receives the pointer (0
    /// when the device heap is exhausted); operands as for `Vprintf`.
    Malloc,
    /// Device-side `free(ptr)` (so `delete`): src[0] = the pointer.
    Free,
    // ---- textures and surfaces (`exec::texture`) ----
    /// `tex.geom.v4.dty.cty d, [a, c]`: dst[0] = Vec of 4 (ty), src[0] = the texture object
    /// handle, src[1] = Vec of coordinates (ty2: S32 or F32); mods.tex.geom.
    Tex,
    /// `tld4.comp.2d.v4.dty.f32 d, [a, c]`: the 2×2 bilinear footprint's component
    /// mods.tex.comp; operands as for `Tex`.
    Tld4,
    /// `suld.b.geom[.vN].ty.clamp d, [a, c]`: dst[0] = Vec of mods.vec (ty), src[0] = the
    /// surface object handle, src[1] = Vec of S32 coordinates (x in bytes).
    Suld,
    /// `sust.b.geom[.vN].ty.clamp [a, c], b`: src[0] handle, src[1] coordinates, src[2] = Vec
    /// of mods.vec values.
    Sust,
    // ---- tensor cores (`exec::tensor`) ----
    /// `wmma.load/store/mma`, `mma.sync`, `ldmatrix`: `Inst::target` indexes
    /// `Function::tensor`, which holds the form and the fragment registers; src[0] = the
    /// address and src[1] = the stride (or None) of wmma.load/store and ldmatrix, in
    /// mods.space.
    Tensor,
}

/// Dimensionality of a texture or surface instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum TexGeom {
    #[default]
    D1,
    D2,
    D3,
}

impl TexGeom {
    /// Coordinates the geometry uses (a 3-D coordinate vector has a fourth, ignored element).
    pub fn dims(self) -> usize {
        self as usize + 1
    }
}

/// What a surface access outside the surface does (`.trap`, `.clamp`, `.zero`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum SurfClamp {
    /// Fault.
    #[default]
    Trap,
    /// Use the nearest element inside.
    Clamp,
    /// Loads return 0, stores are dropped.
    Zero,
}

/// Texture and surface modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TexMods {
    pub geom: TexGeom,
    /// `tld4`'s component: 0 r, 1 g, 2 b, 3 a.
    pub comp: u8,
    pub clamp: SurfClamp,
}

/// `bar` flavours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum BarKind {
    /// `bar.sync` / `barrier.sync`: arrive and wait.
    #[default]
    Sync,
    /// `bar.arrive`: arrive without waiting.
    Arrive,
    /// `bar.red.popc/.and/.or`: arrive, wait, reduce a predicate across the CTA.
    RedPopc,
    RedAnd,
    RedOr,
}

/// Modifiers, decoded. Fields that do not apply to an op keep their defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Mods {
    pub rounding: Rounding,
    pub ftz: bool,
    pub sat: bool,
    /// `.approx` (and `.full` for div.full.f32, which is approximate too).
    pub approx: bool,
    /// `.cc`: write the carry-out flag.
    pub cc: bool,
    /// `.hi` half (mul24.hi, madc.hi, shf.r).
    pub hi: bool,
    pub shiftamt: bool,
    pub clamp: bool,
    pub cmp: CmpOp,
    pub boolop: Option<BoolOp>,
    pub space: Space,
    /// `cvta.to.space` (generic → space) when true; `cvta.space` (space → generic) when false.
    pub to_space: bool,
    /// Vector width of ld/st: 1, 2 or 4.
    pub vec: u8,
    pub volatile: bool,
    pub nc: bool,
    /// `ld.cg` / `ld.cv`: cache in L2 only (the timing model's loads skip the L1 lookup).
    pub l2_only: bool,
    pub atom: AtomOp,
    pub shfl: ShflMode,
    pub vote: VoteMode,
    pub redux: ReduxOp,
    pub match_all: bool,
    pub bar: BarKind,
    /// `prmt` mode: 0 = default, 1 f4e, 2 b4e, 3 rc8, 4 ecl, 5 ecr, 6 rc16.
    pub prmt_mode: u8,
    /// `testp` kind: 0 finite, 1 infinite, 2 number, 3 notanumber, 4 normal, 5 subnormal.
    pub testp: u8,
    /// `.uni`: the branch/call is known uniform.
    pub uni: bool,
    /// `tex`/`tld4`/`suld`/`sust`.
    pub tex: TexMods,
}

/// An optional guard predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Guard {
    /// `None` when the instruction is unguarded.
    pub pred: Option<PredId>,
    pub negated: bool,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Inst {
    pub op: Op,
    /// The instruction's main type (destination type for cvt/set/slct).
    pub ty: Ty,
    /// Second type: cvt's source type, set's/slct's compared type. Equal to `ty` otherwise.
    pub ty2: Ty,
    pub mods: Mods,
    pub guard: Guard,
    pub dst: [Opnd; 2],
    pub src: [Opnd; 4],
    /// Branch target PC, call-site index or branch-table index (see [`Op`]).
    pub target: u32,
    /// Reconvergence PC for `Bra`/`BrxIdx` (immediate post-dominator); [`NO_PC`] otherwise.
    pub reconv: Pc,
    /// 1-based line of the instruction in the PTX source.
    pub line: u32,
}
