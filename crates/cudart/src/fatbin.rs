//! Fatbinaries as nvcc 13 embeds them (layouts in `shared/design/PTX.md`, "Fatbinaries"):
//! a 24-byte wrapper (`__fatBinC_Wrapper_t`) points at a container (magic `0xBA55ED50`,
//! 16-byte header) holding entries, each a PTX text or an ELF cubin, optionally
//! zstd-compressed. Pure functions over bytes, except [`read_wrapper`], which follows the
//! pointers a host program hands `__cudaRegisterFatBinary`.

use crate::cubin;
use std::collections::HashMap;

pub const WRAPPER_MAGIC: u32 = 0x466243B1;
pub const CONTAINER_MAGIC: u32 = 0xBA55ED50;
const CONTAINER_HEADER: usize = 16;
/// Entry flag: the payload is a zstd frame.
pub const FLAG_ZSTD: u64 = 0x8000;
/// The highest PTX target preferred when a fatbinary holds several (the simulated GPU runs
/// compute capability 7.5 code, but any PTX is tried).
pub const PREFERRED_MAX_SM: u32 = 90;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    Ptx,
    Elf,
    Other(u16),
}

/// One image of a container, decompressed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub kind: EntryKind,
    /// Target architecture (75 for sm_75 / compute_75).
    pub sm: u32,
    pub flags: u64,
    /// Payload, decompressed; PTX keeps no trailing NUL.
    pub data: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FatbinError {
    BadMagic { what: &'static str, found: u32 },
    Truncated { what: &'static str, offset: usize },
    Decompress { sm: u32, reason: String },
    NotUtf8 { sm: u32 },
    /// A `-rdc=true` build: the device code comes as relocatable fatbinaries to be linked.
    Relocatable,
}

impl std::fmt::Display for FatbinError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FatbinError::BadMagic { what, found } => write!(f, "bad {what} magic 0x{found:08x}"),
            FatbinError::Truncated { what, offset } => write!(f, "fatbinary truncated in {what} at byte {offset}"),
            FatbinError::Decompress { sm, reason } => write!(f, "cannot decompress the sm_{sm} image (zstd): {reason}"),
            FatbinError::NotUtf8 { sm } => write!(f, "the compute_{sm} PTX is not UTF-8 text"),
            FatbinError::Relocatable => write!(
                f,
                "this program was built with relocatable device code (-rdc=true / separate compilation); \
                 warpsim cannot link device code yet: rebuild without -rdc"
            ),
        }
    }
}

fn u16_at(b: &[u8], at: usize, what: &'static str) -> Result<u16, FatbinError> {
    b.get(at..at + 2).map(|s| u16::from_le_bytes([s[0], s[1]])).ok_or(FatbinError::Truncated { what, offset: at })
}
fn u32_at(b: &[u8], at: usize, what: &'static str) -> Result<u32, FatbinError> {
    b.get(at..at + 4).map(|s| u32::from_le_bytes(s.try_into().unwrap())).ok_or(FatbinError::Truncated { what, offset: at })
}
fn u64_at(b: &[u8], at: usize, what: &'static str) -> Result<u64, FatbinError> {
    b.get(at..at + 8).map(|s| u64::from_le_bytes(s.try_into().unwrap())).ok_or(FatbinError::Truncated { what, offset: at })
}

/// Total bytes (header included) of the container starting at `bytes[0]`.
pub fn container_len(header: &[u8]) -> Result<usize, FatbinError> {
    let magic = u32_at(header, 0, "container header")?;
    if magic != CONTAINER_MAGIC {
        return Err(FatbinError::BadMagic { what: "fatbinary container", found: magic });
    }
    let hsize = u16_at(header, 6, "container header")? as usize;
    let body = u64_at(header, 8, "container header")? as usize;
    Ok(hsize.max(CONTAINER_HEADER) + body)
}

/// Parses one or more back-to-back containers (8-byte padding between them is skipped).
pub fn parse_containers(bytes: &[u8]) -> Result<Vec<Entry>, FatbinError> {
    let mut entries = Vec::new();
    let mut at = 0;
    while at + CONTAINER_HEADER <= bytes.len() {
        if u32_at(bytes, at, "container")? != CONTAINER_MAGIC {
            if at > 0 && bytes[at..].iter().all(|&b| b == 0) {
                break;
            }
            return Err(FatbinError::BadMagic { what: "fatbinary container", found: u32_at(bytes, at, "container")? });
        }
        let len = container_len(&bytes[at..])?;
        let end = at.checked_add(len).filter(|&e| e <= bytes.len()).ok_or(FatbinError::Truncated { what: "container", offset: at })?;
        let hsize = u16_at(bytes, at + 6, "container header")?.max(CONTAINER_HEADER as u16) as usize;
        parse_entries(&bytes[at + hsize..end], &mut entries)?;
        at = end.next_multiple_of(8);
    }
    Ok(entries)
}

fn parse_entries(mut b: &[u8], out: &mut Vec<Entry>) -> Result<(), FatbinError> {
    while b.len() >= 16 {
        let kind = match u16_at(b, 0, "entry header")? {
            1 => EntryKind::Ptx,
            2 => EntryKind::Elf,
            k => EntryKind::Other(k),
        };
        let hsize = u32_at(b, 4, "entry header")? as usize;
        let padded = u64_at(b, 8, "entry header")? as usize;
        let compressed = u32_at(b, 0x10, "entry header")? as usize;
        let sm = u32_at(b, 0x1c, "entry header")?;
        let flags = u64_at(b, 0x28, "entry header")?;
        let uncompressed = u64_at(b, 0x38, "entry header")? as usize;
        let stride = hsize.checked_add(padded).filter(|&s| s <= b.len()).ok_or(FatbinError::Truncated { what: "entry", offset: 0 })?;
        let payload = &b[hsize..stride];
        let mut data = if flags & FLAG_ZSTD != 0 {
            let frame = if compressed > 0 && compressed <= payload.len() { &payload[..compressed] } else { payload };
            decompress(frame, uncompressed).map_err(|reason| FatbinError::Decompress { sm, reason })?
        } else {
            payload.to_vec()
        };
        if kind == EntryKind::Ptx {
            // The text ends in a NUL (and padding): keep what precedes the first NUL.
            if let Some(nul) = data.iter().position(|&c| c == 0) {
                data.truncate(nul);
            }
        }
        out.push(Entry { kind, sm, flags, data });
        b = &b[stride..];
    }
    Ok(())
}

fn decompress(frame: &[u8], size_hint: usize) -> Result<Vec<u8>, String> {
    use std::io::Read;
    // The header's size is only a hint (a corrupt one must not make us allocate gigabytes).
    let mut out = Vec::with_capacity(size_hint.min(64 << 20));
    let mut s = ruzstd::StreamingDecoder::new(frame).map_err(|e| e.to_string())?;
    s.read_to_end(&mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

/// What the runtime keeps of one fatbinary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Images {
    /// The PTX chosen to run ([`choose_ptx`]), with its target.
    pub ptx: Option<(u32, String)>,
    /// Every PTX target present, for diagnostics.
    pub ptx_targets: Vec<u32>,
    /// Every cubin target present.
    pub elf_targets: Vec<u32>,
    /// Registers per thread of each kernel, from the cubins' `EIATTR_REGCOUNT`.
    pub regcounts: HashMap<String, u32>,
}

/// The PTX to run: the highest target ≤ [`PREFERRED_MAX_SM`], else the lowest of the rest.
pub fn choose_ptx(entries: &[Entry]) -> Option<&Entry> {
    let ptx = entries.iter().filter(|e| e.kind == EntryKind::Ptx);
    ptx.clone().filter(|e| e.sm <= PREFERRED_MAX_SM).max_by_key(|e| e.sm).or_else(|| ptx.min_by_key(|e| e.sm))
}

/// Reduces a container's entries to what the runtime uses. Register counts come from the
/// cubin closest to the chosen PTX's target (the same kernels, compiled by ptxas).
pub fn images(entries: &[Entry]) -> Result<Images, FatbinError> {
    let mut out = Images {
        ptx_targets: entries.iter().filter(|e| e.kind == EntryKind::Ptx).map(|e| e.sm).collect(),
        elf_targets: entries.iter().filter(|e| e.kind == EntryKind::Elf).map(|e| e.sm).collect(),
        ..Default::default()
    };
    if let Some(e) = choose_ptx(entries) {
        let text = String::from_utf8(e.data.clone()).map_err(|_| FatbinError::NotUtf8 { sm: e.sm })?;
        out.ptx = Some((e.sm, text));
    }
    let want = out.ptx.as_ref().map(|(sm, _)| *sm).unwrap_or(75);
    let elf = entries.iter().filter(|e| e.kind == EntryKind::Elf).min_by_key(|e| (e.sm as i64 - want as i64).abs());
    if let Some(e) = elf {
        // A malformed cubin only costs the register counts.
        out.regcounts = cubin::regcounts(&e.data).unwrap_or_default();
    }
    Ok(out)
}

/// The wrapper a host program passes to `__cudaRegisterFatBinary`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wrapper {
    pub version: u32,
    pub data: *const u8,
    pub filename_or_fatbins: *const u8,
}

/// Reads the wrapper at `p` and returns it with the bytes of the container it points at.
///
/// # Safety
/// `p` must point at a readable `__fatBinC_Wrapper_t` (or, as older toolchains passed, at a
/// container) whose `data` points at a complete container, as nvcc's generated code does.
pub unsafe fn read_wrapper<'a>(p: *const u8) -> Result<(Option<Wrapper>, &'a [u8]), FatbinError> {
    let head = std::slice::from_raw_parts(p, 24);
    let magic = u32_at(head, 0, "wrapper")?;
    let (wrapper, data) = if magic == WRAPPER_MAGIC {
        let w = Wrapper {
            version: u32_at(head, 4, "wrapper")?,
            data: u64_at(head, 8, "wrapper")? as usize as *const u8,
            filename_or_fatbins: u64_at(head, 16, "wrapper")? as usize as *const u8,
        };
        (Some(w), w.data)
    } else if magic == CONTAINER_MAGIC {
        (None, p)
    } else {
        return Err(FatbinError::BadMagic { what: "fatbinary wrapper", found: magic });
    };
    if data.is_null() {
        return Err(FatbinError::Truncated { what: "wrapper (null data)", offset: 0 });
    }
    let len = container_len(std::slice::from_raw_parts(data, CONTAINER_HEADER))?;
    Ok((wrapper, std::slice::from_raw_parts(data, len)))
}

/// Whether a version-2 (device-link) wrapper carries relocatable device code: its list of
/// prelinked fatbinaries (a NULL-terminated pointer array) is not empty.
///
/// # Safety
/// `w.filename_or_fatbins` must be null or point at such an array, as nvcc generates.
pub unsafe fn has_prelinked(w: &Wrapper) -> bool {
    let list = w.filename_or_fatbins as *const *const u8;
    !list.is_null() && !(*list).is_null()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `.nv_fatbin` of `tests/cuda/data/two_kernels.cu` built by nvcc 13.5 with
    /// `-arch=sm_75` (a cubin and zstd PTX).
    const DEFAULT_BUILD: &[u8] = include_bytes!("../tests/data/two_kernels.nv_fatbin");
    /// The same with `--no-compress -gencode arch=compute_75,code=compute_75
    /// -gencode arch=compute_80,code=compute_80`: two plain PTX entries, no cubin.
    const TWO_PTX: &[u8] = include_bytes!("../tests/data/two_ptx.nv_fatbin");

    #[test]
    fn default_build_has_cubin_and_zstd_ptx() {
        let e = parse_containers(DEFAULT_BUILD).unwrap();
        let kinds: Vec<_> = e.iter().map(|e| (e.kind, e.sm)).collect();
        assert!(kinds.contains(&(EntryKind::Elf, 75)), "{kinds:?}");
        assert!(kinds.contains(&(EntryKind::Ptx, 75)), "{kinds:?}");
        let ptx = e.iter().find(|e| e.kind == EntryKind::Ptx).unwrap();
        assert!(ptx.flags & FLAG_ZSTD != 0, "nvcc 13 compresses PTX by default");
        let text = std::str::from_utf8(&ptx.data).unwrap();
        assert!(text.contains(".target sm_75"), "{text}");
        assert!(text.contains(".visible .entry _Z5scalePfif"), "{text}");
        assert!(!text.contains('\0'));
        let elf = e.iter().find(|e| e.kind == EntryKind::Elf).unwrap();
        assert_eq!(&elf.data[..4], b"\x7fELF");
    }

    #[test]
    fn uncompressed_entries_and_the_ptx_choice() {
        let e = parse_containers(TWO_PTX).unwrap();
        let ptx: Vec<_> = e.iter().filter(|e| e.kind == EntryKind::Ptx).map(|e| e.sm).collect();
        assert_eq!(ptx, vec![75, 80]);
        assert!(e.iter().all(|e| e.flags & FLAG_ZSTD == 0));
        assert_eq!(choose_ptx(&e).unwrap().sm, 80);
        let img = images(&e).unwrap();
        assert_eq!(img.ptx.as_ref().unwrap().0, 80);
        assert!(img.ptx.unwrap().1.contains(".target sm_80"));
        assert!(img.regcounts.is_empty(), "no cubin, no register counts");
    }

    #[test]
    fn ptx_choice_prefers_highest_up_to_90_else_lowest() {
        let mk = |sm| Entry { kind: EntryKind::Ptx, sm, flags: 0, data: vec![] };
        let elf = Entry { kind: EntryKind::Elf, sm: 75, flags: 0, data: vec![] };
        assert_eq!(choose_ptx(&[mk(52), mk(90), mk(75)]).unwrap().sm, 90);
        assert_eq!(choose_ptx(&[mk(100), mk(120), mk(75)]).unwrap().sm, 75);
        assert_eq!(choose_ptx(&[mk(120), mk(100)]).unwrap().sm, 100);
        assert!(choose_ptx(&[elf]).is_none());
    }

    #[test]
    fn register_counts_from_the_default_build() {
        let img = images(&parse_containers(DEFAULT_BUILD).unwrap()).unwrap();
        let scale = img.regcounts.get("_Z5scalePfif").copied();
        let sum = img.regcounts.get("_Z6reducePKfPfi").copied();
        assert!(matches!(scale, Some(n) if (4..=32).contains(&n)), "{:?}", img.regcounts);
        assert!(matches!(sum, Some(n) if (4..=64).contains(&n)), "{:?}", img.regcounts);
    }

    #[test]
    fn wrapper_is_followed_and_empty_link_stub_is_empty() {
        // A version-1 wrapper pointing at the real container.
        let data = DEFAULT_BUILD.to_vec();
        let mut w = Vec::new();
        w.extend_from_slice(&WRAPPER_MAGIC.to_le_bytes());
        w.extend_from_slice(&1u32.to_le_bytes());
        w.extend_from_slice(&(data.as_ptr() as u64).to_le_bytes());
        w.extend_from_slice(&0u64.to_le_bytes());
        let (wrapper, bytes) = unsafe { read_wrapper(w.as_ptr()) }.unwrap();
        assert_eq!(wrapper.unwrap().version, 1);
        assert_eq!(bytes.len(), container_len(&data).unwrap());
        assert!(!parse_containers(bytes).unwrap().is_empty());
        // The device-link stub: version 2, an empty container, no prelinked list.
        let mut empty = Vec::new();
        empty.extend_from_slice(&CONTAINER_MAGIC.to_le_bytes());
        empty.extend_from_slice(&1u16.to_le_bytes());
        empty.extend_from_slice(&16u16.to_le_bytes());
        empty.extend_from_slice(&0u64.to_le_bytes());
        let stub = Wrapper { version: 2, data: empty.as_ptr(), filename_or_fatbins: std::ptr::null() };
        assert!(!unsafe { has_prelinked(&stub) });
        assert!(parse_containers(&empty).unwrap().is_empty());
        let list: [*const u8; 2] = [empty.as_ptr(), std::ptr::null()];
        let rdc = Wrapper { filename_or_fatbins: list.as_ptr() as *const u8, ..stub };
        assert!(unsafe { has_prelinked(&rdc) });
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        assert!(matches!(parse_containers(b"\x01\x02\x03\x04garbage garbage"), Err(FatbinError::BadMagic { .. })));
        let mut cut = DEFAULT_BUILD[..64].to_vec();
        cut.truncate(40);
        assert!(parse_containers(&cut).is_err() || parse_containers(&cut).unwrap().is_empty());
        let mut corrupt = DEFAULT_BUILD.to_vec();
        for b in corrupt.iter_mut().skip(200).take(400) {
            *b ^= 0x5a;
        }
        let _ = parse_containers(&corrupt); // must not panic
    }
}
