//! Static timing class of every instruction: which unit executes it, its result latency and
//! its initiation interval, read from the config's `latency`/`initiation` tables. Computed once
//! per launch into a table indexed by function and PC, so the cycle loop only looks it up.

use crate::reg_use::RegUseTable;
use warpsim_core::config::GpuConfig;
use warpsim_core::ir::{Inst, Module, Op, Space, TensorInst, TensorKind, Ty};

/// Functional unit classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Sp = 0,
    Sfu = 1,
    Ldst = 2,
    /// Tensor-core units (`units.tensor`): `wmma.mma` and `mma.sync`.
    Tensor = 3,
}

/// Which unit instances of the SP class run an instruction (`units.sp`, `units.int`,
/// `units.dp`): Volta's separate FP32, INT and FP64 units, as GPGPU-Sim routes `SP_OP`,
/// `INTP_OP` / `ALU_OP` and `DP_OP`. A pipe with no instances of its own (`units.int = 0`,
/// `units.dp = 0`: the older GPUs) runs on the `sp` instances; SFU and LD/ST instructions
/// ignore it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pipe {
    /// Single-precision (and half-precision) arithmetic.
    Fp32 = 0,
    /// Integer arithmetic and every other SP instruction (logic, moves, compares, conversions).
    Int = 1,
    /// Double-precision arithmetic off the SFU.
    Fp64 = 2,
}

/// What a memory instruction touches (its space may still be generic: resolved at issue).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemClass {
    None,
    /// Global, local, shared or generic: addresses are computed at issue.
    Data,
    /// Constant or kernel-parameter space: a fixed-latency constant-cache hit in v0.
    Const,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpTiming {
    pub unit: Unit,
    /// The instances of the SP class it runs on (see [`Pipe`]).
    pub pipe: Pipe,
    pub latency: u32,
    pub initiation: u32,
    pub mem: MemClass,
    /// A memory instruction that may wait behind a busy LD/ST unit in its staged queue
    /// (`sm.ldst_queue`): every one but `cp.async`.
    pub queues: bool,
}

impl OpTiming {
    pub const NOP: OpTiming = OpTiming {
        unit: Unit::Sp,
        pipe: Pipe::Int,
        latency: 1,
        initiation: 1,
        mem: MemClass::None,
        queues: false,
    };
}

/// Per-function, per-PC timing table.
pub struct TimingTable {
    funcs: Vec<Vec<OpTiming>>,
    /// Every instruction's registers and predicates (for the scoreboard and collectors).
    pub regs: RegUseTable,
    /// Instruction-memory address of each function's first instruction (for the I-cache).
    base: Vec<u64>,
    /// Bytes of instruction memory from the module's first function to its last one's end.
    end: u64,
}

/// Bytes per instruction in the modelled instruction memory (`sm.fetch_bytes / 8` instructions
/// per fetch).
pub const INST_BYTES: u64 = 8;

impl TimingTable {
    pub fn new(module: &Module, cfg: &GpuConfig) -> TimingTable {
        // Functions packed one after another in the module's order, as GPGPU-Sim assembles
        // them (`function_info::ptx_assemble` starts each where the previous one ended), so a
        // kernel's first instructions may share a line with the previous function's last. The
        // module ends on an I-cache line past one more slot (the implicit return of a last
        // function without `ret`), so modules share no line.
        let line = cfg.l1i.line.max(INST_BYTES as u32) as u64;
        let mut base = Vec::with_capacity(module.functions.len());
        let mut next = 0u64;
        for f in &module.functions {
            base.push(next);
            next += f.insts.len() as u64 * INST_BYTES;
        }
        let next = (next + INST_BYTES).div_ceil(line) * line;
        TimingTable {
            funcs: module
                .functions
                .iter()
                .map(|f| {
                    f.insts
                        .iter()
                        .map(|i| match f.tensor.get(i.target as usize) {
                            Some(t) if i.op == Op::Tensor => tensor_op(i, t, cfg),
                            _ => classify(i, cfg),
                        })
                        .collect()
                })
                .collect(),
            regs: RegUseTable::new(module),
            base,
            end: next,
        }
    }

    /// Bytes of instruction memory the module takes (a multiple of the I-cache line).
    pub fn code_bytes(&self) -> u64 {
        self.end
    }

    /// Moves the module's code to start at `base` (a multiple of the I-cache line).
    pub fn place_at(&mut self, base: u64) {
        for b in self.base.iter_mut() {
            *b += base;
        }
    }

    /// Instruction-memory address of `func`'s instruction `pc`.
    #[inline]
    pub fn inst_addr(&self, func: u32, pc: u32) -> u64 {
        self.base.get(func as usize).copied().unwrap_or(0) + pc as u64 * INST_BYTES
    }

    /// The timing of `func`'s instruction `pc`; past the end (an implicit return) is a 1-cycle SP op.
    #[inline]
    pub fn get(&self, func: u32, pc: u32) -> OpTiming {
        self.funcs
            .get(func as usize)
            .and_then(|f| f.get(pc as usize))
            .copied()
            .unwrap_or(OpTiming::NOP)
    }
}

const ADD: usize = 0;
const MAX: usize = 1;
const MUL: usize = 2;
const MAD: usize = 3;
const DIV: usize = 4;
const SHFL: usize = 5;

/// Maps one instruction to its unit and timing.
pub fn classify(inst: &Inst, cfg: &GpuConfig) -> OpTiming {
    let (lat, ini) = (&cfg.latency, &cfg.initiation);
    let int = |i: usize| int_op(cfg, i);
    let fp = |i: usize| fp_op(cfg, i, inst.ty);
    match inst.op {
        Op::Ld | Op::St | Op::Atom | Op::Red | Op::CpAsync => memory_op(inst, cfg),
        // Texture fetches and surface accesses read and write global memory through the
        // LD/ST unit (addresses from `exec::texture::fetch::lane_addresses` at issue).
        Op::Tex | Op::Tld4 | Op::Suld | Op::Sust => OpTiming {
            unit: Unit::Ldst,
            pipe: Pipe::Int,
            latency: cfg.l1d.latency,
            initiation: 1,
            mem: MemClass::Data,
            queues: true,
        },
        // The classes of GPGPU-Sim's `ptx_instruction::set_opcode_and_latency`: add/sub, min/max,
        // mul, mad/fma, div/rem and shfl take the latency tables' entries; 24-bit multiplies
        // one cycle more; div/rem and the transcendentals run on the SFU.
        Op::IAdd | Op::IAddC | Op::ISub | Op::ISubC => int(ADD),
        Op::FAdd | Op::FSub => fp(ADD),
        Op::IMin | Op::IMax => int(MAX),
        Op::FMin | Op::FMax => fp(MAX),
        Op::IMulLo | Op::IMulHi | Op::IMulWide => int(MUL),
        Op::FMul => fp(MUL),
        Op::IMadLo | Op::IMadHi | Op::IMadWide | Op::IMadC => int(MAD),
        Op::FFma => fp(MAD),
        Op::IMul24 | Op::IMad24 => {
            let i = if inst.op == Op::IMul24 { MUL } else { MAD };
            OpTiming {
                latency: lat.int[i] + 1,
                initiation: ini.int[i] + 1,
                ..int(i)
            }
        }
        Op::IDiv | Op::IRem => OpTiming {
            unit: Unit::Sfu,
            ..int(DIV)
        },
        Op::FDiv => OpTiming {
            unit: Unit::Sfu,
            ..fp(DIV)
        },
        // match and redux (sm_70+, which GPGPU-Sim lacks) are warp-wide like shfl.
        Op::Shfl | Op::Match | Op::Redux => int(SHFL),
        Op::FRcp
        | Op::FSqrt
        | Op::FRsqrt
        | Op::FEx2
        | Op::FLg2
        | Op::FSin
        | Op::FCos
        | Op::FTanh => OpTiming {
            unit: Unit::Sfu,
            pipe: Pipe::Int,
            latency: lat.sfu,
            initiation: ini.sfu,
            mem: MemClass::None,
            queues: false,
        },
        // Everything else — logic, shifts, bit fields, comparisons, selects, moves,
        // conversions, abs/neg, votes, control — is GPGPU-Sim's `ALU_OP`: an SP instruction
        // with the tables' `other` entry (absent: the int add entry).
        _ => OpTiming {
            unit: Unit::Sp,
            pipe: Pipe::Int,
            latency: lat.other.unwrap_or(lat.int[ADD]),
            initiation: ini.other.unwrap_or(ini.int[ADD]),
            mem: MemClass::None,
            queues: false,
        },
    }
}

/// An integer instruction of latency-table class `i` (`ADD` … `SHFL`) on the SP unit's INT pipe.
fn int_op(cfg: &GpuConfig, i: usize) -> OpTiming {
    OpTiming {
        unit: Unit::Sp,
        pipe: Pipe::Int,
        latency: cfg.latency.int[i],
        initiation: cfg.initiation.int[i],
        mem: MemClass::None,
        queues: false,
    }
}

/// A floating-point instruction of latency-table class `i` and type `ty`: double precision
/// takes the `fp64` entries and runs on the SFU where the preset puts it there
/// (`units.dp_on_sfu`); everything else the `fp32` entries on the SP unit.
fn fp_op(cfg: &GpuConfig, i: usize, ty: Ty) -> OpTiming {
    let (lat, ini) = (&cfg.latency, &cfg.initiation);
    if ty == Ty::F64 {
        let unit = if cfg.units.dp_on_sfu {
            Unit::Sfu
        } else {
            Unit::Sp
        };
        OpTiming {
            unit,
            pipe: Pipe::Fp64,
            latency: lat.fp64[i],
            initiation: ini.fp64[i],
            mem: MemClass::None,
            queues: false,
        }
    } else {
        OpTiming {
            unit: Unit::Sp,
            pipe: Pipe::Fp32,
            latency: lat.fp32[i],
            initiation: ini.fp32[i],
            mem: MemClass::None,
            queues: false,
        }
    }
}

/// A tensor-core instruction (its form `t`): `wmma.mma` and `mma.sync` run on a tensor-core
/// unit at `latency.tensor` / `initiation.tensor` (GPGPU-Sim's `TENSOR_CORE_OP`);
/// `wmma.load`/`wmma.store` (GPGPU-Sim's `TENSOR_CORE_LOAD_OP` / `_STORE_OP`, which issue to
/// the LD/ST unit) and `ldmatrix` (which GPGPU-Sim lacks; a shared-memory load like them) are
/// LD/ST instructions whose addresses are the fragment's (`sm/tensor_access.rs`). On a GPU
/// without tensor units the launch is refused (`gpu::refuse_tensor_cores`) before any is timed.
fn tensor_op(inst: &Inst, t: &TensorInst, cfg: &GpuConfig) -> OpTiming {
    match t.kind {
        TensorKind::WmmaMma | TensorKind::Mma => OpTiming {
            unit: Unit::Tensor,
            pipe: Pipe::Fp32,
            latency: cfg.latency.tensor.max(1),
            initiation: cfg.initiation.tensor.max(1),
            mem: MemClass::None,
            queues: false,
        },
        TensorKind::WmmaLoad(_) | TensorKind::WmmaStore | TensorKind::Ldmatrix { .. } => {
            memory_op(inst, cfg)
        }
    }
}

/// A load, store, atomic, reduction or `cp.async`: an LD/ST instruction at the L1 latency,
/// its [`MemClass`] and whether it queues in the LD/ST unit ([`OpTiming::queues`]) by its
/// state space.
fn memory_op(inst: &Inst, cfg: &GpuConfig) -> OpTiming {
    let mem = match inst.mods.space {
        Space::Const | Space::KernelParam => MemClass::Const,
        _ => MemClass::Data,
    };
    // Every space: shared memory and a perfect constant cache's hits wait their turn too
    // (`Sm::book_fixed`).
    let queues = inst.op != Op::CpAsync;
    OpTiming {
        unit: Unit::Ldst,
        pipe: Pipe::Int,
        latency: cfg.l1d.latency,
        initiation: 1,
        mem,
        queues,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module of three kernels of 3, 20 and 2 instructions (each ends with `ret`).
    const PTX: &str = r#"
.version 7.0
.target sm_70
.address_size 64
.visible .entry a() { .reg .b32 %r<2>; mov.u32 %r1, 1; add.u32 %r1, %r1, 1; ret; }
.visible .entry b() {
    .reg .b32 %r<2>;
    mov.u32 %r1, 0;
    add.u32 %r1, %r1, 1; add.u32 %r1, %r1, 1; add.u32 %r1, %r1, 1; add.u32 %r1, %r1, 1;
    add.u32 %r1, %r1, 1; add.u32 %r1, %r1, 1; add.u32 %r1, %r1, 1; add.u32 %r1, %r1, 1;
    add.u32 %r1, %r1, 1; add.u32 %r1, %r1, 1; add.u32 %r1, %r1, 1; add.u32 %r1, %r1, 1;
    add.u32 %r1, %r1, 1; add.u32 %r1, %r1, 1; add.u32 %r1, %r1, 1; add.u32 %r1, %r1, 1;
    add.u32 %r1, %r1, 1; add.u32 %r1, %r1, 1;
    ret;
}
.visible .entry c() { .reg .b32 %r<2>; mov.u32 %r1, 2; ret; }
"#;

    #[test]
    fn functions_are_packed_as_gpgpusim_assembles_them_and_the_module_ends_on_a_line() {
        let module = warpsim_core::load_ptx(PTX).expect("loads");
        let lens: Vec<usize> = module.functions.iter().map(|f| f.insts.len()).collect();
        assert_eq!(lens, [3, 20, 2]);
        let cfg = GpuConfig::load_with("gtx480", &[]).expect("preset");
        let mut t = TimingTable::new(&module, &cfg);
        // b starts right after a's 3 instructions, c right after b's 20: b's instructions 13
        // on share c's I-cache line (128 bytes: 16 instructions).
        assert_eq!(t.inst_addr(0, 0), 0);
        assert_eq!(t.inst_addr(1, 0), 3 * INST_BYTES);
        assert_eq!(t.inst_addr(2, 0), 23 * INST_BYTES);
        assert_eq!(t.inst_addr(1, 13) / 128, t.inst_addr(2, 0) / 128);
        // 25 instructions and one more slot, rounded up to whole lines.
        assert_eq!(t.code_bytes(), 256);
        t.place_at(512);
        assert_eq!(t.inst_addr(2, 1), 512 + 24 * INST_BYTES);
    }
}
