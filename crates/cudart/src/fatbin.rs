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
/// Bytes of an entry header that the parser reads (nvcc 13 writes 0x50-byte headers).
const ENTRY_HEADER_MIN: usize = 0x40;
/// The largest container accepted (1 GiB): a bigger size field is corrupt, and
/// [`read_wrapper`] must not make a slice of it.
pub const MAX_CONTAINER: usize = 1 << 30;
/// The largest decompressed image accepted (256 MiB): a corrupt or hostile zstd frame must
/// not make the runtime allocate without bound.
pub const MAX_IMAGE: usize = 256 << 20;
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
    BadMagic {
        what: &'static str,
        found: u32,
    },
    Truncated {
        what: &'static str,
        offset: usize,
    },
    /// A size field that cannot be right (zero where bytes must follow, or past the limits).
    BadSize {
        what: &'static str,
        offset: usize,
        value: u64,
    },
    Decompress {
        sm: u32,
        reason: String,
    },
    NotUtf8 {
        sm: u32,
    },
}

impl std::fmt::Display for FatbinError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FatbinError::BadMagic { what, found } => write!(f, "bad {what} magic 0x{found:08x}"),
            FatbinError::Truncated { what, offset } => {
                write!(f, "fatbinary truncated in {what} at byte {offset}")
            }
            FatbinError::BadSize {
                what,
                offset,
                value,
            } => write!(
                f,
                "corrupt fatbinary: {what} of {value} bytes at byte {offset}"
            ),
            FatbinError::Decompress { sm, reason } => {
                write!(f, "cannot decompress the sm_{sm} image (zstd): {reason}")
            }
            FatbinError::NotUtf8 { sm } => write!(f, "the compute_{sm} PTX is not UTF-8 text"),
        }
    }
}

fn field<const N: usize>(b: &[u8], at: usize, what: &'static str) -> Result<[u8; N], FatbinError> {
    at.checked_add(N)
        .and_then(|end| b.get(at..end))
        .map(|s| s.try_into().expect("N bytes"))
        .ok_or(FatbinError::Truncated { what, offset: at })
}
fn u16_at(b: &[u8], at: usize, what: &'static str) -> Result<u16, FatbinError> {
    field::<2>(b, at, what).map(u16::from_le_bytes)
}
fn u32_at(b: &[u8], at: usize, what: &'static str) -> Result<u32, FatbinError> {
    field::<4>(b, at, what).map(u32::from_le_bytes)
}
fn u64_at(b: &[u8], at: usize, what: &'static str) -> Result<u64, FatbinError> {
    field::<8>(b, at, what).map(u64::from_le_bytes)
}

/// Total bytes (header included) of the container starting at `bytes[0]`.
pub fn container_len(header: &[u8]) -> Result<usize, FatbinError> {
    let magic = u32_at(header, 0, "container header")?;
    if magic != CONTAINER_MAGIC {
        return Err(FatbinError::BadMagic {
            what: "fatbinary container",
            found: magic,
        });
    }
    let hsize = (u16_at(header, 6, "container header")? as usize).max(CONTAINER_HEADER);
    let body = u64_at(header, 8, "container header")?;
    // Checked: a body size near 2^64 must be an error, not an overflow.
    usize::try_from(body)
        .ok()
        .and_then(|b| b.checked_add(hsize))
        .filter(|&len| len <= MAX_CONTAINER)
        .ok_or(FatbinError::BadSize {
            what: "container body",
            offset: 8,
            value: body,
        })
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
            return Err(FatbinError::BadMagic {
                what: "fatbinary container",
                found: u32_at(bytes, at, "container")?,
            });
        }
        let len = container_len(&bytes[at..]).map_err(|e| at_offset(e, at))?;
        let end =
            at.checked_add(len)
                .filter(|&e| e <= bytes.len())
                .ok_or(FatbinError::Truncated {
                    what: "container",
                    offset: at,
                })?;
        let hsize = (u16_at(bytes, at + 6, "container header")? as usize).max(CONTAINER_HEADER);
        // container_len checked hsize + body = len, so the body lies inside [at, end).
        let body_start = at + hsize;
        parse_entries(&bytes[body_start..end], body_start, &mut entries)?;
        at = end.next_multiple_of(8);
    }
    Ok(entries)
}

/// Moves a header-relative error offset to where the header sits in the whole fatbinary.
fn at_offset(e: FatbinError, base: usize) -> FatbinError {
    match e {
        FatbinError::Truncated { what, offset } => FatbinError::Truncated {
            what,
            offset: offset.saturating_add(base),
        },
        FatbinError::BadSize {
            what,
            offset,
            value,
        } => FatbinError::BadSize {
            what,
            offset: offset.saturating_add(base),
            value,
        },
        e => e,
    }
}

/// The entries of one container body (`base`: its offset in the fatbinary, for messages).
/// Every entry advances by at least its header, so the loop ends on any input.
fn parse_entries(mut b: &[u8], mut base: usize, out: &mut Vec<Entry>) -> Result<(), FatbinError> {
    while b.len() >= 16 {
        let kind = match u16_at(b, 0, "entry header").map_err(|e| at_offset(e, base))? {
            1 => EntryKind::Ptx,
            2 => EntryKind::Elf,
            k => EntryKind::Other(k),
        };
        let header = |at, what| u32_at(b, at, what).map_err(|e| at_offset(e, base));
        let hsize = header(4, "entry header")? as usize;
        if hsize < ENTRY_HEADER_MIN {
            return Err(FatbinError::BadSize {
                what: "entry header",
                offset: base + 4,
                value: hsize as u64,
            });
        }
        let padded_raw = u64_at(b, 8, "entry header").map_err(|e| at_offset(e, base))?;
        let compressed = header(0x10, "entry header")? as usize;
        let sm = header(0x1c, "entry header")?;
        let flags = u64_at(b, 0x28, "entry header").map_err(|e| at_offset(e, base))?;
        let uncompressed = u64_at(b, 0x38, "entry header").map_err(|e| at_offset(e, base))?;
        let stride = usize::try_from(padded_raw)
            .ok()
            .and_then(|p| p.checked_add(hsize))
            .filter(|&s| s <= b.len())
            .ok_or(FatbinError::BadSize {
                what: "entry payload",
                offset: base + 8,
                value: padded_raw,
            })?;
        let payload = &b[hsize..stride];
        let mut data = if flags & FLAG_ZSTD != 0 {
            let frame = if compressed > 0 && compressed <= payload.len() {
                &payload[..compressed]
            } else {
                payload
            };
            // The header's size bounds the work a hostile frame can cause (0: not given).
            let declared = usize::try_from(uncompressed)
                .ok()
                .filter(|&n| n <= MAX_IMAGE);
            let limit = match (uncompressed, declared) {
                (0, _) => MAX_IMAGE,
                (_, Some(n)) => n,
                (_, None) => {
                    return Err(FatbinError::BadSize {
                        what: "uncompressed image",
                        offset: base + 0x38,
                        value: uncompressed,
                    })
                }
            };
            decompress(frame, limit, limit)
                .map_err(|reason| FatbinError::Decompress { sm, reason })?
        } else {
            payload.to_vec()
        };
        if kind == EntryKind::Ptx {
            // The text ends in a NUL (and padding): keep what precedes the first NUL.
            if let Some(nul) = data.iter().position(|&c| c == 0) {
                data.truncate(nul);
            }
        }
        out.push(Entry {
            kind,
            sm,
            flags,
            data,
        });
        b = &b[stride..];
        base += stride;
    }
    Ok(())
}

fn decompress(frame: &[u8], size_hint: usize, limit: usize) -> Result<Vec<u8>, String> {
    use std::io::Read;
    // The header's size is only a hint (a corrupt one must not make us allocate gigabytes).
    let mut out = Vec::with_capacity(size_hint.min(64 << 20).min(limit));
    let s = ruzstd::StreamingDecoder::new(frame).map_err(|e| e.to_string())?;
    // One byte past the limit tells "too big" from "exactly the limit".
    s.take(limit as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| e.to_string())?;
    if out.len() > limit {
        return Err(format!("the image decompresses to more than {limit} bytes"));
    }
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
    ptx.clone()
        .filter(|e| e.sm <= PREFERRED_MAX_SM)
        .max_by_key(|e| e.sm)
        .or_else(|| ptx.min_by_key(|e| e.sm))
}

/// Reduces a container's entries to what the runtime uses. Register counts come from the
/// cubin closest to the chosen PTX's target (the same kernels, compiled by ptxas).
pub fn images(entries: &[Entry]) -> Result<Images, FatbinError> {
    let mut out = Images {
        ptx_targets: entries
            .iter()
            .filter(|e| e.kind == EntryKind::Ptx)
            .map(|e| e.sm)
            .collect(),
        elf_targets: entries
            .iter()
            .filter(|e| e.kind == EntryKind::Elf)
            .map(|e| e.sm)
            .collect(),
        ..Default::default()
    };
    if let Some(e) = choose_ptx(entries) {
        let text =
            String::from_utf8(e.data.clone()).map_err(|_| FatbinError::NotUtf8 { sm: e.sm })?;
        out.ptx = Some((e.sm, text));
    }
    let want = out.ptx.as_ref().map(|(sm, _)| *sm).unwrap_or(75);
    let elf = entries
        .iter()
        .filter(|e| e.kind == EntryKind::Elf)
        .min_by_key(|e| (e.sm as i64 - want as i64).abs());
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
        return Err(FatbinError::BadMagic {
            what: "fatbinary wrapper",
            found: magic,
        });
    };
    if data.is_null() {
        return Err(FatbinError::Truncated {
            what: "wrapper (null data)",
            offset: 0,
        });
    }
    let len = container_len(std::slice::from_raw_parts(data, CONTAINER_HEADER))?;
    Ok((wrapper, std::slice::from_raw_parts(data, len)))
}

/// The most entries read from a device-link stub's list of fatbinaries (NULL-terminated:
/// a corrupt list must not be walked without end).
pub const MAX_PRELINKED: usize = 1 << 16;

/// Whether a version-2 (device-link) wrapper carries relocatable device code: its list of
/// prelinked fatbinaries (a NULL-terminated pointer array) is not empty.
///
/// # Safety
/// `w.filename_or_fatbins` must be null or point at such an array, as nvcc generates.
pub unsafe fn has_prelinked(w: &Wrapper) -> bool {
    let list = w.filename_or_fatbins as *const *const u8;
    !list.is_null() && !(*list).is_null()
}

/// The fatbinaries a version-2 (device-link) wrapper lists: the containers of the
/// translation units whose relocatable device code the device link joined, in the order
/// they registered.
///
/// # Safety
/// As [`has_prelinked`].
pub unsafe fn prelinked(w: &Wrapper) -> Result<Vec<*const u8>, FatbinError> {
    let list = w.filename_or_fatbins as *const *const u8;
    let mut out = Vec::new();
    if list.is_null() {
        return Ok(out);
    }
    loop {
        let p = *list.add(out.len());
        if p.is_null() {
            return Ok(out);
        }
        if out.len() == MAX_PRELINKED {
            return Err(FatbinError::BadSize {
                what: "list of prelinked fatbinaries",
                offset: 16,
                value: out.len() as u64,
            });
        }
        out.push(p);
    }
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
        assert!(
            ptx.flags & FLAG_ZSTD != 0,
            "nvcc 13 compresses PTX by default"
        );
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
        let ptx: Vec<_> = e
            .iter()
            .filter(|e| e.kind == EntryKind::Ptx)
            .map(|e| e.sm)
            .collect();
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
        let mk = |sm| Entry {
            kind: EntryKind::Ptx,
            sm,
            flags: 0,
            data: vec![],
        };
        let elf = Entry {
            kind: EntryKind::Elf,
            sm: 75,
            flags: 0,
            data: vec![],
        };
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
        assert!(
            matches!(scale, Some(n) if (4..=32).contains(&n)),
            "{:?}",
            img.regcounts
        );
        assert!(
            matches!(sum, Some(n) if (4..=64).contains(&n)),
            "{:?}",
            img.regcounts
        );
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
        let stub = Wrapper {
            version: 2,
            data: empty.as_ptr(),
            filename_or_fatbins: std::ptr::null(),
        };
        assert!(!unsafe { has_prelinked(&stub) });
        assert!(parse_containers(&empty).unwrap().is_empty());
        let list: [*const u8; 2] = [empty.as_ptr(), std::ptr::null()];
        let rdc = Wrapper {
            filename_or_fatbins: list.as_ptr() as *const u8,
            ..stub
        };
        assert!(unsafe { has_prelinked(&rdc) });
        assert_eq!(unsafe { prelinked(&rdc) }.unwrap(), vec![empty.as_ptr()]);
        assert!(unsafe { prelinked(&stub) }.unwrap().is_empty());
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        assert!(matches!(
            parse_containers(b"\x01\x02\x03\x04garbage garbage"),
            Err(FatbinError::BadMagic { .. })
        ));
        let mut cut = DEFAULT_BUILD[..64].to_vec();
        cut.truncate(40);
        assert!(parse_containers(&cut).is_err() || parse_containers(&cut).unwrap().is_empty());
        let mut corrupt = DEFAULT_BUILD.to_vec();
        for b in corrupt.iter_mut().skip(200).take(400) {
            *b ^= 0x5a;
        }
        let _ = parse_containers(&corrupt); // must not panic
    }

    /// A container (version 1, 16-byte header) around `body`, its size field `body_len`.
    fn container(body: &[u8], body_len: u64) -> Vec<u8> {
        let mut c = Vec::new();
        c.extend_from_slice(&CONTAINER_MAGIC.to_le_bytes());
        c.extend_from_slice(&1u16.to_le_bytes());
        c.extend_from_slice(&16u16.to_le_bytes());
        c.extend_from_slice(&body_len.to_le_bytes());
        c.extend_from_slice(body);
        c
    }

    /// An entry header of nvcc's 0x50 bytes: kind, header size, padded payload size, flags.
    fn entry_header(kind: u16, hsize: u32, padded: u64, flags: u64) -> Vec<u8> {
        let mut h = vec![0u8; 0x50];
        h[0..2].copy_from_slice(&kind.to_le_bytes());
        h[4..8].copy_from_slice(&hsize.to_le_bytes());
        h[8..16].copy_from_slice(&padded.to_le_bytes());
        h[0x1c..0x20].copy_from_slice(&75u32.to_le_bytes());
        h[0x28..0x30].copy_from_slice(&flags.to_le_bytes());
        h
    }

    #[test]
    fn zero_sized_entry_is_an_error_not_a_hang() {
        // Header and padded sizes both zero used to leave the entry loop where it was forever.
        let body = entry_header(1, 0, 0, 0);
        let err = parse_containers(&container(&body, body.len() as u64)).unwrap_err();
        assert_eq!(
            err,
            FatbinError::BadSize {
                what: "entry header",
                offset: 20,
                value: 0
            }
        );
        assert!(err.to_string().contains("corrupt fatbinary"), "{err}");
        // A header shorter than the fields read is as bad.
        let body = entry_header(1, 8, 0, 0);
        assert!(matches!(
            parse_containers(&container(&body, 0x50)),
            Err(FatbinError::BadSize { value: 8, .. })
        ));
    }

    #[test]
    fn sizes_near_two_to_the_64_are_errors_not_overflows() {
        for body_len in [u64::MAX, u64::MAX - 8, u64::MAX - 15, 1 << 40] {
            let c = container(&[], body_len);
            let err = parse_containers(&c).unwrap_err();
            assert!(
                matches!(
                    err,
                    FatbinError::BadSize {
                        what: "container body",
                        ..
                    }
                ),
                "{body_len}: {err:?}"
            );
            assert!(container_len(&c).is_err());
        }
        // An entry's padded size near 2^64 overflows hsize + padded.
        for padded in [u64::MAX, u64::MAX - 0x4f, 1 << 33] {
            let body = entry_header(2, 0x50, padded, 0);
            let err = parse_containers(&container(&body, 0x50)).unwrap_err();
            assert!(
                matches!(err, FatbinError::BadSize { what: "entry payload", value, .. } if value == padded),
                "{err:?}"
            );
        }
    }

    #[test]
    fn a_well_formed_crafted_entry_parses() {
        // The crafting helpers agree with the parser (so the errors above are about the sizes).
        let mut body = entry_header(1, 0x50, 16, 0);
        body.extend_from_slice(b".version 9.5\0\0\0\0");
        let e = parse_containers(&container(&body, body.len() as u64)).unwrap();
        assert_eq!(
            e,
            vec![Entry {
                kind: EntryKind::Ptx,
                sm: 75,
                flags: 0,
                data: b".version 9.5".to_vec()
            }]
        );
    }

    /// A zstd frame of `blocks` RLE blocks of 128 KiB each (a tiny frame, a big image).
    fn rle_frame(blocks: usize) -> Vec<u8> {
        let mut f = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 7 << 3]; // magic, descriptor, 128 KiB window
        for i in 0..blocks {
            let last = (i + 1 == blocks) as u32;
            let header = last | (1 << 1) | ((128 << 10) << 3);
            f.extend_from_slice(&header.to_le_bytes()[..3]);
            f.push(b'x');
        }
        f
    }

    #[test]
    fn decompression_is_bounded() {
        let frame = rle_frame(4);
        assert_eq!(decompress(&frame, 0, 1 << 20).unwrap().len(), 4 << 17);
        let err = decompress(&frame, usize::MAX, 300 << 10).unwrap_err();
        assert!(err.contains("more than"), "{err}");
        // Through the parser: a compressed PTX entry whose frame is the bomb. Its declared
        // uncompressed size (0x38) bounds the output; 0 means not given (then MAX_IMAGE).
        let entry = |declared: u64| {
            let mut body = entry_header(1, 0x50, frame.len() as u64, FLAG_ZSTD);
            body[0x38..0x40].copy_from_slice(&declared.to_le_bytes());
            body.extend_from_slice(&frame);
            parse_containers(&container(&body, body.len() as u64))
        };
        for declared in [0, 4 << 17] {
            let e = entry(declared).unwrap();
            assert_eq!(e[0].data.len(), 4 << 17);
            assert!(e[0].data.iter().all(|&c| c == b'x'));
        }
        assert!(matches!(entry(1000), Err(FatbinError::Decompress { .. })));
        let err = entry(u64::MAX).unwrap_err();
        assert!(
            matches!(
                err,
                FatbinError::BadSize {
                    what: "uncompressed image",
                    value: u64::MAX,
                    ..
                }
            ),
            "{err:?}"
        );
    }
}
