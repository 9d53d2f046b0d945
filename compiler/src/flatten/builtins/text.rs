//! `String(x, <options>)` (specification 3.7.1.2): the text of a number, a Boolean or an
//! enumeration value. A value known when the model is compiled becomes a String then; a value
//! that changes while the model runs becomes a [`Text`] — literal pieces and values with the C
//! conversion the options give — that an external C function's String argument takes (the
//! MSL's `print(… + String(time))`): the shim formats it when it calls the function. Both
//! format with C's `snprintf` ([`crate::clib::text`]), so a value gives the same characters
//! either way.

use super::*;
use crate::clib::text::{Conv, ConvKind};

/// The named options of `String`.
const OPTIONS: [&str; 4] = [
    "minimumLength",
    "leftJustified",
    "significantDigits",
    "format",
];

impl<'a> Flattener<'_, 'a> {
    /// `String(x, <options>)`.
    pub(super) fn string_call(&mut self, c: &Call<'a, '_>) -> DResult<Val> {
        let a = match self.eval(c.arg(0), c.env)? {
            Val::Str(_) | Val::Text(_) | Val::Strs(_) => {
                return Err(Box::new(typed::STRING_OF_STRING.broken(
                    c.arg(0).span,
                    "String() of a String",
                    "a String",
                )))
            }
            Val::Record(_) => {
                return Err(Box::new(
                    Diagnostic::error("type", "String() of a record").at(c.arg(0).span, "a record"),
                ))
            }
            Val::Arr(a) if !a.dims.is_empty() => {
                return Err(Box::new(typed::STRING_OF_SCALAR.broken(
                    c.arg(0).span,
                    format!("String() of a {} array", dims_text(&a.dims)),
                    "an array",
                )))
            }
            Val::Arr(a) => a,
        };
        let x = a.data[0];
        let kind = match a.ty {
            ScalarType::Boolean => ConvKind::Boolean,
            ScalarType::Integer | ScalarType::Enum(_) => ConvKind::Integer,
            _ => ConvKind::Real,
        };
        let conv = self.string_options(c, kind)?;
        let value = self.fold(x);
        if let ScalarType::Enum(en) = a.ty {
            // An enumeration value: its literal's name, padded as the options say.
            let Some(v) = value else {
                return Err(self.unsupported(
                    c.arg(0).span,
                    "String() of an enumeration value that changes during simulation",
                ));
            };
            let name = self
                .enum_literal_name(en, v)
                .unwrap_or_else(|| format!("{}", v as i64));
            let pad = conv.width.saturating_sub(name.chars().count());
            let fill = " ".repeat(pad);
            return Ok(Val::Str(if conv.flags.contains('-') {
                format!("{name}{fill}")
            } else {
                format!("{fill}{name}")
            }));
        }
        match value {
            Some(v) => Ok(Val::Str(conv.format(v))),
            None if self.ctx.in_message => {
                let text = self.flat.expr_string(x);
                Ok(Val::Str(format!("<{text}>")))
            }
            None => Ok(Val::Text(Rc::new(Text {
                pieces: vec![TextPart::Value(x, conv)],
            }))),
        }
    }

    /// The conversion `String`'s named options give (checked as 3.7.1.2 says: known when
    /// the model is compiled, `significantDigits` only for a Real, `format` alone and one
    /// conversion the value's type allows).
    fn string_options(&mut self, c: &Call<'a, '_>, kind: ConvKind) -> DResult<Conv> {
        let mut min_len = 0;
        let mut left = true;
        let mut digits = 6;
        let mut format = None;
        for (name, e) in &c.args.named {
            let what = &*name.name;
            if !OPTIONS.contains(&what) {
                return Err(Box::new(
                    Diagnostic::error("arguments", format!("String has no option `{what}`"))
                        .at(name.span, "unknown option")
                        .help("Modelica 3.6 §3.7.1.2: String takes minimumLength, leftJustified, significantDigits (a Real only) or format"),
                ));
            }
            if what == "format" {
                match self.eval(e, c.env)? {
                    Val::Str(f) => format = Some((f, e.span)),
                    _ => {
                        return Err(Box::new(
                            Diagnostic::error(
                                "type",
                                "the format of String is a String known when the model is compiled",
                            )
                            .at(e.span, "here"),
                        ))
                    }
                }
                continue;
            }
            let (v, _) = self.eval_const_typed(e, c.env, "an option of String")?;
            match what {
                "minimumLength" => min_len = v.clamp(0.0, 4096.0) as usize,
                "leftJustified" => left = v != 0.0,
                _ => {
                    if kind != ConvKind::Real {
                        return Err(Box::new(
                            Diagnostic::error(
                                "arguments",
                                "significantDigits is only allowed when String formats a Real",
                            )
                            .at(name.span, "here")
                            .help("Modelica 3.6 §3.7.1.2: specifying significantDigits is an error when the first argument of String is an Integer (no type coercion is applied to it)"),
                        ));
                    }
                    digits = v.clamp(0.0, 4096.0) as usize;
                }
            }
        }
        let Some((f, span)) = format else {
            return Ok(Conv::options(kind, min_len, left, digits));
        };
        if c.args.named.len() > 1 {
            return Err(Box::new(
                Diagnostic::error(
                    "arguments",
                    "the format of String cannot be combined with its other options",
                )
                .at(c.args.span, "here")
                .help("Modelica 3.6 §3.7.1.2: the format string cannot be combined with any of the other named arguments"),
            ));
        }
        Conv::parse(&f, kind).map_err(|why| {
            Box::new(
                Diagnostic::error("arguments", format!("String format \"{f}\": {why}"))
                    .at(span, "here")
                    .help("Modelica 3.6 §3.7.1.2: one conversion without the leading %: f, e, E, g, G, and for an Integer also d, i, o, x, X, u, c; no length modifier, no `*`"),
            )
        })
    }
}
