//! Texture and surface objects: descriptors (`desc`), the texture unit's sampling arithmetic
//! (`sample`: addressing modes, point and linear filtering, normalized reads) and the
//! execution of `tex`/`tld4`/`suld`/`sust` over global memory (`fetch`).

pub mod desc;
pub mod fetch;
pub mod sample;

pub use desc::{AddressMode, ChannelKind, Format, Layout, SurfDesc, TexDesc, TextureTable};
