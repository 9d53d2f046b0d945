//! Multi-rate integration (Cellier & Kofman §10.5, eq. 10.12; Howe ch. 8): a fast partition
//! stepped N times per step of the slow one.
//!
//! The step function advances the whole model by the slow step H. Inside it, the fast states
//! take N forward Euler steps of h = H/N: sub-step k (k = 1 … N − 1) is a copy (`x@k`) of the
//! fast states and of the assignments their derivatives need — the cone of `der(x_fast)` in
//! the explicit initial system — evaluated at t + k·h with the slow states extrapolated by
//! Howe's linear predictor, x_slow(t + k·h) ≈ pre(x_slow) + k·h·pre(der(x_slow)). The last
//! fast step and the slow states' own formulas (forward Euler, or backward Euler for the
//! states named implicit) end the step, where the full model is solved once, at t + H. The
//! work per slow step is N − 1 times the fast cone plus one model evaluation, against N model
//! evaluations for a single rate at h.

use super::{sys_of, transfer};
use crate::diag::Diagnostic;
use crate::plan::Slot;
use crate::plan::{Plan, Stmt};
use crate::symbolic::{ExprId, Node};
use crate::system::SysVar;
use crate::system::{Discretized, Origin, SEquation, SVarKind, StagedInput};
use rustc_hash::{FxHashMap, FxHashSet};

/// A `pre` slot of `v` (copied at the start of every step).
fn add_pre(d: &mut Discretized, v: SysVar) -> SysVar {
    let name = format!("pre({})", d.vars[v].name);
    let id = d.add_var(name, SVarKind::Pre, v, Some(v));
    d.pre_copies.push((id, v));
    id
}

fn unsupported(msg: &str) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(
        "unsupported",
        format!("multi-rate: {msg}"),
    ))
}

/// Makes the states named in `fast` (state slots of `d`) take `n` sub-steps per step.
pub fn transform(
    mut d: Discretized,
    p: &Plan,
    fast: &[SysVar],
    n: usize,
    quadratic: bool,
) -> Result<Discretized, Box<Diagnostic>> {
    if n < 2 || fast.is_empty() {
        return Ok(d);
    }
    if p.init.iter().any(|s| matches!(s, Stmt::Block(_))) {
        return Err(unsupported(
            "not yet supported on a model whose derivatives need an algebraic loop solved",
        ));
    }
    let name = |d: &Discretized, v: SysVar| d.vars[v].name.clone();
    let pre_of: FxHashMap<SysVar, SysVar> = d.pre_copies.iter().map(|&(p, v)| (v, p)).collect();
    let states: Vec<SysVar> = d.formulas.iter().map(|(x, _)| *x).collect();
    let (assign, cone_order) = fast_cone(&d, p, fast)?;
    let hoisted: FxHashMap<Slot, ExprId> = p
        .hoisted
        .iter()
        .filter_map(|&h| p.vars[h].binding.map(|b| (h, b)))
        .collect();
    // Howe's second-order predictor needs the slow derivatives of the previous step too
    // (pre(pre(der(x)))) and a step counter: the first step has no history and extrapolates
    // linearly.
    let (history, first_step) = if quadratic {
        quadratic_history(&mut d, &states, fast, &pre_of)
    } else {
        (FxHashMap::default(), None)
    };
    let big_h = d.arena.var(d.step_size);
    let inv_n = d.arena.constant(1.0 / n as f64);
    let small_h = d.arena.mul(inv_n, big_h);
    let t = d.arena.var(d.step_start);
    let mut eqs: Vec<SEquation> = Vec::new();
    let mut unknowns: Vec<SysVar> = Vec::new();
    // Fast state and its derivative at the previous sub-step (k = 0: the start of the step).
    let mut prev_x: FxHashMap<SysVar, ExprId> = FxHashMap::default();
    let mut prev_d: FxHashMap<SysVar, ExprId> = FxHashMap::default();
    for &x in fast {
        let dx = find(&d, &format!("der({})", name(&d, x))).expect("checked");
        let px = pre_of.get(&x).ok_or_else(|| unsupported("no pre slot"))?;
        let pdx = pre_of
            .get(&dx)
            .ok_or_else(|| unsupported("a fast state must use forward Euler"))?;
        prev_x.insert(x, d.arena.var(*px));
        prev_d.insert(x, d.arena.var(*pdx));
    }
    for k in 1..n {
        let c = d.arena.constant(k as f64);
        let dt = d.arena.mul(c, small_h);
        let tk = d.arena.add(t, dt);
        // Plan slots → their values at sub-step k (expressions of the system).
        let mut map: FxHashMap<Slot, ExprId> = FxHashMap::default();
        map.insert(Slot::of(d.time), tk);
        // Fast states at sub-step k: forward Euler from sub-step k − 1.
        for &x in fast {
            let id = d.add_var(format!("{}@{k}", name(&d, x)), SVarKind::Stage, x, None);
            let incr = d.arena.mul(small_h, prev_d[&x]);
            let rhs = d.arena.add(prev_x[&x], incr);
            let lhs = d.arena.var(id);
            eqs.push(SEquation {
                lhs,
                rhs,
                span: d.vars[x].span,
                origin: Origin::Formula(id),
            });
            unknowns.push(id);
            map.insert(Slot::of(x), lhs);
        }
        // Slow states extrapolated linearly from the start of the step.
        for &s in states.iter().filter(|s| !fast.contains(s)) {
            let e = extrapolate(&mut d, s, dt, &pre_of, &history, first_step);
            map.insert(Slot::of(s), e);
        }
        // Inputs at the sub-step's time (a slot per input and sub-step, written by the
        // environment with the value at t + k·h).
        let staged: Vec<SysVar> = d.input_stages.iter().map(|s| s.slot).collect();
        let inputs: Vec<SysVar> = (0..d.vars.len())
            .map(SysVar::new)
            .filter(|v| d.vars[*v].kind == SVarKind::Input && !staged.contains(v))
            .collect();
        for u in inputs {
            let id = d.add_var(format!("{}@{k}", name(&d, u)), SVarKind::Input, u, None);
            d.input_stages.push(StagedInput {
                slot: id,
                input: u,
                offset: k as f64 / n as f64,
            });
            map.insert(Slot::of(u), d.arena.var(id));
        }
        let nsys = d.vars.len();
        for (&h, &b) in &hoisted {
            let mut memo = FxHashMap::default();
            let e = transfer(
                &p.arena,
                &mut d.arena,
                nsys,
                b,
                &FxHashMap::default(),
                &mut memo,
            )
            .map_err(|_| unsupported("a hoisted value that reads a plan-only slot"))?;
            map.insert(h, e);
        }
        // The cone's assignments at sub-step k.
        let mut memo = FxHashMap::default();
        for &slot in &cone_order {
            let v = sys_of(slot, nsys)
                .ok_or_else(|| unsupported("an assignment to a plan-only slot"))?;
            let id = d.add_var(format!("{}@{k}", name(&d, v)), SVarKind::Stage, v, None);
            let rhs = transfer(&p.arena, &mut d.arena, nsys, assign[&slot], &map, &mut memo)
                .map_err(|_| unsupported("an assignment that reads a plan-only slot"))?;
            let lhs = d.arena.var(id);
            eqs.push(SEquation {
                lhs,
                rhs,
                span: d.vars[v].span,
                origin: Origin::Formula(id),
            });
            unknowns.push(id);
            map.insert(slot, lhs);
        }
        for &x in fast {
            let dx = find(&d, &format!("der({})", name(&d, x))).expect("checked");
            prev_x.insert(x, map[&Slot::of(x)]);
            prev_d.insert(x, map[&Slot::of(dx)]);
        }
    }
    // The last fast sub-step ends the step: x = x@(n−1) + h·der(x)@(n−1).
    for &x in fast {
        let incr = d.arena.mul(small_h, prev_d[&x]);
        let rhs = d.arena.add(prev_x[&x], incr);
        let eq = d
            .step
            .equations
            .iter_mut()
            .find(|e| e.origin == Origin::Formula(x))
            .ok_or_else(|| unsupported("a fast state without its formula"))?;
        eq.rhs = rhs;
    }
    d.step.equations.extend(eqs);
    d.step.unknowns.extend(unknowns);
    Ok(d)
}

/// The assignments of the explicit model (a forward Euler plan's initial system) by variable,
/// and the cone of the fast derivatives: the assignments they read, transitively, in order.
#[allow(clippy::type_complexity)]
fn fast_cone(
    d: &Discretized,
    p: &Plan,
    fast: &[SysVar],
) -> Result<(FxHashMap<Slot, ExprId>, Vec<Slot>), Box<Diagnostic>> {
    // Assignments of the explicit model, by variable; hoisted slots by their bindings.
    let mut assign: FxHashMap<Slot, ExprId> = FxHashMap::default();
    let mut order: Vec<Slot> = Vec::new();
    for s in &p.init {
        if let Stmt::Assign(a) = s {
            assign.insert(a.var, a.expr);
            order.push(a.var);
        }
    }
    // The cone of the fast derivatives: the assignments they read, transitively.
    let mut cone: FxHashSet<Slot> = FxHashSet::default();
    let mut stack: Vec<Slot> = Vec::new();
    for &x in fast {
        let dx = find(d, &format!("der({})", d.name_of(x)))
            .ok_or_else(|| unsupported("a fast state without a derivative"))?;
        stack.push(Slot::of(dx));
    }
    while let Some(v) = stack.pop() {
        if !cone.insert(v) {
            continue;
        }
        if let Some(&e) = assign.get(&v) {
            let mut leaves = Vec::new();
            p.arena.leaves(e, &mut leaves);
            for l in leaves {
                if let Node::Var(w) = l {
                    if assign.contains_key(&w) && !cone.contains(&w) {
                        stack.push(w);
                    }
                }
            }
        }
    }
    let cone_order: Vec<Slot> = order.into_iter().filter(|v| cone.contains(v)).collect();
    Ok((assign, cone_order))
}

/// The quadratic predictor's history: pre(pre(der(x))) of every slow state with a derivative
/// history, and the step counter whose first step extrapolates linearly.
fn quadratic_history(
    d: &mut Discretized,
    states: &[SysVar],
    fast: &[SysVar],
    pre_of: &FxHashMap<SysVar, SysVar>,
) -> (FxHashMap<SysVar, SysVar>, Option<ExprId>) {
    let mut history: FxHashMap<SysVar, SysVar> = FxHashMap::default();
    for &s in states.iter().filter(|s| !fast.contains(s)) {
        let Some(ds) = find(d, &format!("der({})", d.name_of(s))) else {
            continue;
        };
        let Some(&p1) = pre_of.get(&ds) else { continue };
        history.insert(s, add_pre(d, p1));
    }
    let steps = d.add_var("steps".into(), SVarKind::Algebraic, d.time, None);
    let ps = add_pre(d, steps);
    let se = d.arena.var(steps);
    let pse = d.arena.var(ps);
    let one = d.arena.constant(1.0);
    let zero = d.arena.constant(0.0);
    let next = d.arena.add(pse, one);
    d.init.equations.push(SEquation {
        lhs: se,
        rhs: zero,
        span: Default::default(),
        origin: Origin::Formula(steps),
    });
    d.init.unknowns.push(steps);
    d.step.equations.push(SEquation {
        lhs: se,
        rhs: next,
        span: Default::default(),
        origin: Origin::Formula(steps),
    });
    d.step.unknowns.push(steps);
    let half = d.arena.constant(0.5);
    let first_step = Some(d.arena.cmp(crate::symbolic::CmpOp::Lt, pse, half));
    crate::system::order_pre_copies(&mut d.pre_copies);
    (history, first_step)
}

/// A slow state at sub-step time t + dt: extrapolated from the start of the step (Howe's
/// linear predictor, or the quadratic one with the derivative history); a slow state without
/// `pre(der)` (implicit) is held.
fn extrapolate(
    d: &mut Discretized,
    s: SysVar,
    dt: ExprId,
    pre_of: &FxHashMap<SysVar, SysVar>,
    history: &FxHashMap<SysVar, SysVar>,
    first_step: Option<ExprId>,
) -> ExprId {
    let big_h = d.arena.var(d.step_size);
    let ds = find(d, &format!("der({})", d.name_of(s)));
    let ps = d.arena.var(pre_of[&s]);
    match ds.and_then(|ds| pre_of.get(&ds)) {
        Some(&pds) => {
            let pdse = d.arena.var(pds);
            let m = d.arena.mul(dt, pdse);
            let linear = d.arena.add(ps, m);
            match (history.get(&s), first_step) {
                // + τ²/(2H)·(f_n − f_{n−1}), τ = k·h.
                (Some(&p2), Some(first)) => {
                    let f1 = d.arena.var(p2);
                    let df = d.arena.sub(pdse, f1);
                    let tau2 = d.arena.mul(dt, dt);
                    let two = d.arena.constant(2.0);
                    let two_h = d.arena.mul(two, big_h);
                    let c2 = d.arena.div(tau2, two_h);
                    let q = d.arena.mul(c2, df);
                    let quad = d.arena.add(linear, q);
                    d.arena.if_(first, linear, quad)
                }
                _ => linear,
            }
        }
        // A slow implicit state has no pre(der): held.
        None => ps,
    }
}

/// The slot named `s`.
fn find(d: &Discretized, s: &str) -> Option<SysVar> {
    d.vars.iter().position(|v| v.name == s).map(SysVar::new)
}
