//! Why a variable became non-finite: what a failed run's message adds to "`x` became
//! non-finite". Three causes look the same at the step that fails and call for different
//! remedies, so the run keeps a little history to tell them apart:
//!
//! - the **Newton iteration** of a torn block diverged (its unknowns left the region where the
//!   residuals are defined): a shorter step keeps the starting guess, the previous solution,
//!   closer;
//! - the **solution grew without bound**: the model is unstable, or the method is at this step
//!   (Cellier & Kofman §10.3, a mode outside the method's stability domain; `rtc analyze
//!   --errors` tells which);
//! - a value became non-finite **within one step** from bounded states: a division by zero or
//!   a function outside its domain (`log`, `sqrt`, a power of a negative number).
//!
//! The history is the largest state magnitude, sampled after every step for the first
//! [`Growth::EVERY`] steps and every [`Growth::EVERY`]-th step after: a comparison per state
//! every sixteen steps.

use crate::plan::{Plan, Slot, Status, Stmt};
use crate::system::SVarKind;

/// The largest state magnitude at the last few samples.
#[derive(Clone, Debug)]
pub struct Growth {
    states: Vec<usize>,
    /// (time, largest |x|, its slot), a ring of the last [`Growth::SAMPLES`].
    ring: [(f64, f64, usize); Growth::SAMPLES],
    len: usize,
    next: usize,
    steps: u64,
}

/// Growth by more than this factor over the samples kept, to a magnitude above
/// [`LARGE`], is growth without bound (an unstable mode doubles in a few steps; a bounded
/// solution's states do not change by a factor of a thousand in 128 steps and reach 1e6).
const FACTOR: f64 = 1e3;
const LARGE: f64 = 1e6;
/// A state this large is past any physical scale whatever came before.
const HUGE: f64 = 1e100;

impl Growth {
    pub const EVERY: u64 = 16;
    pub const SAMPLES: usize = 8;

    pub fn new(plan: &Plan) -> Growth {
        Growth {
            states: plan
                .vars
                .iter_enumerated()
                .filter(|(_, v)| v.kind == crate::plan::SlotKind::System(SVarKind::State))
                .map(|(s, _)| s.index())
                .collect(),
            ring: [(0.0, 0.0, 0); Growth::SAMPLES],
            len: 0,
            next: 0,
            steps: 0,
        }
    }

    /// After a step that ended at `t`.
    #[inline]
    pub fn after_step(&mut self, mem: &[f64], t: f64) {
        self.steps += 1;
        if self.steps > Self::EVERY && !self.steps.is_multiple_of(Self::EVERY) {
            return;
        }
        let (mut big, mut at) = (0.0f64, usize::MAX);
        for &s in &self.states {
            let a = mem[s].abs();
            if a >= big {
                (big, at) = (a, s);
            }
        }
        if at == usize::MAX {
            return;
        }
        self.ring[self.next] = (t, big, at);
        self.next = (self.next + 1) % Self::SAMPLES;
        self.len = (self.len + 1).min(Self::SAMPLES);
    }

    /// The samples, oldest first.
    fn samples(&self) -> impl Iterator<Item = &(f64, f64, usize)> {
        let start = (self.next + Self::SAMPLES - self.len) % Self::SAMPLES;
        (0..self.len).map(move |k| &self.ring[(start + k) % Self::SAMPLES])
    }

    /// What the samples say of a non-finite value, and whether the solution grew without
    /// bound (else it was bounded).
    fn verdict(&self, plan: &Plan) -> Option<(String, bool)> {
        let first = *self.samples().next()?;
        let last = *self.samples().last()?;
        let name = |s: usize| plan.name_of(Slot::new(s)).to_string();
        let grew = last.1 > HUGE || (last.1 > LARGE && last.1 > FACTOR * first.1);
        let text = if grew {
            format!(
                "the solution grew without bound before it: the largest state, `{}`, went from |{}| = {:.3e} at t = {} to |{}| = {:.3e} at t = {} (an unstable model, or a method unstable at this step: `rtc analyze --errors` tells which)",
                name(first.2),
                name(first.2),
                first.1,
                first.0,
                name(last.2),
                last.1,
                last.0
            )
        } else {
            format!(
                "the states were bounded up to the failing step (the largest, |`{}`| = {:.3e} at t = {}): a value became non-finite within one step, such as a division by zero or a function outside its domain (log, sqrt, a power), not a solution that grew",
                name(last.2),
                last.1,
                last.0
            )
        };
        Some((text, grew))
    }
}

/// The cause of a failing step's status, in the user's terms, when the status alone does not
/// say it: for a non-finite variable, whether a Newton iteration diverged, the solution grew
/// without bound, or a value became non-finite within one step; for a singular Jacobian,
/// which tearing variables drop out ([`singular`], with `mem`).
pub fn cause(
    plan: &Plan,
    growth: &Growth,
    status: Status,
    at_start: bool,
    mem: Option<&[f64]>,
) -> Option<String> {
    if let (Status::Singular { block }, Some(mem)) = (status, mem) {
        return crate::plan::singular_cause(plan, mem, block);
    }
    let Status::NonFinite { var } = status else {
        return None;
    };
    let block = plan.init.iter().chain(&plan.step).find_map(|s| match s {
        Stmt::Block(b) if b.tearing.contains(&var) || b.inner.iter().any(|a| a.var == var) => {
            Some(b)
        }
        _ => None,
    });
    let (verdict, grew) = match growth.verdict(plan) {
        Some((v, grew)) => (Some(v), grew),
        None => (None, false),
    };
    match block {
        // The solution had grown: the block's iteration is only where it overflowed.
        Some(b) if grew => verdict.map(|v| format!("{v}; it overflowed in the Newton iteration of block {}", b.index)),
        Some(b) => Some(format!(
            "`{}` is an unknown of block {}, solved by Newton's method{}: the iteration diverged ({})",
            plan.name_of(var),
            b.index,
            if verdict.is_some() {
                ", and the states were bounded before"
            } else {
                ""
            },
            if at_start {
                "from the start values: start values closer to the solution help"
            } else {
                "a shorter step starts it closer to the solution"
            }
        )),
        None => verdict,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn growth(values: &[f64]) -> Growth {
        let mut g = Growth {
            states: vec![0],
            ring: [(0.0, 0.0, 0); Growth::SAMPLES],
            len: 0,
            next: 0,
            steps: 0,
        };
        for (k, &x) in values.iter().enumerate() {
            g.after_step(&[x], k as f64);
        }
        g
    }

    #[test]
    fn samples_every_step_then_every_sixteenth() {
        let g = growth(&(0..100).map(f64::from).collect::<Vec<_>>());
        let times: Vec<f64> = g.samples().map(|s| s.0).collect();
        // Steps 1..=16 each, then 32, 48, 64, 80, 96 (the k-th value ends step k + 1).
        assert_eq!(times, vec![13.0, 14.0, 15.0, 31.0, 47.0, 63.0, 79.0, 95.0]);
    }

    #[test]
    fn growth_without_bound_and_bounded_states_are_told_apart() {
        let unstable: Vec<f64> = (0..200).map(|k| 1.2f64.powi(k)).collect();
        let g = growth(&unstable);
        let (first, last) = (*g.samples().next().unwrap(), *g.samples().last().unwrap());
        assert!(last.1 > FACTOR * first.1 && last.1 > LARGE);
        let bounded: Vec<f64> = (0..200).map(|k| (f64::from(k) * 0.1).sin() * 5.0).collect();
        let g = growth(&bounded);
        assert!(g.samples().all(|s| s.1 <= 5.0));
    }
}
