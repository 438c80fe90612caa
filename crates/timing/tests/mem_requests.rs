//! How a warp's memory instruction becomes requests, on crafted kernels (hand-written PTX):
//! atomics to one word are one L2 request per lane under GPGPU-Sim's atomic coalescer
//! (`coalescer.atomics = "per-overlap"`, both presets) and one per line otherwise; constant
//! loads split by the constant cache's 64-byte line, not the L1's 128; a sectored L2 reads
//! back only the sectors a store wrote whole; a host-to-device copy leaves its data in L2.

use warpsim_core::config::{AtomicRequests, GpuConfig};
use warpsim_core::exec::context::LaunchCtx;
use warpsim_core::exec::memory::GlobalMemory;
use warpsim_timing::{run_timed, run_timed_on, MemSystem, PolicyKind, TimingOptions, TimingStats};

const PTX: &str = r#"
.version 7.5
.target sm_75
.address_size 64

.const .align 4 .b8 table[256];

// Every lane adds 1 to p[lane * spread]: spread 0 = one word, 1 = 32 words of one line.
.visible .entry atom_add(.param .u64 p, .param .u32 spread)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [spread];
    mov.u32 %r2, %tid.x;
    mul.lo.u32 %r3, %r2, %r1;
    mul.wide.u32 %rd2, %r3, 4;
    add.u64 %rd3, %rd1, %rd2;
    atom.global.add.u32 %r4, [%rd3], 1;
    ret;
}

// Lane t stores t to p[t * stride]: stride 1 fills one line's sectors whole, stride 32 writes
// one word of each of 32 lines (a sector written in part).
.visible .entry store_words(.param .u64 p, .param .u32 stride)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [stride];
    mov.u32 %r2, %tid.x;
    mul.lo.u32 %r3, %r2, %r1;
    mul.wide.u32 %rd2, %r3, 4;
    add.u64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
    ret;
}

// Lane t reads p[t * stride] from L2 (`ld.cg`) and adds it to p[t * stride + 1].
.visible .entry load_words(.param .u64 p, .param .u32 stride)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [stride];
    mov.u32 %r2, %tid.x;
    mul.lo.u32 %r3, %r2, %r1;
    mul.wide.u32 %rd2, %r3, 4;
    add.u64 %rd3, %rd1, %rd2;
    ld.global.cg.u32 %r4, [%rd3];
    atom.global.add.u32 %r5, [%rd3+4], %r4;
    ret;
}

// Every lane reads table[lane] (128 bytes: two constant-cache lines) and stores it to p[lane].
.visible .entry const_read(.param .u64 p, .param .u32 unused)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [p];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 4;
    mov.u64 %rd3, table;
    add.u64 %rd4, %rd3, %rd2;
    ld.const.u32 %r2, [%rd4];
    add.u64 %rd5, %rd1, %rd2;
    st.global.u32 [%rd5], %r2;
    ret;
}
"#;

/// One warp of `kernel(out, spread)` on a cold GPU; the statistics and the first word of `out`.
fn run(cfg: &GpuConfig, kernel: &str, spread: u32) -> (TimingStats, u32) {
    let module = warpsim_core::load_ptx(PTX).expect("the PTX loads");
    let k = module
        .functions
        .iter()
        .position(|f| f.name == kernel)
        .unwrap() as u32;
    let f = &module.functions[k as usize];
    let mut gmem = GlobalMemory::new();
    let out = gmem.alloc(128).unwrap();
    gmem.write(out, &[0u8; 128]).unwrap();
    let mut params = vec![0u8; f.param_bytes as usize];
    params[f.params[0].offset as usize..][..8].copy_from_slice(&out.to_le_bytes());
    params[f.params[1].offset as usize..][..4].copy_from_slice(&spread.to_le_bytes());
    // The module's `.const` image (the table) in memory, as a runtime places it.
    let globals = gmem.alloc(module.global_image.len().max(1) as u64).unwrap();
    gmem.write(globals, &module.global_image).unwrap();
    let mut launch = LaunchCtx::one_dim(&module, k, &params, 1, 32, cfg.gpu.num_sms);
    launch.globals_base = globals;
    let opts = TimingOptions {
        perfect_icache: true,
        ..TimingOptions::new(PolicyKind::GTO, 20)
    };
    let mut printf = String::new();
    let s = run_timed(&launch, &mut gmem, &mut printf, f.shared_bytes, cfg, &opts).expect("runs");
    let mut word = [0u8; 4];
    gmem.read(out, &mut word).unwrap();
    (s, u32::from_le_bytes(word))
}

fn l2_accesses(s: &TimingStats) -> u64 {
    let c = &s.memory.l2;
    c.hits + c.misses + c.merged
}

#[test]
fn atomics_to_one_word_are_one_l2_request_per_lane() {
    for preset in ["gtx480", "titanx-pascal"] {
        let cfg = GpuConfig::load(preset).unwrap();
        assert_eq!(
            cfg.coalescer.atomics,
            AtomicRequests::PerOverlap,
            "{preset}: GPGPU-Sim's coalescer by default"
        );
        let (one, sum) = run(&cfg, "atom_add", 0);
        let (line, first) = run(&cfg, "atom_add", 1);
        assert_eq!((sum, first), (32, 1), "{preset}: results");
        // The rest of the kernel (parameter loads) is the same in both: the difference is the
        // atomics, 32 requests against 1.
        assert_eq!(l2_accesses(&one) - l2_accesses(&line), 31, "{preset}");
        // The slice serves them one per cycle; most of that hides behind the cold line's DRAM
        // fetch they all wait for, but not all.
        assert!(
            one.cycles > line.cycles,
            "{preset}: {} vs {}",
            one.cycles,
            line.cycles
        );

        let mut merged = cfg.clone();
        merged.coalescer.atomics = AtomicRequests::PerLine;
        let (one_merged, sum) = run(&merged, "atom_add", 0);
        assert_eq!(
            sum, 32,
            "{preset}: the result does not depend on the timing"
        );
        assert_eq!(
            l2_accesses(&one_merged),
            l2_accesses(&line),
            "{preset}: per-line: one request for the warp"
        );
        assert!(one_merged.cycles < one.cycles, "{preset}");
    }
}

#[test]
fn constant_loads_split_by_the_constant_cache_line() {
    for preset in ["gtx480", "titanx-pascal"] {
        let cfg = GpuConfig::load(preset).unwrap();
        assert_eq!((cfg.const_cache.line, cfg.l1d.line), (64, 128), "{preset}");
        let (s, _) = run(&cfg, "const_read", 0);
        let c = &s.memory.const_cache;
        // One parameter load (one line) and the table read: 128 bytes = two 64-byte lines.
        assert_eq!(c.hits + c.misses + c.merged, 1 + 2, "{preset}: {c:?}");

        // A perfect constant cache (GPGPU-Sim's TITAN X config) never looks anything up.
        let mut perfect = cfg.clone();
        perfect.const_cache.perfect = true;
        let (p, _) = run(&perfect, "const_read", 0);
        let c = &p.memory.const_cache;
        assert_eq!(c.hits + c.misses + c.merged, 0, "{preset}: {c:?}");
        assert!(p.cycles < s.cycles, "{preset}: no misses to wait for");
    }
}

/// `store_words` then `load_words` with `stride` on one memory system (L2 carries over);
/// the second launch's L2 statistics.
fn store_then_load(cfg: &GpuConfig, stride: u32) -> TimingStats {
    let module = warpsim_core::load_ptx(PTX).expect("the PTX loads");
    let mut gmem = GlobalMemory::new();
    let buf = gmem.alloc(32 * 128 + 8).unwrap();
    gmem.write(buf, &vec![0u8; 32 * 128 + 8]).unwrap();
    let mut mem = MemSystem::new(cfg, cfg.gpu.num_sms as usize);
    let opts = TimingOptions {
        perfect_icache: true,
        ..TimingOptions::new(PolicyKind::GTO, 20)
    };
    let mut last = None;
    for name in ["store_words", "load_words"] {
        let k = module
            .functions
            .iter()
            .position(|f| f.name == name)
            .unwrap() as u32;
        let f = &module.functions[k as usize];
        let mut params = vec![0u8; f.param_bytes as usize];
        params[f.params[0].offset as usize..][..8].copy_from_slice(&buf.to_le_bytes());
        params[f.params[1].offset as usize..][..4].copy_from_slice(&stride.to_le_bytes());
        let launch = LaunchCtx::one_dim(&module, k, &params, 1, 32, cfg.gpu.num_sms);
        let mut printf = String::new();
        last = Some(
            run_timed_on(
                &mut mem,
                &launch,
                &mut gmem,
                &mut printf,
                f.shared_bytes,
                cfg,
                &opts,
            )
            .expect("runs"),
        );
    }
    let mut word = [0u8; 4];
    gmem.read(buf + 4 * stride as u64 + 4, &mut word).unwrap();
    // Lane 1 read the 1 it stored and added it to the next word (which lane 2 stored, 2, when
    // the words are adjacent).
    assert_eq!(
        u32::from_le_bytes(word),
        if stride == 1 { 3 } else { 1 },
        "lane 1's word was read back and added"
    );
    last.unwrap()
}

#[test]
fn a_sectored_l2_reads_back_only_sectors_written_whole() {
    for preset in ["gtx480", "titanx-pascal"] {
        let cfg = GpuConfig::load(preset).unwrap();
        assert!(
            cfg.l2.sectored,
            "{preset}: GPGPU-Sim's sectored L2 by default"
        );
        // Stride 1: the store wrote the line's sectors whole; the loads hit.
        let whole = store_then_load(&cfg, 1);
        // Stride 32: one word of each of 32 lines; each load misses its sector and fetches it.
        let partial = store_then_load(&cfg, 32);
        let mut unsectored = cfg.clone();
        unsectored.l2.sectored = false;
        let lines_whole = store_then_load(&unsectored, 32);
        let reads = |s: &TimingStats| s.memory.l2.misses;
        // (Stride 1's last atomic adds to the first word of the next line, never written: the
        // one miss allowed.)
        assert!(reads(&whole) <= 1, "{preset}: {:?}", whole.memory.l2);
        assert!(reads(&partial) >= 32, "{preset}: {:?}", partial.memory.l2);
        assert!(
            reads(&lines_whole) <= 1,
            "{preset}: unsectored, a written line is whole: {:?}",
            lines_whole.memory.l2
        );
        assert!(
            partial.memory.dram.reads >= 32 && lines_whole.memory.dram.reads == 0,
            "{preset}"
        );
        assert!(
            partial.cycles > lines_whole.cycles,
            "{preset}: the DRAM trips take time"
        );
    }
}

/// Copies 32 lines from the host, then `load_words` reads one word of each (stride 32) through
/// a Device with the timing engine; the launch's statistics.
fn copy_then_load(cfg: &GpuConfig) -> TimingStats {
    use warpsim_core::device::{Arg, Device, LaunchConfig};
    use warpsim_timing::engine::TimingEngine;
    let mut dev = Device::new();
    dev.set_engine(Box::new(TimingEngine::new(cfg.clone(), PolicyKind::GTO)));
    let m = dev.load_ptx(PTX).unwrap();
    let k = dev.kernel(m, "load_words").unwrap();
    let buf = dev.alloc_slice(&vec![1u32; 32 * 32 + 2]).unwrap();
    let launch = LaunchConfig {
        grid: 1.into(),
        block: 32.into(),
        dynamic_shared: 0,
    };
    dev.launch(k, launch, &[Arg::Ptr(buf), Arg::U32(32)])
        .unwrap();
    assert_eq!(
        dev.read_vec::<u32>(buf, 2).unwrap(),
        [1, 2],
        "the copied word was read and added"
    );
    dev.engine_as_mut::<TimingEngine>()
        .unwrap()
        .take_records()
        .pop()
        .unwrap()
}

#[test]
fn a_host_copy_leaves_its_data_in_l2() {
    for preset in ["gtx480", "titanx-pascal"] {
        let cfg = GpuConfig::load(preset).unwrap();
        assert!(
            cfg.l2.fill_on_copy,
            "{preset}: GPGPU-Sim's -gpgpu_perf_sim_memcpy by default"
        );
        let filled = copy_then_load(&cfg);
        let mut cold = cfg.clone();
        cold.l2.fill_on_copy = false;
        let unfilled = copy_then_load(&cold);
        // The kernel's parameters and its code line were never copied: they miss in both.
        let misses = |s: &TimingStats| s.memory.l2.misses;
        assert!(misses(&filled) <= 2, "{preset}: {:?}", filled.memory.l2);
        assert!(
            misses(&unfilled) >= misses(&filled) + 32,
            "{preset}: {:?}",
            unfilled.memory.l2
        );
        assert!(filled.cycles < unfilled.cycles, "{preset}");
    }
}

/// `const_cache.mshrs` / `mshr_merge` size the constant cache's own MSHRs (GPGPU-Sim's 2 × 32
/// on GTX480, the preset's) instead of borrowing the L1's (32 × 8, warpsim before the keys):
/// with two entries, the table's second line waits for the parameter line or the first (the
/// LD/ST unit retries), so the kernel takes longer.
#[test]
fn the_constant_cache_has_its_own_mshrs() {
    let cfg = GpuConfig::load("gtx480").unwrap();
    assert_eq!(
        (cfg.const_cache.mshrs, cfg.const_cache.mshr_merge),
        (Some(2), Some(32)),
        "GPGPU-Sim's S:2:32"
    );
    let (two, sum) = run(&cfg, "const_read", 0);
    let mut wide = cfg.clone();
    (wide.const_cache.mshrs, wide.const_cache.mshr_merge) = (None, None);
    let (l1s, wide_sum) = run(&wide, "const_read", 0);
    assert_eq!(sum, wide_sum, "the result does not depend on the timing");
    assert_eq!(
        l1s.memory.const_cache.reservation_fails, 0,
        "{:?}",
        l1s.memory.const_cache
    );
    assert!(
        two.memory.const_cache.reservation_fails > 0,
        "{:?}",
        two.memory.const_cache
    );
    assert!(two.cycles > l1s.cycles, "{} vs {}", two.cycles, l1s.cycles);
}
