//! Device-side `printf` (`vprintf(format, args)`): C formatting of the argument buffer nvcc
//! builds (each argument at its natural alignment; floats are promoted to double).

/// Source of argument bytes and strings at device addresses.
pub trait ArgSource {
    fn read(&mut self, addr: u64, size: u32) -> Option<u64>;
    fn read_str(&mut self, addr: u64) -> String;
}

/// Formats `fmt` with the arguments at `args`, returning the text.
pub fn format(fmt: &str, args: u64, src: &mut dyn ArgSource) -> String {
    let mut out = String::new();
    let mut off = 0u64;
    let mut next = |size: u32, src: &mut dyn ArgSource| -> u64 {
        off = off.div_ceil(size as u64) * size as u64;
        let v = src.read(args.wrapping_add(off), size).unwrap_or(0);
        off += size as u64;
        v
    };
    let b = fmt.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            let start = i;
            while i < b.len() && b[i] != b'%' {
                i += 1;
            }
            out.push_str(&fmt[start..i]);
            continue;
        }
        let spec_start = i;
        i += 1;
        if i < b.len() && b[i] == b'%' {
            out.push('%');
            i += 1;
            continue;
        }
        let mut flags = String::new();
        while i < b.len() && b"-+ 0#".contains(&b[i]) {
            flags.push(b[i] as char);
            i += 1;
        }
        let mut width = 0usize;
        while i < b.len() && b[i].is_ascii_digit() {
            width = width * 10 + (b[i] - b'0') as usize;
            i += 1;
        }
        let mut precision: Option<usize> = None;
        if i < b.len() && b[i] == b'.' {
            i += 1;
            let mut p = 0;
            while i < b.len() && b[i].is_ascii_digit() {
                p = p * 10 + (b[i] - b'0') as usize;
                i += 1;
            }
            precision = Some(p);
        }
        let mut long = 0;
        while i < b.len() && b"hlLzjt".contains(&b[i]) {
            if b"lLzjt".contains(&b[i]) {
                long += 1;
            }
            i += 1;
        }
        if i >= b.len() {
            out.push_str(&fmt[spec_start..]);
            break;
        }
        let conv = b[i] as char;
        i += 1;
        let int_size = if long > 0 { 8 } else { 4 };
        let body = match conv {
            'd' | 'i' => {
                let v = next(int_size, src);
                let v = if int_size == 4 {
                    v as u32 as i32 as i64
                } else {
                    v as i64
                };
                signed_int(v, &flags, precision)
            }
            'u' | 'x' | 'X' | 'o' => {
                let v = next(int_size, src);
                let v = if int_size == 4 { v as u32 as u64 } else { v };
                let digits = match conv {
                    'u' => v.to_string(),
                    'x' => format!("{v:x}"),
                    'X' => format!("{v:X}"),
                    _ => format!("{v:o}"),
                };
                let digits = pad_precision(digits, precision);
                if flags.contains('#') && v != 0 {
                    match conv {
                        'x' => format!("0x{digits}"),
                        'X' => format!("0X{digits}"),
                        'o' => format!("0{digits}"),
                        _ => digits,
                    }
                } else {
                    digits
                }
            }
            'c' => ((next(4, src) as u8) as char).to_string(),
            's' => {
                let p = next(8, src);
                let s = src.read_str(p);
                match precision {
                    Some(n) => s.chars().take(n).collect(),
                    None => s,
                }
            }
            'p' => format!("0x{:x}", next(8, src)),
            'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => {
                let v = f64::from_bits(next(8, src));
                float(v, conv, &flags, precision)
            }
            _ => fmt[spec_start..i].to_string(),
        };
        pad(&mut out, body, width, &flags, conv);
    }
    out
}

fn pad_precision(digits: String, precision: Option<usize>) -> String {
    match precision {
        Some(p) if digits.len() < p => format!("{}{}", "0".repeat(p - digits.len()), digits),
        _ => digits,
    }
}

fn signed_int(v: i64, flags: &str, precision: Option<usize>) -> String {
    let digits = pad_precision(v.unsigned_abs().to_string(), precision);
    let sign = if v < 0 {
        "-"
    } else if flags.contains('+') {
        "+"
    } else if flags.contains(' ') {
        " "
    } else {
        ""
    };
    format!("{sign}{digits}")
}

fn float(v: f64, conv: char, flags: &str, precision: Option<usize>) -> String {
    let p = precision.unwrap_or(6);
    let sign = if v.is_sign_negative() && !v.is_nan() {
        "-"
    } else if flags.contains('+') {
        "+"
    } else if flags.contains(' ') {
        " "
    } else {
        ""
    };
    let a = v.abs();
    let upper = conv.is_ascii_uppercase();
    let body = if a.is_nan() {
        "nan".to_string()
    } else if a.is_infinite() {
        "inf".to_string()
    } else {
        match conv.to_ascii_lowercase() {
            'f' => format!("{a:.p$}"),
            'e' => exp_form(a, p),
            'a' => format!("{a:e}"),
            _ => {
                // %g: precision P (0 means 1); exponent form when X < -4 or X >= P.
                let p = p.max(1);
                let x = if a == 0.0 {
                    0
                } else {
                    exp_form(a, p - 1)
                        .rsplit('e')
                        .next()
                        .unwrap()
                        .parse::<i32>()
                        .unwrap_or(0)
                };
                let s = if x < -4 || x >= p as i32 {
                    exp_form(a, p - 1)
                } else {
                    format!("{a:.*}", (p as i32 - 1 - x).max(0) as usize)
                };
                if flags.contains('#') {
                    s
                } else {
                    strip_zeros(&s)
                }
            }
        }
    };
    let body = if upper { body.to_uppercase() } else { body };
    format!("{sign}{body}")
}

/// `d.ddde±XX` as C prints it (at least two exponent digits).
fn exp_form(a: f64, p: usize) -> String {
    let s = format!("{a:.p$e}");
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    format!("{mant}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
}

fn strip_zeros(s: &str) -> String {
    let (mant, exp) = match s.find('e') {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    let mant = if mant.contains('.') {
        mant.trim_end_matches('0').trim_end_matches('.')
    } else {
        mant
    };
    format!("{mant}{exp}")
}

fn pad(out: &mut String, body: String, width: usize, flags: &str, conv: char) {
    let len = body.chars().count();
    if len >= width {
        out.push_str(&body);
    } else if flags.contains('-') {
        out.push_str(&body);
        out.push_str(&" ".repeat(width - len));
    } else if flags.contains('0') && !matches!(conv, 's' | 'c') {
        let (sign, digits) = match body.chars().next() {
            Some(c @ ('-' | '+' | ' ')) => (c.to_string(), &body[1..]),
            _ => (String::new(), &body[..]),
        };
        out.push_str(&sign);
        out.push_str(&"0".repeat(width - len));
        out.push_str(digits);
    } else {
        out.push_str(&" ".repeat(width - len));
        out.push_str(&body);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Buf(Vec<u8>);
    impl ArgSource for Buf {
        fn read(&mut self, addr: u64, size: u32) -> Option<u64> {
            let a = addr as usize;
            let mut b = [0u8; 8];
            b[..size as usize].copy_from_slice(self.0.get(a..a + size as usize)?);
            Some(u64::from_le_bytes(b))
        }
        fn read_str(&mut self, _addr: u64) -> String {
            "str".into()
        }
    }

    #[test]
    fn formats_like_c() {
        let mut buf = Vec::new();
        buf.extend_from_slice(&(-42i32).to_le_bytes());
        buf.extend_from_slice(&[0; 4]);
        buf.extend_from_slice(&1.5f64.to_le_bytes());
        buf.extend_from_slice(&255u64.to_le_bytes());
        buf.extend_from_slice(&0x1000u64.to_le_bytes());
        let s = format("a=%5d f=%.3f x=%#lx s=%s %%\n", 0, &mut Buf(buf));
        assert_eq!(s, "a=  -42 f=1.500 x=0xff s=str %\n");
        let mut buf = Vec::new();
        buf.extend_from_slice(&0.0001234f64.to_le_bytes());
        buf.extend_from_slice(&123456789.0f64.to_le_bytes());
        buf.extend_from_slice(&7i32.to_le_bytes());
        assert_eq!(
            format("%g %e %03d", 0, &mut Buf(buf)),
            "0.0001234 1.234568e+08 007"
        );
    }
}
