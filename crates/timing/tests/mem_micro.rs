//! Memory microbenchmarks with known answers (our own CUDA programs in `tests/micro/mem_*.cu`):
//! pointer-chase latencies of L1, L2 and DRAM, streaming-copy bandwidth, and shared-memory
//! bank conflicts, each against what the preset implies. The measured values are the memory
//! half of the model's datasheet (README.md).

use warpsim_core::config::GpuConfig;
use warpsim_core::exec::context::LaunchCtx;
use warpsim_core::exec::memory::GlobalMemory;
use warpsim_timing::{run_timed_on, MemSystem, PolicyKind, TimingOptions, TimingStats};

const CHASE: &str = include_str!("micro/mem_chase.ptx");
const STREAM: &str = include_str!("micro/mem_stream.ptx");
const SHARED: &str = include_str!("micro/mem_shared.ptx");

const PRESETS: [&str; 2] = ["gtx480", "titanx-pascal"];

/// Runs kernel `name` of `ptx` (a perfect I-cache: these isolate the data side) with
/// `params` on a cold memory system; returns the statistics.
fn launch(
    ptx: &str,
    name: &str,
    cfg: &GpuConfig,
    grid: u32,
    block: u32,
    gmem: &mut GlobalMemory,
    params: &[u64],
) -> TimingStats {
    let mut mem = MemSystem::new(cfg, cfg.gpu.num_sms as usize);
    launch_on(&mut mem, ptx, name, cfg, grid, block, gmem, params)
}

/// [`launch`] on a memory system earlier launches used.
// `launch`'s arguments and the memory system, so that each test's launch reads as one call.
#[allow(clippy::too_many_arguments)]
fn launch_on(
    mem: &mut MemSystem,
    ptx: &str,
    name: &str,
    cfg: &GpuConfig,
    grid: u32,
    block: u32,
    gmem: &mut GlobalMemory,
    params: &[u64],
) -> TimingStats {
    let module = warpsim_core::load_ptx(ptx).expect("micro PTX loads");
    let kernel = module
        .functions
        .iter()
        .position(|f| f.name == name)
        .unwrap() as u32;
    let f = &module.functions[kernel as usize];
    let mut bytes = vec![0u8; f.param_bytes as usize];
    for (p, v) in f.params.iter().zip(params) {
        let n = p.size as usize;
        bytes[p.offset as usize..][..n].copy_from_slice(&v.to_le_bytes()[..n]);
    }
    let k = LaunchCtx::one_dim(&module, kernel, &bytes, grid, block, cfg.gpu.num_sms);
    let opts = TimingOptions {
        max_cycles: 200_000_000,
        perfect_icache: true,
        ..TimingOptions::new(PolicyKind::GTO, 32)
    };
    let mut printf = String::new();
    run_timed_on(mem, &k, gmem, &mut printf, f.shared_bytes, cfg, &opts).expect("runs")
}

fn read_i64s(gmem: &GlobalMemory, at: u64, n: usize) -> Vec<i64> {
    let mut b = vec![0u8; 8 * n];
    gmem.read(at, &mut b).unwrap();
    b.chunks(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn within(measured: f64, expected: f64, what: &str) {
    println!("{what}: measured {measured:.1}, the preset implies {expected:.1}");
    assert!(
        (measured - expected).abs() <= 0.10 * expected,
        "{what}: measured {measured:.2}, the preset implies {expected:.2}"
    );
}

/// Interconnect flits of a packet with `payload` bytes (8-byte header).
fn flits(cfg: &GpuConfig, payload: u32) -> f64 {
    (8 + payload).div_ceil(cfg.icnt.flit_bytes) as f64
}

/// What the preset implies for one dependent hop of the chase: the address conversion
/// (`cvta`, a one-cycle `other` instruction), a cycle into the LD/ST unit, the level's latency, a cycle of
/// writeback, and the pipeline stages around the units (`[pipeline]`) for both instructions.
/// The chase's `ld.global.nc` looks L1 up, so a miss leaves for L2 only after the L1 latency
/// queue (`l1d.latency`, GPGPU-Sim's `l1_latency_queue`).
fn expected_hops(cfg: &GpuConfig) -> (f64, f64, f64) {
    let cvta = cfg.latency.other.unwrap_or(cfg.latency.int[0]);
    let core = (cvta + 2 * cfg.pipeline.overhead()) as f64 + 2.0;
    let l1 = core + cfg.l1d.latency as f64;
    let l2 = l1
        + 2.0 * cfg.icnt.latency as f64
        + flits(cfg, 0)
        + cfg.l2.latency as f64
        + flits(cfg, cfg.l1d.line);
    let d = &cfg.dram;
    let per_cycle = (d.bus_bytes * d.chips * d.data_rate) as f64;
    let line_cycles = (cfg.l2.line as f64 / per_cycle).ceil();
    let dram_cycles = (d.tRCD + d.CL) as f64 + line_cycles;
    let dram =
        l2 + d.latency as f64 + dram_cycles * cfg.gpu.core_clock_mhz / cfg.gpu.dram_clock_mhz;
    (l1, l2, dram)
}

/// Builds a circular pointer chain of `len` elements `stride` bytes apart and times one
/// thread's walk of `hops` steps along it (after an untimed walk of as many when `warm`).
fn chase(cfg: &GpuConfig, stride: u64, len: u64, hops: u64, warm: bool) -> (f64, TimingStats) {
    let mut gmem = GlobalMemory::new();
    let out = gmem.alloc(16).unwrap();
    let base = gmem.alloc(stride * len + 8).unwrap();
    for i in 0..len {
        let next = base + ((i + 1) % len) * stride;
        gmem.write(base + i * stride, &next.to_le_bytes()).unwrap();
    }
    let s = launch(
        CHASE,
        "mem_chase",
        cfg,
        1,
        1,
        &mut gmem,
        &[out, base, hops, warm as u64],
    );
    let o = read_i64s(&gmem, out, 2);
    let steps = if warm { 2 * hops } else { hops };
    assert_eq!(
        o[1] as u64,
        base + steps % len * stride,
        "the walk ends where the chain says"
    );
    (o[0] as f64 / hops as f64, s)
}

#[test]
fn pointer_chase_latencies_match_each_level() {
    for p in PRESETS {
        let cfg = GpuConfig::load(p).unwrap();
        let (l1, l2, dram) = expected_hops(&cfg);
        // 4 KiB in 128-byte lines: fits L1. The timed walk goes round it 32 times, so the
        // warm walk's last load (still in flight when the timer starts) hardly counts.
        let (hop, s) = chase(&cfg, 128, 32, 1024, true);
        within(hop, l1, &format!("{p} L1 hit hop"));
        assert!(s.memory.l1d.hits >= 1024, "{:?}", s.memory);
        // 128 KiB: larger than L1 (LRU, cyclic: every access misses), fits L2.
        let (hop, s) = chase(&cfg, 128, 1024, 1024, true);
        within(hop, l2, &format!("{p} L2 hit hop"));
        assert!(s.memory.l2.hits >= 1024, "{:?}", s.memory);
        // Cold, lines 33 KiB + 384 B apart: every hop misses both caches and opens a row.
        let (hop, s) = chase(&cfg, 33 * 1024 + 384, 128, 128, false);
        within(hop, dram, &format!("{p} DRAM hop"));
        assert!(s.memory.dram.reads >= 128, "{:?}", s.memory);
    }
}

#[test]
fn l2_contents_carry_over_to_the_next_launch() {
    for p in PRESETS {
        let cfg = GpuConfig::load(p).unwrap();
        let (_, l2, dram) = expected_hops(&cfg);
        let (len, stride) = (256u64, 128u64); // 32 KiB: fits L2
        let mut gmem = GlobalMemory::new();
        let out = gmem.alloc(16).unwrap();
        let base = gmem.alloc(stride * len + 8).unwrap();
        for i in 0..len {
            gmem.write(
                base + i * stride,
                &(base + (i + 1) % len * stride).to_le_bytes(),
            )
            .unwrap();
        }
        let mut mem = MemSystem::new(&cfg, cfg.gpu.num_sms as usize);
        let mut hop = |mem: &mut MemSystem| {
            let s = launch_on(
                mem,
                CHASE,
                "mem_chase",
                &cfg,
                1,
                1,
                &mut gmem,
                &[out, base, len, 0],
            );
            (read_i64s(&gmem, out, 1)[0] as f64 / len as f64, s)
        };
        // The first, cold walk reads DRAM (row hits make it a little faster than a row miss
        // per hop); the second launch finds the lines in L2 (its L1 is cold again).
        let (first, s1) = hop(&mut mem);
        let (second, s2) = hop(&mut mem);
        println!("{p}: cold launch {first:.1} cycles/hop, next launch {second:.1} (L2 {l2:.1}, DRAM {dram:.1})");
        assert!(
            first > l2 + 40.0,
            "{p}: the first walk goes to DRAM: {first:.1}"
        );
        within(second, l2, &format!("{p} hop in a second launch"));
        assert!(
            s1.memory.dram.reads >= len && s2.memory.dram.reads == 0,
            "{:?}",
            s2.memory
        );
        assert_eq!(s2.memory.l1d.hits, 0, "L1 starts cold");
        // A fresh memory system is cold again: the same as the first launch.
        let (cold, _) = hop(&mut MemSystem::new(&cfg, cfg.gpu.num_sms as usize));
        assert_eq!(cold, first);
    }
}

/// The least data-bus utilisation a long copy must sustain when DRAM is what limits it
/// (measured: see the README's datasheet).
const UTILISATION_FLOOR: f64 = 0.85;

#[test]
fn streaming_copy_approaches_dram_bandwidth() {
    for p in PRESETS {
        let preset = GpuConfig::load(p).unwrap();
        // The preset's interconnect (GPGPU-Sim's: input-queued, a packet per sector) and its
        // LD/ST unit (a cycle per sector of an access around L1) hold a titanx-pascal copy
        // below DRAM's rate (the datasheet's row), so the DRAM's own efficiency is held with
        // an SM side and interconnect that keep up: a line per LD/ST cycle, output-queued, a
        // packet per request.
        let mut dram_bound = preset.clone();
        dram_bound.coalescer.bypass_per_sector = false;
        dram_bound.icnt.head_of_line = false;
        dram_bound.icnt.request_per_sector = false;
        dram_bound.icnt.reply_per_sector = false;
        streaming_copy(p, &preset, "preset");
        let utilisation = streaming_copy(p, &dram_bound, "SM side and interconnect not limiting");
        // The data bus stays busy: bank groups, turnarounds and row conflicts between the
        // grid's many streams cost the rest (see the README's datasheet).
        assert!(
            utilisation >= UTILISATION_FLOOR,
            "{p}: data bus busy {:.0}%",
            100.0 * utilisation
        );
    }
}

/// A long float4 copy on `cfg`; prints what DRAM moved, returns the data bus's utilisation.
fn streaming_copy(p: &str, cfg: &GpuConfig, label: &str) -> f64 {
    {
        let cfg = cfg.clone();
        // float4 elements: 16 MiB each way (gtx480 L2: 768 KiB, titanx-pascal 3 MiB), long enough
        // that L2 write-backs reach DRAM for most of the run (steady state, see the datasheet).
        let n: u64 = 1024 * 1024;
        let mut gmem = GlobalMemory::new();
        let src = gmem.alloc(16 * n).unwrap();
        let dst = gmem.alloc(16 * n).unwrap();
        let data: Vec<u8> = (0..16 * n).map(|i| (i * 7 % 251) as u8).collect();
        gmem.write(src, &data).unwrap();
        let block = 256;
        let grid = cfg.gpu.num_sms * (cfg.sm.max_threads / block);
        let s = launch(
            STREAM,
            "mem_stream",
            &cfg,
            grid,
            block,
            &mut gmem,
            &[dst, src, n],
        );
        let mut back = vec![0u8; data.len()];
        gmem.read(dst, &mut back).unwrap();
        assert!(back == data, "the copy is exact");
        let busy = (s.cycles - cfg.gpu.kernel_launch_latency as u64) as f64;
        let copied = 2.0 * 16.0 * n as f64 / busy;
        // What the DRAM moved: every read, and the writes L2 evicted before the end (the
        // L2 keeps the rest dirty; titanx-pascal's 3 MiB holds most of them).
        let m = &s.memory.dram;
        let measured = ((m.reads + m.writes) * cfg.l2.line as u64) as f64 / busy;
        let d = &cfg.dram;
        let peak = (d.partitions * d.chips * d.bus_bytes * d.data_rate) as f64
            * cfg.gpu.dram_clock_mhz
            / cfg.gpu.core_clock_mhz;
        // What the preset's request structure lets a copy reach: a line read moves its sectors
        // in whole bursts (gtx480: 4 sectors of 32 B, each a 64-byte burst, as GPGPU-Sim's
        // sectored L2 and DRAM atom), a write-back the line in bursts. The data bus is busy
        // `busy_cycles`; the ceiling is the bytes moved per bus cycle at 100% utilisation.
        let dram_cycles =
            busy * cfg.gpu.dram_clock_mhz / cfg.gpu.core_clock_mhz * d.partitions as f64;
        let utilisation = m.busy_cycles as f64 / dram_cycles;
        let ceiling = measured / utilisation;
        println!(
            "{p} ({label}): DRAM {measured:.1} B/cycle = {:.1} GB/s of {peak:.1} B/cycle pins ({:.0}%), ceiling of the request structure {ceiling:.1} ({:.0}%), data bus busy {:.0}%, copy {copied:.1} B/cycle, row hits {} of {}",
            measured * cfg.gpu.core_clock_mhz / 1000.0,
            100.0 * measured / peak,
            100.0 * ceiling / peak,
            100.0 * utilisation,
            m.row_hits,
            m.reads + m.writes
        );
        assert!(
            m.reads * cfg.l2.line as u64 >= 16 * n,
            "every source line comes from DRAM"
        );
        assert!(measured <= peak, "cannot beat the pins");
        utilisation
    }
}

#[test]
fn shared_bank_conflicts_serialize_by_degree() {
    for p in PRESETS {
        let cfg = GpuConfig::load(p).unwrap();
        let hops = 64u64;
        let per_hop = |stride: u64| {
            let mut gmem = GlobalMemory::new();
            let out = gmem.alloc(16).unwrap();
            gmem.write(out, &[0u8; 16]).unwrap();
            launch(
                SHARED,
                "mem_shared",
                &cfg,
                1,
                32,
                &mut gmem,
                &[out, stride, hops],
            );
            read_i64s(&gmem, out, 2)[0] as f64 / hops as f64
        };
        let base = per_hop(1);
        // Address arithmetic (shl, a one-cycle `other` instruction, and add) then the load,
        // each through the pipeline stages.
        let shl = cfg.latency.other.unwrap_or(cfg.latency.int[0]);
        let expected =
            (shl + cfg.latency.int[0] + cfg.sm.shared_latency + 3 * cfg.pipeline.overhead()) as f64;
        within(base, expected, &format!("{p} conflict-free shared hop"));
        for (stride, degree) in [(2u64, 2.0), (4, 4.0), (8, 8.0), (32, 32.0)] {
            let extra = per_hop(stride) - base;
            println!("{p}: stride {stride}: {extra:.2} extra cycles per access ({degree}-way)");
            assert!(
                (extra - (degree - 1.0)).abs() <= 1.0,
                "{p} stride {stride}: {extra:.2} extra cycles, a {degree}-way conflict costs {}",
                degree - 1.0
            );
        }
    }
}
