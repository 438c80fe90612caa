//! The interconnect on a crafted streaming copy (hand-written PTX; its input written by a
//! first launch, so it sits in L2 and the copy's bandwidth is the interconnect's): an
//! input-queued crossbar (`icnt.head_of_line`, both presets, GPGPU-Sim's) takes longer than an
//! output-queued one, moving the same packets; per-sector packets (`icnt.request_per_sector`,
//! `icnt.reply_per_sector`) carry a header per sector.

use warpsim_core::config::GpuConfig;
use warpsim_core::exec::context::LaunchCtx;
use warpsim_core::exec::memory::GlobalMemory;
use warpsim_timing::{run_timed_on, MemSystem, PolicyKind, TimingOptions, TimingStats};

const PTX: &str = r#"
.version 7.5
.target sm_75
.address_size 64

// p[i] = i for the grid's thread i.
.visible .entry fill(.param .u64 p, .param .u64 unused)
{
    .reg .b32 %r<5>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [p];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mad.lo.u32 %r4, %r1, %r2, %r3;
    mul.wide.u32 %rd2, %r4, 4;
    add.u64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r4;
    ret;
}

// dst[i] = src[i], read from L2 (`ld.cg`).
.visible .entry copy(.param .u64 src, .param .u64 dst)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [src];
    ld.param.u64 %rd2, [dst];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mad.lo.u32 %r4, %r1, %r2, %r3;
    mul.wide.u32 %rd3, %r4, 4;
    add.u64 %rd4, %rd1, %rd3;
    ld.global.cg.u32 %r5, [%rd4];
    add.u64 %rd5, %rd2, %rd3;
    st.global.u32 [%rd5], %r5;
    ret;
}
"#;

// Long enough (about 8.6 CTAs per SM on titanx-pascal) for the copy's bandwidth to dominate
// where the dispatcher starts: it goes on from the fill's last SM (GPGPU-Sim's), and with 120
// CTAs, 4.3 per SM, the one-packet buffer's effect (+5% at 240) was within that noise.
const CTAS: u32 = 240;
const THREADS: u32 = 256;
const WORDS: u64 = (CTAS * THREADS) as u64;

/// `fill(src)` then `copy(src, dst)` on one memory system; the copy's statistics. Checks
/// the copy's output.
fn fill_then_copy(cfg: &GpuConfig) -> TimingStats {
    let module = warpsim_core::load_ptx(PTX).expect("the PTX loads");
    let mut gmem = GlobalMemory::new();
    let src = gmem.alloc(WORDS * 4).unwrap();
    let dst = gmem.alloc(WORDS * 4).unwrap();
    gmem.write(dst, &vec![0u8; (WORDS * 4) as usize]).unwrap();
    let mut mem = MemSystem::new(cfg, cfg.gpu.num_sms as usize);
    let opts = TimingOptions {
        perfect_icache: true,
        ..TimingOptions::new(PolicyKind::GTO, 20)
    };
    let mut last = None;
    for (name, a, b) in [("fill", src, 0u64), ("copy", src, dst)] {
        let k = module
            .functions
            .iter()
            .position(|f| f.name == name)
            .unwrap() as u32;
        let f = &module.functions[k as usize];
        let mut params = vec![0u8; f.param_bytes as usize];
        params[f.params[0].offset as usize..][..8].copy_from_slice(&a.to_le_bytes());
        params[f.params[1].offset as usize..][..8].copy_from_slice(&b.to_le_bytes());
        let launch = LaunchCtx::one_dim(&module, k, &params, CTAS, THREADS, cfg.gpu.num_sms);
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
    let mut out = vec![0u8; (WORDS * 4) as usize];
    gmem.read(dst, &mut out).unwrap();
    for (i, w) in out.chunks_exact(4).enumerate() {
        assert_eq!(
            u32::from_le_bytes(w.try_into().unwrap()),
            i as u32,
            "dst[{i}]"
        );
    }
    last.unwrap()
}

#[test]
fn an_input_queued_crossbar_slows_a_streaming_copy() {
    for preset in ["gtx480", "titanx-pascal"] {
        let cfg = GpuConfig::load(preset).unwrap();
        assert!(
            cfg.icnt.head_of_line,
            "{preset}: GPGPU-Sim's crossbar by default"
        );
        let input_queued = fill_then_copy(&cfg);
        let mut output = cfg.clone();
        output.icnt.head_of_line = false;
        let output_queued = fill_then_copy(&output);
        assert_eq!(
            (
                input_queued.memory.icnt_packets,
                input_queued.memory.icnt_flits
            ),
            (
                output_queued.memory.icnt_packets,
                output_queued.memory.icnt_flits
            ),
            "{preset}: the same packets either way"
        );
        // Packets wait behind a blocked head: the copy takes longer.
        assert!(
            input_queued.cycles > output_queued.cycles,
            "{preset}: {} vs {}",
            input_queued.cycles,
            output_queued.cycles
        );
    }
}

#[test]
fn an_injection_buffer_of_one_packet_slows_the_copy_further() {
    let cfg = GpuConfig::load("titanx-pascal").unwrap();
    let roomy = fill_then_copy(&cfg);
    let mut tight = cfg.clone();
    tight.icnt.input_buffer_flits = Some(1);
    let tight = fill_then_copy(&tight);
    assert!(
        tight.cycles > roomy.cycles,
        "{} vs {}",
        tight.cycles,
        roomy.cycles
    );
}

#[test]
fn per_sector_packets_carry_a_header_per_sector() {
    let cfg = GpuConfig::load("titanx-pascal").unwrap();
    assert!(
        cfg.icnt.request_per_sector && cfg.icnt.reply_per_sector,
        "SM6_TITANX's sector coalescer"
    );
    let per_sector = fill_then_copy(&cfg);
    let mut whole = cfg.clone();
    whole.icnt.request_per_sector = false;
    whole.icnt.reply_per_sector = false;
    let per_request = fill_then_copy(&whole);
    assert_eq!(
        per_sector.memory.icnt_packets, per_request.memory.icnt_packets,
        "packets are counted per request"
    );
    // Each of the copy's 128-byte lines: a read request of 4 one-flit packets instead of 1
    // flit, and a write acknowledgement of 4 instead of 1 (40-byte flits; the read's data and
    // the write's data take 4 flits either way: 4 x (8 + 32) B or 8 + 128 B).
    let lines = WORDS * 4 / 128;
    assert_eq!(
        per_sector.memory.icnt_flits - per_request.memory.icnt_flits,
        6 * lines + extra_param_flits(&per_sector, &per_request),
        "{:?} vs {:?}",
        per_sector.memory,
        per_request.memory
    );
}

/// The kernel's parameter loads (constant-cache misses of 64 bytes, two sectors) differ by one
/// request flit each: the same number of misses in both runs.
fn extra_param_flits(a: &TimingStats, b: &TimingStats) -> u64 {
    assert_eq!(a.memory.const_cache.misses, b.memory.const_cache.misses);
    a.memory.const_cache.misses
}

/// BookSim's router (`icnt.internal_speedup`, gtx480's 2.0) moves the same packets as the
/// crossbar (`internal_speedup = 0`), the copy still verifies, and its timing differs: on
/// gtx480 each line's reply is four one-flit sector packets, each asking for its SM's VC,
/// where the crossbar moved them as one four-flit packet; a faster router (more steps a cycle)
/// finishes the copy sooner.
#[test]
fn booksims_router_moves_the_same_packets_with_its_own_timing() {
    let cfg = GpuConfig::load("gtx480").unwrap();
    assert_eq!(cfg.icnt.internal_speedup, 2.0, "config_fermi_islip.icnt's");
    let router = fill_then_copy(&cfg);
    let mut routed = cfg.clone();
    routed.icnt.internal_speedup = 0.0;
    let crossbar = fill_then_copy(&routed);
    routed.icnt.internal_speedup = 4.0;
    let fast_router = fill_then_copy(&routed);
    assert_eq!(
        (crossbar.memory.icnt_packets, crossbar.memory.icnt_flits),
        (router.memory.icnt_packets, router.memory.icnt_flits),
        "the same packets either way"
    );
    assert_ne!(crossbar.cycles, router.cycles);
    assert!(
        fast_router.cycles < router.cycles,
        "{} vs {}",
        fast_router.cycles,
        router.cycles
    );
}
