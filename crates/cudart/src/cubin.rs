//! Register counts from a cubin (the ELF entries of a fatbinary), for the occupancy model:
//! PTX virtual register counts are far above what ptxas allocates.
//!
//! ptxas records them twice: as `EIATTR_REGCOUNT` attributes (symbol index, count) in the
//! `.nv.info` sections (the module-wide one in CUDA 13; per-kernel `.nv.info.<kernel>` in older
//! toolchains), and in bits 24..32 of `sh_info` of each `.text.<kernel>` section. The
//! attributes win; the section field is the fallback.

use std::collections::HashMap;

/// `EIATTR_REGCOUNT`: value is (u32 symbol index, u32 registers per thread).
pub const EIATTR_REGCOUNT: u8 = 0x2f;
const EIFMT_SVAL: u8 = 4;

struct Section<'a> {
    name: &'a str,
    kind: u32,
    link: u32,
    info: u32,
    data: &'a [u8],
}

fn rd<const N: usize>(b: &[u8], at: usize) -> Option<[u8; N]> {
    b.get(at..at.checked_add(N)?)?.try_into().ok()
}
fn u16_(b: &[u8], at: usize) -> Option<u16> {
    rd::<2>(b, at).map(u16::from_le_bytes)
}
fn u32_(b: &[u8], at: usize) -> Option<u32> {
    rd::<4>(b, at).map(u32::from_le_bytes)
}
fn u64_(b: &[u8], at: usize) -> Option<u64> {
    rd::<8>(b, at).map(u64::from_le_bytes)
}

fn cstr(b: &[u8], at: usize) -> Option<&str> {
    let s = b.get(at..)?;
    let end = s.iter().position(|&c| c == 0)?;
    std::str::from_utf8(&s[..end]).ok()
}

fn sections(elf: &[u8]) -> Option<Vec<Section<'_>>> {
    if elf.get(..4)? != b"\x7fELF" || *elf.get(4)? != 2 {
        return None; // not ELF64
    }
    let shoff = usize::try_from(u64_(elf, 0x28)?).ok()?;
    let shentsize = u16_(elf, 0x3a)? as usize;
    let shnum = u16_(elf, 0x3c)? as usize;
    let shstrndx = u16_(elf, 0x3e)? as usize;
    let header = |i: usize| -> Option<(u32, u32, u64, u64, u32, u32)> {
        let h = shoff.checked_add(i.checked_mul(shentsize)?)?;
        // Checked: a section-header offset near 2^64 (a corrupt cubin) must not overflow.
        let at = |off: usize| h.checked_add(off);
        Some((
            u32_(elf, h)?,
            u32_(elf, at(4)?)?,
            u64_(elf, at(0x18)?)?,
            u64_(elf, at(0x20)?)?,
            u32_(elf, at(0x28)?)?,
            u32_(elf, at(0x2c)?)?,
        ))
    };
    let (_, _, str_off, str_size, _, _) = header(shstrndx)?;
    let strtab = elf.get(
        usize::try_from(str_off).ok()?..usize::try_from(str_off.checked_add(str_size)?).ok()?,
    )?;
    let mut out = Vec::with_capacity(shnum);
    for i in 0..shnum {
        let (name, kind, off, size, link, info) = header(i)?;
        // NOBITS sections have no bytes in the file.
        let data = if kind == 8 {
            &[][..]
        } else {
            elf.get(usize::try_from(off).ok()?..usize::try_from(off.checked_add(size)?).ok()?)?
        };
        out.push(Section {
            name: cstr(strtab, name as usize).unwrap_or(""),
            kind,
            link,
            info,
            data,
        });
    }
    Some(out)
}

/// Names of the symbols of the symbol table `symtab` (its `sh_link` names the string table).
fn symbol_names<'a>(secs: &[Section<'a>], symtab: &Section<'a>) -> Vec<&'a str> {
    let strtab = secs
        .get(symtab.link as usize)
        .map(|s| s.data)
        .unwrap_or(&[]);
    symtab
        .data
        .chunks_exact(24)
        .map(|sym| {
            u32_(sym, 0)
                .and_then(|n| cstr(strtab, n as usize))
                .unwrap_or("")
        })
        .collect()
}

/// The `(attribute, value)` pairs of an `.nv.info` section.
pub fn nv_info_attributes(data: &[u8]) -> Vec<(u8, &[u8])> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 4 <= data.len() {
        let (fmt, attr) = (data[at], data[at + 1]);
        if fmt == EIFMT_SVAL {
            let n = u16_(data, at + 2).unwrap_or(0) as usize;
            let Some(v) = data.get(at + 4..at + 4 + n) else {
                break;
            };
            out.push((attr, v));
            at += 4 + n;
        } else {
            // NVAL / BVAL / HVAL: the value (if any) sits in the two bytes after the tag.
            out.push((attr, &data[at + 2..at + 4]));
            at += 4;
        }
    }
    out
}

/// Registers per thread of each kernel of a cubin, by (mangled) name. `None` when the bytes
/// are not an ELF64 file.
pub fn regcounts(elf: &[u8]) -> Option<HashMap<String, u32>> {
    let secs = sections(elf)?;
    let mut out = HashMap::new();
    let symtab = secs.iter().find(|s| s.kind == 2);
    let names = symtab.map(|t| symbol_names(&secs, t)).unwrap_or_default();
    for s in secs
        .iter()
        .filter(|s| s.name == ".nv.info" || s.name.starts_with(".nv.info."))
    {
        for (attr, v) in nv_info_attributes(s.data) {
            if attr != EIATTR_REGCOUNT {
                continue;
            }
            let (sym, count) = match v.len() {
                8 => (u32_(v, 0), u32_(v, 4)),
                4 => (None, u32_(v, 0)), // per-kernel section: the kernel is in the name
                _ => continue,
            };
            let name = match sym {
                Some(i) => names.get(i as usize).copied(),
                None => s.name.strip_prefix(".nv.info."),
            };
            if let (Some(name), Some(count)) = (name, count) {
                if !name.is_empty() {
                    out.insert(name.to_string(), count);
                }
            }
        }
    }
    for s in secs.iter().filter(|s| s.name.starts_with(".text.")) {
        let name = &s.name[".text.".len()..];
        let regs = s.info >> 24;
        if regs > 0 {
            out.entry(name.to_string()).or_insert(regs);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fatbin::{parse_containers, EntryKind};

    fn cubin() -> Vec<u8> {
        let e = parse_containers(include_bytes!("../tests/data/two_kernels.nv_fatbin")).unwrap();
        e.into_iter()
            .find(|e| e.kind == EntryKind::Elf)
            .unwrap()
            .data
    }

    #[test]
    fn regcount_attributes_match_ptxas() {
        // `ptxas -arch=sm_75 -v` on two_kernels.cu: scale 8 registers, reduce 10.
        let r = regcounts(&cubin()).unwrap();
        assert_eq!(r.get("_Z5scalePfif"), Some(&8), "{r:?}");
        assert_eq!(r.get("_Z6reducePKfPfi"), Some(&10), "{r:?}");
        assert_eq!(r.len(), 2);
    }

    #[test]
    fn section_field_is_the_fallback() {
        // Remove the REGCOUNT attributes (rename the tag) and the section field still answers.
        let mut elf = cubin();
        let secs: Vec<(usize, usize)> = {
            let s = sections(&elf).unwrap();
            s.iter()
                .filter(|s| s.name == ".nv.info")
                .map(|s| {
                    (
                        s.data.as_ptr() as usize - elf.as_ptr() as usize,
                        s.data.len(),
                    )
                })
                .collect()
        };
        for (off, len) in secs {
            let mut at = off;
            while at + 4 <= off + len {
                let n = if elf[at] == EIFMT_SVAL {
                    4 + u16_(&elf, at + 2).unwrap() as usize
                } else {
                    4
                };
                if elf[at + 1] == EIATTR_REGCOUNT {
                    elf[at + 1] = 0x7e;
                }
                at += n;
            }
        }
        let r = regcounts(&elf).unwrap();
        assert_eq!(r.get("_Z5scalePfif"), Some(&8));
        assert_eq!(r.get("_Z6reducePKfPfi"), Some(&10));
    }

    #[test]
    fn not_elf_is_none_and_truncation_is_harmless() {
        assert!(regcounts(b"not an elf at all").is_none());
        let elf = cubin();
        for cut in [10, 64, 200, elf.len() / 2, elf.len() - 1] {
            let _ = regcounts(&elf[..cut]);
        }
    }

    #[test]
    fn section_offsets_near_two_to_the_64_are_none_not_overflows() {
        let mut elf = cubin();
        for shoff in [u64::MAX, u64::MAX - 0x10, u64::MAX - 0x2c] {
            elf[0x28..0x30].copy_from_slice(&shoff.to_le_bytes());
            assert!(regcounts(&elf).is_none(), "{shoff:#x}");
        }
    }
}
