//! Linearly implicit (semi-implicit) Euler, Cellier & Kofman §10.4 (eq. 10.1–10.8):
//!
//! x_{k+1} = x_k + Δ,   (I − h·J)·Δ = h·f(x_k),   J = ∂f/∂x at x_k,
//!
//! one linear solve per step and no iteration. J is the symbolic Jacobian of the state
//! derivatives: the model's derivatives are first written as explicit functions of the states
//! (the initial system of a forward Euler plan, its assignments substituted into each other),
//! differentiated with [`crate::symbolic::diff`], and evaluated at the start of the step (every
//! state replaced by `pre(x)`, `time` by t). The unknowns Δ and their equations join the step
//! system, so sorting and tearing solve the linear system with its sparsity (§10.4 names
//! tearing): a state whose derivative does not depend on the others gets its Δ by one
//! division, coupled ones form one linear torn block, solved by one LU.

use super::transfer;
use crate::diag::Diagnostic;
use crate::plan::Slot;
use crate::plan::{Plan, Stmt};
use crate::symbolic::{diff, ExprId, Node};

use crate::system::SysVar;
use crate::system::{Discretized, Formula, Origin, SEquation, SVarKind};
use rustc_hash::FxHashMap;

/// Turns a forward Euler system `d` (with its plan `p`) into linearly implicit Euler, for
/// every state or only those in `only` (mixed mode: the Jacobian block of those states,
/// the others stay forward Euler).
pub fn transform(
    mut d: Discretized,
    p: &Plan,
    only: Option<&[SysVar]>,
) -> Result<Discretized, Box<Diagnostic>> {
    if p.init.iter().any(|s| matches!(s, Stmt::Block(_))) {
        return Err(Box::new(
            Diagnostic::error(
                "unsupported",
                "not yet supported: linearly implicit Euler on a model whose derivatives need an algebraic loop solved",
            )
            .help("use --method be or --method mixed (the derivatives must be explicit functions of the states)"),
        ));
    }
    // The derivatives as explicit functions of states, parameters, inputs and time.
    let mut ar = p.arena.clone();
    let mut known: FxHashMap<Slot, ExprId> = FxHashMap::default();
    let mut cache = FxHashMap::default();
    for &hv in &p.hoisted {
        if let Some(b) = p.vars[hv].binding {
            let e = ar.substitute(b, &mut cache, &mut |_, n| match n {
                Node::Var(v) => known.get(&v).copied(),
                _ => None,
            });
            known.insert(hv, e);
        }
    }
    for s in &p.init {
        let Stmt::Assign(a) = s else { continue };
        let e = ar.substitute(a.expr, &mut cache, &mut |_, n| match n {
            Node::Var(v) => known.get(&v).copied(),
            _ => None,
        });
        known.insert(a.var, e);
    }
    let states: Vec<SysVar> = d
        .formulas
        .iter()
        .map(|(x, _)| *x)
        .filter(|x| only.is_none_or(|o| o.contains(x)))
        .collect();
    let der_of = |d: &Discretized, x: SysVar| -> Option<SysVar> {
        let want = format!("der({})", d.vars[x].name);
        d.vars.iter().position(|v| v.name == want).map(SysVar::new)
    };
    let pre_of: FxHashMap<SysVar, SysVar> = d.pre_copies.iter().map(|&(p, v)| (v, p)).collect();
    // At the start of the step: states → pre(x), time → t.
    let mut at_start: FxHashMap<Slot, ExprId> = FxHashMap::default();
    for &x in &states {
        let Some(&px) = pre_of.get(&x) else {
            return Err(bug("a state without a pre slot"));
        };
        at_start.insert(Slot::of(x), d.arena.var(px));
    }
    at_start.insert(Slot::of(d.time), d.arena.var(d.step_start));
    // Unknowns Δ, one per state.
    let mut delta: Vec<SysVar> = Vec::new();
    for &x in &states {
        let name = format!("delta({})", d.vars[x].name);
        delta.push(d.add_var(name, SVarKind::Stage, x, None));
    }
    let h = d.arena.var(d.step_size);
    let mut memo = FxHashMap::default();
    let mut new_eqs = Vec::new();
    for (i, &x) in states.iter().enumerate() {
        let dx = der_of(&d, x).ok_or_else(|| bug("a state without a derivative"))?;
        let f = *known
            .get(&Slot::of(dx))
            .ok_or_else(|| bug("a derivative the initial system does not compute"))?;
        // Δ_i = h·f_i(x_k) + h·Σ_j J_ij(x_k)·Δ_j; f_i(x_k) is pre(der(x_i)).
        let pd = *pre_of
            .get(&dx)
            .ok_or_else(|| bug("a derivative without a pre slot"))?;
        let pde = d.arena.var(pd);
        let mut rhs = d.arena.mul(h, pde);
        for (j, &xj) in states.iter().enumerate() {
            if !diff::occurs(&ar, f, Slot::of(xj)) {
                continue;
            }
            let jij = diff::diff(&mut ar, f, Slot::of(xj));
            if ar.as_const(jij) == Some(0.0) {
                continue;
            }
            let n = d.vars.len();
            let jd = transfer(&ar, &mut d.arena, n, jij, &at_start, &mut memo).map_err(|s| {
                bug(&format!(
                    "Jacobian entry uses slot {} outside the system",
                    s.index()
                ))
            })?;
            let dj = d.arena.var(delta[j]);
            let t = d.arena.mul(jd, dj);
            let ht = d.arena.mul(h, t);
            rhs = d.arena.add(rhs, ht);
        }
        let lhs = d.arena.var(delta[i]);
        new_eqs.push(SEquation {
            lhs,
            rhs,
            span: d.vars[x].span,
            origin: Origin::Formula(delta[i]),
        });
    }
    // x = pre(x) + Δ replaces forward Euler's x = pre(x) + h·pre(der(x)).
    for (i, &x) in states.iter().enumerate() {
        let px = d.arena.var(pre_of[&x]);
        let de = d.arena.var(delta[i]);
        let rhs = d.arena.add(px, de);
        let eq = d
            .step
            .equations
            .iter_mut()
            .find(|e| e.origin == Origin::Formula(x))
            .ok_or_else(|| bug("a state without its formula"))?;
        eq.rhs = rhs;
    }
    d.step.equations.extend(new_eqs);
    d.step.unknowns.extend(delta.iter().copied());
    for f in d.formulas.iter_mut() {
        if states.contains(&f.0) {
            f.1 = Formula::LinearlyImplicit;
        }
    }
    Ok(d)
}

fn bug(msg: &str) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::error("internal", format!("linearly implicit Euler: {msg}"))
            .help("this is a bug in rtc"),
    )
}
