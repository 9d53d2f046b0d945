//! The rule every door applies to a value entering a running model (UDP inputs, control
//! commands, and in the compiler the command line, CSV files and FMU setters): the value is
//! finite, within the variable's `min`/`max`, and of its type (an Integer or enumeration a whole
//! number, a Boolean 0 or 1). A value that breaks the rule is not applied: the variable keeps
//! its last good value, the rejection is counted per door and per variable ([`Tally`]) and the
//! first one of each is reported with its source; under `--bad-input stop` the run ends
//! instead.

use std::fmt;
use std::sync::Mutex;

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

/// A door of a running model: where a value or a command came in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Door {
    /// A datagram on `--inputs udp:`.
    Udp,
    /// A line on `--control` (standard input or UDP).
    Command,
}

impl fmt::Display for Door {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Door::Udp => "UDP input",
            Door::Command => "command",
        })
    }
}

/// What one door refused of one variable (or of one name that is no variable).
#[derive(Clone, Debug, PartialEq)]
pub struct Refused {
    pub door: Door,
    /// The variable, or a name in parentheses for what named none: `(unparsable)`, `(no
    /// input x)`, `(other names)` once the table is full.
    pub name: String,
    pub count: u64,
    /// The first refusal's message: the value, why, and its source.
    pub first: String,
}

/// The refusals of a run, counted per door and per variable. The first of each row is what
/// gets reported as it happens; the rest are counted and shown in the table at the end.
/// Shared by the receiving threads and the run loop: a refusal is rare, so a mutex costs
/// nothing on the path of good values.
#[derive(Debug, Default)]
pub struct Tally {
    rows: Mutex<Vec<Refused>>,
}

impl Tally {
    /// Rows kept at most: a flood of made-up names cannot grow the table without bound; the
    /// names past it share the row `(other names)`.
    pub const ROWS: usize = 64;

    /// Counts one refusal at `door` of `name`; `message` (called only for the first of its
    /// row) says what and why. Returns that message when this is the first of its row, to
    /// report it once.
    pub fn refuse(
        &self,
        door: Door,
        name: &str,
        message: impl FnOnce() -> String,
    ) -> Option<String> {
        let mut rows = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = rows.iter_mut().find(|r| r.door == door && r.name == name) {
            r.count += 1;
            return None;
        }
        let name = if rows.len() >= Self::ROWS {
            const OTHER: &str = "(other names)";
            if let Some(r) = rows.iter_mut().find(|r| r.door == door && r.name == OTHER) {
                r.count += 1;
                return None;
            }
            OTHER
        } else {
            name
        };
        let first = message();
        rows.push(Refused {
            door,
            name: name.to_string(),
            count: 1,
            first: first.clone(),
        });
        Some(first)
    }

    /// The rows, by door, in the order their first refusal came.
    pub fn rows(&self) -> Vec<Refused> {
        let mut rows = self.rows.lock().unwrap_or_else(|e| e.into_inner()).clone();
        rows.sort_by_key(|r| r.door);
        rows
    }

    /// Refusals at `door` of `name` so far.
    pub fn count(&self, door: Door, name: &str) -> u64 {
        let rows = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        rows.iter()
            .find(|r| r.door == door && r.name == name)
            .map_or(0, |r| r.count)
    }

    /// Every refusal at every door.
    pub fn total(&self) -> u64 {
        let rows = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        rows.iter().map(|r| r.count).sum()
    }

    /// The table, a line each (header first), for the end of a run; empty when nothing was
    /// refused.
    pub fn table(rows: &[Refused]) -> Vec<String> {
        if rows.is_empty() {
            return Vec::new();
        }
        let w_door = rows
            .iter()
            .map(|r| r.door.to_string().len())
            .max()
            .unwrap_or(0)
            .max(4);
        let w_name = rows.iter().map(|r| r.name.len()).max().unwrap_or(0).max(8);
        let mut out = vec![format!(
            "{:w_door$}  {:w_name$}  {:>7}  first",
            "door", "variable", "refused"
        )];
        for r in rows {
            out.push(format!(
                "{:w_door$}  {:w_name$}  {:>7}  {}",
                r.door.to_string(),
                r.name,
                r.count,
                r.first
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tally_counts_per_door_and_variable_and_reports_the_first() {
        let t = Tally::default();
        assert!(t.refuse(Door::Udp, "u", || "u = NaN".into()).is_some());
        assert!(t.refuse(Door::Udp, "u", || unreachable!()).is_none());
        assert!(t
            .refuse(Door::Command, "u", || "set u NaN".into())
            .is_some());
        assert_eq!(t.count(Door::Udp, "u"), 2);
        assert_eq!(t.count(Door::Command, "u"), 1);
        assert_eq!(t.total(), 3);
        for i in 0..200 {
            t.refuse(Door::Udp, &format!("(no input x{i})"), || "?".into());
        }
        let rows = t.rows();
        assert_eq!(rows.len(), Tally::ROWS + 1, "bounded");
        let other = rows.iter().find(|r| r.name == "(other names)").unwrap();
        assert_eq!(other.count, 200 - (Tally::ROWS as u64 - 2));
        assert_eq!(t.total(), 203);
        let table = Tally::table(&rows);
        assert!(table[1].starts_with("UDP input  u "), "{table:?}");
    }

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
