//! What carries from one launch to the next, as in GPGPU-Sim (`sm/kept.rs`): the SMs'
//! instruction and constant caches keep their lines (only the L1 D-cache is invalidated), each
//! module's code has its own instruction addresses, and the CTA dispatcher's round robin goes
//! on where the last launch stopped. Also the L1 latency queue (`sm/memory.rs`): an access
//! that looks the L1 D-cache up does so `l1d.latency` cycles after the LD/ST unit serves it, so
//! a miss leaves for L2 that much later than a load that skips L1.

use warpsim_core::config::GpuConfig;
use warpsim_core::device::{Arg, Device, DeviceOptions, LaunchConfig};
use warpsim_timing::engine::{device_options_for, TimingEngine};
use warpsim_timing::{PolicyKind, TimingStats};

/// The PTX header both test modules start with.
macro_rules! header {
    () => {
        ".version 7.5\n.target sm_75\n.address_size 64\n"
    };
}

/// `p[ctaid] += 1`, one thread a CTA reading and writing its own word.
macro_rules! bump {
    () => {
        r#"
.visible .entry bump(.param .u64 p)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [p];
    cvta.to.global.u64 %rd1, %rd1;
    mov.u32 %r1, %ctaid.x;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    ld.global.u32 %r2, [%rd3];
    add.s32 %r3, %r2, 1;
    st.global.u32 [%rd3], %r3;
    ret;
}
"#
    };
}

const PTX: &str = concat!(
    header!(),
    bump!(),
    r#"
// One thread loads p[0] with `ld.global` (looked up in L1) or `ld.global.cg` (L2 only) and
// stores what it read plus one to p[1]: the load's round trip is on the launch's path.
.visible .entry load_ca(.param .u64 p)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    ld.global.u32 %r1, [%rd1];
    add.s32 %r2, %r1, 1;
    st.global.u32 [%rd1+4], %r2;
    ret;
}
.visible .entry load_cg(.param .u64 p)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    ld.global.cg.u32 %r1, [%rd1];
    add.s32 %r2, %r1, 1;
    st.global.u32 [%rd1+4], %r2;
    ret;
}
"#
);

/// The same `bump` kernel in a second module.
const OTHER: &str = concat!(header!(), bump!());

fn device(preset: &str) -> (Device, GpuConfig) {
    let cfg = GpuConfig::load(preset).unwrap();
    let mut dev = Device::with_options(device_options_for(&cfg, DeviceOptions::default()));
    dev.set_engine(Box::new(TimingEngine::new(cfg.clone(), PolicyKind::GTO)));
    (dev, cfg)
}

fn records(dev: &Device) -> Vec<TimingStats> {
    dev.engine_as::<TimingEngine>().unwrap().records().to_vec()
}

fn shape(ctas: u32, threads: u32) -> LaunchConfig {
    LaunchConfig {
        grid: ctas.into(),
        block: threads.into(),
        dynamic_shared: 0,
    }
}

#[test]
fn a_kernel_launched_again_finds_its_code_and_parameters() {
    let (mut dev, cfg) = device("gtx480");
    let sms = cfg.gpu.num_sms;
    let m = dev.load_ptx(PTX).unwrap();
    let k = dev.kernel(m, "bump").unwrap();
    let p = dev.alloc_zeroed::<u32>(sms as usize).unwrap();
    for _ in 0..2 {
        dev.launch(k, shape(sms, 32), &[Arg::Ptr(p)]).unwrap();
    }
    assert_eq!(
        dev.read_vec::<u32>(p, sms as usize).unwrap(),
        vec![2; sms as usize]
    );
    let r = records(&dev);
    // One CTA on every SM each time: every SM fetched the code and read the parameter once.
    assert!(r[0].icache.misses >= sms as u64, "{}", r[0].icache.misses);
    assert_eq!(r[0].memory.const_cache.misses, sms as u64);
    assert_eq!(
        (r[1].icache.misses, r[1].memory.const_cache.misses),
        (0, 0),
        "the second launch hits in both"
    );
    // The L1 D-cache starts cold again: the loads miss in both launches.
    assert_eq!(r[0].memory.l1d_loads.misses, r[1].memory.l1d_loads.misses);
    assert!(
        r[1].cycles < r[0].cycles,
        "{} vs {}",
        r[1].cycles,
        r[0].cycles
    );
}

#[test]
fn another_module_has_code_of_its_own() {
    let (mut dev, cfg) = device("gtx480");
    let sms = cfg.gpu.num_sms;
    let a = dev.load_ptx(PTX).unwrap();
    let b = dev.load_ptx(OTHER).unwrap();
    let p = dev.alloc_zeroed::<u32>(sms as usize).unwrap();
    for m in [a, b] {
        let k = dev.kernel(m, "bump").unwrap();
        dev.launch(k, shape(sms, 32), &[Arg::Ptr(p)]).unwrap();
    }
    let r = records(&dev);
    // Same instructions, other addresses: module b's fetches miss as module a's did; its
    // parameter sits where a's did and hits.
    assert_eq!(r[1].icache.misses, r[0].icache.misses);
    assert_eq!(r[1].memory.const_cache.misses, 0);
}

#[test]
fn the_dispatcher_goes_on_where_the_last_launch_stopped() {
    let (mut dev, cfg) = device("gtx480");
    let m = dev.load_ptx(PTX).unwrap();
    let k = dev.kernel(m, "bump").unwrap();
    let p = dev.alloc_zeroed::<u32>(4).unwrap();
    dev.launch(k, shape(3, 32), &[Arg::Ptr(p)]).unwrap();
    for _ in 0..cfg.gpu.num_sms {
        dev.launch(k, shape(1, 32), &[Arg::Ptr(p)]).unwrap();
    }
    let r = records(&dev);
    let mut first: Vec<u32> = r[0].ctas.iter().map(|c| c.sm).collect();
    first.sort();
    assert_eq!(first, [0, 1, 2]);
    // The one-CTA launches visit SMs 3, 4, … and wrap.
    let sms: Vec<u32> = r[1..].iter().map(|r| r.ctas[0].sm).collect();
    let want: Vec<u32> = (0..cfg.gpu.num_sms)
        .map(|i| (3 + i) % cfg.gpu.num_sms)
        .collect();
    assert_eq!(sms, want);
    // Each lands on an SM that has not run the kernel: its code and parameter miss, until
    // the round robin is back on SM 0-2.
    assert!(r[1].icache.misses > 0 && r[1].memory.const_cache.misses == 1);
    let back = &r[cfg.gpu.num_sms as usize - 2]; // on SM 0
    assert_eq!((back.ctas[0].sm, back.icache.misses), (0, 0));
}

#[test]
fn an_l1_miss_leaves_for_l2_after_the_l1_latency() {
    // Each kernel's last launch, warm (see below), with the L1 latency as the preset has it
    // and 10 cycles longer.
    let run = |extra: u32, name: &str| {
        let mut cfg = GpuConfig::load("gtx480").unwrap();
        cfg.l1d.latency += extra;
        let mut dev = Device::with_options(device_options_for(&cfg, DeviceOptions::default()));
        dev.set_engine(Box::new(TimingEngine::new(cfg.clone(), PolicyKind::GTO)));
        let m = dev.load_ptx(PTX).unwrap();
        let k = dev.kernel(m, name).unwrap();
        let p = dev.alloc_zeroed::<u32>(2).unwrap();
        // The dispatcher's round robin visits every SM once in num_sms launches: the last of
        // num_sms + 1 runs where this kernel ran before (code and parameter cached, the line
        // in L2; the L1 D-cache is cold in every launch).
        for _ in 0..=cfg.gpu.num_sms {
            dev.launch(k, shape(1, 1), &[Arg::Ptr(p)]).unwrap();
        }
        let r = records(&dev).pop().unwrap();
        assert_eq!(r.icache.misses, 0);
        r.cycles
    };
    // `ld.global.cg` skips L1; only the store (write-through, looked up in L1) waits.
    assert_eq!(run(10, "load_cg") - run(0, "load_cg"), 10);
    // `ld.global` misses L1 after the lookup, and its store waits again.
    assert_eq!(run(10, "load_ca") - run(0, "load_ca"), 20);
}
