//! Terms that vanish at the parameters' values.
//!
//! A product whose factor of parameters is zero (`irs*p.m_sourceResistance` in a MOSFET
//! model whose card gives no source resistance) is zero whatever its unknowns: the equation
//! `irs*R = S.v - Sinternal` with `R = 0` says `Sinternal = S.v`, and does not determine
//! `irs`. Left in, the term still counts as an occurrence of `irs`, so matching may assign the
//! equation to it and index reduction does not see that `Sinternal` is constrained: the
//! Jacobian is then singular where the structure said it was not (Cellier & Kofman §10.4:
//! the structural analysis decides what a block solves for, the numbers must agree).
//!
//! So before index reduction such terms are dropped from the equations where that removes
//! an unknown from them, if the structure depends on it: with them gone, fewer equations can
//! be matched to unknowns (the model at these values has another structure, or a higher
//! index), or index reduction leaves fewer states (a constraint on a state that the matching
//! alone does not show where the model needs index reduction anyway: a MOSFET whose gate
//! capacitances sit between two sources). Elsewhere they are zeros in the Jacobian and nothing more (a state-space block
//! with zeros in its matrix), and they stay, their parameters tunable. Where they are dropped
//! the structure is that of the model at these parameter values, as a tool evaluating the
//! parameters (`Evaluate = true`) would find it; the parameters the factor is computed from
//! become constants, not tunable (in `rtc run`, FMUs and headers): a new value would need the
//! term back. Each dropped term is reported in the model's notes (`rtc analyze`).

use crate::flat::{FlatModel, FlatVar, VarKind};
use crate::symbolic::{ExprId, Node};
use rustc_hash::{FxHashMap, FxHashSet};

/// An equation without its vanishing terms: its index, its new sides, the dropped
/// (factor, product) pairs, and the unknowns it no longer contains.
type Change = (usize, ExprId, ExprId, Vec<(ExprId, ExprId)>, Vec<FlatVar>);

/// Drops the vanishing terms of `m`'s equations where that removes an unknown from an
/// equation and the structure needs it; the parameters they came from become constants.
/// Returns the notes.
pub fn drop_vanishing_terms(m: &mut FlatModel) -> Vec<String> {
    let mut values: FxHashMap<ExprId, Option<f64>> = FxHashMap::default();
    let mut changes: Vec<Change> = Vec::new();
    let defs = definitions(m);
    for k in 0..m.equations.len() {
        let eq = m.equations[k].clone();
        let mut dropped: Vec<(ExprId, ExprId)> = Vec::new();
        let lhs = rewrite(m, &defs, eq.lhs, &mut values, &mut dropped);
        let rhs = rewrite(m, &defs, eq.rhs, &mut values, &mut dropped);
        if dropped.is_empty() {
            continue;
        }
        let before = unknowns(m, &[eq.lhs, eq.rhs]);
        let after = unknowns(m, &[lhs, rhs]);
        let mut lost: Vec<FlatVar> = before.into_iter().filter(|v| !after.contains(v)).collect();
        if lost.is_empty() {
            continue;
        }
        lost.sort_by_key(|v| v.index());
        changes.push((k, lhs, rhs, dropped, lost));
    }
    if changes.is_empty() {
        return Vec::new();
    }
    // Only where the structure depends on them: with the terms gone, fewer equations can be
    // matched to unknowns (the model at these values has another structure, or a higher
    // index). Otherwise they are zero in the Jacobian and nothing more, and the parameters
    // stay tunable.
    let mut without = m.clone();
    for (k, lhs, rhs, ..) in &changes {
        without.equations[*k].lhs = *lhs;
        without.equations[*k].rhs = *rhs;
    }
    let deficiency = |model: &FlatModel| -> Option<usize> {
        let sys = super::build_system(&mut model.clone()).ok()?;
        let matched = super::matching::maximum_matching(&sys.incidence, sys.unknowns.len()).size;
        Some(sys.equations.len().max(sys.unknowns.len()) - matched)
    };
    // Or with them gone, index reduction leaves fewer states: the terms hid a constraint on
    // a state (`Dinternal = D.v` through a zero drain resistance).
    let states = |model: &FlatModel| -> Option<usize> {
        let mut reduced = model.clone();
        super::index::reduce(&mut reduced).ok()?;
        Some(
            reduced
                .vars
                .iter()
                .filter(|v| v.kind == VarKind::State)
                .count(),
        )
    };
    let fewer_states = || match (states(m), states(&without)) {
        (Some(n), Some(n0)) => n0 < n,
        _ => false,
    };
    match (deficiency(m), deficiency(&without)) {
        (Some(d), Some(d0)) if d0 > d => {}
        (Some(_), Some(_)) if fewer_states() => {}
        _ => return Vec::new(),
    }
    let mut notes = Vec::new();
    let mut frozen: FxHashSet<FlatVar> = FxHashSet::default();
    for (k, lhs, rhs, dropped, lost) in changes {
        let eq = m.equations[k].clone();
        let mut names: Vec<String> = Vec::new();
        for &(factor, _) in &dropped {
            for p in factor_roots(m, &defs, factor) {
                if frozen.insert(p) {
                    names.push(m.var(p).name.clone());
                }
            }
        }
        if names.len() > 6 {
            let more = names.len() - 5;
            names.truncate(5);
            names.push(format!("and {more} more"));
        }
        let terms: Vec<String> = dropped
            .iter()
            .map(|&(f, t)| format!("`{}` (`{}` = 0)", m.expr_string(t), m.expr_string(f)))
            .collect();
        notes.push(format!(
            "equation `{} = {}`: {} is zero at the parameters' values and left out, so the equation no longer determines {}{}",
            m.expr_string(eq.lhs),
            m.expr_string(eq.rhs),
            terms.join(", "),
            lost.iter()
                .map(|&v| format!("`{}`", m.var(v).name))
                .collect::<Vec<_>>()
                .join(", "),
            if names.is_empty() {
                String::new()
            } else {
                format!("; {} now constant (not tunable)", names.join(", "))
            }
        ));
        m.equations[k].lhs = lhs;
        m.equations[k].rhs = rhs;
    }
    for p in frozen {
        m.vars[p].kind = VarKind::Constant;
    }
    // A state whose every derivative was in the dropped terms (the voltage across a
    // capacitance that is zero at these values) is an algebraic variable now: left a state,
    // index reduction would differentiate the equations that determine it.
    let mut derived: FxHashSet<FlatVar> = FxHashSet::default();
    let mut leaves = Vec::new();
    let roots = m
        .equations
        .iter()
        .chain(&m.initial_equations)
        .flat_map(|e| [e.lhs, e.rhs])
        .chain(m.whens.iter().flat_map(|w| {
            std::iter::once(w.condition)
                .chain(w.reinits.iter().map(|r| r.1))
                .chain(w.assigns.iter().map(|a| a.1))
        }))
        .chain(m.assertions.iter().map(|a| a.condition))
        .collect::<Vec<_>>();
    for r in roots {
        m.arena.leaves(r, &mut leaves);
    }
    for l in leaves {
        if let Node::Der(v) = l {
            derived.insert(v);
        }
    }
    let demoted: Vec<FlatVar> = m
        .vars
        .iter_enumerated()
        .filter(|(v, var)| var.kind == VarKind::State && !derived.contains(v))
        .map(|(v, _)| v)
        .collect();
    if !demoted.is_empty() {
        notes.push(format!(
            "{} no longer under `der` with these terms left out: algebraic",
            demoted
                .iter()
                .map(|&v| format!("`{}`", m.var(v).name))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        for v in demoted {
            m.vars[v].kind = VarKind::Algebraic;
        }
    }
    notes
}

/// `e` with every product of a zero parameter factor and an unknown replaced by 0; the
/// dropped (factor, product) pairs are added to `dropped`.
fn rewrite(
    m: &mut FlatModel,
    defs: &Defs,
    e: ExprId,
    values: &mut FxHashMap<ExprId, Option<f64>>,
    dropped: &mut Vec<(ExprId, ExprId)>,
) -> ExprId {
    // A sparse walk: a dense visited table per equation cost the arena's size each time
    // (quadratic in the model: the n = 5000 line's plan took 2-3 times as long).
    let order = m.arena.post_order(e, |_| false);
    let mut new: FxHashMap<ExprId, ExprId> = FxHashMap::default();
    for id in order {
        let node = m.arena.node(id);
        let out = match node {
            Node::Const(_)
            | Node::Var(_)
            | Node::Der(_)
            | Node::Pre(_)
            | Node::Time
            | Node::Arg(_) => id,
            Node::Mul(a, b) => {
                let zero = |m: &FlatModel, vals: &mut FxHashMap<ExprId, Option<f64>>, f, g| {
                    let v = *vals.entry(f).or_insert_with(|| {
                        super::alias::param_value(m, f, 0).or_else(|| defined_value(m, defs, f))
                    });
                    v == Some(0.0) && has_unknown(m, g)
                };
                if zero(m, values, a, b) {
                    dropped.push((a, id));
                    m.arena.constant(0.0)
                } else if zero(m, values, b, a) {
                    dropped.push((b, id));
                    m.arena.constant(0.0)
                } else {
                    let (a, b) = (new[&a], new[&b]);
                    m.arena.mul(a, b)
                }
            }
            Node::Call(c) => {
                let ch: Vec<ExprId> = m.arena.children(id).map(|x| new[&x]).collect();
                let site = m.arena.call_site(c).clone();
                m.arena.call(site.f, site.out, &ch)
            }
            op => {
                let ch: Vec<ExprId> = m.arena.children(id).map(|x| new[&x]).collect();
                crate::symbolic::rebuild(&mut m.arena, op, &ch)
            }
        };
        new.insert(id, out);
    }
    new[&e]
}

/// The equations that compute an algebraic variable explicitly, `v = e` with no derivative
/// in `e`: what a factor's value is folded through ([`defined_value`]).
type Defs = FxHashMap<FlatVar, ExprId>;

fn definitions(m: &FlatModel) -> Defs {
    let mut defs = Defs::default();
    for eq in m.equations.iter() {
        let Node::Var(v) = m.arena.node(eq.lhs) else {
            continue;
        };
        if m.var(v).kind != VarKind::Algebraic || defs.contains_key(&v) {
            continue;
        }
        let mut leaves = Vec::new();
        m.arena.leaves(eq.rhs, &mut leaves);
        if !leaves.iter().any(|l| matches!(l, Node::Der(_))) {
            defs.insert(v, eq.rhs);
        }
    }
    defs
}

/// How deep a factor's value is folded through the equations of the variables it reads.
const DEPTH: u32 = 4;

/// The parameters a vanishing factor's value comes from: its own, or for a variable its
/// equation computes ([`defined_value`]) those of that equation, through the equations of
/// the variables it reads, taken at their values.
fn factor_roots(m: &FlatModel, defs: &Defs, f: ExprId) -> Vec<FlatVar> {
    let mut out: Vec<FlatVar> = Vec::new();
    collect_roots(m, defs, f, DEPTH, &mut out);
    out
}

fn collect_roots(m: &FlatModel, defs: &Defs, e: ExprId, depth: u32, out: &mut Vec<FlatVar>) {
    let mut add = |p: FlatVar| {
        if !out.contains(&p) {
            out.push(p);
        }
    };
    if let Node::Call(c) = m.arena.node(e) {
        for &a in m.arena.call_site(c).args.iter() {
            if super::alias::param_value(m, a, 0).is_some() {
                roots(m, a).into_iter().for_each(&mut add);
            }
        }
        return;
    }
    roots(m, e).into_iter().for_each(&mut add);
    if depth == 0 {
        return;
    }
    let mut leaves = Vec::new();
    m.arena.leaves(e, &mut leaves);
    for l in leaves {
        if let Node::Var(v) = l {
            if let Some(&d) = defs.get(&v) {
                if value_of(m, defs, v, depth - 1).is_some() {
                    collect_roots(m, defs, d, depth - 1, out);
                }
            }
        }
    }
}

/// The value of a factor `f` that is an algebraic variable computed by an equation `f = e`
/// ([`definitions`]) when `e` folds to a constant with the parameters taken at their values,
/// whatever the other variables: a MOSFET's gate capacitance from a model card without oxide
/// thickness (`cox = 0` times anything), a transistor's junction capacitance `Taur*… +
/// Capcjc` with `Taur = 0` and `Capcjc = Cjc*…`, `Cjc = 0`. The variables `e` reads are
/// folded through their own equations ([`DEPTH`] deep); where `e` calls a function compiled
/// out of line, its body is folded with the arguments that are parameters at their values.
fn defined_value(m: &FlatModel, defs: &Defs, f: ExprId) -> Option<f64> {
    let Node::Var(v) = m.arena.node(f) else {
        return None;
    };
    value_of(m, defs, v, DEPTH)
}

fn value_of(m: &FlatModel, defs: &Defs, v: FlatVar, depth: u32) -> Option<f64> {
    let def = *defs.get(&v)?;
    let mut scratch = crate::symbolic::Arena::<FlatVar>::default();
    let mut memo = FxHashMap::default();
    let folded = match m.arena.node(def) {
        Node::Call(c) => {
            let site = m.arena.call_site(c).clone();
            let func = m.arena.function(site.f).clone();
            if func.external {
                return None;
            }
            let args: Vec<ExprId> = site
                .args
                .iter()
                .enumerate()
                .map(|(i, &a)| match super::alias::param_value(m, a, 0) {
                    Some(x) => scratch.constant(x),
                    None => scratch.arg(i as u32),
                })
                .collect();
            scratch
                .import(
                    &func.body,
                    func.outs[site.out as usize],
                    &mut memo,
                    &mut |_, n| match n {
                        Node::Arg(i) => Some(args[i as usize]),
                        _ => None,
                    },
                )
                .ok()
        }
        _ => scratch
            .import(&m.arena, def, &mut memo, &mut |sc, n| match n {
                // A parameter at its value, a variable whose own equation folds to a constant
                // that constant; any other variable a placeholder.
                Node::Var(u) => Some(
                    match var_value(m, u).or_else(|| {
                        (depth > 0)
                            .then(|| value_of(m, defs, u, depth - 1))
                            .flatten()
                    }) {
                        Some(x) => sc.constant(x),
                        None => sc.arg(u.index() as u32),
                    },
                ),
                // `pre(v)` is not `v`: a placeholder of its own.
                Node::Pre(u) => Some(sc.arg((m.vars.len() + u.index()) as u32)),
                _ => None,
            })
            .ok(),
    }?;
    scratch.as_const(folded)
}

/// A parameter's or constant's value, if its binding has one.
fn var_value(m: &FlatModel, v: FlatVar) -> Option<f64> {
    let var = m.var(v);
    match (var.kind, var.binding) {
        (VarKind::Parameter | VarKind::Constant, Some(b)) => super::alias::param_value(m, b, 0),
        _ => None,
    }
}

/// Whether `e` contains an unknown of the continuous system (an algebraic variable or a
/// derivative; states are known).
fn has_unknown(m: &FlatModel, e: ExprId) -> bool {
    !unknowns(m, &[e]).is_empty()
}

/// The algebraic variables and the states under `der` that `roots` contain.
fn unknowns(m: &FlatModel, roots: &[ExprId]) -> FxHashSet<FlatVar> {
    let mut out = FxHashSet::default();
    let mut leaves = Vec::new();
    for &r in roots {
        m.arena.leaves(r, &mut leaves);
    }
    for l in leaves {
        match l {
            Node::Var(v) if m.var(v).kind == VarKind::Algebraic => {
                out.insert(v);
            }
            Node::Der(v) => {
                out.insert(v);
            }
            _ => {}
        }
    }
    out
}

/// The parameters `e`'s value comes from: those with a literal value (or none), through the
/// bindings of the others.
pub(crate) fn roots(m: &FlatModel, e: ExprId) -> Vec<FlatVar> {
    let mut out = Vec::new();
    let mut stack = vec![e];
    let mut seen: FxHashSet<ExprId> = FxHashSet::default();
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        let mut leaves = Vec::new();
        m.arena.leaves(x, &mut leaves);
        for l in leaves {
            let Node::Var(p) = l else { continue };
            let var = m.var(p);
            if var.kind != VarKind::Parameter {
                continue;
            }
            match var.binding {
                Some(b) if m.arena.as_const(b).is_none() => stack.push(b),
                _ => {
                    if !out.contains(&p) {
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}
