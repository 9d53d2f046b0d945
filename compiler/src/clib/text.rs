//! `String(x, <options>)` as C's `printf` formats it (specification 3.7.1.2).
//!
//! The specification defines `String` of a number by a C conversion: the options give
//! `(if leftJustified then "-" else "") + String(minimumLength) + "." +
//! String(significantDigits) + "g"` for a Real and `… + "d"` for an Integer, and `format`
//! gives one conversion without its `%`. A [`Conv`] is that conversion, checked (no length
//! modifier, no `*`, a letter the value's type allows). The same conversion formats a value
//! known when the model is compiled (here, with the C library's `snprintf`) and one known only
//! while it runs (in a shim's C code, [`super::shim::Arg::Text`]), so the two give the same
//! characters.

use std::fmt::Write as _;

/// The type of the value a conversion formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConvKind {
    Real,
    Integer,
    /// `true`/`false` (`%s`, padded to the minimum length).
    Boolean,
}

/// One C conversion: flags, width, precision and letter (without `%` and length modifier).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Conv {
    pub flags: String,
    pub width: usize,
    pub precision: Option<usize>,
    pub letter: char,
    pub kind: ConvKind,
}

/// Why a `format` string is not one the specification allows.
pub type FormatError = String;

/// The longest text `%f` can give for a double (308 digits before the point).
const F_DIGITS: usize = 320;

impl Conv {
    /// The conversion the options give (3.7.1.2).
    pub fn options(kind: ConvKind, min_len: usize, left: bool, digits: usize) -> Conv {
        let (precision, letter) = match kind {
            ConvKind::Real => (Some(digits), 'g'),
            ConvKind::Integer => (None, 'd'),
            ConvKind::Boolean => (None, 's'),
        };
        Conv {
            flags: if left { "-".into() } else { String::new() },
            width: min_len,
            precision,
            letter,
            kind,
        }
    }

    /// A `format` string: one conversion without the leading `%`.
    pub fn parse(format: &str, kind: ConvKind) -> Result<Conv, FormatError> {
        let b = format.as_bytes();
        let mut i = 0;
        while i < b.len() && b"-+ #0".contains(&b[i]) {
            i += 1;
        }
        let flags = format[..i].to_string();
        let digits = |i: &mut usize| {
            let s = *i;
            while *i < b.len() && b[*i].is_ascii_digit() {
                *i += 1;
            }
            format[s..*i].parse::<usize>().ok()
        };
        let width = digits(&mut i).unwrap_or(0);
        let precision = if b.get(i) == Some(&b'.') {
            i += 1;
            Some(digits(&mut i).unwrap_or(0))
        } else {
            None
        };
        if b.get(i) == Some(&b'*') {
            return Err("`*` for a width or precision is not allowed".into());
        }
        if b.get(i).is_some_and(|c| b"hlLqjzt".contains(c)) {
            return Err("a length modifier is not allowed".into());
        }
        let Some(&letter) = b.get(i) else {
            return Err("the conversion letter is missing".into());
        };
        if i + 1 != b.len() {
            return Err("it must be a single conversion (without `%`)".into());
        }
        let letter = letter as char;
        let allowed = match kind {
            ConvKind::Integer if letter == 'u' => "u",
            ConvKind::Real | ConvKind::Integer => "feEgGdiouxXc",
            ConvKind::Boolean => "",
        };
        if !allowed.contains(letter) {
            return Err(format!("`{letter}` is not a conversion for this value"));
        }
        if width > 4096 || precision.is_some_and(|p| p > 4096) {
            return Err("its width or precision exceeds 4096".into());
        }
        Ok(Conv {
            flags,
            width,
            precision,
            letter,
            kind,
        })
    }

    /// Whether the letter takes an integer (`d`, `x`, …): a Real is rounded to one first
    /// (the specification's deprecated case: "rounding the value").
    fn integral(&self) -> bool {
        "diouxXc".contains(self.letter)
    }

    /// Whether the C argument is a `long` (an `int` for `c`).
    fn long(&self) -> bool {
        "diouxX".contains(self.letter)
    }

    /// The conversion as C writes it, with the length modifier the argument's C type needs.
    pub fn c_spec(&self) -> String {
        let mut s = format!("%{}", self.flags);
        if self.width > 0 {
            let _ = write!(s, "{}", self.width);
        }
        if let Some(p) = self.precision {
            let _ = write!(s, ".{p}");
        }
        if self.long() {
            s.push('l');
        }
        s.push(self.letter);
        s
    }

    /// The C argument for value `x` (a C `double` expression).
    pub fn c_arg(&self, x: &str) -> String {
        match self.kind {
            ConvKind::Boolean => format!("(({x}) != 0.0 ? \"true\" : \"false\")"),
            _ if self.long() => format!("(long)llround({x})"),
            _ if self.integral() => format!("(int)llround({x})"),
            _ => format!("(double)({x})"),
        }
    }

    /// The most characters the conversion can give (the shim's buffer is this long).
    pub fn bound(&self) -> usize {
        let p = self.precision.unwrap_or(6);
        let body = match self.letter {
            'f' | 'F' => F_DIGITS + p,
            's' => 5,
            'c' => 1,
            'o' => 24,
            _ => 32 + p,
        };
        body.max(self.width) + 1
    }

    /// The text for `x`, made by the C library's `snprintf` (as a shim makes it while the
    /// model runs).
    pub fn format(&self, x: f64) -> String {
        let spec = std::ffi::CString::new(self.c_spec()).expect("no NUL in a conversion");
        let mut buf = vec![0u8; self.bound() + 1];
        let n = buf.len();
        let p = buf.as_mut_ptr().cast::<libc::c_char>();
        // SAFETY: the conversion is one checked by `parse`/`options` (its argument's type is
        // the one passed below), and `snprintf` writes at most `n` bytes into `buf`.
        let written = unsafe {
            match self.kind {
                ConvKind::Boolean => {
                    let v: &[u8] = if x != 0.0 { b"true\0" } else { b"false\0" };
                    libc::snprintf(p, n, spec.as_ptr(), v.as_ptr().cast::<libc::c_char>())
                }
                _ if self.long() => libc::snprintf(p, n, spec.as_ptr(), x.round() as libc::c_long),
                _ if self.integral() => {
                    libc::snprintf(p, n, spec.as_ptr(), x.round() as libc::c_int)
                }
                _ => libc::snprintf(p, n, spec.as_ptr(), x),
            }
        };
        buf.truncate((written.max(0) as usize).min(n - 1));
        String::from_utf8_lossy(&buf).into_owned()
    }
}

/// `%` doubled, for literal text in a C format string.
pub fn c_literal_format(s: &str) -> String {
    s.replace('%', "%%")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_options_give_the_specifications_conversion() {
        let g = Conv::options(ConvKind::Real, 0, true, 6);
        assert_eq!(g.c_spec(), "%-.6g");
        assert_eq!(g.format(12.3456), "12.3456");
        assert_eq!(g.format(1.23456e-10), "1.23456e-10");
        assert_eq!(g.format(12345600.0), "1.23456e+07");
        let d = Conv::options(ConvKind::Integer, 5, false, 6);
        assert_eq!(d.format(42.0), "   42");
        let b = Conv::options(ConvKind::Boolean, 6, true, 6);
        assert_eq!(b.format(1.0), "true  ");
    }

    #[test]
    fn format_strings_are_checked() {
        assert_eq!(
            Conv::parse("8.3f", ConvKind::Real).unwrap().format(1.23456),
            "   1.235"
        );
        assert_eq!(
            Conv::parse("x", ConvKind::Integer).unwrap().format(255.0),
            "ff"
        );
        assert!(Conv::parse("*.3f", ConvKind::Real).is_err());
        assert!(Conv::parse("lf", ConvKind::Real).is_err());
        assert!(Conv::parse("f%d", ConvKind::Real).is_err());
        assert!(Conv::parse("s", ConvKind::Real).is_err());
    }
}
