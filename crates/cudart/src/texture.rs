//! Texture and surface objects: `cudaCreateChannelDesc`, `cudaCreateTextureObject` over
//! linear memory, pitched 2-D memory and CUDA arrays, `cudaCreateSurfaceObject` over arrays,
//! their destruction and descriptor queries. The Device keeps the descriptors kernels sample
//! (`warpsim_core::exec::texture`); handles are its small positive integers.
//!
//! Rejected with a message naming the feature: mipmapped arrays, resource views, sRGB,
//! anisotropic filtering, linear filtering or a non-zero border colour on a texture that
//! returns integers, and normalized reads of 32-bit channels (CUDA's own errors for the last
//! ones: `cudaErrorInvalidFilterSetting`, `cudaErrorInvalidNormSetting`).
//!
//! Accepted as CUDA accepts them (measured on an H200, CUDA 13.0 driver, 2026-11-28): a linear
//! resource whose `sizeInBytes` runs past the end of its allocation (its start must lie in
//! one; a fetch beyond the allocation is then the memory checker's `cudaErrorIllegalAddress`,
//! where a GPU reads whatever lies there); a surface over an array allocated without
//! `cudaArraySurfaceLoadStore` (its loads and stores work as if it had been); destroying a
//! texture or surface object that is not live (a no-op, `cudaSuccess`).
//!
//! A texture over linear memory (`tex1Dfetch`) has no addressing modes: an index outside the
//! texture reads zero whatever the descriptor's address mode and border colour (an H200
//! returned something else than the clamped element; the border mode's zero matched).

use crate::arrays::{array, format_of};
use crate::runtime::{api, diag, put, Runtime};
use crate::tex_types::*;
use crate::types::*;
use std::ffi::c_void;
use warpsim_core::device::DevPtr;
use warpsim_core::exec::texture::{AddressMode, ChannelKind, Format, Layout, SurfDesc, TexDesc};

unsafe extern "C" fn cudaCreateChannelDesc(
    x: i32,
    y: i32,
    z: i32,
    w: i32,
    f: i32,
) -> cudaChannelFormatDesc {
    cudaChannelFormatDesc { x, y, z, w, f }
}

fn fail(what: &str, msg: &str, e: cudaError_t) -> cudaError_t {
    diag(&format!("{what}: {msg}"));
    e
}

/// Checks that `p` lies in a live device allocation (CUDA does not check that the whole range
/// does: a linear resource may run past its allocation's end).
fn starts_inside(rt: &Runtime, what: &str, p: u64) -> Result<(), cudaError_t> {
    match rt.device.allocation_of(DevPtr(p)) {
        Some(_) => Ok(()),
        _ => Err(fail(
            what,
            &format!("{p:#x} is not inside a device allocation"),
            cudaErrorInvalidValue,
        )),
    }
}

/// Checks that `[p, p + bytes)` lies in one live device allocation.
fn inside(rt: &Runtime, what: &str, p: u64, bytes: u64) -> Result<(), cudaError_t> {
    match rt.device.allocation_of(DevPtr(p)) {
        Some((base, size)) if p.checked_add(bytes).is_some_and(|end| end <= base.0 + size) => {
            Ok(())
        }
        _ => Err(fail(
            what,
            &format!("{bytes} bytes at {p:#x} are not inside one device allocation"),
            cudaErrorInvalidValue,
        )),
    }
}

fn memory_format(what: &str, d: &cudaChannelFormatDesc) -> Result<Format, cudaError_t> {
    format_of(d).map_err(|m| fail(what, &m, cudaErrorInvalidChannelDescriptor))
}

/// The memory a resource descriptor names: its layout and element format.
unsafe fn resource(
    rt: &Runtime,
    what: &str,
    r: &cudaResourceDesc,
) -> Result<(Layout, Format), cudaError_t> {
    if r.flags != 0 {
        return Err(fail(
            what,
            "cudaResourceDesc::flags must be 0",
            cudaErrorInvalidValue,
        ));
    }
    let m = r.memory();
    match r.resType {
        cudaResourceTypeArray => {
            let a = array(rt, what, r.array())?;
            Ok((a.layout, a.format))
        }
        cudaResourceTypeMipmappedArray => Err(fail(
            what,
            "mipmapped arrays are not supported",
            cudaErrorNotSupported,
        )),
        cudaResourceTypeLinear => {
            let f = memory_format(what, &m.desc)?;
            let eb = f.bytes() as u64;
            let bytes = m.size_or_width as u64;
            let p = m.dev_ptr as u64;
            if bytes < eb || p.checked_rem(eb) != Some(0) {
                return Err(fail(
                    what,
                    &format!("linear resource of {bytes} bytes at {p:#x} for {eb}-byte elements"),
                    cudaErrorInvalidValue,
                ));
            }
            starts_inside(rt, what, p)?;
            let layout = Layout {
                base: p,
                dims: 1,
                width: bytes / eb,
                height: 1,
                depth: 1,
                pitch: bytes,
                slice: bytes,
            };
            Ok((layout, f))
        }
        cudaResourceTypePitch2D => {
            let f = memory_format(what, &m.desc)?;
            let eb = f.bytes() as u64;
            let (w, h, pitch, p) = (
                m.size_or_width as u64,
                m.height as u64,
                m.pitch as u64,
                m.dev_ptr as u64,
            );
            if w == 0 || h == 0 || pitch < w.saturating_mul(eb) || p.checked_rem(eb) != Some(0) {
                return Err(fail(
                    what,
                    &format!("pitched resource {w}×{h} elements, pitch {pitch} bytes at {p:#x}"),
                    cudaErrorInvalidValue,
                ));
            }
            inside(
                rt,
                what,
                p,
                (h - 1).saturating_mul(pitch).saturating_add(w * eb),
            )?;
            let layout = Layout {
                base: p,
                dims: 2,
                width: w,
                height: h,
                depth: 1,
                pitch,
                slice: pitch * h,
            };
            Ok((layout, f))
        }
        t => Err(fail(
            what,
            &format!("resource type {t} is not a cudaResourceType"),
            cudaErrorInvalidValue,
        )),
    }
}

fn texture_desc(
    what: &str,
    layout: Layout,
    format: Format,
    t: &cudaTextureDesc,
) -> Result<TexDesc, cudaError_t> {
    if t.sRGB != 0 {
        return Err(fail(
            what,
            "sRGB textures are not supported",
            cudaErrorNotSupported,
        ));
    }
    if t.maxAnisotropy > 1 {
        return Err(fail(
            what,
            "anisotropic filtering (maxAnisotropy > 1) is not supported",
            cudaErrorNotSupported,
        ));
    }
    let mut address = [AddressMode::Clamp; 3];
    for (m, &v) in address.iter_mut().zip(&t.addressMode) {
        *m = match v {
            0 => AddressMode::Wrap,
            1 => AddressMode::Clamp,
            2 => AddressMode::Mirror,
            3 => AddressMode::Border,
            _ => {
                return Err(fail(
                    what,
                    &format!("address mode {v} is not a cudaTextureAddressMode"),
                    cudaErrorInvalidValue,
                ))
            }
        };
    }
    if !matches!(t.filterMode, 0 | 1) || !matches!(t.readMode, 0 | 1) {
        return Err(fail(
            what,
            "filterMode and readMode must be 0 or 1",
            cudaErrorInvalidValue,
        ));
    }
    let normalized_read =
        t.readMode == cudaReadModeNormalizedFloat && format.kind != ChannelKind::Float;
    if normalized_read && format.bits[0] == 32 {
        return Err(fail(
            what,
            "cudaReadModeNormalizedFloat needs 8- or 16-bit integer channels",
            cudaErrorInvalidNormSetting,
        ));
    }
    let d = TexDesc {
        layout,
        format,
        address,
        linear: t.filterMode == cudaFilterModeLinear,
        normalized_read,
        normalized_coords: t.normalizedCoords != 0,
        border: t.borderColor,
    };
    if !d.returns_float() {
        if d.linear {
            return Err(fail(
                what,
                "linear filtering needs a texture that returns floats",
                cudaErrorInvalidFilterSetting,
            ));
        }
        if d.border.iter().any(|&b| b != 0.0) {
            return Err(fail(
                what,
                "a non-zero border colour on a texture that returns integers is not supported",
                cudaErrorNotSupported,
            ));
        }
    }
    Ok(d)
}

unsafe extern "C" fn cudaCreateTextureObject(
    out: *mut cudaTextureObject_t,
    res: *const cudaResourceDesc,
    tex: *const cudaTextureDesc,
    view: *const c_void,
) -> cudaError_t {
    let what = "cudaCreateTextureObject";
    api(what, |rt| {
        if out.is_null() || res.is_null() || tex.is_null() {
            return Err(cudaErrorInvalidValue);
        }
        if !view.is_null() {
            return Err(fail(
                what,
                "resource views are not supported",
                cudaErrorNotSupported,
            ));
        }
        let (r, t) = (res.read_unaligned(), tex.read_unaligned());
        let (layout, format) = resource(rt, what, &r)?;
        let mut d = texture_desc(what, layout, format, &t)?;
        if r.resType == cudaResourceTypeLinear {
            // tex1Dfetch: out-of-range indices read zero (see the module docs).
            d.address = [AddressMode::Border; 3];
            d.border = [0.0; 4];
        }
        let h = rt.device.textures_mut().create_texture(d);
        rt.objects.textures.insert(h, (r, t));
        put(out, h)
    })
}

unsafe extern "C" fn cudaDestroyTextureObject(h: cudaTextureObject_t) -> cudaError_t {
    api("cudaDestroyTextureObject", |rt| {
        if h == 0 {
            return Ok(());
        }
        // Not live (destroyed already): a no-op, as in CUDA (see the module docs).
        if rt.device.textures_mut().destroy_texture(h) {
            rt.objects.textures.remove(&h);
        }
        Ok(())
    })
}

unsafe extern "C" fn cudaGetTextureObjectResourceDesc(
    out: *mut cudaResourceDesc,
    h: cudaTextureObject_t,
) -> cudaError_t {
    api("cudaGetTextureObjectResourceDesc", |rt| {
        let Some(&(r, _)) = rt.objects.textures.get(&h) else {
            return Err(cudaErrorInvalidValue);
        };
        put(out, r)
    })
}

unsafe extern "C" fn cudaGetTextureObjectTextureDesc(
    out: *mut cudaTextureDesc,
    h: cudaTextureObject_t,
) -> cudaError_t {
    api("cudaGetTextureObjectTextureDesc", |rt| {
        let Some(&(_, t)) = rt.objects.textures.get(&h) else {
            return Err(cudaErrorInvalidValue);
        };
        put(out, t)
    })
}

unsafe extern "C" fn cudaCreateSurfaceObject(
    out: *mut cudaSurfaceObject_t,
    res: *const cudaResourceDesc,
) -> cudaError_t {
    let what = "cudaCreateSurfaceObject";
    api(what, |rt| {
        if out.is_null() || res.is_null() {
            return Err(cudaErrorInvalidValue);
        }
        let r = res.read_unaligned();
        if r.resType != cudaResourceTypeArray {
            return Err(fail(
                what,
                "a surface object needs a CUDA array resource",
                cudaErrorInvalidValue,
            ));
        }
        // CUDA accepts an array without cudaArraySurfaceLoadStore (see the module docs).
        let (layout, format) = resource(rt, what, &r)?;
        let h = rt
            .device
            .textures_mut()
            .create_surface(SurfDesc { layout, format });
        rt.objects.surfaces.insert(h, r);
        put(out, h)
    })
}

unsafe extern "C" fn cudaDestroySurfaceObject(h: cudaSurfaceObject_t) -> cudaError_t {
    api("cudaDestroySurfaceObject", |rt| {
        if h == 0 {
            return Ok(());
        }
        // Not live: a no-op, as for texture objects (unmeasured for surfaces).
        if rt.device.textures_mut().destroy_surface(h) {
            rt.objects.surfaces.remove(&h);
        }
        Ok(())
    })
}

unsafe extern "C" fn cudaGetSurfaceObjectResourceDesc(
    out: *mut cudaResourceDesc,
    h: cudaSurfaceObject_t,
) -> cudaError_t {
    api("cudaGetSurfaceObjectResourceDesc", |rt| {
        let Some(&r) = rt.objects.surfaces.get(&h) else {
            return Err(cudaErrorInvalidValue);
        };
        put(out, r)
    })
}

export!(
    cudaCreateChannelDesc,
    cudaCreateTextureObject,
    cudaDestroyTextureObject,
    cudaGetTextureObjectResourceDesc,
    cudaGetTextureObjectTextureDesc,
    cudaCreateSurfaceObject,
    cudaDestroySurfaceObject,
    cudaGetSurfaceObjectResourceDesc,
);

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(f: i32, bits: i32, n: usize) -> cudaChannelFormatDesc {
        let b = |i: usize| if i < n { bits } else { 0 };
        cudaChannelFormatDesc {
            x: b(0),
            y: b(1),
            z: b(2),
            w: b(3),
            f,
        }
    }

    fn layout() -> Layout {
        Layout {
            base: 0,
            dims: 1,
            width: 4,
            height: 1,
            depth: 1,
            pitch: 16,
            slice: 16,
        }
    }

    #[test]
    fn texture_descriptors_reject_what_is_not_supported() {
        let u8x1 = format_of(&desc(cudaChannelFormatKindUnsigned, 8, 1)).unwrap();
        let i32x1 = format_of(&desc(cudaChannelFormatKindSigned, 32, 1)).unwrap();
        let ok = cudaTextureDesc {
            addressMode: [3, 1, 0],
            readMode: 1,
            filterMode: 1,
            ..Default::default()
        };
        let d = texture_desc("t", layout(), u8x1, &ok).unwrap();
        assert!(d.normalized_read && d.linear && d.address[0] == AddressMode::Border);
        let e = |t: cudaTextureDesc, f| texture_desc("t", layout(), f, &t).unwrap_err();
        assert_eq!(
            e(
                cudaTextureDesc {
                    readMode: 1,
                    ..Default::default()
                },
                i32x1
            ),
            cudaErrorInvalidNormSetting
        );
        assert_eq!(
            e(
                cudaTextureDesc {
                    filterMode: 1,
                    ..Default::default()
                },
                i32x1
            ),
            cudaErrorInvalidFilterSetting
        );
        assert_eq!(
            e(
                cudaTextureDesc {
                    sRGB: 1,
                    ..Default::default()
                },
                u8x1
            ),
            cudaErrorNotSupported
        );
        assert_eq!(
            e(
                cudaTextureDesc {
                    addressMode: [4, 0, 0],
                    ..Default::default()
                },
                u8x1
            ),
            cudaErrorInvalidValue
        );
        assert_eq!(
            e(
                cudaTextureDesc {
                    borderColor: [1.0, 0.0, 0.0, 0.0],
                    ..Default::default()
                },
                i32x1
            ),
            cudaErrorNotSupported
        );
    }

    #[test]
    fn channel_descriptors() {
        assert!(format_of(&desc(cudaChannelFormatKindFloat, 32, 4)).is_ok());
        assert!(format_of(&desc(cudaChannelFormatKindFloat, 16, 2)).is_ok());
        assert!(
            format_of(&desc(3, 8, 1)).is_err(),
            "cudaChannelFormatKindNone"
        );
        assert!(format_of(&desc(cudaChannelFormatKindSigned, 12, 1)).is_err());
        assert!(format_of(&desc(cudaChannelFormatKindSigned, 8, 3)).is_err());
    }
}
