//! The rule every door applies to a value entering a running model (UDP inputs, control
//! commands, and in the compiler the command line, CSV files and FMU setters): the value is
//! finite, within the variable's `min`/`max`, and of its type (an Integer or enumeration a whole
//! number, a Boolean 0 or 1). A value that breaks the rule is not applied: the variable keeps
//! its last good value, the rejection is counted (per UDP input; a command is logged) and the
//! first one is reported with its source; under `--bad-input stop` the run ends instead.

use std::fmt;

/// The type of a variable's values, as far as a door checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ValueKind {
    #[default]
    Real,
    /// Integer and enumeration values: whole numbers (an enumeration's range is its `min`
    /// and `max`).
    Integer,
    Boolean,
}

/// What a value entering the model must satisfy: the variable's declared bounds and type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Admissible {
    pub min: f64,
    pub max: f64,
    pub kind: ValueKind,
}

impl Default for Admissible {
    fn default() -> Admissible {
        Admissible::ANY
    }
}

/// Why a value was not applied.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rejection {
    NonFinite,
    BelowMin(f64),
    AboveMax(f64),
    NotWhole,
    NotBoolean,
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::NonFinite => write!(f, "not finite"),
            Rejection::BelowMin(m) => write!(f, "below its min = {m}"),
            Rejection::AboveMax(m) => write!(f, "above its max = {m}"),
            Rejection::NotWhole => write!(f, "not a whole number (an Integer)"),
            Rejection::NotBoolean => write!(f, "not 0 or 1 (a Boolean)"),
        }
    }
}

impl Admissible {
    /// Any finite Real.
    pub const ANY: Admissible = Admissible {
        min: f64::NEG_INFINITY,
        max: f64::INFINITY,
        kind: ValueKind::Real,
    };

    /// `Ok(v)` where `v` may enter, else why not.
    pub fn check(&self, v: f64) -> Result<f64, Rejection> {
        if !v.is_finite() {
            return Err(Rejection::NonFinite);
        }
        match self.kind {
            ValueKind::Integer if v.fract() != 0.0 => return Err(Rejection::NotWhole),
            ValueKind::Boolean if v != 0.0 && v != 1.0 => return Err(Rejection::NotBoolean),
            _ => {}
        }
        if v < self.min {
            return Err(Rejection::BelowMin(self.min));
        }
        if v > self.max {
            return Err(Rejection::AboveMax(self.max));
        }
        Ok(v)
    }
}

/// What a run does with a value a door rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BadInput {
    /// The variable keeps its last good value; the run goes on (counted and reported).
    #[default]
    Hold,
    /// The run ends after the current frame, naming the value and its source.
    Stop,
}

impl std::str::FromStr for BadInput {
    type Err = String;
    fn from_str(s: &str) -> Result<BadInput, String> {
        match s {
            "hold" => Ok(BadInput::Hold),
            "stop" => Ok(BadInput::Stop),
            _ => Err(format!("`{s}`: the bad-input policies are hold and stop")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule() {
        let any = Admissible::ANY;
        assert_eq!(any.check(1e300), Ok(1e300));
        assert_eq!(any.check(f64::NAN), Err(Rejection::NonFinite));
        assert_eq!(any.check(f64::INFINITY), Err(Rejection::NonFinite));
        let r = Admissible {
            min: 0.0,
            max: 10.0,
            kind: ValueKind::Real,
        };
        assert_eq!(r.check(-1.0), Err(Rejection::BelowMin(0.0)));
        assert_eq!(r.check(10.5), Err(Rejection::AboveMax(10.0)));
        assert_eq!(
            r.check(f64::MIN_POSITIVE / 2.0),
            Ok(f64::MIN_POSITIVE / 2.0)
        );
        let i = Admissible {
            kind: ValueKind::Integer,
            ..Admissible::ANY
        };
        assert_eq!(i.check(2.5), Err(Rejection::NotWhole));
        assert_eq!(i.check(-3.0), Ok(-3.0));
        let b = Admissible {
            kind: ValueKind::Boolean,
            ..Admissible::ANY
        };
        assert_eq!(b.check(2.0), Err(Rejection::NotBoolean));
        assert_eq!(b.check(1.0), Ok(1.0));
    }
}
