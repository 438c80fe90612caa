//! The typed machine description. Every field is required in a preset; unknown keys are
//! rejected (`deny_unknown_fields`), so a typo never silently falls back to a default.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuConfig {
    pub name: String,
    pub gpu: Gpu,
    pub sm: Sm,
    pub units: Units,
    pub operand_collectors: OperandCollectors,
    /// The pipeline stages every instruction passes between issue and the scoreboard release
    /// besides its unit's latency. Optional in a file: without it, `Pipeline::default()`.
    #[serde(default)]
    pub pipeline: Pipeline,
    /// Result latencies: int `[add, max, mul, mad, div, shfl]`, fp32/fp64 `[add, max, mul, mad, div]`.
    pub latency: OpTimes,
    /// Initiation intervals, same layout as `latency`.
    pub initiation: OpTimes,
    pub l1i: InstCache,
    pub l1d: L1d,
    pub const_cache: Cache,
    /// The per-SM read-only texture cache `tex`/`tld4` fetches go through. Optional in a
    /// file: without it, GPGPU-Sim's GTX 480 texture cache.
    #[serde(default)]
    pub tex: TexCache,
    pub l2: L2,
    pub dram: Dram,
    pub icnt: Icnt,
    pub coalescer: Coalescer,
    /// Parameters of the issue and fetch policies (each policy reads only its own table).
    /// Optional in a file, and so is every key in it: defaults and ranges are declared once, in
    /// `policy.rs`; presets do not repeat them, and a resolved configuration lists them all.
    #[serde(default)]
    pub policy: super::PolicyParams,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gpu {
    pub num_sms: u32,
    pub core_clock_mhz: f64,
    pub icnt_clock_mhz: f64,
    pub l2_clock_mhz: f64,
    pub dram_clock_mhz: f64,
    /// Core cycles between a launch and its first CTA.
    pub kernel_launch_latency: u32,
    /// `[major, minor]` the CUDA runtime shim reports (`cudaGetDeviceProperties`,
    /// `cudaDevAttrComputeCapability*`). Default `[7, 5]`: the PTX target of the built-in
    /// suite, which is what programs built for the older presets' GPUs are compiled for here.
    #[serde(default = "sm_75")]
    pub compute_capability: [u32; 2],
}

fn sm_75() -> [u32; 2] {
    [7, 5]
}

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sm {
    pub warp_size: u32,
    pub max_threads: u32,
    pub max_warps: u32,
    pub max_ctas: u32,
    pub registers: u32,
    pub shared_memory: u32,
    pub shared_banks: u32,
    pub shared_latency: u32,
    pub schedulers: u32,
    /// Which scheduler goes first in a cycle, when schedulers compete for a shared unit,
    /// operand collector or dispatch port (default `fixed`, as in GPGPU-Sim 3.x).
    #[serde(default)]
    pub scheduler_order: SchedulerOrder,
    pub dual_issue: bool,
    /// A warp that issued an `atom` issues nothing more until its atomics have completed
    /// (GPGPU-Sim's `shd_warp_t::waiting`: `m_n_atomic > 0`), not only the instructions
    /// that read the result. Default true, as in GPGPU-Sim (files written before the key
    /// existed load with it); false lets the warp run on until it reads the result.
    #[serde(default = "yes")]
    pub atomics_block_warp: bool,
    /// Memory instructions that may issue while the LD/ST unit is still sending an earlier
    /// one's accesses, and wait for it in order (GPGPU-Sim: the ID_OC_MEM pipeline register,
    /// the memory operand collectors and OC_EX_MEM in front of the unit's dispatch register).
    /// Every memory instruction but `cp.async` queues (shared memory and cached constants
    /// too: their time starts when the unit takes them). With `sub_core` each scheduler has
    /// `ldst_queue / schedulers` of the places. 0 (files written before the key existed):
    /// none, every memory instruction needs a free unit.
    #[serde(default)]
    pub ldst_queue: u32,
    /// The LD/ST unit writes back the lines of loads and atomics one at a time through one
    /// writeback register (GPGPU-Sim's `ldst_unit::writeback`: L1 hits, replies from L2,
    /// shared-memory, constant and texture results take turns); a line holds it for a cycle
    /// per run of its instruction's destination registers the register banks take together
    /// (a fragment load: up to 4 cycles a line), an L1 hit for one cycle. Default false
    /// (files written before the key existed): every result is written back when it arrives.
    #[serde(default)]
    pub ldst_writeback: bool,
    /// Each scheduler owns its own unit ports (Pascal's sub-cores).
    pub sub_core: bool,
    /// When fetch leaves the path after an instruction that does not continue at the next
    /// one (a taken branch, a call or return, the other side of a divergent branch). Default
    /// `issue` (files written before the key existed load with it).
    #[serde(default)]
    pub branch_redirect: BranchRedirect,
    pub ibuffer_entries: u32,
    pub fetch_warps_per_cycle: u32,
    pub fetch_bytes: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Units {
    pub sp: u32,
    pub sfu: u32,
    pub ldst: u32,
    /// Double precision executes on the SFU pipeline (Fermi).
    pub dp_on_sfu: bool,
    /// INT unit instances (GPGPU-Sim's `-gpgpu_num_int_units`, Volta on). When > 0, integer
    /// arithmetic and every other non-floating-point SP instruction (logic, moves, compares,
    /// conversions: GPGPU-Sim's `INTP_OP` and `ALU_OP`) runs on these instances and only
    /// single-precision arithmetic on the `sp` ones. 0 (the default, so files written before
    /// the key existed load unchanged): they all run on the `sp` instances (Fermi, Pascal).
    #[serde(default)]
    pub int: u32,
    /// DP unit instances (GPGPU-Sim's `-gpgpu_num_dp_units`). When > 0 (and `dp_on_sfu` is
    /// false) double-precision arithmetic runs on these. 0 (the default): on the SFU with
    /// `dp_on_sfu`, else on the `sp` instances.
    #[serde(default)]
    pub dp: u32,
    /// Tensor-core unit instances (GPGPU-Sim's `-gpgpu_num_tensor_core_units`, Volta on):
    /// `wmma.mma` and `mma.sync` run on these, at `latency.tensor` / `initiation.tensor`, through
    /// their own `pipeline.id_oc_tensor` / `oc_ex_tensor` registers. 0 (the default, so files
    /// written before the key existed load unchanged; not written out when 0): the GPU has no
    /// tensor cores and timing mode refuses a kernel that can reach a tensor-core instruction.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tensor: u32,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperandCollectors {
    /// Pool model (`per_scheduler = 0`): SM-wide collector units per class (sp / sfu / mem),
    /// and generic ones any class may take.
    pub sp: u32,
    pub sfu: u32,
    pub mem: u32,
    pub generic: u32,
    pub register_banks: u32,
    /// Sub-core model (KAWS §2.1): when > 0, every scheduler owns this many collector units
    /// per unit class (SP, SFU, MEM) and the pool keys above are not used. 0 (the default, so
    /// files written before the key existed load unchanged): the SM-wide pool.
    #[serde(default)]
    pub per_scheduler: u32,
    /// The register banks are divided evenly among the schedulers, each scheduler's warps
    /// reading and writing only its own `register_banks / sm.schedulers` (GPGPU-Sim's
    /// `-gpgpu_sub_core_model`). False (the default): every warp uses all of the SM's banks.
    #[serde(default)]
    pub split_banks: bool,
    /// Reads a register bank serves per cycle (GPGPU-Sim's `-gpgpu_reg_file_port_throughput`,
    /// which steps the operand collectors that many times a cycle). Default 1.
    #[serde(default = "one")]
    pub bank_reads_per_cycle: u32,
    /// Pool model: SM-wide collector units of the tensor-core class (GPGPU-Sim's
    /// `-gpgpu_operand_collector_num_units_tensor_core`); with none, tensor instructions take
    /// generic ones. Per scheduler: unused (each scheduler owns `per_scheduler` of every
    /// class, tensor included). 0 (the default; not written out when 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tensor: u32,
}

/// `[tex]`: GPGPU-Sim's `-gpgpu_tex_cache:l1` (`N:sets:line:assoc,L:R:m:N:L,T:fifo:req,rob:res`):
/// read-only, LRU, allocate on miss, linear set index. Hits take the L1 D-cache's latency
/// (GPGPU-Sim gives the texture cache no hit latency of its own); misses queue for L2 in the
/// SM's miss queue like L1 misses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TexCache {
    pub size: u32,
    pub assoc: u32,
    pub line: u32,
    /// Lines in flight to L2 (GPGPU-Sim's reorder-buffer entries).
    pub mshrs: u32,
    /// Fetches waiting on one line in flight (GPGPU-Sim's fragment FIFO entries).
    pub mshr_merge: u32,
}

impl Default for TexCache {
    /// GTX 480: `N:4:128:24,L:R:m:N:L,T:128:4,128:2` (12 KB, 24-way, 128-byte lines).
    fn default() -> TexCache {
        TexCache {
            size: 12288,
            assoc: 24,
            line: 128,
            mshrs: 128,
            mshr_merge: 128,
        }
    }
}

/// `[pipeline]`: the stages around the units (GPGPU-Sim's ID/OC, OC/EX and EX/WB pipeline
/// registers). An SP or SFU instruction goes through them one by one (`id_oc`, the operand
/// collectors, `oc_ex`, its unit, a result bus): with nothing in its way a dependent
/// instruction issues `latency + 6` cycles after it with one collector step a cycle
/// (`operand_collectors.bank_reads_per_cycle = 1`, gtx480) and `latency + 5` with two
/// (titanx-pascal), more with register-bank conflicts or when a stage is full. An LD/ST
/// instruction whose timing is known at issue (shared memory, a constant-cache hit) is
/// released `collect + read cycles + dispatch + latency − 1 + writeback` cycles after issue;
/// one that goes to the memory system, `collect + dispatch + writeback` cycles after its data
/// returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pipeline {
    /// Issue → the cycle whose collector steps can move the instruction into a collector (the
    /// ID/OC register); the collector reads its registers from the next step on.
    pub collect: u32,
    /// LD/ST instructions: last register read → the unit's first stage (the OC/EX register
    /// and the unit's dispatch register). SP and SFU instructions take GPGPU-Sim's steps
    /// instead: dispatched in the collector step after their last read, into the unit in the
    /// next cycle.
    pub dispatch: u32,
    /// The unit's last stage → the result is written back and its scoreboard entry released
    /// (the EX/WB register and the writeback stage).
    pub writeback: u32,
    /// `[sp, sfu]`: instructions issued to that class that can wait for an operand collector
    /// (GPGPU-Sim's ID_OC pipeline registers, `-gpgpu_pipeline_widths`). A scheduler cannot
    /// issue to a class whose registers are full. With `sm.sub_core` (and at least one per
    /// scheduler) register `i` belongs to scheduler `i mod schedulers`.
    pub id_oc: [u32; 2],
    /// `[sp, sfu]`: instructions whose operands are collected that can wait for their unit
    /// (GPGPU-Sim's OC_EX pipeline registers); a collector holds its instruction until one is
    /// free. Partitioned like `id_oc`.
    pub oc_ex: [u32; 2],
    /// The tensor-core class's ID_OC registers (GPGPU-Sim's `ID_OC_TENSOR_CORE` entry of
    /// `-gpgpu_pipeline_widths`), partitioned like `id_oc`. Needed (≥ 1) with `units.tensor`;
    /// 0 (the default, not written out) otherwise.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub id_oc_tensor: u32,
    /// The tensor-core class's OC_EX registers (`OC_EX_TENSOR_CORE`), like `id_oc_tensor`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub oc_ex_tensor: u32,
    /// Results the SP, SFU and tensor-core units can hand to writeback in one cycle (GPGPU-Sim's result
    /// buses: the EX_WB width). An instruction enters its unit only in a cycle whose result
    /// slot, `latency` cycles on, has a free bus.
    pub result_buses: u32,
}

/// A config file without `[pipeline]`: no stage cycles of its own, pipeline registers and
/// result buses that never fill (the most each key allows). Not a model of any GPU: the
/// presets set every key.
impl Default for Pipeline {
    fn default() -> Self {
        Pipeline {
            collect: 0,
            dispatch: 0,
            writeback: 0,
            id_oc: [64; 2],
            oc_ex: [64; 2],
            id_oc_tensor: 64,
            oc_ex_tensor: 64,
            result_buses: 64,
        }
    }
}

impl Pipeline {
    /// Cycles the stages add to every result.
    pub fn overhead(&self) -> u32 {
        self.collect + self.dispatch + self.writeback
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpTimes {
    pub int: [u32; 6],
    pub fp32: [u32; 5],
    pub fp64: [u32; 5],
    pub sfu: u32,
    /// Instructions outside the arithmetic classes above — logic, shifts, bit fields,
    /// comparisons, selects, moves, conversions, abs/neg, votes, branches (GPGPU-Sim's
    /// `ALU_OP`, which takes latency and initiation 1 whatever its config says). Absent: the
    /// int add entry (`int[0]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other: Option<u32>,
    /// `wmma.mma` and `mma.sync` on a tensor-core unit (GPGPU-Sim's
    /// `-ptx_opcode_latency_tesnor` / `-ptx_opcode_initiation_tensor`: one value for every
    /// shape and type). At least 1 with `units.tensor > 0`; 0 (the default, not written out)
    /// without tensor units.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tensor: u32,
}

impl OpTimes {
    /// The largest entry of any class (`other` included): with latencies, how far ahead of
    /// issue a result can land.
    pub fn slowest(&self) -> u32 {
        self.int
            .iter()
            .chain(&self.fp32)
            .chain(&self.fp64)
            .copied()
            .chain([self.sfu, self.other.unwrap_or(self.int[0]), self.tensor])
            .max()
            .unwrap_or(1)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cache {
    pub size: u32,
    pub assoc: u32,
    pub line: u32,
    /// Every access hits and takes no LD/ST cycle (GPGPU-Sim's
    /// `-gpgpu_perfect_inst_const_cache`, which its TITAN X config sets): for matching such a
    /// config, not a model of hardware.
    #[serde(default)]
    pub perfect: bool,
    /// MSHR entries (lines in flight) and requests merged per entry; absent: the L1
    /// D-cache's (`l1d.mshrs`, at most 32, and `l1d.mshr_merge`; warpsim until 2026-11-28).
    /// GPGPU-Sim's constant cache has its own, 2 × 32 in its GTX480 config: a 33rd warp
    /// loading a parameter line in flight, or a third line, stalls the LD/ST unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mshrs: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mshr_merge: Option<u32>,
}

/// The L1 instruction cache.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstCache {
    pub size: u32,
    pub assoc: u32,
    pub line: u32,
    /// Lines in flight at once (GPGPU-Sim `-gpgpu_cache:il1`'s MSHR entries); a miss on a new
    /// line past them is a reservation failure.
    pub mshrs: u32,
    /// Fetches merged into one line's MSHR entry at most (`-gpgpu_cache:il1`'s max merge).
    pub mshr_merge: u32,
    /// Misses not yet sent to L2 at most (`-gpgpu_cache:il1`'s miss queue; `miss_path =
    /// "memory"` only).
    pub miss_queue: u32,
    /// Where a miss gets its line.
    #[serde(default)]
    pub miss_path: InstMissPath,
    /// Every fetch hits (GPGPU-Sim's `-gpgpu_perfect_inst_const_cache`, which its TITAN X
    /// config sets): for matching such a config, not a model of hardware.
    #[serde(default)]
    pub perfect: bool,
}

/// See [`InstCache::miss_path`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InstMissPath {
    /// The line arrives `l2.latency + 2 × icnt.latency` cycles after the miss, without
    /// touching the interconnect, L2 or DRAM (warpsim until 2026-11-28).
    #[default]
    Fixed,
    /// A read request of the line through the SM's interconnect port to its L2 slice (and on
    /// to DRAM when L2 misses), as GPGPU-Sim's I-cache: a kernel's first fetch of each code
    /// line costs a DRAM access, later launches find it in L2.
    Memory,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WritePolicy {
    WriteThrough,
    WriteBack,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SetIndex {
    Linear,
    /// GPGPU-Sim's Fermi L1 set hash.
    Fermi,
    /// Pascal's IPOLY hash.
    Ipoly,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct L1d {
    pub size: u32,
    pub assoc: u32,
    pub line: u32,
    /// Sector size (equal to `line` for an unsectored cache).
    pub sector: u32,
    pub latency: u32,
    pub mshrs: u32,
    pub mshr_merge: u32,
    pub miss_queue: u32,
    pub set_hash: SetIndex,
    pub global_write: WritePolicy,
    pub local_write: WritePolicy,
    /// Global loads allocate in L1 (Fermi); when false only `.nc` loads do (Pascal).
    pub cache_global_loads: bool,
    /// Bytes of the unified L1 D-cache / shared-memory array (GPGPU-Sim's
    /// `-gpgpu_unified_l1d_size`, in KB there, with `-gpgpu_adaptive_cache_config 1`): each
    /// launch the L1 gets what the shared memory its resident CTAs need leaves (see
    /// `shared_carveouts`; `warpsim_core::carveout`). `size` and `assoc` are then the
    /// configuration without a carve-out, whose sets stay and whose ways scale. 0 (the
    /// default, files written before the key existed): the L1 is always `size`.
    #[serde(default)]
    pub unified_size: u32,
    /// The shared-memory sizes the unified array can be split at, in bytes (GPGPU-Sim's
    /// `-gpgpu_shmem_option`, in KB there): a launch takes the smallest that holds its CTAs'
    /// shared memory (per CTA × CTAs per SM). Used only with `unified_size`.
    #[serde(default)]
    pub shared_carveouts: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct L2 {
    /// Total bytes over all slices.
    pub size: u32,
    pub slices: u32,
    pub assoc: u32,
    pub line: u32,
    pub mshrs: u32,
    pub mshr_merge: u32,
    /// Fixed L2/ROP latency in core cycles.
    pub latency: u32,
    pub index: SetIndex,
    /// Per-sector valid bits (`coalescer.sector_bytes` sectors): a read of a sector not in
    /// the line (never fetched, or written only in part) misses and fetches it from DRAM,
    /// a store makes the sectors it writes whole readable — GPGPU-Sim's sectored L2 with lazy
    /// fetch on read. `false`: a line is whole once present (warpsim until 2026-11-28).
    #[serde(default)]
    pub sectored: bool,
    /// A host-to-device copy installs the sectors it writes in L2, clean (GPGPU-Sim's
    /// `-gpgpu_perf_sim_memcpy`, set by its GTX480 and TITAN X configs), so a kernel finds its
    /// copied inputs there. `false`: copies leave L2 alone (warpsim until 2026-11-28).
    #[serde(default)]
    pub fill_on_copy: bool,
    /// A sectored slice (`sectored`) takes one sector per cycle: a request for or writing
    /// `n` sectors holds its tag port `n` cycles — GPGPU-Sim breaks every request into its
    /// sectors where the partition takes it from the interconnect, and the L2 serves one
    /// access per cycle. `false`: one request per cycle, whatever its size (warpsim until
    /// 2026-11-28).
    #[serde(default)]
    pub sector_per_cycle: bool,
    /// Requests a slice holds for DRAM beyond what its channel takes: GPGPU-Sim's L2 miss
    /// queue (`-gpgpu_cache:dl2 …,N:…`) plus its L2-to-DRAM queue (the second number of
    /// `-gpgpu_dram_partition_queues`). A miss is refused (a reservation failure) only when
    /// this queue is full; it moves to the channel, one request a cycle, while the channel has
    /// room. 0: a miss goes straight to the channel and is refused when the channel is full
    /// (warpsim until 2026-12-01).
    #[serde(default)]
    pub dram_queue: u32,
    /// Bytes of a partition's own address space one slice takes before the partition's next
    /// slice does: GPGPU-Sim picks the sub-partition with the low bit of the DRAM bank in its
    /// address map (`addrdec_tlx`: `chip × n + (bank & (n − 1))`). SM2_GTX480's map puts that
    /// bit at bit 8 of the channel's own address, so both 128-byte lines of a 256-byte chunk
    /// share a slice: 256 there. Absent, slices alternate line by line (as SM6_TITANX's map
    /// would, bank bit at bit 7).
    #[serde(default)]
    pub slice_interleave: Option<u32>,
    /// How an address picks its memory partition and slice (GPGPU-Sim's
    /// `-gpgpu_memory_partition_indexing`). Default `consecutive`: the address map's own bits.
    #[serde(default)]
    pub partition_index: PartitionIndex,
}

/// See [`L2::partition_index`]: GPGPU-Sim's `-gpgpu_memory_partition_indexing` 0, 1, 2 and 4.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PartitionIndex {
    /// 256-byte chunks go to the partitions in turn, the slice from the address map (0).
    #[default]
    Consecutive,
    /// The partition number XOR-ed with the address bits above the partition and slice bits
    /// (1, `bitwise_hash_function`; needs a power-of-two number of partitions).
    Xor,
    /// The slice number (partition × slices per partition + slice) hashed with the address
    /// bits above it by GPGPU-Sim's IPOLY polynomials (2, `ipoly_hash_function`; Rau, ISCA
    /// 1991): 16, 32 or 64 slices once the partitions are rounded up to a power of two.
    Ipoly,
    /// Each piece of `256 / slices per partition` bytes (GPGPU-Sim's chip address) to a slice
    /// drawn uniformly at random, the same for every access (4, `RANDOM`). GPGPU-Sim draws
    /// with `rand()` (seeded 1) the first time it decodes a piece, so its draws depend on the
    /// order addresses are first seen; warpsim draws by a fixed hash of the piece's number:
    /// the same distribution, other draws.
    Random,
}

/// When fetch is redirected after an instruction whose warp does not continue at the next one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BranchRedirect {
    /// At its issue: the I-buffer's later entries are dropped and the next fetch is from where
    /// the warp continues. The default for a file without the key (written before it existed,
    /// when this was the only behaviour); every preset says `scheduler`.
    #[default]
    Issue,
    /// When the scheduler next looks at the warp, as GPGPU-Sim (`scheduler_unit::cycle`): the
    /// issue leaves the I-buffer's later entries and sets the next fetch to the next
    /// instruction (`issue_warp`'s `set_next_pc(pc + isize)`), so the fall-through is kept or
    /// fetched; a scheduler walk that reaches the warp finds the head is not where the SIMT
    /// stack continues, flushes it and redirects fetch there, and issues nothing from it in
    /// that cycle. A warp the walk does not reach (one after the warp that issued, or a
    /// pending one under two-level scheduling) keeps its stale entries until it does.
    Scheduler,
}

impl BranchRedirect {
    /// The name a config file uses.
    pub fn name(self) -> &'static str {
        match self {
            BranchRedirect::Issue => "issue",
            BranchRedirect::Scheduler => "scheduler",
        }
    }
}

/// The order an SM's schedulers take their turns in within one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SchedulerOrder {
    /// Scheduler 0 first, every cycle: GPGPU-Sim 3.x, the simulator the papers used. With
    /// shared units (gtx480's one LD/ST unit and one SFU) scheduler 0's warps, the even ones,
    /// get ahead of the odd ones, which widens the skew between a CTA's warps.
    #[default]
    Fixed,
    /// The first scheduler moves on by one every cycle (GPGPU-Sim 4's fair issue priority),
    /// so no scheduler's warps win shared units systematically.
    Rotate,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DramScheduler {
    FrFcfs,
    Fcfs,
}

// The timing fields keep the datasheet names (`tCCD`, `CL`), which are also their config keys.
#[allow(non_snake_case)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dram {
    pub partitions: u32,
    pub banks: u32,
    /// Data bus bytes per chip.
    pub bus_bytes: u32,
    /// Chips per channel (their buses side by side).
    pub chips: u32,
    /// Data transfers per command clock (4 for GDDR5's data rate over its command clock).
    pub data_rate: u32,
    pub burst: u32,
    pub queue: u32,
    pub scheduler: DramScheduler,
    /// Fixed DRAM latency in core cycles (on top of the bank timings).
    pub latency: u32,
    pub tCCD: u32,
    pub tRRD: u32,
    pub tRCD: u32,
    pub tRAS: u32,
    pub tRP: u32,
    pub tRC: u32,
    pub CL: u32,
    pub WL: u32,
    /// Bank groups (GDDR5): column commands to banks of one group must be `tCCDL` apart
    /// instead of `tCCD`. 1 = no groups.
    #[serde(default = "one")]
    pub bank_groups: u32,
    /// Which bank bits pick the group: the high ones (banks `0..n/g` form group 0) or the
    /// low ones (bank `b` is in group `b % g`) — GPGPU-Sim's `dram_bnkgrp_indexing_policy`.
    #[serde(default)]
    pub bank_group_index: BankGroupIndex,
    /// Column command to column command within one bank group (0: only `tCCD`).
    #[serde(default)]
    pub tCCDL: u32,
    /// Read to precharge within one bank group.
    #[serde(default)]
    pub tRTPL: u32,
    /// Write to read turnaround: a read command waits this long after the last write command.
    #[serde(default)]
    pub tWTR: u32,
    /// Read to write turnaround: a write command waits this long after the last read command.
    #[serde(default)]
    pub tRTW: u32,
    /// Write recovery: a bank precharges this long after a write's data has ended.
    #[serde(default)]
    pub tWR: u32,
    /// The L2 asks DRAM in requests of this many bytes (its sectors): a line fetch is one
    /// request per sector the miss asks for, each `ceil(request_bytes / burst bytes)` column
    /// commands that hold the data bus for a whole burst (`burst × bus_bytes × chips` bytes,
    /// `burst / data_rate` cycles) — GPGPU-Sim's sectored L2 and DRAM atom. 0 = one command
    /// per L2 line that holds the bus for the line's bytes only.
    #[serde(default)]
    pub request_bytes: u32,
    /// Consecutive bytes of a channel's address space that go to one bank before the next
    /// bank (0: a whole row, `2048 × chips` bytes).
    #[serde(default)]
    pub bank_interleave: u32,
}

fn one() -> u32 {
    1
}

impl Dram {
    /// Bytes of one DRAM row per chip; a channel's chips work in lockstep, so its banks'
    /// rows hold `ROW_BYTES_PER_CHIP × chips`.
    pub const ROW_BYTES_PER_CHIP: u32 = 2048;

    /// Bytes of one row of a channel's bank.
    pub fn row_bytes(&self) -> u64 {
        Self::ROW_BYTES_PER_CHIP as u64 * self.chips.max(1) as u64
    }
}

/// See [`Dram::bank_group_index`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BankGroupIndex {
    #[default]
    High,
    Low,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Icnt {
    pub latency: u32,
    pub flit_bytes: u32,
    /// Input-queued crossbar: a packet whose destination port is busy holds its source port,
    /// and so every packet queued behind it, until the destination takes it (head-of-line
    /// blocking; GPGPU-Sim's BookSim and local crossbar with one virtual channel). `false`:
    /// output-queued, a source port is held only while the packet's own flits leave it.
    #[serde(default)]
    pub head_of_line: bool,
    /// Flits an SM's port holds while they wait to cross: the SM may send while the packets
    /// queued at its port, the new one included, fit. With the router (`internal_speedup` >
    /// 0) this is BookSim's input queue (`input_buffer_size`, 9 when a config leaves it out,
    /// GPGPU-Sim's `icnt_has_buffer`), which feeds the router's VC buffer (`vc_buffer_flits`)
    /// a flit a cycle; with the crossbar, the port's whole FIFO.
    /// Absent: unbounded (with `head_of_line = false` the key is not used: the SM sends when
    /// its port is free).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_buffer_flits: Option<u32>,
    /// With `head_of_line`: the ports meet in GPGPU-Sim's BookSim router (one virtual
    /// channel, iSLIP allocation, one-step VC and switch allocation), taking this many router
    /// steps per interconnect cycle (BookSim's `internal_speedup`). A packet holds its output
    /// from VC allocation until its tail is switched, one flit a step, each sector of a
    /// per-sector request or reply being its own packet, and the output sends a flit a cycle
    /// from its buffer. 0 (the default): packets cross whole, holding both ports for their
    /// flits (GPGPU-Sim's local crossbar).
    #[serde(default)]
    pub internal_speedup: f64,
    /// With `internal_speedup`: flits of each router port's VC buffer (BookSim's
    /// `vc_buf_size`): what a source may have injected and not yet had switched, and the
    /// credits an output holds for its destination.
    #[serde(default = "default_vc_buffer_flits")]
    pub vc_buffer_flits: u32,
    /// A request travels as one packet per sector it asks for or writes, each with its own
    /// header (GPGPU-Sim's sector coalescer, sm_60 on); `false`: one packet per request.
    #[serde(default)]
    pub request_per_sector: bool,
    /// A reply travels as one packet per sector, write acknowledgements included (GPGPU-Sim's
    /// partition splits every request into sectors and answers each); `false`: one packet.
    #[serde(default)]
    pub reply_per_sector: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Coalescer {
    pub sector_bytes: u32,
    /// How a warp's atomic access becomes L2 requests.
    #[serde(default)]
    pub atomics: AtomicRequests,
    /// An access that goes around the L1 D-cache (a load that does not allocate in it, a
    /// store that bypasses it, an atomic) holds the LD/ST unit one cycle per sector it
    /// touches: GPGPU-Sim's coalescer cuts those into sector-sized accesses
    /// (`gpgpu_coalesce_arch` 40 and up for every global access; on Fermi for `.cg` loads
    /// and atomics) and its LD/ST unit sends one access per cycle (`memory_cycle`).
    /// `false`: one cycle per line.
    #[serde(default)]
    pub bypass_per_sector: bool,
}

/// See [`Coalescer::atomics`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AtomicRequests {
    /// One request per line touched, every lane's operation in it (warpsim until 2026-11-28).
    #[default]
    PerLine,
    /// GPGPU-Sim's atomic coalescer: lanes share a line's request unless their bytes overlap,
    /// so atomics to one word become one request per lane, executed at L2 one after another.
    PerOverlap,
}

/// BookSim's `vc_buf_size` in GPGPU-Sim's configs (and files written before the key existed).
fn default_vc_buffer_flits() -> u32 {
    64
}
