//! Element types of manifest buffers and scalar arguments, and manifest numbers.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarType {
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    U64,
    I64,
    F32,
    F64,
}

use ScalarType::*;

impl ScalarType {
    pub const ALL: [ScalarType; 10] = [U8, I8, U16, I16, U32, I32, U64, I64, F32, F64];

    pub fn name(self) -> &'static str {
        match self {
            U8 => "u8",
            I8 => "i8",
            U16 => "u16",
            I16 => "i16",
            U32 => "u32",
            I32 => "i32",
            U64 => "u64",
            I64 => "i64",
            F32 => "f32",
            F64 => "f64",
        }
    }

    /// Size in bytes.
    pub fn size(self) -> usize {
        match self {
            U8 | I8 => 1,
            U16 | I16 => 2,
            U32 | I32 | F32 => 4,
            U64 | I64 | F64 => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, F32 | F64)
    }

    /// Inclusive range of an integer type.
    pub fn int_range(self) -> (i128, i128) {
        let bits = 8 * self.size() as u32;
        match self {
            U8 | U16 | U32 | U64 => (0, (1i128 << bits) - 1),
            I8 | I16 | I32 | I64 => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
            F32 | F64 => (i128::MIN, i128::MAX),
        }
    }

    pub fn parse(s: &str) -> Option<ScalarType> {
        Self::ALL.into_iter().find(|t| t.name() == s)
    }

    pub fn names() -> String {
        Self::ALL.map(|t| t.name()).join(", ")
    }

    /// Appends `v` (already range-checked, or deliberately truncated) little-endian.
    pub fn push_int(self, v: i128, out: &mut Vec<u8>) {
        debug_assert!(!self.is_float());
        out.extend_from_slice(&v.to_le_bytes()[..self.size()]);
    }

    pub fn push_float(self, v: f64, out: &mut Vec<u8>) {
        match self {
            F32 => out.extend_from_slice(&(v as f32).to_le_bytes()),
            F64 => out.extend_from_slice(&v.to_le_bytes()),
            _ => unreachable!("push_float on an integer type"),
        }
    }

    /// Encodes one manifest number as this type, checking that it is representable.
    pub fn encode(self, n: Num, out: &mut Vec<u8>) -> Result<(), String> {
        if self.is_float() {
            self.push_float(n.as_f64(), out);
        } else {
            let v = self.checked_int(n)?;
            self.push_int(v, out);
        }
        Ok(())
    }

    /// `n` as an integer of this type: integral and in range.
    pub fn checked_int(self, n: Num) -> Result<i128, String> {
        let v = n
            .as_int()
            .ok_or_else(|| format!("{n} is not an integer (type {})", self.name()))?;
        let (lo, hi) = self.int_range();
        if v < lo || v > hi {
            return Err(format!(
                "{n} is out of range for {} ({lo}..={hi})",
                self.name()
            ));
        }
        Ok(v)
    }

    /// `e` (an element of this type) as text: integers in decimal, floats in the shortest form
    /// that reads back to the same value of this type (`0.1` for the f32 nearest 0.1).
    pub fn show(self, e: Elem) -> String {
        match e {
            Elem::Float(v) if self == F32 => format!("{:?}", v as f32),
            e => e.to_string(),
        }
    }

    /// Decodes element `i` of a little-endian buffer of this type.
    pub fn read(self, bytes: &[u8], i: usize) -> Elem {
        let s = self.size();
        let b = &bytes[i * s..(i + 1) * s];
        match self {
            U8 => Elem::Int(b[0] as i128),
            I8 => Elem::Int(b[0] as i8 as i128),
            U16 => Elem::Int(u16::from_le_bytes([b[0], b[1]]) as i128),
            I16 => Elem::Int(i16::from_le_bytes([b[0], b[1]]) as i128),
            U32 => Elem::Int(u32::from_le_bytes(b.try_into().unwrap()) as i128),
            I32 => Elem::Int(i32::from_le_bytes(b.try_into().unwrap()) as i128),
            U64 => Elem::Int(u64::from_le_bytes(b.try_into().unwrap()) as i128),
            I64 => Elem::Int(i64::from_le_bytes(b.try_into().unwrap()) as i128),
            F32 => Elem::Float(f32::from_le_bytes(b.try_into().unwrap()) as f64),
            F64 => Elem::Float(f64::from_le_bytes(b.try_into().unwrap())),
        }
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl<'de> Deserialize<'de> for ScalarType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        ScalarType::parse(&s).ok_or_else(|| {
            de::Error::custom(format!(
                "unknown type {s:?}; expected one of {}",
                ScalarType::names()
            ))
        })
    }
}

/// One decoded buffer element.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Elem {
    Int(i128),
    Float(f64),
}

impl fmt::Display for Elem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Elem::Int(v) => write!(f, "{v}"),
            // `{:?}` prints the shortest representation that round-trips.
            Elem::Float(v) => write!(f, "{v:?}"),
        }
    }
}

/// A number written in a manifest: a TOML integer or float, or a string holding one
/// (`"0xff"`, `"18446744073709551615"`, `"inf"`, `"-inf"`, `"nan"`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(v) => v as f64,
            Num::Float(v) => v,
        }
    }

    /// The integer value, if the number is integral.
    pub fn as_int(self) -> Option<i128> {
        match self {
            Num::Int(v) => Some(v),
            Num::Float(v) if v.is_finite() && v.fract() == 0.0 && v.abs() < 1.7e38 => {
                Some(v as i128)
            }
            Num::Float(_) => None,
        }
    }

    pub fn parse(s: &str) -> Option<Num> {
        let t = s.trim().replace('_', "");
        let (neg, digits) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t.strip_prefix('+').unwrap_or(&t)),
        };
        let int = if let Some(hex) = digits
            .strip_prefix("0x")
            .or_else(|| digits.strip_prefix("0X"))
        {
            i128::from_str_radix(hex, 16).ok()
        } else if let Some(bin) = digits.strip_prefix("0b") {
            i128::from_str_radix(bin, 2).ok()
        } else {
            digits.parse::<i128>().ok()
        };
        if let Some(v) = int {
            return Some(Num::Int(if neg { -v } else { v }));
        }
        t.parse::<f64>().ok().map(Num::Float)
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::Int(v) => write!(f, "{v}"),
            Num::Float(v) => write!(f, "{v:?}"),
        }
    }
}

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Num;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number (integer, float, or a string such as \"0xff\" or \"inf\")")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Num, E> {
                Ok(Num::Int(v as i128))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Num, E> {
                Ok(Num::Int(v as i128))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Num, E> {
                Ok(Num::Float(v))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Num, E> {
                Num::parse(s).ok_or_else(|| E::custom(format!("{s:?} is not a number")))
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_numbers() {
        assert_eq!(Num::parse("0xff"), Some(Num::Int(255)));
        assert_eq!(Num::parse("-0x10"), Some(Num::Int(-16)));
        assert_eq!(
            Num::parse("18446744073709551615"),
            Some(Num::Int(u64::MAX as i128))
        );
        assert_eq!(Num::parse("1.5"), Some(Num::Float(1.5)));
        assert!(matches!(Num::parse("nan"), Some(Num::Float(v)) if v.is_nan()));
        assert_eq!(Num::parse("-inf"), Some(Num::Float(f64::NEG_INFINITY)));
        assert_eq!(Num::parse("abc"), None);
    }

    #[test]
    fn encode_checks_range_and_integrality() {
        let mut out = Vec::new();
        assert!(U8.encode(Num::Int(256), &mut out).is_err());
        assert!(I8.encode(Num::Int(-129), &mut out).is_err());
        assert!(I32.encode(Num::Float(1.5), &mut out).is_err());
        I16.encode(Num::Float(-2.0), &mut out).unwrap();
        U64.encode(Num::Int(u64::MAX as i128), &mut out).unwrap();
        F32.encode(Num::Int(3), &mut out).unwrap();
        assert_eq!(out.len(), 2 + 8 + 4);
        assert_eq!(I16.read(&out, 0), Elem::Int(-2));
        assert_eq!(U64.read(&out[2..], 0), Elem::Int(u64::MAX as i128));
        assert_eq!(F32.read(&out[10..], 0), Elem::Float(3.0));
        assert_eq!(F32.show(Elem::Float(0.1f32 as f64)), "0.1");
        assert_eq!(F64.show(Elem::Float(0.1)), "0.1");
        assert_eq!(I8.show(Elem::Int(-3)), "-3");
    }
}
