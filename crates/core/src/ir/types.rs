//! Small value types shared by the IR, the ALU and the executor: element types, rounding
//! modes, comparison and combining operators, state spaces, special registers.

/// An instruction's element type. Values live in 64-bit register slots; an instruction reads
/// the low `bits()` of a slot (sign- or zero-extending as its type says) and writes its result
/// zero-extended to 64 bits unless stated otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Ty {
    #[default]
    B32,
    B8,
    B16,
    B64,
    B128,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    F16x2,
    BF16,
    BF16x2,
    F32,
    F64,
    Pred,
}

impl Ty {
    pub fn bits(self) -> u32 {
        use Ty::*;
        match self {
            B8 | U8 | S8 | Pred => 8,
            B16 | U16 | S16 | F16 | BF16 => 16,
            B32 | U32 | S32 | F32 | F16x2 | BF16x2 => 32,
            B64 | U64 | S64 | F64 => 64,
            B128 => 128,
        }
    }
    pub fn bytes(self) -> u32 {
        self.bits() / 8
    }
    pub fn is_signed(self) -> bool {
        matches!(self, Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64)
    }
    pub fn is_float(self) -> bool {
        matches!(
            self,
            Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2 | Ty::F32 | Ty::F64
        )
    }
    /// Mask of the low `bits()` bits (all ones for 64-bit and wider).
    pub fn mask(self) -> u64 {
        match self.bits() {
            b if b >= 64 => u64::MAX,
            b => (1u64 << b) - 1,
        }
    }
    pub fn from_ast(t: ptx::ast::ScalarType) -> Ty {
        use ptx::ast::ScalarType as S;
        match t {
            S::B8 => Ty::B8,
            S::B16 => Ty::B16,
            S::B32 => Ty::B32,
            S::B64 => Ty::B64,
            S::B128 => Ty::B128,
            S::U8 => Ty::U8,
            S::U16 => Ty::U16,
            S::U32 => Ty::U32,
            S::U64 => Ty::U64,
            S::S8 => Ty::S8,
            S::S16 => Ty::S16,
            S::S32 => Ty::S32,
            S::S64 => Ty::S64,
            S::F16 => Ty::F16,
            S::F16x2 => Ty::F16x2,
            S::BF16 => Ty::BF16,
            S::BF16x2 => Ty::BF16x2,
            S::F32 => Ty::F32,
            S::F64 => Ty::F64,
            S::Pred => Ty::Pred,
        }
    }
}

/// Rounding modifier. `None` means the instruction's default (round to nearest even for
/// floating results; for float→int `cvt` PTX requires an explicit integer rounding).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Rounding {
    #[default]
    None,
    /// Floating-point results: to nearest even, toward zero, toward −∞, toward +∞.
    Rn,
    Rz,
    Rm,
    Rp,
    /// Integer results (cvt to int, or cvt.f32.f32 round to integral): nearest even, zero, −∞, +∞.
    Rni,
    Rzi,
    Rmi,
    Rpi,
}

/// `setp`/`set` comparison. Lo/Ls/Hi/Hs are the unsigned integer spellings; the `u`-suffixed
/// ones are true when either operand is NaN; `Num`/`Nan` test for NaN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum CmpOp {
    #[default]
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

/// The combining operator of `setp.CMP.BOOL` / `vote` / `redux` / bit ops on predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

/// Where a memory instruction's address points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Space {
    /// No state space written: the address is generic and is resolved per lane through the
    /// windows in [`crate::ir::layout`].
    #[default]
    Generic,
    Global,
    Shared,
    /// Per-thread local memory: `.local` variables, device-function parameters and the
    /// `.param` variables of call sequences all live in the current frame here.
    Local,
    /// Constant memory. warpsim keeps `.const` variables in the module's global image, so a
    /// constant address is a global address (read-only by convention).
    Const,
    /// A kernel's parameter buffer (`ld.param` of an `.entry` parameter).
    KernelParam,
}

/// Atomic / reduction operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum AtomOp {
    #[default]
    Add,
    Inc,
    Dec,
    Exch,
    Cas,
    Min,
    Max,
    And,
    Or,
    Xor,
    /// `mbarrier.init [a], count` (the 64-bit word at `a` is an mbarrier object:
    /// `exec::mbarrier`).
    MbarInit,
    /// `mbarrier.arrive [a]{, count}` (absent count: 1) and `cp.async.mbarrier.arrive.noinc`;
    /// the result is the word before, the state token `test_wait` takes.
    MbarArrive,
    /// `mbarrier.{test,try}_wait [a], state`: the result is whether that phase has completed.
    MbarTest,
    /// `mbarrier.{test,try}_wait.parity [a], parity`: whether the phase of that parity has.
    MbarTestParity,
    /// `mbarrier.inval [a]`: the word becomes 0.
    MbarInval,
    /// `cp.async.mbarrier.arrive [a]` without `.noinc`: its increment of the pending count and
    /// its arrival cancel (warpsim's `cp.async` has completed at issue); the word is unchanged.
    MbarKeep,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum ShflMode {
    #[default]
    Idx,
    Up,
    Down,
    Bfly,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum VoteMode {
    #[default]
    All,
    Any,
    Uni,
    Ballot,
}

/// `redux.sync` operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum ReduxOp {
    #[default]
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
}

/// Special registers. Components are separate variants so reading one is a table lookup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Sreg {
    TidX,
    TidY,
    TidZ,
    NtidX,
    NtidY,
    NtidZ,
    CtaidX,
    CtaidY,
    CtaidZ,
    NctaidX,
    NctaidY,
    NctaidZ,
    Laneid,
    Warpid,
    Nwarpid,
    Smid,
    Nsmid,
    Gridid,
    Clock,
    ClockHi,
    Clock64,
    GlobalTimer,
    GlobalTimerLo,
    GlobalTimerHi,
    LanemaskEq,
    LanemaskLt,
    LanemaskLe,
    LanemaskGt,
    LanemaskGe,
    TotalSmemSize,
    /// `%aggr_smem_size`: warpsim reserves no shared memory, so it equals `%total_smem_size`.
    AggrSmemSize,
    DynamicSmemSize,
    /// `%pm0`…`%pm7` and `%pm0_64`…`%pm7_64`: performance counters, not modelled (read 0).
    PerfCounter,
    /// `%current_graph_exec`: 0, warpsim has no CUDA graphs.
    CurrentGraphExec,
    // Cluster registers (sm_90). warpsim launches no clusters, so every CTA is its own
    // implicit 1×1×1 cluster, as on hardware for a launch without cluster dimensions.
    /// `%clusterid.{x,y,z}` = `%ctaid`.
    ClusteridX,
    ClusteridY,
    ClusteridZ,
    /// `%nclusterid.{x,y,z}` = `%nctaid`.
    NclusteridX,
    NclusteridY,
    NclusteridZ,
    /// `%cluster_ctaid.{x,y,z}` = 0 and `%cluster_ctarank` = 0.
    ClusterZero,
    /// `%cluster_nctaid.{x,y,z}` = 1 and `%cluster_nctarank` = 1.
    ClusterOne,
    /// `%is_explicit_cluster` = 0 (false).
    IsExplicitCluster,
    /// `%envreg0` … `%envreg31`; index in the payload.
    Envreg(u8),
}
