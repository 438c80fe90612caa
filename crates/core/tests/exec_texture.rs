//! Texture and surface instructions through the Device API, on hand-computed values: linear
//! filtering with 8-bit weights under clamp and border addressing, a surface store outside
//! its surface, and handles that name nothing.
// `DeviceError` is the API's error type: the helper returns it as the API does.
#![allow(clippy::result_large_err)]

use warpsim_core::device::{Arg, DevPtr, Device, DeviceError, Dim3, LaunchConfig};
use warpsim_core::exec::texture::{AddressMode, ChannelKind, Format, Layout, SurfDesc, TexDesc};

/// `k(.u64 data)`: thread i reads f32 word i of `data` as a coordinate, samples texture
/// `handle` there with `tex.1d.v4.f32.f32` and writes the first component back to word i.
fn sampler(handle: u64) -> String {
    format!(
        ".version 9.5\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 data)\n{{\n\
         .reg .b32 %r<4>;\n.reg .b64 %rd<6>;\n.reg .f32 %f<6>;\n\
         ld.param.u64 %rd1, [data];\ncvta.to.global.u64 %rd1, %rd1;\nmov.u32 %r1, %tid.x;\n\
         mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.f32 %f1, [%rd3];\n\
         mov.u64 %rd4, {handle};\ntex.1d.v4.f32.f32 {{%f2, %f3, %f4, %f5}}, [%rd4, {{%f1}}];\n\
         st.global.f32 [%rd3], %f2;\nret;\n}}\n"
    )
}

fn launch(dev: &mut Device, src: &str, data: DevPtr, threads: u32) -> Result<(), DeviceError> {
    let m = dev.load_ptx(src)?;
    let k = dev.kernel(m, "k")?;
    let cfg = LaunchConfig {
        grid: Dim3::from(1),
        block: Dim3::from(threads),
        dynamic_shared: 0,
    };
    dev.launch(k, cfg, &[Arg::Ptr(data)]).map(|_| ())
}

fn texture(texels: DevPtr, mode: AddressMode) -> TexDesc {
    TexDesc {
        layout: Layout {
            base: texels.0,
            dims: 1,
            width: 4,
            height: 1,
            depth: 1,
            pitch: 16,
            slice: 16,
        },
        format: Format {
            kind: ChannelKind::Float,
            bits: [32, 0, 0, 0],
        },
        address: [mode; 3],
        linear: true,
        normalized_read: false,
        normalized_coords: false,
        border: [0.0; 4],
    }
}

#[test]
fn linear_filtering_with_eight_bit_weights() {
    let mut dev = Device::new();
    let texels = dev.alloc_slice(&[0.0f32, 10.0, 20.0, 40.0]).unwrap();
    let coords = [1.0f32, 2.6, 0.25, 3.9, 2.5];
    for (mode, want) in [
        // x = 1.0: halfway between texels 0 and 1. x = 2.6: texels 2 and 3, α = 26/256.
        // x = 0.25: texels -1 (clamped to 0) and 0. x = 3.9: texels 3 and 4, α = 102/256.
        (
            AddressMode::Clamp,
            [5.0f32, 20.0 + 20.0 * 26.0 / 256.0, 0.0, 40.0, 20.0],
        ),
        // With a border, texel 4 is 0: 40 · 154/256.
        (
            AddressMode::Border,
            [
                5.0,
                20.0 + 20.0 * 26.0 / 256.0,
                0.0,
                40.0 * 154.0 / 256.0,
                20.0,
            ],
        ),
    ] {
        let h = dev.textures_mut().create_texture(texture(texels, mode));
        let data = dev.alloc_slice(&coords).unwrap();
        launch(&mut dev, &sampler(h), data, coords.len() as u32).unwrap();
        assert_eq!(
            dev.read_vec::<f32>(data, coords.len()).unwrap(),
            want,
            "{mode:?}"
        );
    }
}

#[test]
fn extreme_coordinates_read_edge_texels() {
    // ±∞ and ±1e30 saturate to the first or last index; NaN reads texel 0 (weight 1).
    let mut dev = Device::new();
    let texels = dev.alloc_slice(&[0.0f32, 10.0, 20.0, 40.0]).unwrap();
    let h = dev
        .textures_mut()
        .create_texture(texture(texels, AddressMode::Clamp));
    let coords = [f32::INFINITY, -1e30, f32::NAN, 1e30, f32::NEG_INFINITY];
    let data = dev.alloc_slice(&coords).unwrap();
    launch(&mut dev, &sampler(h), data, coords.len() as u32).unwrap();
    assert_eq!(
        dev.read_vec::<f32>(data, coords.len()).unwrap(),
        [40.0, 0.0, 0.0, 40.0, 0.0]
    );
}

#[test]
fn a_handle_that_names_nothing_faults() {
    let mut dev = Device::new();
    let data = dev.alloc_slice(&[0.0f32; 4]).unwrap();
    match launch(&mut dev, &sampler(7), data, 4) {
        Err(
            e @ DeviceError::BadTextureHandle {
                surface: false,
                handle: 7,
                ..
            },
        ) => {
            assert!(
                e.to_string()
                    .starts_with("texture handle 7 is not a live texture object"),
                "{e}"
            )
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_surface_store_outside_traps_and_zero_drops_it() {
    let mut dev = Device::new();
    let cells = dev.alloc_zeroed::<u32>(8).unwrap();
    let layout = Layout {
        base: cells.0,
        dims: 2,
        width: 4,
        height: 2,
        depth: 1,
        pitch: 16,
        slice: 32,
    };
    let h = dev.textures_mut().create_surface(SurfDesc {
        layout,
        format: Format {
            kind: ChannelKind::Unsigned,
            bits: [32, 0, 0, 0],
        },
    });
    // Thread t stores t+1 at x = 4t bytes, row 1: threads 0..3 inside, 4 and 5 outside.
    let src = |clamp: &str| {
        format!(
            ".version 9.5\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 data)\n{{\n\
             .reg .b32 %r<6>;\n.reg .b64 %rd<2>;\nmov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\nadd.s32 %r3, %r1, 1;\n\
             mov.u32 %r4, 1;\nmov.u64 %rd1, {h};\nsust.b.2d.b32.{clamp} [%rd1, {{%r2, %r4}}], {{%r3}};\nret;\n}}\n"
        )
    };
    launch(&mut dev, &src("zero"), cells, 6).unwrap();
    assert_eq!(
        dev.read_vec::<u32>(cells, 8).unwrap(),
        [0, 0, 0, 0, 1, 2, 3, 4]
    );
    match launch(&mut dev, &src("trap"), cells, 6) {
        Err(
            e @ DeviceError::SurfaceOutOfBounds {
                coords: [16, 1, 0],
                size: 4,
                write: true,
                ..
            },
        ) => {
            assert!(
                e.to_string().starts_with(
                    "surface write outside surface 1 (4 bytes at x = 16 bytes, y = 1, z = 0)"
                ),
                "{e}"
            )
        }
        other => panic!("{other:?}"),
    }
}
