//! `delay(e, T)` in the step (specification 3.7.4.1), in bounded work: a buffer of `e` sampled
//! on the grid of the step size H, read by linear interpolation.
//!
//! Per delay, with T = (k + f)·H (k ≥ 1 whole steps, 0 ≤ f < 1), the step system has the
//! unknowns `src` (= e at the end of the step), the buffer B_1 … B_{k+2} and G, the next grid
//! time. Every step first copies them into their `pre` slots (as every `pre`). A step that
//! ends on the grid (t + h ≥ pre(G), up to 1e-6·H) shifts the buffer: B_1 = src, B_j =
//! pre(B_{j−1}), G = pre(G) + H; any other step (the parts of a step split at an event, the
//! zero-length step after one) keeps it. So pre(B_j) is e at pre(G) − j·H whatever the events
//! did, and the delayed value at a stage time τ of the step is read between the two samples
//! around τ − T: with q = (pre(G) − τ)/H + T/H − 1 ∈ [k − 1 + f, k + f],
//!
//! ```text
//! d = if q < k then lerp(pre(B_k), pre(B_{k+1}), q − (k − 1))
//!              else lerp(pre(B_{k+1}), pre(B_{k+2}), q − k)
//! ```
//!
//! (relations without events). A delayed value that changes only at events (an Integer,
//! Boolean or enumeration, or a Real computed from such values and `pre`) is held instead of
//! interpolated — the sample at or before τ − T, never a value between two levels — and the
//! zero-length step after an event at the newest sample's time refreshes that sample, so a
//! change at an event on the grid comes out exactly T later. The read uses past samples only, so the delayed value never
//! joins an algebraic loop with `e` — which is why T ≥ H is required. In the initial system
//! (the model at t0) d = e, every B_j = e and G = t0 + H: before t0 + T the delay gives e at
//! the start time, as the specification says. Linear interpolation of samples H apart adds
//! an error of at most H²/8·max|e''| to the delayed value — second order in H, below the
//! error of every formula but RK-3/RK-4/Radau; the buffer costs k + 4 assignments and one
//! interpolation per stage.

use super::{Arena, Builder, DResult};
use crate::diag::Diagnostic;
use crate::flat::{EquationOrigin, FlatModel};
use crate::flat::{FlatVar, VarKind};
use crate::symbolic::{CmpOp, ExprId, Func1, Node};
use crate::system::{Origin, SEquation, SVarKind, SysVar, System};
use rustc_hash::FxHashSet;

/// Buffers larger than this are refused (the step's memory and its copies grow with them).
const MAX_SAMPLES: usize = 100_000;

/// One delay's slots in the step system.
pub(super) struct Buffer {
    /// Index into `FlatModel::delays`.
    delay: usize,
    src: SysVar,
    /// B_1 … B_{k+2} and their `pre` slots.
    samples: Vec<SysVar>,
    pre_samples: Vec<SysVar>,
    grid: SysVar,
    pre_grid: SysVar,
    /// k and T/H.
    whole: usize,
    /// Held, not interpolated (a value that changes only at events).
    hold: bool,
    ratio: f64,
    step: f64,
}

/// The buffers' variables (made after the stage copies: they are not copied per stage).
/// A number in a message: the shortest form that reads back (1e300, not 301 digits).
fn real(x: f64) -> String {
    crate::symbolic::fmt_real_pub(x)
}

pub(super) fn buffers(
    b: &mut Builder,
    flat: &FlatModel,
    held: &[bool],
    step: Option<f64>,
) -> DResult<Vec<Buffer>> {
    let mut out = Vec::new();
    for (k, d) in flat.delays.iter().enumerate() {
        let Some(step) = step else {
            return Err(Box::new(
                Diagnostic::error(
                    "delay",
                    "`delay` needs the step size when the model is compiled",
                )
                .at(d.span, "delay")
                .help("give --step (or an experiment Interval)"),
            ));
        };
        if !step.is_finite() || step <= 0.0 {
            return Err(Box::new(
                Diagnostic::error(
                    "delay",
                    format!("the step {} cannot sample a delay", real(step)),
                )
                .at(d.span, "delay")
                .help("give a positive --step"),
            ));
        }
        let ratio = d.time / step;
        let whole = (ratio + 1e-9).floor();
        if whole < 1.0 {
            return Err(Box::new(
                Diagnostic::error(
                    "delay",
                    format!(
                        "the delay time {} is shorter than the step {}: rtc reads delays from the samples of past steps",
                        real(d.time),
                        real(step)
                    ),
                )
                .at(d.span, "delay")
                .help("use a step no longer than the delay time"),
            ));
        }
        if whole + 2.0 > MAX_SAMPLES as f64 {
            return Err(Box::new(
                Diagnostic::error(
                    "delay",
                    format!(
                        "the delay time {} is {} steps of {}: a buffer of more than {MAX_SAMPLES} samples",
                        real(d.time),
                        real(whole),
                        real(step)
                    ),
                )
                .at(d.span, "delay")
                .help("use a longer step"),
            ));
        }
        let whole = whole as usize;
        let span = d.span;
        let name = flat.var(d.var).name.clone();
        let src = b.add(format!("{name}.src"), SVarKind::Algebraic, None, span);
        let samples: Vec<SysVar> = (1..=whole + 2)
            .map(|j| b.add(format!("{name}.B[{j}]"), SVarKind::Algebraic, None, span))
            .collect();
        let grid = b.add(format!("{name}.G"), SVarKind::Algebraic, None, span);
        let pre_samples = samples.iter().map(|&s| b.pre(s)).collect();
        let pre_grid = b.pre(grid);
        out.push(Buffer {
            delay: k,
            src,
            samples,
            pre_samples,
            grid,
            pre_grid,
            whole,
            hold: held[k],
            ratio,
            step,
        });
    }
    Ok(out)
}

/// The buffers' equations in both systems, and each delay's equation (`d = time`, translated:
/// `time` is the stage time of its copy) replaced by the read at that time (step) or by
/// `d = e` (initial system).
pub(super) fn equations(
    b: &mut Builder,
    flat: &FlatModel,
    buffers: &[Buffer],
    init: &mut System,
    step: &mut System,
    (step_start, step_size): (SysVar, SysVar),
) -> DResult<()> {
    if buffers.is_empty() {
        return Ok(());
    }
    for buf in buffers {
        let d = &flat.delays[buf.delay];
        let e = b.translate(d.expr)?;
        let span = d.span;
        let ar = &mut b.arena;
        let eq = |lhs: SysVar, rhs: ExprId, ar: &mut Arena| SEquation {
            lhs: ar.var(lhs),
            rhs,
            span,
            origin: Origin::Delay,
        };
        // Initial system: src = e, every sample = src, G = time + H.
        let src = ar.var(buf.src);
        init.equations.push(eq(buf.src, e, ar));
        for &s in &buf.samples {
            init.equations.push(eq(s, src, ar));
        }
        let time = ar.var(b.time);
        let hh = ar.constant(buf.step);
        let g0 = ar.add(time, hh);
        init.equations.push(eq(buf.grid, g0, ar));
        // Step: src = e; a step ending on the grid shifts.
        step.equations.push(eq(buf.src, e, ar));
        let t = ar.var(step_start);
        let h = ar.var(step_size);
        let end = ar.add(t, h);
        let pg = ar.var(buf.pre_grid);
        let tol = ar.constant(1e-6 * buf.step);
        let due = ar.sub(pg, tol);
        let shift = ar.cmp(CmpOp::Ge, end, due);
        let mut previous = src;
        for (j, (&s, &p)) in buf.samples.iter().zip(&buf.pre_samples).enumerate() {
            let kept = ar.var(p);
            let kept = if j == 0 && buf.hold {
                // A step ending at the newest sample's time (the zero-length step after an
                // event there) refreshes it with the value after the event.
                let last = ar.sub(pg, hh);
                let gap = ar.sub(end, last);
                let gap = ar.call1(Func1::Abs, gap);
                let at_last = ar.cmp(CmpOp::Le, gap, tol);
                ar.if_(at_last, src, kept)
            } else {
                kept
            };
            let v = ar.if_(shift, previous, kept);
            let v = ar.no_event(v);
            step.equations.push(eq(s, v, ar));
            previous = ar.var(p);
        }
        let next = ar.add(pg, hh);
        let g = ar.if_(shift, next, pg);
        let g = ar.no_event(g);
        step.equations.push(eq(buf.grid, g, ar));
    }
    // The delays' own equations.
    let of_eq = |m: crate::flat::FlatEq| match flat.equation(m).origin {
        EquationOrigin::Delay(k) => buffers.iter().find(|x| x.delay == k),
        _ => None,
    };
    for eq in &mut init.equations {
        if let Origin::Model(m) = eq.origin {
            if let Some(buf) = of_eq(m) {
                eq.rhs = b.arena.var(buf.src);
            }
        }
    }
    for eq in &mut step.equations {
        if let Origin::Model(m) = eq.origin {
            if let Some(buf) = of_eq(m) {
                eq.rhs = read(&mut b.arena, buf, eq.rhs);
            }
        }
    }
    Ok(())
}

/// The delayed value at stage time `tau` (see the module documentation).
fn read(ar: &mut Arena, buf: &Buffer, tau: ExprId) -> ExprId {
    let k = buf.whole;
    let pg = ar.var(buf.pre_grid);
    let ahead = ar.sub(pg, tau);
    let hh = ar.constant(buf.step);
    let steps = ar.div(ahead, hh);
    let shift = ar.constant(buf.ratio - 1.0);
    let q = ar.add(steps, shift);
    let hold = buf.hold;
    let lerp = |ar: &mut Arena, a: SysVar, b: SysVar, base: f64| {
        let (a, b) = (ar.var(a), ar.var(b));
        let base = ar.constant(base);
        let w = ar.sub(q, base);
        if hold {
            // The newer sample only where τ − T is its time (up to rounding), else the older.
            let tiny = ar.constant(1e-6);
            let at = ar.cmp(CmpOp::Le, w, tiny);
            return ar.if_(at, a, b);
        }
        let diff = ar.sub(b, a);
        let step = ar.mul(w, diff);
        ar.add(a, step)
    };
    let p = &buf.pre_samples;
    let near = lerp(ar, p[k - 1], p[k], k as f64 - 1.0);
    let far = lerp(ar, p[k], p[k + 1], k as f64);
    let kk = ar.constant(k as f64);
    let first = ar.cmp(CmpOp::Lt, q, kk);
    let v = ar.if_(first, near, far);
    ar.no_event(v)
}

/// Per delay of `flat`: whether its expression changes only at events — built of discrete
/// variables, parameters, `pre` values and Real variables an equation defines from those
/// alone (`xr = Integer(pre(x))`), without `time` or `der`.
pub(super) fn piecewise_constant(flat: &FlatModel) -> Vec<bool> {
    if flat.delays.is_empty() {
        return Vec::new();
    }
    let mut pc: FxHashSet<FlatVar> = (0..flat.vars.len())
        .map(FlatVar::new)
        .filter(|&v| {
            matches!(
                flat.var(v).kind,
                VarKind::Discrete | VarKind::Sampled | VarKind::Parameter | VarKind::Constant
            )
        })
        .collect();
    let changes_at_events = |pc: &FxHashSet<FlatVar>, e: ExprId| {
        let mut leaves = Vec::new();
        flat.arena.leaves(e, &mut leaves);
        leaves.iter().all(|l| match *l {
            Node::Var(v) => pc.contains(&v),
            Node::Pre(_) | Node::Const(_) => true,
            _ => false,
        })
    };
    loop {
        let mut grew = false;
        for eq in &flat.equations {
            for (l, r) in [(eq.lhs, eq.rhs), (eq.rhs, eq.lhs)] {
                if let Node::Var(v) = flat.arena.node(l) {
                    if !pc.contains(&v) && changes_at_events(&pc, r) {
                        pc.insert(v);
                        grew = true;
                    }
                }
            }
        }
        if !grew {
            break;
        }
    }
    flat.delays
        .iter()
        .map(|d| changes_at_events(&pc, d.expr))
        .collect()
}
