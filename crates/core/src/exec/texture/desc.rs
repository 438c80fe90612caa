//! What a texture or surface object describes, and the device's table of live objects.
//!
//! A texture object is a view of global memory (linear memory, pitched 2-D memory or a
//! `cudaArray`, which warpsim stores row-major in one global allocation) plus sampling state;
//! a surface object is a view of a `cudaArray`. Handles are small positive integers, as
//! CUDA's, in one namespace per kind; 0 is never a valid handle.

/// How the bits of one channel are interpreted (`cudaChannelFormatKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelKind {
    Signed,
    Unsigned,
    Float,
}

/// Element format: up to four channels of `bits[c]` bits each (0 = absent), packed in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    pub kind: ChannelKind,
    pub bits: [u8; 4],
}

impl Format {
    /// Channels present (leading non-zero widths).
    pub fn channels(&self) -> usize {
        self.bits.iter().take_while(|&&b| b != 0).count()
    }

    /// Bytes of one element.
    pub fn bytes(&self) -> u32 {
        self.bits.iter().map(|&b| b as u32).sum::<u32>() / 8
    }

    /// Checks what warpsim can read: 1, 2 or 4 channels of one width, 8/16/32 bits for
    /// integers, 16 or 32 for floats. The error names the problem.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.channels();
        let b = self.bits[0];
        if n == 0
            || n == 3
            || self.bits[n..].iter().any(|&x| x != 0)
            || self.bits[..n].iter().any(|&x| x != b)
        {
            return Err(format!(
                "channel widths {:?}: 1, 2 or 4 channels of equal width are supported",
                self.bits
            ));
        }
        let ok = match self.kind {
            ChannelKind::Float => matches!(b, 16 | 32),
            _ => matches!(b, 8 | 16 | 32),
        };
        if !ok {
            return Err(format!(
                "{b}-bit {:?} channels are not supported",
                self.kind
            ));
        }
        Ok(())
    }
}

/// `cudaTextureAddressMode`, in CUDA's numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressMode {
    Wrap = 0,
    Clamp = 1,
    Mirror = 2,
    Border = 3,
}

/// Where the elements are: `width × height × depth` elements, rows `pitch` bytes apart and 2-D
/// slices `slice` bytes apart, from global address `base`. `dims` is 1, 2 or 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub base: u64,
    pub dims: u8,
    pub width: u64,
    pub height: u64,
    pub depth: u64,
    pub pitch: u64,
    pub slice: u64,
}

impl Layout {
    /// The size of dimension `d` (0 x, 1 y, 2 z).
    pub fn size(&self, d: usize) -> u64 {
        [self.width, self.height, self.depth][d]
    }

    /// Address of element `(x, y, z)` of `bytes`-byte elements (all in range).
    pub fn addr(&self, bytes: u32, x: u64, y: u64, z: u64) -> u64 {
        self.base + z * self.slice + y * self.pitch + x * bytes as u64
    }
}

/// A texture object.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TexDesc {
    pub layout: Layout,
    pub format: Format,
    /// Per dimension x, y, z.
    pub address: [AddressMode; 3],
    /// `cudaFilterModeLinear` (else point sampling).
    pub linear: bool,
    /// `cudaReadModeNormalizedFloat`: 8- and 16-bit integer channels read as floats in
    /// [0, 1] (unsigned) or [-1, 1] (signed).
    pub normalized_read: bool,
    /// Coordinates in [0, 1) across each dimension instead of [0, N).
    pub normalized_coords: bool,
    /// What `Border` addressing returns outside the texture.
    pub border: [f32; 4],
}

impl TexDesc {
    /// Whether fetches return floating-point values (float channels, or a normalized read).
    pub fn returns_float(&self) -> bool {
        self.format.kind == ChannelKind::Float || self.normalized_read
    }
}

/// A surface object: element-addressed (x in bytes) load/store access to an array.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfDesc {
    pub layout: Layout,
    pub format: Format,
}

/// The device's live texture and surface objects.
#[derive(Clone, Debug, Default)]
pub struct TextureTable {
    textures: Vec<Option<TexDesc>>,
    surfaces: Vec<Option<SurfDesc>>,
}

fn insert<T>(v: &mut Vec<Option<T>>, d: T) -> u64 {
    // Slots are reused like CUDA's handles: the lowest free one.
    match v.iter().position(Option::is_none) {
        Some(i) => {
            v[i] = Some(d);
            i as u64 + 1
        }
        None => {
            v.push(Some(d));
            v.len() as u64
        }
    }
}

fn slot<T>(v: &[Option<T>], h: u64) -> Option<&T> {
    v.get(h.checked_sub(1)? as usize)?.as_ref()
}

fn remove<T>(v: &mut [Option<T>], h: u64) -> bool {
    match h.checked_sub(1).and_then(|i| v.get_mut(i as usize)) {
        Some(s @ Some(_)) => {
            *s = None;
            true
        }
        _ => false,
    }
}

impl TextureTable {
    pub fn create_texture(&mut self, d: TexDesc) -> u64 {
        insert(&mut self.textures, d)
    }

    pub fn create_surface(&mut self, d: SurfDesc) -> u64 {
        insert(&mut self.surfaces, d)
    }

    pub fn texture(&self, h: u64) -> Option<&TexDesc> {
        slot(&self.textures, h)
    }

    pub fn surface(&self, h: u64) -> Option<&SurfDesc> {
        slot(&self.surfaces, h)
    }

    /// False when `h` is not a live texture.
    pub fn destroy_texture(&mut self, h: u64) -> bool {
        remove(&mut self.textures, h)
    }

    /// False when `h` is not a live surface.
    pub fn destroy_surface(&mut self, h: u64) -> bool {
        remove(&mut self.surfaces, h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_start_at_one_and_are_reused() {
        let l = Layout {
            base: 0,
            dims: 1,
            width: 4,
            height: 1,
            depth: 1,
            pitch: 16,
            slice: 16,
        };
        let f = Format {
            kind: ChannelKind::Float,
            bits: [32, 0, 0, 0],
        };
        let s = SurfDesc {
            layout: l,
            format: f,
        };
        let mut t = TextureTable::default();
        assert_eq!(t.create_surface(s), 1);
        assert_eq!(t.create_surface(s), 2);
        assert!(t.surface(0).is_none() && t.surface(3).is_none() && t.texture(1).is_none());
        assert!(t.destroy_surface(1) && !t.destroy_surface(1));
        assert_eq!(t.create_surface(s), 1);
    }

    #[test]
    fn formats() {
        let f = |kind, bits| Format { kind, bits };
        assert_eq!(f(ChannelKind::Unsigned, [8, 8, 8, 8]).bytes(), 4);
        assert!(f(ChannelKind::Unsigned, [8, 8, 8, 8]).validate().is_ok());
        assert!(f(ChannelKind::Float, [16, 16, 0, 0]).validate().is_ok());
        assert!(f(ChannelKind::Float, [8, 0, 0, 0]).validate().is_err());
        assert!(
            f(ChannelKind::Signed, [8, 8, 8, 0]).validate().is_err(),
            "3 channels"
        );
        assert!(
            f(ChannelKind::Signed, [8, 16, 0, 0]).validate().is_err(),
            "mixed widths"
        );
        assert!(f(ChannelKind::Signed, [0, 0, 0, 0]).validate().is_err());
    }
}
