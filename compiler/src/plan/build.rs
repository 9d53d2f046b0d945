//! Discretised system → step plan: BLT sorting, symbolic solving of scalar blocks, tearing of
//! loops, and the residual Jacobians by differentiation through the inner assignments
//! (forward mode: d(inner)/d(tearing) are kept as tangent slots, so shared work stays shared).

use super::{Assign, BlockId, Newton, Output, Plan, PlanVar, SlotKind, Stmt, TornBlock};
use crate::diag::Diagnostic;
use crate::structure::blt::{self, incidence};
use crate::structure::tearing;
use crate::symbolic::diff::{occurs, Differentiator};
use crate::symbolic::ExprId;

type Node = crate::symbolic::Node<Slot>;
use crate::plan::Slot;
use crate::system::{Discretized, SEquation, SVarKind, System};
use rustc_hash::{FxHashMap, FxHashSet};

/// Loops torn to more variables than this are refused: their dense k×k Newton step is too
/// costly for a real-time step (and its Jacobian too large to hold).
pub const MAX_TEARING: usize = 1000;

#[derive(Clone, Copy, Debug, Default)]
pub struct BuildOptions {
    pub newton: Newton,
    /// Tearing never solves a loop's equation by dividing by a factor among the loop's own
    /// unknowns ([`tearing::may_vanish`]). The pipeline builds with it, and without it where
    /// the model at the start time is singular that way (`R_actual*i` torn on `R_actual`
    /// while the current is zero).
    pub guard_factors: tearing::Guard,
}

/// What tearing found, for `rtc analyze`.
#[derive(Clone, Debug)]
pub struct BlockReport {
    pub index: BlockId,
    pub size: usize,
    pub tearing: Vec<Slot>,
    pub residual_spans: Vec<crate::diag::Span>,
    pub residual_text: Vec<String>,
    pub linear: bool,
}

pub fn build(
    d: &Discretized,
    opts: &BuildOptions,
) -> Result<(Plan, Vec<BlockReport>, Vec<BlockReport>), Box<Diagnostic>> {
    let mut plan = Plan {
        name: d.name.clone(),
        method: String::new(),
        // The same expressions (ids kept) over the plan's slots: slot k is variable k.
        arena: d.arena.map_vars(Slot::of),
        vars: d
            .vars
            .iter()
            .map(|v| PlanVar {
                name: v.name.clone(),
                kind: SlotKind::System(v.kind),
                binding: v.binding,
                span: v.span,
                constant: v.constant,
                admissible: rtc_runtime::door::Admissible::ANY,
            })
            .collect(),
        parameters: Vec::new(),
        starts: Vec::new(),
        init: Vec::new(),
        step: Vec::new(),
        pre_copies: d
            .pre_copies
            .iter()
            .map(|&(p, v)| (Slot::of(p), Slot::of(v)))
            .collect(),
        discrete_pre: d
            .discrete_pre
            .iter()
            .map(|&(p, v)| (Slot::of(p), Slot::of(v)))
            .collect(),
        input_stages: d.input_stages.iter().map(|s| s.map(Slot::of)).collect(),
        events: d.events.iter().map(|e| e.map(Slot::of)).collect(),
        assertions: d.assertions.clone(),
        initial_assertions: d.initial_assertions.clone(),
        warnings: d.warnings.clone(),
        notes: Vec::new(),
        time: Slot::of(d.time),
        step_start: Slot::of(d.step_start),
        step_size: Slot::of(d.step_size),
        formulas: d.formulas.iter().map(|&(x, f)| (Slot::of(x), f)).collect(),
        outputs: d
            .outputs
            .iter()
            .map(|o| Output {
                name: o.name.clone(),
                expr: o.expr,
                kind: o.kind,
                is_output: o.is_output,
            })
            .collect(),
        newton: opts.newton,
        symbolic_loops: 0,
        slide: None,
        hoisted: Vec::new(),
        carried: Vec::new(),
    };
    plan.parameters = parameter_order(&plan)?;
    plan.starts = plan
        .vars
        .iter()
        .enumerate()
        .filter(|(_, v)| {
            v.binding.is_some()
                && matches!(
                    v.kind,
                    SlotKind::System(
                        SVarKind::State | SVarKind::Algebraic | SVarKind::Discrete | SVarKind::Pre
                    )
                )
        })
        .map(|(i, _)| Slot::new(i))
        .collect();
    let mut counter = 0;
    let values = parameter_values(&plan);
    let mut init_system = d.init.map(Slot::of);
    let mut step_system = d.step.map(Slot::of);
    init_system.parameter_values = values.clone();
    step_system.parameter_values = values;
    init_system.trig_vars = tearing::trig_variables(&plan.arena, &init_system);
    step_system.trig_vars = tearing::trig_variables(&plan.arena, &step_system);
    let guard = opts.guard_factors;
    let (init, init_report, _) = solve_system(&mut plan, d, &init_system, &mut counter, guard)?;
    let (step, step_report, symbolic) =
        solve_system(&mut plan, d, &step_system, &mut counter, guard)?;
    plan.symbolic_loops = symbolic;
    plan.init = init;
    plan.step = step;
    super::pre::elide(&mut plan);
    super::hoist::hoist(&mut plan);
    plan.verify()?;
    Ok((plan, init_report, step_report))
}

/// The value of each parameter (in binding order) where it is known from constants and other
/// parameters.
fn parameter_values(plan: &Plan) -> FxHashMap<Slot, f64> {
    let mut values: FxHashMap<Slot, f64> = FxHashMap::default();
    for &p in &plan.parameters {
        if let Some(b) = plan.vars[p].binding {
            let x = crate::symbolic::eval::eval(
                &plan.arena,
                b,
                &mut |v| values.get(&v).copied().unwrap_or(f64::NAN),
                f64::NAN,
            );
            if x.is_finite() {
                values.insert(p, x);
            }
        }
    }
    values
}

/// Parameters in an order where each binding only uses parameters before it.
fn parameter_order(plan: &Plan) -> Result<Vec<Slot>, Box<Diagnostic>> {
    let params: Vec<Slot> = plan
        .vars
        .iter()
        .enumerate()
        .filter(|(_, v)| v.kind == SlotKind::System(SVarKind::Parameter))
        .map(|(i, _)| Slot::new(i))
        .collect();
    let is_param: FxHashSet<Slot> = params.iter().copied().collect();
    let mut deps: FxHashMap<Slot, Vec<Slot>> = FxHashMap::default();
    for &p in &params {
        let mut ds = Vec::new();
        if let Some(b) = plan.vars[p].binding {
            let mut leaves = Vec::new();
            plan.arena.leaves(b, &mut leaves);
            for l in leaves {
                if let Node::Var(v) = l {
                    if is_param.contains(&v) {
                        ds.push(v);
                    }
                }
            }
        }
        deps.insert(p, ds);
    }
    // Depth-first topological order with cycle detection (iterative).
    let mut state: FxHashMap<Slot, u8> = FxHashMap::default(); // 1 visiting, 2 done
    let mut order = Vec::new();
    for &p in &params {
        if state.get(&p) == Some(&2) {
            continue;
        }
        let mut stack = vec![(p, 0usize)];
        state.insert(p, 1);
        while let Some((v, k)) = stack.pop() {
            let ds = &deps[&v];
            if k < ds.len() {
                stack.push((v, k + 1));
                let w = ds[k];
                match state.get(&w) {
                    Some(1) => {
                        return Err(Box::new(
                            Diagnostic::error(
                                "cycle",
                                format!("parameter `{}` depends on itself", plan.name_of(w)),
                            )
                            .at(plan.vars[w].span, "in its own binding"),
                        ))
                    }
                    Some(2) => {}
                    _ => {
                        state.insert(w, 1);
                        stack.push((w, 0));
                    }
                }
            } else {
                state.insert(v, 2);
                order.push(v);
            }
        }
    }
    Ok(order
        .into_iter()
        .filter(|p| plan.vars[*p].binding.is_some())
        .collect())
}

fn eq_text(plan: &Plan, e: &SEquation) -> String {
    format!("{} = {}", plan.expr_string(e.lhs), plan.expr_string(e.rhs))
}

fn solve_system(
    plan: &mut Plan,
    d: &Discretized,
    system: &System<Slot>,
    counter: &mut usize,
    guard: tearing::Guard,
) -> Result<(Vec<Stmt>, Vec<BlockReport>, usize), Box<Diagnostic>> {
    let names = |v: Slot| d.vars[v.index()].name.clone();
    let texts = |e: &SEquation| {
        let name = |v: crate::system::SysVar| d.vars[v].name.clone();
        let p = crate::symbolic::ExprPrinter {
            arena: &d.arena,
            name: &name,
            temps: None,
        };
        format!("{} = {}", p.to_string(e.lhs), p.to_string(e.rhs))
    };
    let blocks = blt::blt(&plan.arena, system, &names, &texts)?;
    let inc = incidence(&plan.arena, system);
    let mut stmts = Vec::with_capacity(blocks.len());
    let mut reports = Vec::new();
    let mut symbolic = 0;
    for block in &blocks {
        if block.equations.len() == 1 {
            let e = block.equations[0];
            let v = block.unknowns[0];
            if let Some(sol) =
                tearing::solve_for(&mut plan.arena, system, e, v, &Default::default())
            {
                stmts.push(Stmt::Assign(Assign {
                    var: v,
                    expr: sol,
                    span: system.equations[e].span,
                }));
                continue;
            }
        }
        let torn = tearing::tear(&mut plan.arena, system, block, &inc, guard);
        if let Some(assigns) = solve_small_linear(plan, system, &torn) {
            symbolic += 1;
            stmts.extend(assigns.into_iter().map(Stmt::Assign));
            continue;
        }
        if torn.tearing.len() > MAX_TEARING {
            let k = torn.tearing.len();
            return Err(Box::new(
                Diagnostic::error(
                    "loop-too-large",
                    format!(
                        "an algebraic loop of {} equations needs {k} tearing variables; its dense Newton step would cost about {:.1e} flops",
                        block.equations.len(),
                        2.0 * (k as f64).powi(3) / 3.0
                    ),
                )
                .at(system.equations[block.equations[0]].span, "one of the loop's equations")
                .help(format!(
                    "rtc solves loops with an LU over a dense k×k scratch matrix and allows at most {MAX_TEARING} tearing variables; integrate the fast states implicitly and the rest explicitly (--method mixed --implicit …), or use a smaller model"
                )),
            ));
        }
        let index = BlockId::new(*counter);
        *counter += 1;
        let (torn, tb, rows) = cheaper_tearing(plan, system, block, &inc, guard, torn, index);
        let mut residual_text: Vec<String> = torn
            .residuals
            .iter()
            .map(|&r| eq_text(plan, &system.equations[r]))
            .collect();
        if let Some(rows) = rows {
            residual_text = rows.iter().map(|&i| residual_text[i].clone()).collect();
        }
        reports.push(BlockReport {
            index,
            size: block.equations.len(),
            tearing: tb.tearing.clone(),
            residual_spans: tb.residual_spans.clone(),
            residual_text,
            linear: tb.linear,
        });
        stmts.push(Stmt::Block(Box::new(tb)));
    }
    Ok((stmts, reports, symbolic))
}

/// Loops from this many equations on compare the lookahead's tearing with the greedy one.
const COMPARE_TEARING_MIN: usize = 16;

/// A libm call (exp, sin, ...) weighed as this many flops when tearings are compared.
const LIBM_COST: u64 = 20;

/// The loop's tearing and its block, band-ordered (with the row order [`super::band::order`]
/// gives): the greedy tearing where its Newton iteration costs less than 0.8 times `torn`'s
/// (the lookahead's), else `torn`. Compared for loops of [`COMPARE_TEARING_MIN`] equations or
/// more that the lookahead tears: evaluation and band LU as the work bound counts them. Along
/// a chain (a transmission line by backward Euler) the lookahead finds one tearing variable
/// fewer whose Jacobian is a full upper Hessenberg matrix; the greedy tearing's is a narrow
/// band. The trial block of the greedy tearing is dropped again (its tangent slots with it);
/// the lookahead's, built last, is kept where it wins.
#[allow(clippy::too_many_arguments)]
fn cheaper_tearing(
    plan: &mut Plan,
    system: &System<Slot>,
    block: &crate::structure::blt::Block<Slot>,
    inc: &crate::symbolic::EntityVec<crate::system::SysEq, Vec<Slot>>,
    guard: tearing::Guard,
    torn: tearing::Torn<Slot>,
    index: BlockId,
) -> (tearing::Torn<Slot>, TornBlock, Option<Vec<usize>>) {
    let build = |plan: &mut Plan, t: &tearing::Torn<Slot>| {
        let mut tb = torn_block(plan, system, t, index);
        let rows = super::band::order(&plan.arena, &mut tb);
        let w = plan.block_work(&tb, &plan.newton).0;
        (tb, rows, w.flops + w.libm_calls * LIBM_COST)
    };
    let m = block.equations.len();
    let alt = (m >= COMPARE_TEARING_MIN && tearing::looks_ahead(m))
        .then(|| tearing::tear_greedy(&mut plan.arena, system, block, inc, guard))
        .filter(|alt| alt.tearing != torn.tearing && alt.tearing.len() <= MAX_TEARING);
    let Some(alt) = alt else {
        let (tb, rows, _) = build(plan, &torn);
        return (torn, tb, rows);
    };
    let slots = plan.vars.len();
    let slide = plan.slide;
    let (_, _, alt_cost) = build(plan, &alt);
    plan.vars.truncate(slots);
    plan.slide = slide;
    let (tb, rows, cost) = build(plan, &torn);
    // A clear margin: per tearing variable the iteration has costs the flop count leaves out
    // (the LU's loop, the update and the tests; on the line at n = 5, 2 % fewer flops with two
    // more tearing variables ran 10-20 % slower).
    if 5 * alt_cost >= 4 * cost {
        return (torn, tb, rows);
    }
    plan.vars.truncate(slots);
    plan.slide = slide;
    let (tb, rows, _) = build(plan, &alt);
    (alt, tb, rows)
}

/// A loop torn to one variable whose residual is linear in it is solved symbolically: the inner
/// assignments are substituted into the residual, which is solved for the tearing variable;
/// the inner assignments follow explicitly (eq. 10.16: the load voltage of the mixed-mode line
/// needs no iteration). Skipped when substitution would make the expression large.
fn solve_small_linear(
    plan: &mut Plan,
    system: &System<Slot>,
    torn: &tearing::Torn<Slot>,
) -> Option<Vec<Assign>> {
    const MAX_NODES: usize = 400;
    if torn.tearing.len() != 1 || torn.inner.len() > 16 {
        return None;
    }
    let t = torn.tearing[0];
    let eq = system.equations[*torn.residuals.first()?];
    let mut r = plan.arena.sub(eq.lhs, eq.rhs);
    // Substitute inner assignments, last first, so every inner variable disappears.
    for s in torn.inner.iter().rev() {
        let (v, e) = (s.var, s.expr);
        let mut cache = FxHashMap::default();
        r = plan.arena.substitute(r, &mut cache, &mut |_, n| match n {
            Node::Var(w) if w == v => Some(e),
            _ => None,
        });
    }
    for s in &torn.inner {
        if occurs(&plan.arena, r, s.var) {
            return None;
        }
    }
    let (a, b) = crate::symbolic::diff::linear(&mut plan.arena, r, t)?;
    if plan.arena.as_const(a) == Some(0.0)
        || tearing::zero_at_parameters(&plan.arena, system, a)
        || tearing::oscillating(&plan.arena, system, a)
    {
        return None;
    }
    if let Some(h) = system.step_size {
        if tearing::vanishes_with(&mut plan.arena, a, h) {
            return None;
        }
    }
    let nb = plan.arena.neg(b);
    let sol = plan.arena.div(nb, a);
    let n = super::expr_work(&plan.arena, &[sol]);
    if n.flops + n.libm_calls > MAX_NODES as u64 {
        return None;
    }
    let mut out = vec![Assign {
        var: t,
        expr: sol,
        span: eq.span,
    }];
    out.extend(torn.inner.iter().map(|s| Assign {
        var: s.var,
        expr: s.expr,
        span: system.equations[s.eq].span,
    }));
    Some(out)
}

fn torn_block(
    plan: &mut Plan,
    system: &System<Slot>,
    torn: &tearing::Torn<Slot>,
    index: BlockId,
) -> TornBlock {
    let k = torn.tearing.len();
    let mut inner: Vec<Assign> = torn
        .inner
        .iter()
        .map(|s| Assign {
            var: s.var,
            expr: s.expr,
            span: system.equations[s.eq].span,
        })
        .collect();
    let mut residuals: Vec<ExprId> = torn
        .residuals
        .iter()
        .map(|&r| {
            let eq = system.equations[r];
            plan.arena.sub(eq.lhs, eq.rhs)
        })
        .collect();
    let residual_scales: Vec<ExprId> = torn
        .residuals
        .iter()
        .map(|&r| {
            let eq = system.equations[r];
            let a = term_scale(&mut plan.arena, eq.lhs, 0);
            let b = term_scale(&mut plan.arena, eq.rhs, 0);
            plan.arena.add(a, b)
        })
        .collect();
    let residual_spans = torn
        .residuals
        .iter()
        .map(|&r| system.equations[r].span)
        .collect();
    // Iteration variables of the block: what the residuals depend on through the loop.
    let mut iter_vars: Vec<Slot> = torn.tearing.clone();
    iter_vars.extend(inner.iter().map(|a| a.var));
    let iter_set: FxHashSet<Slot> = iter_vars.iter().copied().collect();
    // Switches without events on the block's unknowns: regularised while the damped retry
    // slides ([`super::slide`]).
    let slides = {
        let mut exprs: Vec<ExprId> = inner.iter().map(|a| a.expr).collect();
        let n = exprs.len();
        exprs.extend(residuals.iter().copied());
        let switches = (plan.newton.slide && plan.newton.damped > 0)
            .then(|| super::slide::regularise(plan, &iter_set, &mut exprs))
            .flatten();
        for (a, &e) in inner.iter_mut().zip(&exprs[..n]) {
            a.expr = e;
        }
        residuals.copy_from_slice(&exprs[n..]);
        switches.unwrap_or_default()
    };
    let mut diffs: FxHashMap<Slot, Differentiator<Slot>> = iter_vars
        .iter()
        .map(|&v| (v, Differentiator::new(v)))
        .collect();
    // D[(u, j)]: du/dt_j as an expression (constant or a tangent slot).
    let mut dmap: FxHashMap<(Slot, usize), ExprId> = FxHashMap::default();
    for (j, &t) in torn.tearing.iter().enumerate() {
        for jj in 0..k {
            let c = plan.arena.constant(if j == jj { 1.0 } else { 0.0 });
            dmap.insert((t, jj), c);
        }
    }
    let mut tangents = Vec::new();
    let mut linear = true;
    // Which iteration variables an expression uses directly.
    let uses = |plan: &Plan, e: ExprId| -> Vec<Slot> {
        let mut leaves = Vec::new();
        plan.arena.leaves(e, &mut leaves);
        leaves
            .into_iter()
            .filter_map(|l| match l {
                Node::Var(u) if iter_set.contains(&u) => Some(u),
                _ => None,
            })
            .collect()
    };
    // Total derivative of `e` (using iteration variables `us`) with respect to tearing
    // variable j, by the chain rule through the tangents known so far.
    let chain = |plan: &mut Plan,
                 diffs: &mut FxHashMap<Slot, Differentiator<Slot>>,
                 dmap: &FxHashMap<(Slot, usize), ExprId>,
                 e: ExprId,
                 us: &[Slot],
                 j: usize|
     -> ExprId {
        let mut sum = plan.arena.constant(0.0);
        for &u in us {
            let Some(&du) = dmap.get(&(u, j)) else {
                continue;
            };
            if plan.arena.as_const(du) == Some(0.0) {
                continue;
            }
            let Some(df) = diffs.get_mut(&u) else {
                continue;
            };
            let p = df.diff(&mut plan.arena, e);
            if plan.arena.as_const(p) == Some(0.0) {
                continue;
            }
            let term = plan.arena.mul(p, du);
            sum = plan.arena.add(sum, term);
        }
        sum
    };
    // deps[v]: the tearing variables v depends on (structurally), so only those derivatives
    // are formed: a loop torn along a chain has a sparse Jacobian.
    let mut deps: FxHashMap<Slot, Vec<usize>> = FxHashMap::default();
    for (j, &t) in torn.tearing.iter().enumerate() {
        deps.insert(t, vec![j]);
    }
    let union = |deps: &FxHashMap<Slot, Vec<usize>>, us: &[Slot]| -> Vec<usize> {
        let mut d: Vec<usize> = us
            .iter()
            .flat_map(|u| deps.get(u).cloned().unwrap_or_default())
            .collect();
        d.sort_unstable();
        d.dedup();
        d
    };
    let depends_on_iteration = |plan: &Plan, e: ExprId| -> bool {
        let mut leaves = Vec::new();
        plan.arena.leaves(e, &mut leaves);
        leaves
            .iter()
            .any(|l| matches!(l, Node::Var(u) if iter_set.contains(u)))
    };
    for a in &inner {
        let us = uses(plan, a.expr);
        let dj = union(&deps, &us);
        for &j in &dj {
            let t = chain(plan, &mut diffs, &dmap, a.expr, &us, j);
            if plan.arena.as_const(t).is_some() {
                dmap.insert((a.var, j), t);
                continue;
            }
            if depends_on_iteration(plan, t) {
                linear = false;
            }
            let slot = Slot::new(plan.vars.len());
            plan.vars.push(PlanVar {
                name: format!(
                    "d({})/d({})",
                    plan.vars[a.var].name, plan.vars[torn.tearing[j]].name
                ),
                kind: SlotKind::Tangent,
                binding: None,
                span: a.span,
                constant: false,
                admissible: rtc_runtime::door::Admissible::ANY,
            });
            tangents.push(Assign {
                var: slot,
                expr: t,
                span: a.span,
            });
            let te = plan.arena.var(slot);
            dmap.insert((a.var, j), te);
        }
        deps.insert(a.var, dj);
    }
    let zero = plan.arena.constant(0.0);
    let mut jacobian = vec![zero; k * k];
    for (i, &r) in residuals.iter().enumerate() {
        let us = uses(plan, r);
        for j in union(&deps, &us) {
            let e = chain(plan, &mut diffs, &dmap, r, &us, j);
            if depends_on_iteration(plan, e) {
                linear = false;
            }
            jacobian[i * k + j] = e;
        }
    }
    // Tangent slots in the Jacobian are themselves iteration-dependent only if their
    // expressions were; that was checked when they were made.
    let k = torn.tearing.len();
    TornBlock {
        index,
        tearing: torn.tearing.clone(),
        inner,
        tangents,
        residuals,
        residual_scales,
        residual_spans,
        jacobian,
        linear,
        band: (k.saturating_sub(1), (2 * k).saturating_sub(2)),
        switches: if linear { Vec::new() } else { slides },
    }
}

/// The size of an equation side's terms, against which its residual is judged: the sum of
/// the magnitudes of its additive terms, through the branch an if-expression takes (`0 = if
/// v > v0 then dp - f(v) else dp - g(v)` is judged against |dp| + |f(v)|, not against its own
/// value); below `depth` 32, a term as a whole.
fn term_scale(ar: &mut crate::symbolic::Arena<Slot>, e: ExprId, depth: u32) -> ExprId {
    use crate::symbolic::Node;
    if depth < 32 {
        match ar.node(e) {
            Node::Add(a, b) | Node::Sub(a, b) => {
                let x = term_scale(ar, a, depth + 1);
                let y = term_scale(ar, b, depth + 1);
                return ar.add(x, y);
            }
            Node::Neg(a) => return term_scale(ar, a, depth + 1),
            Node::NoEvent(a) => {
                let x = term_scale(ar, a, depth + 1);
                return ar.no_event(x);
            }
            Node::If(c, a, b) => {
                let x = term_scale(ar, a, depth + 1);
                let y = term_scale(ar, b, depth + 1);
                return ar.if_(c, x, y);
            }
            _ => {}
        }
    }
    ar.call1(crate::symbolic::Func1::Abs, e)
}

#[cfg(test)]
mod tests {
    use super::term_scale;
    use crate::plan::Slot;
    use crate::symbolic::{Arena, CmpOp};

    /// `0 = -(if q > 0 then p - q·q else p + q)` is judged against |p| + |q·q| (the branch
    /// taken), not against its own value: at p = 1e5, q = 316 the residual is 144 and the
    /// scale 199 856; on the other branch |p| + |q|.
    #[test]
    fn residual_scale_is_the_size_of_the_terms() {
        let mut ar: Arena<Slot> = Arena::new();
        let (p, q) = (ar.var(Slot::new(0)), ar.var(Slot::new(1)));
        let zero = ar.constant(0.0);
        let c = ar.cmp(CmpOp::Gt, q, zero);
        let qq = ar.mul(q, q);
        let a = ar.sub(p, qq);
        let b = ar.add(p, q);
        let e = ar.if_(c, a, b);
        let e = ar.neg(e);
        let s = term_scale(&mut ar, e, 0);
        let at = |ar: &Arena<Slot>, x: Pq| {
            crate::symbolic::eval::eval(ar, s, &mut |v| if v.index() == 0 { x.0 } else { x.1 }, 0.0)
        };
        assert_eq!(at(&ar, (1e5, 316.0)), 1e5 + 316.0 * 316.0);
        assert_eq!(at(&ar, (1e5, -3.0)), 1e5 + 3.0);
    }

    type Pq = (f64, f64);
}
