//! C types of CUDA arrays, textures and surfaces (`driver_types.h`, `texture_types.h`), laid
//! out as CUDA 13's headers lay them out (checked by the test below against a C program
//! compiled with nvcc 13.5's headers; see the README's "Layouts").

// The types keep CUDA's C names (`cudaArray_t`), so the code reads like the CUDA headers.
#![allow(non_camel_case_types)]

use std::ffi::c_void;

pub type cudaArray_t = *mut c_void;
pub type cudaTextureObject_t = u64;
pub type cudaSurfaceObject_t = u64;

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct cudaChannelFormatDesc {
    pub x: i32,
    pub y: i32,
    pub z: i32,
    pub w: i32,
    pub f: i32,
}

pub const cudaChannelFormatKindSigned: i32 = 0;
pub const cudaChannelFormatKindUnsigned: i32 = 1;
pub const cudaChannelFormatKindFloat: i32 = 2;

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct cudaExtent {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct cudaPos {
    pub x: usize,
    pub y: usize,
    pub z: usize,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct cudaPitchedPtr {
    pub ptr: *mut c_void,
    pub pitch: usize,
    pub xsize: usize,
    pub ysize: usize,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cudaMemcpy3DParms {
    pub srcArray: cudaArray_t,
    pub srcPos: cudaPos,
    pub srcPtr: cudaPitchedPtr,
    pub dstArray: cudaArray_t,
    pub dstPos: cudaPos,
    pub dstPtr: cudaPitchedPtr,
    pub extent: cudaExtent,
    pub kind: i32,
}

pub const cudaResourceTypeArray: i32 = 0;
pub const cudaResourceTypeMipmappedArray: i32 = 1;
pub const cudaResourceTypeLinear: i32 = 2;
pub const cudaResourceTypePitch2D: i32 = 3;

/// `res.linear` and `res.pitch2D` of `cudaResourceDesc` (`res.array.array` is `dev_ptr`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cudaResourceMemory {
    pub dev_ptr: *mut c_void,
    pub desc: cudaChannelFormatDesc,
    /// `linear.sizeInBytes`, or `pitch2D.width`.
    pub size_or_width: usize,
    pub height: usize,
    pub pitch: usize,
}

/// `cudaResourceDesc`: the union `res` as its largest member (`int reserved[32]`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cudaResourceDesc {
    pub resType: i32,
    pub res: [u64; 16],
    pub flags: u32,
}

impl cudaResourceDesc {
    /// The `linear`/`pitch2D` view of the union.
    pub fn memory(&self) -> cudaResourceMemory {
        // SAFETY: both are plain data; the union is 128 bytes, the view 48.
        unsafe { std::ptr::read_unaligned(self.res.as_ptr() as *const cudaResourceMemory) }
    }

    /// `res.array.array` (or `res.mipmap.mipmap`).
    pub fn array(&self) -> cudaArray_t {
        self.res[0] as cudaArray_t
    }

    pub fn zeroed() -> cudaResourceDesc {
        cudaResourceDesc {
            resType: 0,
            res: [0; 16],
            flags: 0,
        }
    }
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct cudaTextureDesc {
    pub addressMode: [i32; 3],
    pub filterMode: i32,
    pub readMode: i32,
    pub sRGB: i32,
    pub borderColor: [f32; 4],
    pub normalizedCoords: i32,
    pub maxAnisotropy: u32,
    pub mipmapFilterMode: i32,
    pub mipmapLevelBias: f32,
    pub minMipmapLevelClamp: f32,
    pub maxMipmapLevelClamp: f32,
    pub disableTrilinearOptimization: i32,
    pub seamlessCubemap: i32,
}

pub const cudaFilterModeLinear: i32 = 1;
pub const cudaReadModeNormalizedFloat: i32 = 1;

/// `cudaMallocArray`/`cudaMalloc3DArray` flags.
pub const cudaArrayLayered: u32 = 0x01;
pub const cudaArraySurfaceLoadStore: u32 = 0x02;
pub const cudaArrayCubemap: u32 = 0x04;
pub const cudaArrayTextureGather: u32 = 0x08;

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{align_of, offset_of, size_of};

    /// Sizes and offsets printed by a C program compiled against CUDA 13.5's
    /// `driver_types.h`/`texture_types.h` (`offsetof`, `sizeof`, `_Alignof`).
    #[test]
    fn layouts_match_the_cuda_13_headers() {
        assert_eq!(
            (
                size_of::<cudaChannelFormatDesc>(),
                align_of::<cudaChannelFormatDesc>()
            ),
            (20, 4)
        );
        assert_eq!(offset_of!(cudaChannelFormatDesc, f), 16);
        assert_eq!(
            (
                size_of::<cudaResourceDesc>(),
                align_of::<cudaResourceDesc>()
            ),
            (144, 8)
        );
        assert_eq!(offset_of!(cudaResourceDesc, res), 8);
        assert_eq!(offset_of!(cudaResourceDesc, flags), 136);
        // res.linear.desc 16, sizeInBytes / pitch2D.width 40, pitch2D.height 48, pitchInBytes 56.
        assert_eq!(8 + offset_of!(cudaResourceMemory, desc), 16);
        assert_eq!(8 + offset_of!(cudaResourceMemory, size_or_width), 40);
        assert_eq!(8 + offset_of!(cudaResourceMemory, height), 48);
        assert_eq!(8 + offset_of!(cudaResourceMemory, pitch), 56);
        assert_eq!(
            (size_of::<cudaTextureDesc>(), align_of::<cudaTextureDesc>()),
            (72, 4)
        );
        assert_eq!(offset_of!(cudaTextureDesc, filterMode), 12);
        assert_eq!(offset_of!(cudaTextureDesc, readMode), 16);
        assert_eq!(offset_of!(cudaTextureDesc, sRGB), 20);
        assert_eq!(offset_of!(cudaTextureDesc, borderColor), 24);
        assert_eq!(offset_of!(cudaTextureDesc, normalizedCoords), 40);
        assert_eq!(offset_of!(cudaTextureDesc, maxAnisotropy), 44);
        assert_eq!(offset_of!(cudaTextureDesc, mipmapFilterMode), 48);
        assert_eq!(offset_of!(cudaTextureDesc, maxMipmapLevelClamp), 60);
        assert_eq!(offset_of!(cudaTextureDesc, seamlessCubemap), 68);
        assert_eq!(size_of::<cudaExtent>(), 24);
        assert_eq!(size_of::<cudaPos>(), 24);
        assert_eq!(size_of::<cudaPitchedPtr>(), 32);
        assert_eq!(
            (
                size_of::<cudaMemcpy3DParms>(),
                align_of::<cudaMemcpy3DParms>()
            ),
            (160, 8)
        );
        assert_eq!(offset_of!(cudaMemcpy3DParms, srcPos), 8);
        assert_eq!(offset_of!(cudaMemcpy3DParms, srcPtr), 32);
        assert_eq!(offset_of!(cudaMemcpy3DParms, dstArray), 64);
        assert_eq!(offset_of!(cudaMemcpy3DParms, dstPos), 72);
        assert_eq!(offset_of!(cudaMemcpy3DParms, dstPtr), 96);
        assert_eq!(offset_of!(cudaMemcpy3DParms, extent), 128);
        assert_eq!(offset_of!(cudaMemcpy3DParms, kind), 152);
    }
}
