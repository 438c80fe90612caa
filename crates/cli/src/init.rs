//! Buffer initializers (also used to generate the expected contents of a `[[check]]`):
//! `zeros`, `value{value}`, `iota{start,step}`, `random{seed,min,max}`, `file{path}`.

use std::path::{Path, PathBuf};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::manifest::raw::RawInit;
use crate::scalar::{Num, ScalarType};

pub const KINDS: &str = "zeros, value, iota, random, file";

#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    Zeros,
    /// Every element equal (already encoded as one element's bytes).
    Value(Num),
    /// `start + i * step`.
    Iota {
        start: Num,
        step: Num,
    },
    /// Uniform in `[min, max]` (integers) or `[min, max)` (floats, before rounding to f32),
    /// from a ChaCha8 stream seeded with `seed`.
    Random {
        seed: u64,
        min: Num,
        max: Num,
    },
    /// Raw little-endian contents of a file.
    File(PathBuf),
}

/// Problems found in an initializer: `(sub-key, message)`, the sub-key relative to the
/// initializer's table (`""` for the table itself).
pub type Problems = Vec<(&'static str, String)>;

impl Init {
    /// Validates `raw` for a buffer of `ty`. `len` is the buffer's length if it is given;
    /// returns the initializer and the length the file implies (`file` only).
    pub fn from_raw(
        raw: &RawInit,
        ty: ScalarType,
        len: Option<usize>,
        dir: &Path,
    ) -> Result<(Init, Option<usize>), Problems> {
        let mut p: Problems = Vec::new();
        let allowed: &[&str] = match raw.kind.as_str() {
            "zeros" => &[],
            "value" => &["value"],
            "iota" => &["start", "step"],
            "random" => &["seed", "min", "max"],
            "file" => &["path"],
            other => {
                return Err(vec![(
                    "kind",
                    format!("unknown initializer {other:?}; expected one of {KINDS}"),
                )])
            }
        };
        let present = [
            ("value", raw.value.is_some()),
            ("start", raw.start.is_some()),
            ("step", raw.step.is_some()),
            ("seed", raw.seed.is_some()),
            ("min", raw.min.is_some()),
            ("max", raw.max.is_some()),
            ("path", raw.path.is_some()),
        ];
        for (key, is_present) in present {
            if is_present && !allowed.contains(&key) {
                let takes = if allowed.is_empty() {
                    "no other keys".to_string()
                } else {
                    allowed.join(", ")
                };
                p.push((
                    key,
                    format!("not used by initializer {:?} (it takes {takes})", raw.kind),
                ));
            }
        }
        let mut file_len = None;
        let init = match raw.kind.as_str() {
            "zeros" => Init::Zeros,
            "value" => match raw.value {
                None => {
                    p.push((
                        "value",
                        "missing required key (initializer \"value\")".into(),
                    ));
                    Init::Zeros
                }
                Some(v) => {
                    if let Err(e) = ty.encode(v, &mut Vec::new()) {
                        p.push(("value", e));
                    }
                    Init::Value(v)
                }
            },
            "iota" => {
                let start = raw.start.unwrap_or(Num::Int(0));
                let step = raw.step.unwrap_or(Num::Int(1));
                if !ty.is_float() {
                    match (ty.checked_int(start), step.as_int()) {
                        (Err(e), _) => p.push(("start", e)),
                        (_, None) => {
                            p.push(("step", format!("{step} is not an integer (type {ty})")))
                        }
                        (Ok(s), Some(st)) => {
                            let last = s + st * (len.unwrap_or(1).max(1) as i128 - 1);
                            if ty.checked_int(Num::Int(last)).is_err() {
                                p.push((
                                    "step",
                                    format!("the last element, {last}, is out of range for {ty}"),
                                ));
                            }
                        }
                    }
                }
                Init::Iota { start, step }
            }
            "random" => {
                let seed = match raw.seed.map(|s| ScalarType::U64.checked_int(s)) {
                    None => 0,
                    Some(Ok(s)) => s as u64,
                    Some(Err(e)) => {
                        p.push(("seed", e));
                        0
                    }
                };
                let (lo, hi) = if ty.is_float() {
                    (Num::Float(0.0), Num::Float(1.0))
                } else {
                    let (lo, hi) = ty.int_range();
                    (Num::Int(lo), Num::Int(hi))
                };
                let min = raw.min.unwrap_or(lo);
                let max = raw.max.unwrap_or(hi);
                let mut ok = true;
                for (key, v) in [("min", min), ("max", max)] {
                    let bad = if ty.is_float() {
                        (!v.as_f64().is_finite()).then(|| format!("{v} is not finite"))
                    } else {
                        ty.checked_int(v).err()
                    };
                    if let Some(e) = bad {
                        p.push((key, e));
                        ok = false;
                    }
                }
                if ok && min.as_f64() > max.as_f64() {
                    p.push(("min", format!("min ({min}) is greater than max ({max})")));
                }
                Init::Random { seed, min, max }
            }
            "file" => match &raw.path {
                None => {
                    p.push(("path", "missing required key (initializer \"file\")".into()));
                    Init::Zeros
                }
                Some(rel) => {
                    let path = dir.join(rel);
                    match check_file(&path, rel, ty, len) {
                        Ok(n) => file_len = Some(n),
                        Err(e) => p.push(("path", e)),
                    }
                    Init::File(path)
                }
            },
            _ => unreachable!(),
        };
        if p.is_empty() {
            Ok((init, file_len))
        } else {
            Err(p)
        }
    }

    /// The contents of a buffer of `len` elements of `ty` (validated by [`Init::from_raw`]).
    pub fn generate(&self, ty: ScalarType, len: usize) -> std::io::Result<Vec<u8>> {
        let mut out = Vec::with_capacity(len * ty.size());
        match *self {
            Init::Zeros => out.resize(len * ty.size(), 0),
            Init::Value(v) => {
                let mut one = Vec::new();
                ty.encode(v, &mut one).expect("validated");
                for _ in 0..len {
                    out.extend_from_slice(&one);
                }
            }
            Init::Iota { start, step } => {
                for i in 0..len {
                    if ty.is_float() {
                        ty.push_float(start.as_f64() + i as f64 * step.as_f64(), &mut out);
                    } else {
                        let v = start.as_int().expect("validated")
                            + i as i128 * step.as_int().expect("validated");
                        ty.push_int(v, &mut out);
                    }
                }
            }
            Init::Random { seed, min, max } => {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                if ty.is_float() {
                    let (lo, hi) = (min.as_f64(), max.as_f64());
                    for _ in 0..len {
                        let v = if lo < hi { rng.gen_range(lo..hi) } else { lo };
                        ty.push_float(v, &mut out);
                    }
                } else {
                    let (lo, hi) = (
                        min.as_int().expect("validated"),
                        max.as_int().expect("validated"),
                    );
                    let span = (hi - lo) as u128 + 1;
                    for _ in 0..len {
                        let off = if span > u64::MAX as u128 {
                            rng.gen::<u64>() as i128
                        } else {
                            rng.gen_range(0..span as u64) as i128
                        };
                        ty.push_int(lo + off, &mut out);
                    }
                }
            }
            Init::File(ref path) => {
                out = std::fs::read(path)?;
                if out.len() != len * ty.size() {
                    return Err(std::io::Error::other(format!(
                        "{}: has {} bytes, expected {}",
                        path.display(),
                        out.len(),
                        len * ty.size()
                    )));
                }
            }
        }
        Ok(out)
    }
}

/// Checks that a data file exists and fits a buffer of `ty`; returns its length in elements.
pub fn check_file(
    path: &Path,
    written: &str,
    ty: ScalarType,
    len: Option<usize>,
) -> Result<usize, String> {
    let meta = std::fs::metadata(path)
        .map_err(|e| format!("cannot read file {:?} ({}): {e}", written, path.display()))?;
    if !meta.is_file() {
        return Err(format!("{written:?} ({}) is not a file", path.display()));
    }
    let bytes = meta.len() as usize;
    let partial = bytes % ty.size();
    if partial > 0 {
        return Err(format!(
            "file {written:?} has {bytes} bytes, not a multiple of the {}-byte {ty}",
            ty.size()
        ));
    }
    if let Some(len) = len {
        if bytes != len * ty.size() {
            return Err(format!(
                "file {written:?} has {bytes} bytes; {len} {ty} elements need {}",
                len * ty.size()
            ));
        }
    }
    if bytes == 0 {
        return Err(format!("file {written:?} is empty"));
    }
    Ok(bytes / ty.size())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::Elem;

    fn raw(kind: &str) -> RawInit {
        RawInit {
            kind: kind.into(),
            ..Default::default()
        }
    }

    #[test]
    fn iota_and_value() {
        let dir = Path::new(".");
        let (init, _) = Init::from_raw(
            &RawInit {
                start: Some(Num::Int(5)),
                step: Some(Num::Int(-2)),
                ..raw("iota")
            },
            ScalarType::I16,
            Some(4),
            dir,
        )
        .unwrap();
        let bytes = init.generate(ScalarType::I16, 4).unwrap();
        let got: Vec<_> = (0..4).map(|i| ScalarType::I16.read(&bytes, i)).collect();
        assert_eq!(got, [5, 3, 1, -1].map(Elem::Int));
        let (init, _) = Init::from_raw(
            &RawInit {
                value: Some(Num::Float(0.5)),
                ..raw("value")
            },
            ScalarType::F64,
            Some(2),
            dir,
        )
        .unwrap();
        assert_eq!(
            init.generate(ScalarType::F64, 2).unwrap(),
            [0.5f64.to_le_bytes(), 0.5f64.to_le_bytes()].concat()
        );
    }

    #[test]
    fn random_is_seeded_and_in_range() {
        let dir = Path::new(".");
        let r = RawInit {
            seed: Some(Num::Int(7)),
            min: Some(Num::Int(-3)),
            max: Some(Num::Int(3)),
            ..raw("random")
        };
        let (init, _) = Init::from_raw(&r, ScalarType::I8, Some(1000), dir).unwrap();
        let a = init.generate(ScalarType::I8, 1000).unwrap();
        assert_eq!(a, init.generate(ScalarType::I8, 1000).unwrap());
        assert!(a.iter().all(|&b| (-3..=3).contains(&(b as i8))));
        let (init, _) = Init::from_raw(&raw("random"), ScalarType::U64, Some(10), dir).unwrap();
        assert_eq!(init.generate(ScalarType::U64, 10).unwrap().len(), 80);
        let f = RawInit {
            min: Some(Num::Float(-1.0)),
            max: Some(Num::Float(1.0)),
            ..raw("random")
        };
        let (init, _) = Init::from_raw(&f, ScalarType::F32, Some(100), dir).unwrap();
        let bytes = init.generate(ScalarType::F32, 100).unwrap();
        assert!((0..100).all(|i| matches!(ScalarType::F32.read(&bytes, i), Elem::Float(v) if (-1.0..1.0).contains(&v))));
    }

    #[test]
    fn problems_name_their_keys() {
        let dir = Path::new(".");
        let e = Init::from_raw(&raw("rand"), ScalarType::F32, Some(1), dir).unwrap_err();
        assert_eq!(e[0].0, "kind");
        assert!(e[0].1.contains("unknown initializer \"rand\""), "{e:?}");
        let r = RawInit {
            min: Some(Num::Int(5)),
            max: Some(Num::Int(1)),
            ..raw("random")
        };
        assert_eq!(
            Init::from_raw(&r, ScalarType::I32, Some(1), dir).unwrap_err()[0].0,
            "min"
        );
        let r = RawInit {
            value: Some(Num::Int(300)),
            ..raw("value")
        };
        assert_eq!(
            Init::from_raw(&r, ScalarType::U8, Some(1), dir).unwrap_err()[0].0,
            "value"
        );
        let r = RawInit {
            seed: Some(Num::Int(1)),
            ..raw("zeros")
        };
        assert_eq!(
            Init::from_raw(&r, ScalarType::U8, Some(1), dir).unwrap_err()[0].0,
            "seed"
        );
        let r = RawInit {
            start: Some(Num::Int(100)),
            step: Some(Num::Int(10)),
            ..raw("iota")
        };
        assert_eq!(
            Init::from_raw(&r, ScalarType::I8, Some(10), dir).unwrap_err()[0].0,
            "step"
        );
        let r = RawInit {
            path: Some("does-not-exist.bin".into()),
            ..raw("file")
        };
        assert_eq!(
            Init::from_raw(&r, ScalarType::U8, Some(1), dir).unwrap_err()[0].0,
            "path"
        );
    }
}
