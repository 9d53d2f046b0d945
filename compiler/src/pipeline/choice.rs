//! The method and step of a run the user does not choose, and the check of the one a run
//! uses: Howe's characteristic-root errors (seed 001, §1.3; [`crate::analysis::accuracy`]) of the
//! method at the step, for the modes of the model linearised at its initial point, turned
//! into how far each mode drifts over the run ([`crate::analysis::accuracy::drift`]).
//!
//! **Tolerance.** An experiment's `Tolerance` is a variable-step solver's local error
//! tolerance; a fixed step has no local error control, so rtc judges the drift of each mode
//! over the run instead, and accepts up to 10⁴ times the Tolerance (a variable-step run of some
//! 10⁴ steps accumulates up to that much), within [10⁻³, 10⁻²] (a result off by more than 1 % of
//! a signal's range shows on a plot: a looser Tolerance, 1e-4, does not ask for that); without
//! a Tolerance, 10⁻⁶ (the
//! one the Modelica Standard Library's reference results are made with), so 1 %. `--tolerance`
//! sets it directly.
//!
//! **The default.** Without `--method`, rtc takes the cheapest of the A-stable implicit
//! formulas — backward Euler, the trapezoidal rule, Radau IIA — whose modes stay within the
//! tolerance at a step of the output interval divided by 1, 2, 4, …, 32 (without `--step`;
//! with it, at that step), the cost being the steps per interval times the plan's work bound,
//! and of those within 1.5 times the cheapest cost the highest order ([`COST_SLACK`]: the
//! modes do not see the error on what drives them, first order for backward Euler); the
//! trapezoidal rule only where no stiff mode rings. When none does, Radau IIA (L-stable,
//! third order) at the smallest of those steps, with the warning. Explicit formulas are not
//! chosen: a hybrid model's stiff modes may appear only after its first events, where the
//! linearisation at the initial point does not see them.

use super::{parse_method, plan, Method, MethodChoice, Settings};
use crate::analysis::accuracy::{
    judge, mode_text, Scheme, Verdict, COST_SLACK, DEFAULT_CANDIDATES, MAX_REFINEMENT,
};
use crate::analysis::partition::{Linearization, Mode};
use crate::flat::FlatModel;

/// The fixed-step tolerance of a run: `requested` (`--tolerance`), else 10⁴ × the
/// experiment's Tolerance (10⁻⁶ when it has none), within [10⁻³, 10⁻²].
pub fn run_tolerance(flat: &FlatModel, requested: Option<f64>) -> f64 {
    requested.unwrap_or_else(|| (1e4 * flat.experiment.tolerance.unwrap_or(1e-6)).clamp(1e-3, 1e-2))
}

/// Models with more states than this are not linearised for the check: the eigenvalues cost
/// the cube of the state count (nalgebra's Schur form, measured on the VdPLine model: 0.5 s
/// for 403 states, 8.5 s for 1003), and a run should not wait longer for its check than for
/// its code. Larger models get the step-halving check alone, and radau where no method is
/// given.
const MAX_STATES: usize = 600;

/// A model's linearisation at the initial point and its modes.
pub type Modes = (Linearization, Vec<Mode>);

/// The model linearised at its initial point with its modes, or why not (a model with
/// `delay`, one too large).
pub fn modes(flat: &FlatModel) -> Result<Modes, String> {
    // Counted before linearising: the dense Jacobian alone is the square of the states.
    let states = flat
        .vars
        .iter()
        .filter(|v| v.kind == crate::flat::VarKind::State)
        .count();
    if states > MAX_STATES {
        return Err(format!(
            "{states} states, more than the {MAX_STATES} the check linearises (its eigenvalues cost the cube of the state count)"
        ));
    }
    let lin = super::linearize(flat).map_err(|d| d.message.clone())?;
    if lin.states.len() > MAX_STATES {
        return Err(format!(
            "{} states, more than the {MAX_STATES} the check linearises (its eigenvalues cost the cube of the state count)",
            lin.states.len()
        ));
    }
    // The check needs the eigenvalues only; a warning that names a mode's state computes
    // that mode's participation ([`equilibrium_warning`]).
    let modes = crate::analysis::partition::eigenvalue_modes(&lin)?;
    Ok((lin, modes))
}

/// A run's span and output interval, which the judgement needs.
#[derive(Clone, Copy, Debug)]
pub struct RunSpan {
    pub t_run: f64,
    pub interval: f64,
}

/// The verdict on `method` at step `h`.
fn verdict(
    lm: &(Linearization, Vec<Mode>),
    method: &Method,
    h: f64,
    span: RunSpan,
) -> Option<Verdict> {
    let scheme = Scheme::of(method, &lm.0.states).ok()?;
    judge(&lm.0, &lm.1, &scheme, h, span.t_run, span.interval).ok()
}

/// A method by name.
fn named(name: &str) -> Method {
    parse_method(&MethodChoice {
        method: name.parse().expect("a method rtc knows"),
        ..MethodChoice::default()
    })
    .expect("a method rtc knows")
}

/// The method and step chosen for a run, and what rtc says about the choice.
pub struct Choice {
    pub method: Method,
    pub step: f64,
    pub note: String,
    /// Whether the chosen method keeps the modes within the tolerance.
    pub within: bool,
}

/// The default method (and, when `refine`, the step: `interval` divided by 1, 2, 4, …, 32;
/// else `interval` itself) as the module documentation says.
pub fn default_method(
    flat: &FlatModel,
    lm: Option<&(Linearization, Vec<Mode>)>,
    interval: f64,
    refine: bool,
    span: RunSpan,
    tol: f64,
    base: &Settings,
) -> Choice {
    let Some(lm) = lm else {
        // A model with delays has its step set for their buffers already (no longer than the
        // shortest delay).
        let step = if refine {
            base.step.unwrap_or(interval)
        } else {
            interval
        };
        return Choice {
            method: named("radau"),
            step,
            note: format!("method radau (L-stable, third order), step {step}: the default where the model's modes are not known"),
            within: false,
        };
    };
    let ks: Vec<u32> = if refine {
        (0..)
            .map(|e| 1u32 << e)
            .take_while(|&k| k <= MAX_REFINEMENT)
            .collect()
    } else {
        vec![1]
    };
    // Per candidate, the fewest steps per interval that keep it within the tolerance.
    let mut fits: Vec<(f64, &str, u32, u32)> = Vec::new();
    for (name, order) in DEFAULT_CANDIDATES {
        let method = named(name);
        let Some(&k) = ks.iter().find(|&&k| {
            verdict(lm, &method, interval / k as f64, span).is_some_and(|v| v.within(tol))
        }) else {
            continue;
        };
        let Ok(p) = plan(flat, &base.with_method(method.clone())).map(|p| p.plan) else {
            continue;
        };
        let w = p.work_bound();
        let cost = k as f64 * (w.flops + 20 * w.libm_calls).max(1) as f64;
        fits.push((cost, name, k, order));
    }
    // Of those within COST_SLACK of the cheapest, the highest order (then the cheaper).
    let cheapest = fits.iter().map(|f| f.0).fold(f64::INFINITY, f64::min);
    let best = fits
        .iter()
        .filter(|f| f.0 <= COST_SLACK * cheapest)
        .max_by(|a, b| a.3.cmp(&b.3).then(b.0.total_cmp(&a.0)))
        .map(|&(c, name, k, _)| (c, name, k));
    match best {
        Some((_, name, k)) => {
            let step = interval / k as f64;
            Choice {
                method: named(name),
                step,
                note: format!(
                    "method {name}, step {step}{}: of be, trapezoid and radau whose characteristic roots keep every mode the output resolves within {} over the run, the highest order within 1.5 times the cheapest work",
                    if k > 1 {
                        format!(" ({k} per output interval)")
                    } else {
                        String::new()
                    },
                    pct(tol)
                ),
                within: true,
            }
        }
        None => {
            let k = *ks.last().expect("a refinement");
            let step = interval / k as f64;
            Choice {
                method: named("radau"),
                step,
                note: format!("method radau (L-stable, third order), step {step}: no method rtc chooses from keeps every mode within {} at the steps tried", pct(tol)),
                within: false,
            }
        }
    }
}

fn pct(x: f64) -> String {
    let p = 100.0 * x;
    if p >= 1.0 {
        format!("{p:.0} %")
    } else {
        format!("{p:.1} %")
    }
}

/// A warning when the model starts at an unstable equilibrium: every state's derivative is
/// zero at the initial point and a mode grows by more than e over the run. The run then stays
/// where it started only because nothing perturbs it (rounding decides when it leaves, if
/// ever); another tool, or the model's `homotopy`, may start it elsewhere — a Schmitt
/// trigger with an integrator (the MSL's `SignalGenerator`) sits at 0 V instead of
/// oscillating.
pub fn equilibrium_warning(lm: &(Linearization, Vec<Mode>), span: RunSpan) -> Option<String> {
    let (lin, modes) = lm;
    if lin.derivatives.is_empty() {
        return None;
    }
    let at_rest = lin
        .derivatives
        .iter()
        .zip(&lin.values)
        .all(|(d, x)| d.abs() <= 1e-12 * x.abs().max(1.0));
    let growing = modes
        .iter()
        .filter(|m| m.lambda.re * span.t_run > 1.0)
        .max_by(|a, b| a.lambda.re.total_cmp(&b.lambda.re))?;
    if !at_rest {
        return None;
    }
    let participation = crate::analysis::partition::participation_of(lin, growing.lambda);
    let (k, _) = participation
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))?;
    Some(format!(
        "the model starts at rest (every state's derivative is zero) in an unstable equilibrium: the mode λ = {:.4e} (mostly `{}`) grows by e every {:.3e} s, and the run stays where it started only because nothing perturbs it; give the states other start values (or check which of several solutions the initial system should take: rtc solves the actual model, not a homotopy's simplified one)",
        growing.lambda.re,
        lin.states.get(k).map_or("?", |s| s.as_str()),
        1.0 / growing.lambda.re
    ))
}

/// The warnings about `method` at step `h`: a mode the output resolves that drifts by more
/// than `tol` over the run, a stable mode the method makes unstable, a stiff mode it rings;
/// each says what keeps it within (the default chooser's advice).
#[allow(clippy::too_many_arguments)]
pub fn accuracy_warnings(
    flat: &FlatModel,
    lm: &(Linearization, Vec<Mode>),
    method: &Method,
    h: f64,
    interval: f64,
    span: RunSpan,
    tol: f64,
    base: &Settings,
) -> Vec<String> {
    let Some(v) = verdict(lm, method, h, span) else {
        return Vec::new();
    };
    if v.within(tol) {
        return Vec::new();
    }
    let advice = || {
        let c = default_method(flat, Some(lm), interval, true, span, tol, base);
        if c.within {
            format!(
                "{} with --step {} keeps every mode within {}",
                c.method.name(),
                c.step,
                pct(tol)
            )
        } else {
            format!(
                "no step down to the interval / {MAX_REFINEMENT} keeps it within {} with be, trapezoid or radau",
                pct(tol)
            )
        }
    };
    let name = method.name();
    let mut out = Vec::new();
    if let Some((l, z)) = v.unstable {
        out.push(format!(
            "{name} at h = {h}: the stable mode {} is unstable (discrete root |z| = {:.4}): the solution diverges; {}",
            mode_text(l),
            z.norm(),
            advice()
        ));
    }
    if let Some((l, z)) = v.rings {
        out.push(format!(
            "{name} at h = {h}: the stiff mode {} rings (discrete root z = {:.3}: an oscillation at the Nyquist frequency after every discontinuity, barely damped); an L-stable method (be, radau) damps it",
            mode_text(l),
            z.re
        ));
    }
    if let Some((l, d, e)) = v.worst.filter(|&(_, d, _)| d > tol) {
        out.push(format!(
            "{name} at h = {h}: the mode {} drifts by {} of its size over the run (Howe's root error e_|λ| = {:.2e}), more than the tolerance {}; {}",
            mode_text(l),
            pct(d),
            e,
            pct(tol),
            advice()
        ));
    }
    out
}
