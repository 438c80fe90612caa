//! Occupancy has one definition (issue 41): the CTAs per SM the Device answers (what the CUDA
//! runtime's `cudaOccupancyMaxActiveBlocksPerMultiprocessor` returns) are the CTA slots the
//! timing model's dispatcher gives the launch, on every preset; a cooperative grid of exactly
//! that many CTAs per SM is co-resident (a grid-wide spin barrier completes in timing mode), one
//! CTA more is `CooperativeLaunchTooLarge` before it runs, and a CTA that does not fit is
//! refused with the same error in functional and timing mode.

use warpsim_core::config::{GpuConfig, PRESETS};
use warpsim_core::device::{Arg, Device, DeviceError, DeviceOptions, LaunchConfig};
use warpsim_core::occupancy::{resident_ctas, CtaDemand, Limiter, SmResources};
use warpsim_timing::engine::device_options_for;
use warpsim_timing::{PolicyKind, TimingEngine};

/// A grid-wide barrier by hand: thread 0 of every CTA adds one to `counter` and spins until
/// it reaches `n`, the rest of the CTA waits at `bar.sync`. It completes only if all `n` CTAs
/// are resident at once. The dynamic shared array is only there to be sized by the launch.
///
/// Spinning warps can starve the warps yet to arrive, a livelock of the spin and not of
/// residency, so the devices below use LRR and the spin backs off between loads: under GTO the
/// older spinning warps of a scheduler always have an instruction ready and the youngest never
/// issues its arrival; and without the back-off, 24 or more spinning warps per SM keep
/// titanx-pascal's one LD/ST unit busy every cycle, which under the fixed scheduler order the
/// fourth sub-core's warps never get.
const GSYNC: &str = r#"
.version 7.5
.target sm_75
.address_size 64
.extern .shared .align 16 .b8 dyn[];
.visible .entry gsync(.param .u64 counter, .param .u32 n)
{
    .reg .pred %p<3>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [counter];
    ld.param.u32 %r1, [n];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r2, %tid.x;
    setp.ne.u32 %p1, %r2, 0;
    @%p1 bra WAIT;
    atom.global.add.u32 %r3, [%rd2], 1;
SPIN:
    ld.volatile.global.u32 %r4, [%rd2];
    setp.ge.u32 %p2, %r4, %r1;
    @%p2 bra WAIT;
    mov.u32 %r5, 0;
BACKOFF:
    add.u32 %r5, %r5, 1;
    setp.lt.u32 %p2, %r5, 64;
    @%p2 bra BACKOFF;
    bra.uni SPIN;
WAIT:
    bar.sync 0;
    ret;
}
"#;

fn timing_device(cfg: &GpuConfig, options: DeviceOptions) -> Device {
    let mut engine = TimingEngine::new(cfg.clone(), PolicyKind::LRR);
    engine.set_max_cycles(20_000_000);
    let mut dev = Device::with_options(options);
    dev.set_engine(Box::new(engine));
    dev
}

fn presets() -> Vec<GpuConfig> {
    PRESETS
        .iter()
        .map(|(name, _)| GpuConfig::load(name).unwrap())
        .collect()
}

fn launch(grid: u64, threads: u32, shared: u32) -> LaunchConfig {
    LaunchConfig {
        grid: (grid as u32).into(),
        block: threads.into(),
        dynamic_shared: shared,
    }
}

#[test]
fn the_runtime_answer_is_the_dispatchers_residency_on_every_preset() {
    let mut cases = 0;
    for cfg in presets() {
        let mut dev = timing_device(&cfg, device_options_for(&cfg, DeviceOptions::default()));
        let m = dev.load_ptx(GSYNC).unwrap();
        let k = dev.kernel(m, "gsync").unwrap();
        let sms = cfg.gpu.num_sms as u64;
        let mut limiters = Vec::new();
        for threads in [32, 100, 256, 544, 1024] {
            // 96: rtx2060's 64 K registers limit its 1024 threads only past 64 registers a thread.
            for registers in [0, 8, 30, 44, 64, 96] {
                for shared in [0, 3000, 20 * 1024, 40 * 1024] {
                    dev.set_kernel_registers("gsync", registers);
                    let (per_sm, limiter) = dev.occupancy(k, threads, shared).unwrap();
                    let demand = CtaDemand {
                        threads,
                        registers,
                        shared_bytes: shared,
                    };
                    assert_eq!(
                        (per_sm, limiter),
                        resident_ctas(&SmResources::of(&cfg.sm), &demand)
                    );
                    let what = format!(
                        "{}: {threads} threads, {registers} registers, {shared} B",
                        cfg.name
                    );
                    if per_sm == 0 {
                        let e = dev
                            .launch(
                                k,
                                launch(1, threads, shared),
                                &[Arg::Ptr(Default::default()), Arg::U32(1)],
                            )
                            .unwrap_err();
                        assert!(
                            matches!(e, DeviceError::InvalidLaunch { .. })
                                && e.to_string().contains("does not fit on an SM"),
                            "{what}: {e}"
                        );
                        continue;
                    }
                    limiters.push(limiter);
                    // Exactly the co-resident CTAs: the barrier completes, so the dispatcher
                    // held them all at once, and it reports the same slot count.
                    let fit = per_sm as u64 * sms;
                    let counter = dev.alloc_zeroed::<u32>(1).unwrap();
                    let args = [Arg::Ptr(counter), Arg::U32(fit as u32)];
                    dev.launch_cooperative(k, launch(fit, threads, shared), &args)
                        .unwrap_or_else(|e| panic!("{what}: {fit} CTAs: {e}"));
                    let stats = dev
                        .engine_as_mut::<TimingEngine>()
                        .unwrap()
                        .take_records()
                        .pop()
                        .unwrap();
                    assert_eq!(stats.ctas_per_sm, per_sm, "{what}");
                    assert_eq!(
                        dev.read_vec::<u32>(counter, 1).unwrap(),
                        [fit as u32],
                        "{what}"
                    );
                    // One CTA more cannot all be resident: refused before it runs.
                    let e = dev
                        .launch_cooperative(k, launch(fit + 1, threads, shared), &args)
                        .unwrap_err();
                    assert_eq!(
                        e,
                        DeviceError::CooperativeLaunchTooLarge {
                            kernel: "gsync".into(),
                            ctas: fit + 1,
                            per_sm,
                            sms: sms as u32,
                            limiter: limiter.describe()
                        },
                        "{what}"
                    );
                    cases += 1;
                }
            }
        }
        // The grid exercises every limit but the CTA slots on each preset.
        for l in [Limiter::Warps, Limiter::Registers, Limiter::SharedMemory] {
            assert!(
                limiters.contains(&l),
                "{}: no case limited by {l:?}",
                cfg.name
            );
        }
    }
    assert!(cases > 100, "{cases}");
}

/// The issue's case: 544-thread CTAs with 30 registers are one per GTX480 SM (CUDA's rule said
/// two, and a cooperative grid of 30 CTAs hung); `matrixMul`'s 1024 threads × 44 registers do
/// not fit, in functional mode as in timing mode, with the same error.
#[test]
fn both_modes_refuse_alike() {
    let cfg = GpuConfig::load("gtx480").unwrap();
    let options = device_options_for(&cfg, DeviceOptions::default());
    let mut timing = timing_device(&cfg, options);
    let mut functional = Device::with_options(options);
    let mut errors = Vec::new();
    for dev in [&mut timing, &mut functional] {
        let m = dev.load_ptx(GSYNC).unwrap();
        let k = dev.kernel(m, "gsync").unwrap();
        dev.set_kernel_registers("gsync", 30);
        assert_eq!(dev.occupancy(k, 544, 0), Some((1, Limiter::Registers)));
        let counter = dev.alloc_zeroed::<u32>(1).unwrap();
        let args = [Arg::Ptr(counter), Arg::U32(15)];
        dev.launch_cooperative(k, launch(15, 544, 0), &args)
            .unwrap();
        let too_large = dev
            .launch_cooperative(k, launch(30, 544, 0), &args)
            .unwrap_err();
        dev.set_kernel_registers("gsync", 44);
        let misfit = dev.launch(k, launch(1, 1024, 0), &args).unwrap_err();
        errors.push((too_large.to_string(), misfit.to_string()));
    }
    assert_eq!(errors[0], errors[1]);
    assert_eq!(
        errors[0].0,
        "cooperative launch of `gsync` too large: 30 CTAs, but at most 15 can be resident at once (1 per SM, limited by registers, × 15 SMs); \
         grid.sync() would wait forever for the CTAs left waiting for a slot"
    );
    assert_eq!(
        errors[0].1,
        "invalid launch of `gsync`: one CTA (1024 threads, 44 registers/thread, 0 B shared) does not fit on an SM: it needs 45056 registers \
         (1024 threads × 44 registers/thread rounded up to a multiple of 4), an SM has 32768"
    );
}

/// A timing engine behind a device that models no GPU (no occupancy checks of its own) still
/// refuses a cooperative grid it cannot hold at once, instead of spinning until the cycle limit.
#[test]
fn the_dispatcher_refuses_a_cooperative_grid_it_cannot_hold() {
    let cfg = GpuConfig::load("gtx480").unwrap();
    let mut dev = timing_device(&cfg, DeviceOptions::default());
    let m = dev.load_ptx(GSYNC).unwrap();
    let k = dev.kernel(m, "gsync").unwrap();
    dev.set_kernel_registers("gsync", 30);
    assert_eq!(dev.occupancy(k, 544, 0), None);
    let counter = dev.alloc_zeroed::<u32>(1).unwrap();
    let e = dev
        .launch_cooperative(k, launch(30, 544, 0), &[Arg::Ptr(counter), Arg::U32(30)])
        .unwrap_err();
    assert!(
        matches!(
            e,
            DeviceError::CooperativeLaunchTooLarge {
                ctas: 30,
                per_sm: 1,
                sms: 15,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(dev.read_vec::<u32>(counter, 1).unwrap(), [0], "no CTA ran");
}
