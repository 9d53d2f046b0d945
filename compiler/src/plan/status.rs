//! What a step reports: the status codes of the step function's ABI, shared by the plan
//! interpreter, the generated code and the run loop (the numbers are the C header's).

use super::{BlockId, EventId, Plan};
use crate::plan::Slot;

/// The outcome of a step (or of the initial solve).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Status {
    Ok,
    /// A Newton block did not converge within its iteration limit.
    NotConverged {
        block: BlockId,
        residual: f64,
    },
    /// The Jacobian of a block was singular (a zero pivot).
    Singular {
        block: BlockId,
    },
    /// A variable became infinite or NaN.
    NonFinite {
        var: Slot,
    },
    /// An event came back faster than the step resolves (the chattering rule of
    /// [`crate::sim::Events`]; never returned by the step function itself).
    Chattering {
        event: EventId,
    },
    /// The event iteration at an instant did not settle (never returned by the step
    /// function itself).
    EventIteration {
        still: Unsettled,
    },
    /// `terminate` ran in an event's actions: the run ends after the step (not a failure).
    Terminated {
        event: EventId,
    },
    /// An `assert` of the model was false after a step (checked by the run loop, not by the
    /// step function itself).
    Assertion {
        index: usize,
    },
}

impl Status {
    /// The kind's number: the low bits of the [`StatusWord`], the process's exit detail and
    /// the C header's `<P>_OK` … `<P>_ASSERTION`.
    pub fn code(self) -> i32 {
        match self {
            Status::Ok => kind::OK,
            Status::NotConverged { .. } => kind::NOT_CONVERGED,
            Status::NonFinite { .. } => kind::NON_FINITE,
            Status::Singular { .. } => kind::SINGULAR,
            Status::Chattering { .. } => kind::CHATTERING,
            Status::EventIteration { .. } => kind::EVENT_ITERATION,
            Status::Terminated { .. } => kind::TERMINATED,
            Status::Assertion { .. } => kind::ASSERTION,
        }
    }
}

/// What still changed when an instant's event iteration ran out of rounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Unsettled {
    /// An event still firing.
    Event(EventId),
    /// A discrete-valued variable still changing: the index of its pair in
    /// [`Plan::discrete_pre`].
    Variable(usize),
}

/// The kinds of status, by number (the step function returns the first four; the run loop
/// adds the others).
pub mod kind {
    pub const OK: i32 = 0;
    pub const NOT_CONVERGED: i32 = 1;
    pub const NON_FINITE: i32 = 2;
    pub const SINGULAR: i32 = 3;
    pub const CHATTERING: i32 = 4;
    pub const EVENT_ITERATION: i32 = 5;
    pub const TERMINATED: i32 = 6;
    pub const ASSERTION: i32 = 7;
}

/// The status word of the step function's ABI (`int32_t`): the kind ([`kind`]) in the low
/// [`StatusWord::KIND_BITS`] bits and its detail above them — the block of a Newton failure or
/// of a singular Jacobian, the slot of a non-finite value, the assertion that failed. The
/// generated code writes it ([`StatusWord::new`], or [`StatusWord::KIND_BITS`] for a detail
/// known only at run time), the JIT reads it ([`StatusWord::kind`], [`StatusWord::detail`]),
/// and the C header's `STATUS_KIND`/`STATUS_DETAIL` macros are written from the same
/// constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatusWord(pub i32);

impl StatusWord {
    pub const KIND_BITS: u32 = 4;
    pub const KIND_MASK: i32 = (1 << Self::KIND_BITS) - 1;
    /// Details must fit the bits above the kind.
    pub const MAX_DETAIL: usize = (i32::MAX >> Self::KIND_BITS) as usize;

    pub fn new(kind: i32, detail: usize) -> StatusWord {
        debug_assert!((0..=Self::KIND_MASK).contains(&kind));
        debug_assert!(
            detail <= Self::MAX_DETAIL,
            "status detail {detail} too large"
        );
        StatusWord(kind | ((detail as i32) << Self::KIND_BITS))
    }

    pub fn kind(self) -> i32 {
        self.0 & Self::KIND_MASK
    }

    pub fn detail(self) -> usize {
        (self.0 >> Self::KIND_BITS) as usize
    }
}

/// At most this many rounds of the event iteration at one instant (each solves the model at
/// the instant): conditions that became true fire their when-equations, whose actions, and
/// the discrete variables their values change, may make others true.
pub const EVENT_ITERATIONS: usize = 20;

/// An event handled again less than this many steps after its previous one is *close*.
pub const ZENO_STEPS: f64 = 8.0;

/// The relative tolerance of a frozen relation's threshold ([`super::Plan::relation_scales`]):
/// the Newton iteration's (a value it computes is known to that and no better). A relation
/// whose function is closer to zero than this, relative to its operands, keeps its value.
pub const THRESHOLD_RTOL: f64 = 1e-10;

/// The largest residual magnitude of a block that did not converge, NaN where one is not
/// finite (the last iterate left the region where the block's equations are defined).
pub fn largest_residual(r: &[f64]) -> f64 {
    if r.iter().all(|x| x.is_finite()) {
        r.iter().fold(0.0f64, |m, x| m.max(x.abs()))
    } else {
        f64::NAN
    }
}

/// Why a torn block's Jacobian is singular at `mem`, the memory the failing step left (its
/// last iterate and tangents): the tearing variables no residual depends on there (a zero
/// column), else the residuals that depend on no tearing variable (a zero row), else
/// non-finite entries, else columns that are dependent without any being zero.
pub fn singular_cause(plan: &Plan, mem: &[f64], block: BlockId) -> Option<String> {
    let b = plan.init.iter().chain(&plan.step).find_map(|s| match s {
        super::Stmt::Block(b) if b.index == block => Some(b),
        _ => None,
    })?;
    let k = b.tearing.len();
    let j: Vec<f64> = b
        .jacobian
        .iter()
        .map(|&e| {
            crate::symbolic::eval::eval(
                &plan.arena,
                e,
                &mut |x| mem[x.index()],
                mem[plan.time.index()],
            )
        })
        .collect();
    let names = |cols: Vec<usize>| -> String {
        let v: Vec<String> = cols
            .iter()
            .map(|&c| format!("`{}`", plan.vars[b.tearing[c]].name))
            .collect();
        v.join(", ")
    };
    let zero_cols: Vec<usize> = (0..k)
        .filter(|&c| (0..k).all(|r| j[r * k + c] == 0.0))
        .collect();
    if !zero_cols.is_empty() {
        return Some(format!(
            "at the iterate where it failed no residual of the loop depends on {} (a zero column of its Jacobian): the loop does not determine it there (a switch or a limiter in a region where the variable drops out, a capacitance or conductance that is zero at this point)",
            names(zero_cols)
        ));
    }
    let zero_rows: Vec<String> = (0..k)
        .filter(|&r| (0..k).all(|c| j[r * k + c] == 0.0))
        .map(|r| format!("{r}"))
        .collect();
    if !zero_rows.is_empty() {
        return Some(format!(
            "at the iterate where it failed residual {} of the loop (`rtc analyze` lists them) depends on none of its tearing variables (a zero row of its Jacobian)",
            zero_rows.join(", ")
        ));
    }
    let bad: Vec<usize> = (0..k)
        .filter(|&c| (0..k).any(|r| !j[r * k + c].is_finite()))
        .collect();
    if !bad.is_empty() {
        return Some(format!(
            "at the iterate where it failed the Jacobian's entries for {} are not finite (the iteration left the region where the loop's equations are defined)",
            names(bad)
        ));
    }
    Some(format!(
        "at the iterate where it failed no column of the loop's Jacobian is zero: its columns are linearly dependent there (its tearing variables: {})",
        names((0..k).collect())
    ))
}

/// Describes a non-ok status in the user's terms.
pub fn describe(plan: &Plan, status: Status) -> String {
    match status {
        Status::Ok => "ok".into(),
        Status::NonFinite { var } => format!(
            "`{}` became non-finite",
            plan.name_of(var)
        ),
        Status::NotConverged { block, residual } => {
            let damped = match plan.newton.damped {
                0 => String::new(),
                d => format!(" nor in {d} damped evaluations"),
            };
            let extended = match plan.newton.extended {
                0 => String::new(),
                _ => format!(
                    " (up to {} while the residual kept falling)",
                    plan.newton.full_iterations()
                ),
            };
            let residual = if residual.is_finite() {
                format!("residual {residual:e}")
            } else {
                "its residuals not finite at the last iterate: the iteration left the region where the block's equations are defined; a shorter step starts it closer to the solution".into()
            };
            format!("Newton iteration of block {block} did not converge in {} iterations{extended}{damped} ({residual})", plan.newton.max_iterations)
        }
        Status::Singular { block } => format!("the Jacobian of block {block} is singular"),
        Status::EventIteration {
            still: Unsettled::Event(event),
        } => format!(
            "the event iteration did not settle in {EVENT_ITERATIONS} rounds (event {event}, `{}`, still firing)",
            plan.events[event].text
        ),
        Status::EventIteration {
            still: Unsettled::Variable(d),
        } => format!(
            "the event iteration did not settle in {EVENT_ITERATIONS} rounds (`{}` still changes)",
            plan.discrete_pre
                .get(d)
                .map_or("?", |&(_, v)| plan.name_of(v))
        ),
        Status::Terminated { event } => format!(
            "terminated by event {event} (`{}`): {}",
            plan.events[event].text,
            plan.events[event].terminate.as_deref().unwrap_or("")
        ),
        Status::Assertion { index } => format!(
            "assertion failed: {}",
            plan.all_assertions()
                .nth(index)
                .map_or("", |(_, m)| m.as_str())
        ),
        Status::Chattering { event }
            if plan.events[event].sample.is_some() || plan.events[event].at =>
        {
            format!(
                "time event {event} (`{}`) is due again within one step: it recurs faster than the step resolves (take a step no longer than its interval)",
                plan.events[event].text
            )
        }
        Status::Chattering { event } => format!(
            "event {event} (`{}`) chatters: it came back within a step of its previous occurrence, the gaps shrinking (or its condition became true again in the step that handled it), faster than the step resolves (chattering rule; --zeno hold holds its states instead of stopping)",
            plan.events[event].text
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_word_gives_back_its_kind_and_detail() {
        for k in [
            kind::OK,
            kind::NOT_CONVERGED,
            kind::NON_FINITE,
            kind::ASSERTION,
        ] {
            for d in [0, 1, 17, 4095, StatusWord::MAX_DETAIL] {
                let w = StatusWord::new(k, d);
                assert_eq!((w.kind(), w.detail()), (k, d));
            }
        }
        // The layout the C header documents: the kind in the low four bits.
        assert_eq!(StatusWord::new(kind::SINGULAR, 5).0, 3 | (5 << 4));
    }
}
