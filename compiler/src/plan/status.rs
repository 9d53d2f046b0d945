//! What a step reports: the status codes of the step function's ABI, shared by the plan
//! interpreter, the generated code and the run loop (the numbers are the C header's).

use super::Plan;
use crate::plan::Slot;

/// The outcome of a step (or of the initial solve).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Status {
    Ok,
    /// A Newton block did not converge within its iteration limit.
    NotConverged {
        block: usize,
        residual: f64,
    },
    /// The Jacobian of a block was singular (a zero pivot).
    Singular {
        block: usize,
    },
    /// A variable became infinite or NaN.
    NonFinite {
        var: Slot,
    },
    /// An event came back faster than the step resolves (the chattering rule of
    /// [`crate::sim::Events`]; never returned by the step function itself).
    Chattering {
        event: usize,
    },
    /// The event iteration at an instant did not settle (never returned by the step
    /// function itself).
    EventIteration {
        event: usize,
    },
    /// `terminate` ran in an event's actions: the run ends after the step (not a failure).
    Terminated {
        event: usize,
    },
    /// An `assert` of the model was false after a step (checked by the run loop, not by the
    /// step function itself).
    Assertion {
        index: usize,
    },
}

impl Status {
    pub fn code(self) -> i32 {
        match self {
            Status::Ok => 0,
            Status::NotConverged { .. } => 1,
            Status::NonFinite { .. } => 2,
            Status::Singular { .. } => 3,
            Status::Chattering { .. } => 4,
            Status::EventIteration { .. } => 5,
            Status::Terminated { .. } => 6,
            Status::Assertion { .. } => 7,
        }
    }
}

/// At most this many rounds of the event iteration at one instant (each solves the model at
/// the instant): conditions that became true fire their when-equations, whose actions, and
/// the discrete variables their values change, may make others true.
pub const EVENT_ITERATIONS: usize = 20;

/// An event handled again less than this many steps after its previous one is *close*.
pub const ZENO_STEPS: f64 = 8.0;

/// Describes a non-ok status in the user's terms.
pub fn describe(plan: &Plan, status: Status) -> String {
    match status {
        Status::Ok => "ok".into(),
        Status::NonFinite { var } => format!(
            "`{}` became non-finite (the solution diverged)",
            plan.name_of(var)
        ),
        Status::NotConverged { block, residual } => {
            format!("Newton iteration of block {block} did not converge in {} iterations (residual {residual:e})", plan.newton.max_iterations)
        }
        Status::Singular { block } => format!("the Jacobian of block {block} is singular"),
        Status::EventIteration { event } if event < plan.events.len() => format!(
            "the event iteration did not settle in {EVENT_ITERATIONS} rounds (event {event}, `{}`, still firing)",
            plan.events[event].text
        ),
        // Past the events: a discrete variable (`Plan::discrete_pre`) still changing.
        Status::EventIteration { event } => format!(
            "the event iteration did not settle in {EVENT_ITERATIONS} rounds (`{}` still changes)",
            plan.discrete_pre
                .get(event - plan.events.len())
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
            "event {event} (`{}`) chatters: it came back less than {ZENO_STEPS} steps after its previous occurrence, faster than the step resolves (chattering rule; --zeno hold holds its states instead of stopping)",
            plan.events[event].text
        ),
    }
}
