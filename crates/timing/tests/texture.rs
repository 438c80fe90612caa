//! Texture fetches in timing mode go through the per-SM texture cache (`[tex]`): the first
//! fetch of a line misses and reads L2, a later fetch of the same line hits; results equal
//! functional mode's. Surface loads time as global loads (L1 D-cache counters).

use warpsim_core::exec::context::LaunchCtx;
use warpsim_core::exec::memory::GlobalMemory;
use warpsim_core::exec::texture::{AddressMode, ChannelKind, Format, Layout, TexDesc};
use warpsim_timing::{run_timed, PolicyKind, TimingOptions};

/// `k(.u64 out)`: thread t fetches texel t of texture 1, then texel t + (first value − 1000·…)
/// that depends on the first (so it issues after the line is back), and stores both.
const SRC: &str = ".version 9.5\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n\
    .reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n\
    ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd1, %rd1;\nmov.u32 %r1, %tid.x;\nmov.u64 %rd2, 1;\n\
    tex.1d.v4.s32.s32 {%r2, %r3, %r4, %r5}, [%rd2, {%r1}];\n\
    sub.s32 %r6, %r2, 1000;\nsub.s32 %r7, 31, %r6;\n\
    tex.1d.v4.s32.s32 {%r8, %r9, %r10, %r11}, [%rd2, {%r7}];\n\
    mul.wide.u32 %rd3, %r1, 8;\nadd.s64 %rd4, %rd1, %rd3;\nst.global.v2.u32 [%rd4], {%r2, %r8};\nret;\n}\n";

#[test]
fn texture_fetches_hit_and_miss_in_the_texture_cache() {
    let module = warpsim_core::load_ptx(SRC).unwrap();
    let cfg = warpsim_core::config::GpuConfig::load("gtx480").unwrap();
    let f = &module.functions[0];
    let mut gmem = GlobalMemory::new();
    let texels = gmem.alloc(64 * 4).unwrap();
    let values: Vec<u8> = (0..64u32).flat_map(|i| (1000 + i).to_le_bytes()).collect();
    gmem.write(texels, &values).unwrap();
    let h = gmem.textures.create_texture(TexDesc {
        layout: Layout {
            base: texels,
            dims: 1,
            width: 64,
            height: 1,
            depth: 1,
            pitch: 256,
            slice: 256,
        },
        format: Format {
            kind: ChannelKind::Signed,
            bits: [32, 0, 0, 0],
        },
        address: [AddressMode::Border; 3],
        linear: false,
        normalized_read: false,
        normalized_coords: false,
        border: [0.0; 4],
    });
    assert_eq!(h, 1);
    let out = gmem.alloc(32 * 8).unwrap();
    let mut params = vec![0u8; f.param_bytes as usize];
    params[..8].copy_from_slice(&out.to_le_bytes());
    let k = LaunchCtx::one_dim(&module, 0, &params, 1, 32, 15);
    let opts = TimingOptions::new(PolicyKind::from_name("gto").unwrap(), 16);
    let stats = run_timed(
        &k,
        &mut gmem,
        &mut String::new(),
        f.shared_bytes,
        &cfg,
        &opts,
    )
    .unwrap();
    let mut got = vec![0u8; 32 * 8];
    gmem.read(out, &mut got).unwrap();
    let got: Vec<u32> = got
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    for t in 0..32u32 {
        assert_eq!(
            (got[2 * t as usize], got[2 * t as usize + 1]),
            (1000 + t, 1000 + 31 - t)
        );
    }
    // One 128-byte line holds texels 0..31: one miss, then one hit.
    let tex = stats.memory.tex;
    assert_eq!((tex.misses, tex.hits, tex.merged), (1, 1, 0), "{tex:?}");
    assert_eq!(
        stats.memory.l1d_loads.hits + stats.memory.l1d_loads.misses,
        0,
        "no fetch went through L1"
    );
}
