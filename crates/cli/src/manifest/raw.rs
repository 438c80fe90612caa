//! The manifest as written: serde types with `deny_unknown_fields`. Everything that serde
//! cannot check (ranges, cross references, files) is checked in `validate`.

use std::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;

use crate::scalar::{Num, ScalarType};

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct RawManifest {
    pub ptx: String,
    pub kernel: Option<String>,
    pub grid: Option<Dims>,
    pub block: Option<Dims>,
    pub dynamic_shared: Option<i64>,
    pub max_warp_instructions: Option<i64>,
    /// Registers per thread by kernel name (timing mode's occupancy).
    pub registers: Option<std::collections::BTreeMap<String, i64>>,
    /// Exact text every launch together must print.
    pub expect_printf: Option<String>,
    #[serde(default)]
    pub buffer: Vec<RawBuffer>,
    #[serde(default)]
    pub arg: Vec<RawArg>,
    #[serde(default)]
    pub launch: Vec<RawLaunch>,
    #[serde(default)]
    pub check: Vec<RawCheck>,
    #[serde(default)]
    pub dump: Vec<RawDump>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct RawLaunch {
    pub kernel: Option<String>,
    pub grid: Option<Dims>,
    pub block: Option<Dims>,
    pub dynamic_shared: Option<i64>,
    /// How many times to launch (default 1).
    pub repeat: Option<i64>,
    #[serde(default)]
    pub arg: Vec<RawArg>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RawBuffer {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: ScalarType,
    /// Elements; may be left out when `init` is a file (taken from the file's size).
    pub len: Option<i64>,
    pub init: Option<RawInit>,
}

/// An initializer (or an expected-value generator in a check). Which keys are allowed depends
/// on `kind`; `validate` enforces that.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct RawInit {
    pub kind: String,
    pub value: Option<Num>,
    pub start: Option<Num>,
    pub step: Option<Num>,
    pub seed: Option<Num>,
    pub min: Option<Num>,
    pub max: Option<Num>,
    pub path: Option<String>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct RawArg {
    /// The device pointer of this buffer.
    pub buffer: Option<String>,
    /// A scalar (needs `type`).
    pub value: Option<Num>,
    #[serde(rename = "type")]
    pub ty: Option<ScalarType>,
    /// Raw parameter bytes (by-value structs).
    pub bytes: Option<Vec<i64>>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct RawCheck {
    pub buffer: String,
    pub equals_file: Option<String>,
    pub equals_buffer: Option<String>,
    pub expect: Option<RawInit>,
    pub tolerance: Option<RawTolerance>,
}

#[derive(Deserialize, Debug, Default, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub struct RawTolerance {
    pub rel: Option<f64>,
    pub abs: Option<f64>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct RawDump {
    pub buffer: String,
    pub path: String,
    pub format: Option<String>,
}

/// `grid = 64` or `grid = [64, 2]`: one to three extents (range-checked in `validate`).
#[derive(Debug, Clone, PartialEq)]
pub struct Dims(pub Vec<i64>);

impl<'de> Deserialize<'de> for Dims {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Dims;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an integer or an array of one to three integers")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Dims, E> {
                Ok(Dims(vec![v]))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Dims, E> {
                Ok(Dims(vec![i64::try_from(v).unwrap_or(i64::MAX)]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Dims, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = seq.next_element::<i64>()? {
                    v.push(x);
                }
                Ok(Dims(v))
            }
        }
        d.deserialize_any(V)
    }
}
