//! Tearing of algebraic loops (Cellier & Kofman §10.6, Fig. 10.6; Elmqvist & Otter).
//!
//! Within a block, equations are solved one after another for a variable they contain
//! linearly whenever only one of their variables is still unknown. When no equation can be
//! solved that way, a tearing variable is chosen and assumed known: the one that occurs in the
//! most equations with two unknowns left (each of which then becomes solvable), ties broken by
//! total occurrences, then by order. Equations left at the end are the residuals; a Newton
//! iteration on the tearing variables drives them to zero. A block torn to k variables costs a
//! k×k linear solve per iteration instead of one of the block's full size.

use crate::symbolic::diff::linear;
use crate::symbolic::{Arena, EntityVec, ExprId, Var};

use crate::system::{SysEq, System};
use rustc_hash::{FxHashMap, FxHashSet};

use super::blt::Block;

/// An equation of a torn loop solved for one of its unknowns.
#[derive(Clone, Copy, Debug)]
pub struct Solved<V: Var> {
    pub eq: SysEq,
    pub var: V,
    pub expr: ExprId,
}

/// A torn block: tearing variables, the inner assignments computed from them in order, and the
/// residual equations (as many as tearing variables).
#[derive(Clone, Debug)]
pub struct Torn<V: Var> {
    pub tearing: Vec<V>,
    /// The inner equations, solved in order.
    pub inner: Vec<Solved<V>>,
    pub residuals: Vec<SysEq>,
}

/// Whether equation `eq` can be solved for `v` symbolically; the solution if so. Solutions
/// that divide by the step size are refused (see [`System::step_size`]), and, inside a loop
/// whose unknowns are `block`, those that divide by a factor of them ([`may_vanish`]).
pub fn solve_for<V: Var>(
    ar: &mut Arena<V>,
    system: &System<V>,
    eq: SysEq,
    v: V,
    block: &FxHashSet<V>,
) -> Option<ExprId> {
    let e = system.equations[eq];
    let r = ar.sub(e.lhs, e.rhs);
    let Some((a, b)) = linear(ar, r, v) else {
        return reciprocal(ar, system, (e.lhs, e.rhs), v, block);
    };
    if !safe_divisor(ar, system, a, block) {
        return None;
    }
    let nb = ar.neg(b);
    Some(ar.div(nb, a))
}

/// Whether dividing by `a` is safe for a symbolic solution: it is not zero, zero at the
/// parameters' values, oscillating, a factor of the loop's unknowns, zero in a branch, or
/// vanishing with the step size (the tests of [`solve_for`]).
fn safe_divisor<V: Var>(
    ar: &mut Arena<V>,
    system: &System<V>,
    a: ExprId,
    block: &FxHashSet<V>,
) -> bool {
    if ar.as_const(a) == Some(0.0)
        || zero_at_parameters(ar, system, a)
        || oscillating(ar, system, a)
        || may_vanish(ar, a, block)
        || switches_to_zero(ar, system, a)
    {
        return false;
    }
    !system.step_size.is_some_and(|h| vanishes_with(ar, a, h))
}

/// An equation `c/v = q` (either side), `v` in neither `c` nor `q`: v = c/q, where dividing
/// by `q` is safe. A reluctance's `R_m = 1/G_m` solved for the permeance, which Newton could
/// not do from G_m = 0 (its residual −∞ there, its derivative 1/G_m² infinite).
fn reciprocal<V: Var>(
    ar: &mut Arena<V>,
    system: &System<V>,
    (lhs, rhs): (ExprId, ExprId),
    v: V,
    block: &FxHashSet<V>,
) -> Option<ExprId> {
    use crate::symbolic::Node;
    for (p, q) in [(lhs, rhs), (rhs, lhs)] {
        let Node::Div(c, d) = ar.node(p) else {
            continue;
        };
        if ar.node(d) != Node::Var(v)
            || crate::symbolic::diff::occurs(ar, c, v)
            || crate::symbolic::diff::occurs(ar, q, v)
            || !safe_divisor(ar, system, q, block)
        {
            continue;
        }
        return Some(ar.div(c, q));
    }
    None
}

/// Whether coefficient `a` passes through zero as the model moves: it contains a sine, cosine
/// or tangent of something that varies, or an unknown the system defines as one (an entry of
/// a rotation matrix). Solving for its variable would divide by zero at some angle; such an
/// equation is left to a loop's Newton step, whose LU pivots.
pub fn oscillating<V: Var>(ar: &Arena<V>, system: &System<V>, a: ExprId) -> bool {
    // A sparse walk (called per coefficient: a dense visited table would cost the arena's
    // size each time).
    ar.post_order(a, |_| false)
        .into_iter()
        .any(|id| match ar.node(id) {
            crate::symbolic::Node::Var(v) => system.trig_vars.contains(&v),
            crate::symbolic::Node::Call1(
                crate::symbolic::Func1::Sin
                | crate::symbolic::Func1::Cos
                | crate::symbolic::Func1::Tan,
                x,
            ) => varies(ar, system, x),
            _ => false,
        })
}

/// Whether coefficient `a` has a factor among the unknowns of the loop being torn
/// (`block`): the `(m/2*p)*i[2]` of a machine's torque equation, zero while the current is,
/// and zero or not from one Newton iterate to the next. Solving for the variable would
/// divide by it; the equation is left to the loop's Newton step instead, whose LU pivots.
/// Factors are looked for through products, negations, numerators, powers' bases and the
/// branches of if-expressions (the condition only selects); a sum whose every term may vanish
/// so (a transistor's `vbe/bf + qbk*vcs`, which its loss power would be divided by to give
/// the base current, zero with the circuit at rest) may vanish too, while a sum with a term
/// that does not (`1 + h*k*y` of an implicit formula) is not judged.
pub fn may_vanish<V: Var>(ar: &Arena<V>, a: ExprId, block: &FxHashSet<V>) -> bool {
    use crate::symbolic::Node;
    if block.is_empty() {
        return false;
    }
    match ar.node(a) {
        Node::Var(v) => block.contains(&v),
        Node::Neg(x) | Node::NoEvent(x) | Node::Div(x, _) | Node::Pow(x, _) => {
            may_vanish(ar, x, block)
        }
        Node::Mul(x, y) => may_vanish(ar, x, block) || may_vanish(ar, y, block),
        Node::Add(x, y) | Node::Sub(x, y) => may_vanish(ar, x, block) && may_vanish(ar, y, block),
        Node::If(_, t, e) => may_vanish(ar, t, block) || may_vanish(ar, e, block),
        _ => false,
    }
}

/// Whether coefficient `a` has a factor that a selection makes zero, or tiny against its
/// other branch, in one of its branches (`if off then 1 else Ron` with Ron = 0 or 1e-5: an
/// ideal switch's conducting branch): zero or not as the discrete state switches. Solving for the variable would divide by zero in that
/// mode; the equation is left to a loop's Newton step, whose LU pivots. Factors are looked
/// for as in [`may_vanish`].
pub fn switches_to_zero<V: Var>(ar: &Arena<V>, system: &System<V>, a: ExprId) -> bool {
    use crate::symbolic::Node;
    match ar.node(a) {
        Node::Neg(x) | Node::NoEvent(x) | Node::Div(x, _) | Node::Pow(x, _) => {
            switches_to_zero(ar, system, x)
        }
        Node::Mul(x, y) => switches_to_zero(ar, system, x) || switches_to_zero(ar, system, y),
        Node::If(_, t, e) => {
            let (vt, ve) = (
                value_at_parameters(ar, system, t),
                value_at_parameters(ar, system, e),
            );
            // A branch that is zero, or smaller than the other by more than a thousand times
            // (an ideal switch's Ron = 1e-5 against 1): solving for the variable would divide
            // by zero, or amplify the rounding of what it is solved from as much.
            let tiny = |a: f64, b: f64| a == 0.0 || a.abs() < 1e-3 * b.abs();
            vt.zip(ve).is_some_and(|(a, b)| tiny(a, b) || tiny(b, a))
                || [t, e].into_iter().any(|b| {
                    ar.as_const(b) == Some(0.0)
                        || zero_at_parameters(ar, system, b)
                        || switches_to_zero(ar, system, b)
                })
        }
        _ => false,
    }
}

/// The value of `a` at the parameters' values when it depends on parameters only.
fn value_at_parameters<V: Var>(ar: &Arena<V>, system: &System<V>, a: ExprId) -> Option<f64> {
    let x = crate::symbolic::eval::eval(
        ar,
        a,
        &mut |v| system.parameter_values.get(&v).copied().unwrap_or(f64::NAN),
        f64::NAN,
    );
    x.is_finite().then_some(x)
}

/// Whether `e` depends on something that is not a parameter (a variable, a state, time).
fn varies<V: Var>(ar: &Arena<V>, system: &System<V>, e: ExprId) -> bool {
    let mut leaves = Vec::new();
    ar.leaves(e, &mut leaves);
    leaves.iter().any(|l| match l {
        crate::symbolic::Node::Var(v) => !system.parameter_values.contains_key(v),
        crate::symbolic::Node::Const(_) => false,
        _ => true,
    })
}

/// The unknowns a system defines as a sine, cosine or tangent of something that varies: an
/// equation `v = f(…)` (either side) whose other side holds such a call.
pub fn trig_variables<V: Var>(ar: &Arena<V>, system: &System<V>) -> rustc_hash::FxHashSet<V> {
    let unknown: FxHashSet<V> = system.unknowns.iter().copied().collect();
    let mut out = FxHashSet::default();
    for eq in &system.equations {
        for (x, other) in [(eq.lhs, eq.rhs), (eq.rhs, eq.lhs)] {
            if let crate::symbolic::Node::Var(v) = ar.node(x) {
                if unknown.contains(&v) && oscillating(ar, system, other) {
                    out.insert(v);
                }
            }
        }
    }
    out
}

/// Whether coefficient `a` depends on parameters only and is zero at their values when the
/// plan is built (solving for its variable would divide by zero).
pub fn zero_at_parameters<V: Var>(ar: &Arena<V>, system: &System<V>, a: ExprId) -> bool {
    if system.parameter_values.is_empty() {
        return false;
    }
    let x = crate::symbolic::eval::eval(
        ar,
        a,
        &mut |v| system.parameter_values.get(&v).copied().unwrap_or(f64::NAN),
        f64::NAN,
    );
    x == 0.0
}

/// Whether `a` becomes zero when variable `h` is zero (a coefficient proportional to the step).
pub fn vanishes_with<V: Var>(ar: &mut Arena<V>, a: ExprId, h: V) -> bool {
    if !crate::symbolic::diff::occurs(ar, a, h) {
        return false;
    }
    let mut cache = FxHashMap::default();
    let z = ar.substitute(a, &mut cache, &mut |ar, n| match n {
        crate::symbolic::Node::Var(v) if v == h => Some(ar.constant(0.0)),
        _ => None,
    });
    ar.as_const(z) == Some(0.0)
}

/// What tearing never divides by ([`may_vanish`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Guard {
    /// Any factor.
    #[default]
    Off,
    /// A factor among the block's unknowns (a machine's current at rest).
    Loop,
    /// Also a factor that varies in the run (a diode's voltage, zero at the start, that its
    /// loss power `Q = v·i` would be divided by to give the current).
    Varying,
}

/// Tears `block` with the greedy heuristic, never dividing by what `guard` names.
pub fn tear<V: Var>(
    ar: &mut Arena<V>,
    system: &System<V>,
    block: &Block<V>,
    incidence: &EntityVec<SysEq, Vec<V>>,
    guard: Guard,
) -> Torn<V> {
    tear_with(ar, system, block, incidence, &[], guard)
}

/// The variables `guard` says tearing must not divide by in `block`.
fn guarded<V: Var>(
    ar: &Arena<V>,
    system: &System<V>,
    block: &Block<V>,
    guard: Guard,
) -> FxHashSet<V> {
    let mut set: FxHashSet<V> = FxHashSet::default();
    if guard == Guard::Off {
        return set;
    }
    set.extend(block.unknowns.iter().copied());
    if guard == Guard::Varying {
        let mut leaves = Vec::new();
        for &e in &block.equations {
            let eq = &system.equations[e];
            for side in [eq.lhs, eq.rhs] {
                leaves.clear();
                ar.leaves(side, &mut leaves);
                for l in &leaves {
                    if let crate::symbolic::Node::Var(v) = *l {
                        if !system.parameter_values.contains_key(&v) && system.step_size != Some(v)
                        {
                            set.insert(v);
                        }
                    }
                }
            }
        }
    }
    set
}

/// Tears `block`, starting from the given tearing variables (used to check a proposed set).
pub fn tear_with<V: Var>(
    ar: &mut Arena<V>,
    system: &System<V>,
    block: &Block<V>,
    incidence: &EntityVec<SysEq, Vec<V>>,
    forced: &[V],
    guard: Guard,
) -> Torn<V> {
    let lookahead = block.equations.len() <= LOOKAHEAD_LIMIT;
    tear_impl(ar, system, block, incidence, forced, guard, lookahead)
}

/// Tears `block` choosing each tearing variable by its equation count alone, without trying
/// the candidates (what loops of more than [`LOOKAHEAD_LIMIT`] equations get): more tearing
/// variables than the lookahead's at times, but along a chain of components a Jacobian of
/// narrower band (the plan builder keeps the tearing whose Newton iteration costs less).
pub fn tear_greedy<V: Var>(
    ar: &mut Arena<V>,
    system: &System<V>,
    block: &Block<V>,
    incidence: &EntityVec<SysEq, Vec<V>>,
    guard: Guard,
) -> Torn<V> {
    tear_impl(ar, system, block, incidence, &[], guard, false)
}

/// Whether a loop of `m` equations chooses its tearing variables with lookahead.
pub fn looks_ahead(m: usize) -> bool {
    m <= LOOKAHEAD_LIMIT
}

#[allow(clippy::too_many_arguments)]
fn tear_impl<V: Var>(
    ar: &mut Arena<V>,
    system: &System<V>,
    block: &Block<V>,
    incidence: &EntityVec<SysEq, Vec<V>>,
    forced: &[V],
    guard: Guard,
    lookahead: bool,
) -> Torn<V> {
    let m = block.equations.len();
    let in_block = guarded(ar, system, block, guard);
    let local: FxHashMap<V, usize> = block
        .unknowns
        .iter()
        .enumerate()
        .map(|(i, &v)| (v, i))
        .collect();
    // Local incidence: equation → variables, variable → equations.
    let eq_vars: Vec<Vec<usize>> = block
        .equations
        .iter()
        .map(|&e| {
            incidence[e]
                .iter()
                .filter_map(|v| local.get(v).copied())
                .collect()
        })
        .collect();
    let mut var_eqs: Vec<Vec<usize>> = vec![Vec::new(); m];
    for (e, vs) in eq_vars.iter().enumerate() {
        for &v in vs {
            var_eqs[v].push(e);
        }
    }
    let mut st = State {
        known: vec![false; m],
        used: vec![false; m],
        count: eq_vars.iter().map(|v| v.len()).collect(),
    };
    let mut solvable: FxHashMap<(usize, usize), Option<ExprId>> = FxHashMap::default();
    let mut tearing = Vec::new();
    let mut inner = Vec::new();
    let mut residuals = Vec::new();
    let mut queue: Vec<usize> = (0..m).filter(|&e| st.count[e] <= 1).collect();
    let mark_known = |st: &mut State, v: usize, queue: &mut Vec<usize>| {
        st.known[v] = true;
        for &e in &var_eqs[v] {
            st.count[e] -= 1;
            if st.count[e] <= 1 && !st.used[e] {
                queue.push(e);
            }
        }
    };
    for &t in forced {
        if let Some(&v) = local.get(&t) {
            if !st.known[v] {
                tearing.push(t);
                mark_known(&mut st, v, &mut queue);
            }
        }
    }
    loop {
        // Propagate: assign equations with one unknown left that can be solved for it.
        while let Some(e) = queue.pop() {
            if st.used[e] {
                continue;
            }
            match st.count[e] {
                0 => {
                    st.used[e] = true;
                    residuals.push(block.equations[e]);
                }
                1 => {
                    let Some(&v) = eq_vars[e].iter().find(|&&v| !st.known[v]) else {
                        continue;
                    };
                    let sol = *solvable.entry((e, v)).or_insert_with(|| {
                        solve_for(ar, system, block.equations[e], block.unknowns[v], &in_block)
                    });
                    if let Some(sol) = sol {
                        st.used[e] = true;
                        inner.push(Solved {
                            eq: block.equations[e],
                            var: block.unknowns[v],
                            expr: sol,
                        });
                        mark_known(&mut st, v, &mut queue);
                    }
                }
                _ => {}
            }
        }
        let open: Vec<usize> = (0..m).filter(|&v| !st.known[v]).collect();
        if open.is_empty() {
            break;
        }
        // Choose a tearing variable: the one whose assumption makes the most variables
        // computable (small loops: by trying each), else the one in the most equations with
        // two unknowns left, then in the most equations.
        let cheap = |v: usize, st: &State| -> (usize, usize) {
            let mut two = 0;
            let mut occ = 0;
            for &e in &var_eqs[v] {
                if !st.used[e] {
                    occ += 1;
                    if st.count[e] == 2 {
                        two += 1;
                    }
                }
            }
            (two, occ)
        };
        let mut best: Option<((usize, usize, usize), usize)> = None;
        for &v in &open {
            let (two, occ) = cheap(v, &st);
            let gain = if lookahead {
                simulate_gain(
                    ar,
                    system,
                    block,
                    &eq_vars,
                    &var_eqs,
                    &st,
                    v,
                    &mut solvable,
                    &in_block,
                )
            } else {
                0
            };
            let score = (gain, two, occ);
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, v));
            }
        }
        let Some((_, v)) = best else { break };
        tearing.push(block.unknowns[v]);
        mark_known(&mut st, v, &mut queue);
    }
    for e in 0..m {
        if !st.used[e] {
            residuals.push(block.equations[e]);
        }
    }
    // A square block gives as many residuals as tearing variables; anything else means the
    // greedy pass went wrong, and the whole block is iterated instead.
    if residuals.len() != tearing.len() {
        return Torn {
            tearing: block.unknowns.clone(),
            inner: Vec::new(),
            residuals: block.equations.clone(),
        };
    }
    Torn {
        tearing,
        inner,
        residuals,
    }
}

/// Loops up to this many equations choose tearing variables by trying each candidate.
const LOOKAHEAD_LIMIT: usize = 400;

struct State {
    known: Vec<bool>,
    used: Vec<bool>,
    count: Vec<usize>,
}

/// How many variables become computable if `v` is assumed known.
#[allow(clippy::too_many_arguments)]
fn simulate_gain<V: Var>(
    ar: &mut Arena<V>,
    system: &System<V>,
    block: &Block<V>,
    eq_vars: &[Vec<usize>],
    var_eqs: &[Vec<usize>],
    st: &State,
    v: usize,
    solvable: &mut FxHashMap<(usize, usize), Option<ExprId>>,
    in_block: &FxHashSet<V>,
) -> usize {
    let mut known = st.known.clone();
    let mut used = st.used.clone();
    let mut count = st.count.clone();
    let mut queue = Vec::new();
    let mut gained = 0;
    let set = |x: usize,
               known: &mut Vec<bool>,
               count: &mut Vec<usize>,
               used: &[bool],
               queue: &mut Vec<usize>| {
        known[x] = true;
        for &e in &var_eqs[x] {
            count[e] -= 1;
            if count[e] == 1 && !used[e] {
                queue.push(e);
            }
        }
    };
    set(v, &mut known, &mut count, &used, &mut queue);
    while let Some(e) = queue.pop() {
        if used[e] || count[e] != 1 {
            continue;
        }
        let Some(&w) = eq_vars[e].iter().find(|&&w| !known[w]) else {
            continue;
        };
        let ok = solvable
            .entry((e, w))
            .or_insert_with(|| {
                solve_for(ar, system, block.equations[e], block.unknowns[w], in_block)
            })
            .is_some();
        if ok {
            used[e] = true;
            gained += 1;
            set(w, &mut known, &mut count, &used, &mut queue);
        }
    }
    gained
}

/// The smallest set of tearing variables that leaves the rest of the block explicitly
/// solvable, by exhaustive search up to `max_k` variables (for reporting on small blocks).
pub fn minimum_tearing<V: Var>(
    ar: &mut Arena<V>,
    system: &System<V>,
    block: &Block<V>,
    incidence: &EntityVec<SysEq, Vec<V>>,
    max_k: usize,
) -> Option<Vec<V>> {
    let n = block.unknowns.len();
    let in_block: FxHashSet<V> = block.unknowns.iter().copied().collect();
    let eq_vars: Vec<Vec<V>> = block
        .equations
        .iter()
        .map(|&e| {
            incidence[e]
                .iter()
                .copied()
                .filter(|v| in_block.contains(v))
                .collect()
        })
        .collect();
    // Precompute which (equation, variable) pairs are symbolically solvable.
    let mut can: FxHashSet<(usize, V)> = FxHashSet::default();
    for (i, &e) in block.equations.iter().enumerate() {
        for &v in &eq_vars[i] {
            if solve_for(ar, system, e, v, &in_block).is_some() {
                can.insert((i, v));
            }
        }
    }
    let causal = |torn: &[V]| -> bool {
        let mut known: FxHashSet<V> = torn.iter().copied().collect();
        let mut used = vec![false; eq_vars.len()];
        let mut progress = true;
        while progress {
            progress = false;
            for (i, vars) in eq_vars.iter().enumerate() {
                if used[i] {
                    continue;
                }
                let mut unknown = vars.iter().filter(|v| !known.contains(v));
                if let (Some(&v), None) = (unknown.next(), unknown.next()) {
                    if can.contains(&(i, v)) {
                        used[i] = true;
                        known.insert(v);
                        progress = true;
                    }
                }
            }
        }
        known.len() == n
    };
    for k in 0..=max_k.min(n) {
        let mut idx: Vec<usize> = (0..k).collect();
        loop {
            let set: Vec<V> = idx.iter().map(|&i| block.unknowns[i]).collect();
            if causal(&set) {
                return Some(set);
            }
            if !next_combination(&mut idx, n) {
                break;
            }
        }
    }
    None
}

/// Advances `idx` (a strictly increasing k-subset of 0..n) to the next one in lexicographic
/// order; false after the last.
fn next_combination(idx: &mut [usize], n: usize) -> bool {
    let k = idx.len();
    for i in (0..k).rev() {
        if idx[i] < n - k + i {
            idx[i] += 1;
            for j in i + 1..k {
                idx[j] = idx[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structure::blt::{blt, incidence};
    use crate::system::{Origin, SEquation, SysVar};

    type Arena = crate::symbolic::Arena<SysVar>;

    /// The system of equations `lhs = rhs` (the k-th from model equation k) in `unknowns`,
    /// no step variable, no parameter values.
    fn system(pairs: &[(ExprId, ExprId)], unknowns: Vec<SysVar>) -> System {
        let equations = pairs
            .iter()
            .enumerate()
            .map(|(k, &(lhs, rhs))| SEquation {
                lhs,
                rhs,
                span: Default::default(),
                origin: Origin::Model(crate::flat::FlatEq::new(k)),
            })
            .collect();
        System {
            equations,
            unknowns,
            step_size: None,
            parameter_values: Default::default(),
            trig_vars: Default::default(),
        }
    }

    /// x_i + x_{i+1} = c_i around a cycle of n variables: one loop, tearing one variable
    /// makes every other equation explicit.
    fn ring(n: usize) -> (Arena, System) {
        let mut ar = Arena::new();
        let mut eqs = Vec::new();
        for i in 0..n {
            let a = ar.var(SysVar::new(i));
            let b = ar.var(SysVar::new((i + 1) % n));
            let lhs = ar.add(a, b);
            let rhs = ar.constant(i as f64);
            eqs.push((lhs, rhs));
        }
        let sys = system(&eqs, (0..n).map(SysVar::new).collect());
        (ar, sys)
    }

    #[test]
    fn ring_is_one_block_torn_to_one_variable() {
        let (mut ar, sys) = ring(7);
        let names = |v: SysVar| format!("x{}", v.index());
        let blocks = blt(&ar, &sys, &names, &|_| String::new()).expect("regular");
        assert_eq!(blocks.len(), 1);
        let inc = incidence(&ar, &sys);
        let torn = tear(&mut ar, &sys, &blocks[0], &inc, Guard::Loop);
        assert_eq!(torn.tearing.len(), 1);
        assert_eq!(torn.residuals.len(), 1);
        assert_eq!(torn.inner.len(), 6);
        let min = minimum_tearing(&mut ar, &sys, &blocks[0], &inc, 3).expect("found");
        assert_eq!(min.len(), 1);
    }

    /// Q = v·i, Q = 3 + T, T = sin(i) with v a variable of the run (a diode's voltage, zero at
    /// the start): torn on T, the loop solves Q from the second equation and i = Q / v from
    /// the first unless the guard says v may vanish; then i is left to Newton.
    #[test]
    fn the_varying_guard_does_not_divide_by_a_variable() {
        let mut ar = Arena::new();
        let (i, q, t, v) = (
            SysVar::new(0),
            SysVar::new(1),
            SysVar::new(2),
            SysVar::new(3),
        );
        let (ei, eq, et, ev) = (ar.var(i), ar.var(q), ar.var(t), ar.var(v));
        let vi = ar.mul(ev, ei);
        let three = ar.constant(3.0);
        let q_rhs = ar.add(three, et);
        let t_rhs = ar.call1(crate::symbolic::Func1::Sin, ei);
        let sys = system(&[(eq, vi), (eq, q_rhs), (et, t_rhs)], vec![i, q, t]);
        let blocks = blt(&ar, &sys, &|v| format!("x{}", v.index()), &|_| {
            String::new()
        })
        .expect("regular");
        assert_eq!(blocks.len(), 1);
        let inc = incidence(&ar, &sys);
        let solves_i = |torn: &Torn<SysVar>| {
            torn.inner
                .iter()
                .any(|s| s.var == i && s.eq == SysEq::new(0))
        };
        let off = tear_with(&mut ar, &sys, &blocks[0], &inc, &[t], Guard::Loop);
        assert!(
            solves_i(&off),
            "{:?}",
            off.inner.iter().map(|s| s.var).collect::<Vec<_>>()
        );
        let varying = tear_with(&mut ar, &sys, &blocks[0], &inc, &[t], Guard::Varying);
        assert!(!solves_i(&varying));
        assert!(varying.tearing.contains(&i) || varying.residuals.contains(&SysEq::new(0)));
    }

    #[test]
    fn triangular_system_has_no_loops() {
        // x0 = 1, x1 = x0, x2 = x0 + x1: three scalar blocks in dependency order.
        let mut ar = Arena::new();
        let x: Vec<_> = (0..3).map(|i| ar.var(SysVar::new(i))).collect();
        let one = ar.constant(1.0);
        let s = ar.add(x[0], x[1]);
        let sys = system(
            &[(x[2], s), (x[1], x[0]), (x[0], one)],
            (0..3).map(SysVar::new).collect(),
        );
        let blocks = blt(&ar, &sys, &|v| format!("x{}", v.index()), &|_| {
            String::new()
        })
        .expect("regular");
        let order: Vec<SysVar> = blocks.iter().map(|b| b.unknowns[0]).collect();
        assert_eq!(order, vec![SysVar::new(0), SysVar::new(1), SysVar::new(2)]);
    }

    #[test]
    fn a_reciprocal_is_solved_for_its_denominator() {
        // r = 2/g solved for g: g = 2/r (Newton could not start from g = 0); refused where r
        // is an unknown of the loop (a divisor that may vanish between iterates), and where
        // g is not alone in its denominator (r = 2/g + g).
        let mut ar = Arena::new();
        let (r, g) = (SysVar::new(0), SysVar::new(1));
        let (re, ge) = (ar.var(r), ar.var(g));
        let two = ar.constant(2.0);
        let q = ar.div(two, ge);
        let sys = system(&[(re, q)], vec![r, g]);
        let sol = solve_for(&mut ar, &sys, SysEq::new(0), g, &Default::default()).expect("solved");
        let val =
            crate::symbolic::eval::eval(&ar, sol, &mut |v| if v == r { 4.0 } else { 0.0 }, 0.0);
        assert_eq!(val, 0.5);
        let in_loop: FxHashSet<SysVar> = [r, g].into_iter().collect();
        assert!(solve_for(&mut ar, &sys, SysEq::new(0), g, &in_loop).is_none());
        let both = ar.add(q, ge);
        let sys = system(&[(re, both)], vec![r, g]);
        assert!(solve_for(&mut ar, &sys, SysEq::new(0), g, &Default::default()).is_none());
    }

    #[test]
    fn coefficient_proportional_to_step_is_refused() {
        // x = p + h*d solved for d would divide by h.
        let mut ar = Arena::new();
        let (x, p, h, d) = (
            SysVar::new(0),
            SysVar::new(1),
            SysVar::new(2),
            SysVar::new(3),
        );
        let (xe, pe, he, de) = (ar.var(x), ar.var(p), ar.var(h), ar.var(d));
        let hd = ar.mul(he, de);
        let rhs = ar.add(pe, hd);
        let sys = System {
            step_size: Some(h),
            ..system(&[(xe, rhs)], vec![x, d])
        };
        assert!(solve_for(&mut ar, &sys, SysEq::new(0), x, &Default::default()).is_some());
        assert!(solve_for(&mut ar, &sys, SysEq::new(0), d, &Default::default()).is_none());
    }

    #[test]
    fn coefficient_zero_at_the_parameters_is_refused() {
        // y = a*d with the parameter a = 2/3*sin(0) = 0 when the plan is built: solving for d
        // would divide by zero; with a = 1 it is solved.
        let mut ar = Arena::new();
        let (y, a, d) = (SysVar::new(0), SysVar::new(1), SysVar::new(2));
        let (ye, ae, de) = (ar.var(y), ar.var(a), ar.var(d));
        let rhs = ar.mul(ae, de);
        let mut sys = System {
            parameter_values: [(a, 0.0)].into_iter().collect(),
            ..system(&[(ye, rhs)], vec![y, d])
        };
        assert!(solve_for(&mut ar, &sys, SysEq::new(0), d, &Default::default()).is_none());
        sys.parameter_values.insert(a, 1.0);
        assert!(solve_for(&mut ar, &sys, SysEq::new(0), d, &Default::default()).is_some());
    }

    #[test]
    fn factor_among_the_loop_unknowns_is_refused() {
        // tau = k*i*psi (a machine's torque equation) in a loop over {i, psi}: solving it for
        // psi would divide by the current i, zero at the start and between Newton iterates.
        // Outside that loop (i computed before it) the division is the model's own; and a
        // sum such as 1 + i is not judged.
        let mut ar = Arena::new();
        let (tau, k, i, psi) = (
            SysVar::new(0),
            SysVar::new(1),
            SysVar::new(2),
            SysVar::new(3),
        );
        let (taue, ke, ie, psie) = (ar.var(tau), ar.var(k), ar.var(i), ar.var(psi));
        let ki = ar.mul(ke, ie);
        let rhs = ar.mul(ki, psie);
        let one = ar.constant(1.0);
        let sum = ar.add(one, ie);
        let rhs2 = ar.mul(sum, psie);
        let sys = System {
            parameter_values: [(k, 2.0)].into_iter().collect(),
            ..system(&[(taue, rhs), (taue, rhs2)], vec![tau, i, psi])
        };
        let in_loop: FxHashSet<SysVar> = [i, psi].into_iter().collect();
        assert!(solve_for(&mut ar, &sys, SysEq::new(0), psi, &in_loop).is_none());
        assert!(solve_for(
            &mut ar,
            &sys,
            SysEq::new(0),
            psi,
            &[psi].into_iter().collect()
        )
        .is_some());
        assert!(solve_for(&mut ar, &sys, SysEq::new(1), psi, &in_loop).is_some());
    }

    #[test]
    fn sum_of_vanishing_terms_is_refused() {
        // q = (v/b + u*w)*i (a transistor's loss power, base and collector parts) in a loop
        // over {v, w, i}: solving for i would divide by v/b + u*w, zero with the circuit at
        // rest; with a term that does not vanish (v/b + 1) it is solved.
        let mut ar = Arena::new();
        let [q, b, u, v, w, i] = [0, 1, 2, 3, 4, 5].map(SysVar::new);
        let [qe, be, ue, ve, we, ie] = [q, b, u, v, w, i].map(|x| ar.var(x));
        let vb = ar.div(ve, be);
        let uw = ar.mul(ue, we);
        let sum = ar.add(vb, uw);
        let rhs = ar.mul(sum, ie);
        let one = ar.constant(1.0);
        let kept = ar.add(vb, one);
        let rhs2 = ar.mul(kept, ie);
        let sys = System {
            parameter_values: [(b, 100.0)].into_iter().collect(),
            ..system(&[(qe, rhs), (qe, rhs2)], vec![q, u, v, w, i])
        };
        let in_loop: FxHashSet<SysVar> = [v, w, i].into_iter().collect();
        assert!(solve_for(&mut ar, &sys, SysEq::new(0), i, &in_loop).is_none());
        assert!(solve_for(&mut ar, &sys, SysEq::new(1), i, &in_loop).is_some());
    }
}
