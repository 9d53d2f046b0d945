//! Index reduction: Pantelides' algorithm and the dummy-derivative method with static state
//! selection.
//!
//! A model built from components often has more derivatives than degrees of freedom: two
//! inertias joined by a gear, two capacitors in parallel, a pendulum in Cartesian coordinates.
//! With the states known, the equations then cannot all be matched to an unknown (the model is
//! of higher index). Cellier & Kofman (ch. 10, and §7–8 of the book it continues) reduce such a
//! model to index one before inline integration; this module does that on the flat model, so
//! every later phase (alias elimination, the initial system, discretisation by every method)
//! sees an ordinary index-one model.
//!
//! 1. **Pantelides** (Pantelides 1988): every derivative becomes a variable (`der(x)` is `x'`,
//!    with `A(x) = x'`), and the equations are matched to the highest derivatives. An equation
//!    that cannot be matched lies in a structurally singular subset; every equation of the
//!    subset is differentiated along time (by the symbolic core: d/dt e = Σ ∂e/∂v · v' +
//!    ∂e/∂t) and every variable of it gets a derivative, until all equations match.
//! 2. **Dummy derivatives** (Mattsson & Söderlind 1993): from the most differentiated
//!    equations down, as many highest derivatives as there are differentiated equations are
//!    chosen so that the Jacobian of those equations with respect to them is regular; they
//!    become ordinary algebraic unknowns (dummy derivatives), and the variable each is the
//!    derivative of stops being a state. At the next level down, the candidates are the
//!    antiderivatives of the chosen ones. What remains a state keeps its `der`.
//!
//! Real-time code must not switch states while it runs, so the selection is **static**: it is
//! made once, at the initial point (start values, parameters; an algebraic variable without a
//! start value that an explicit equation defines takes that equation's value, so that a
//! rotation matrix of an angle is the identity there, not zero). Candidates are taken by
//! `stateSelect` (never, avoid first … always last: those are the ones that become dummies
//! first; a state some `reinit` re-initialises counts as `always`), then states with a fixed start value last, then columns with an entry that a mode
//! makes zero (the derivative of a clamp, `if h > hsat then 0 else 1`: a hysteresis core's
//! field beyond saturation, where the choice regular at the start becomes singular), and among
//! equals by column pivoting on the Jacobian evaluated at the initial point (each next column
//! with the largest part orthogonal to the ones chosen). Where the Jacobian at the initial point is singular for
//! every choice, the choice is structural and the report says so. Where the chosen block can
//! become singular later (a pendulum swinging to the horizontal with its vertical position
//! chosen as the dummy), Newton reports non-convergence while running; the report lists the
//! candidates, since only dynamic state selection would then do.

use super::alias::Aliases;
use crate::diag::{Diagnostic, Span};
use crate::flat::{
    Equation, EquationOrigin, FlatEq, FlatModel, FlatVar, StateSelect, VarKind, Variable,
};
use crate::symbolic::diff::Differentiator;
use crate::symbolic::{ExprId, Node};
use rustc_hash::{FxHashMap, FxHashSet};

/// How often one equation may be differentiated: the differentiation index of mechanical
/// systems is at most three; more means the model is singular, not of high index.
const MAX_DIFFERENTIATIONS: u32 = 4;

/// Passes over the explicit equations when the initial point's values are propagated (each
/// pass defines at least one more variable, or propagation stops).
const MAX_PROPAGATION_PASSES: usize = 64;

/// What index reduction did, for `rtc check`, `rtc analyze` and `rtc run`.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Equations differentiated (counting each differentiation).
    pub differentiated: usize,
    /// The states chosen (flat names).
    pub states: Vec<String>,
    /// The dummy derivatives (now algebraic unknowns) and the former states they demote.
    pub dummies: Vec<String>,
    pub demoted: Vec<String>,
    /// Per level, when the choice was not forced: the candidates.
    pub choices: Vec<String>,
    /// Levels whose Jacobian was singular at the initial point (chosen structurally).
    pub structural: Vec<String>,
    /// Warnings: demoted variables with `fixed = true` (their start value becomes an initial
    /// equation), `stateSelect = always` not honoured.
    pub warnings: Vec<Diagnostic>,
}

impl Report {
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!(
            "index reduction: {} equation{} differentiated (Pantelides); states {}; dummy derivatives {} (so {} {} algebraic)",
            self.differentiated,
            if self.differentiated == 1 { "" } else { "s" },
            list(&self.states),
            list(&self.dummies),
            list(&self.demoted),
            if self.demoted.len() == 1 { "is" } else { "are" },
        )];
        for c in &self.choices {
            out.push(format!(
                "  dummy derivatives chosen at the initial point (static), {c}"
            ));
        }
        for s in &self.structural {
            out.push(format!(
                "  warning: the Jacobian of {s} is singular at the initial point; the dummy derivatives were chosen structurally"
            ));
        }
        out
    }
}

fn list(v: &[String]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    let mut s = v
        .iter()
        .take(16)
        .map(|x| format!("`{x}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if v.len() > 16 {
        s.push_str(&format!(" and {} more", v.len() - 16));
    }
    s
}

/// An unknown of Pantelides' algorithm: a flat variable or a derivative of one.
struct IVar {
    /// The leaf standing for it in the arena: the flat variable, or a variable numbered past
    /// the flat model's (renumbered when the model is rebuilt).
    leaf: FlatVar,
    /// The variable this one is the time derivative of.
    deriv_of: Option<usize>,
    /// Its time derivative, once there is one.
    a: Option<usize>,
    /// A discrete unknown: constant between events, never differentiated.
    discrete: bool,
    name: String,
    /// The flat variable at the bottom of the chain.
    base: FlatVar,
}

struct IEq {
    lhs: ExprId,
    rhs: ExprId,
    span: Span,
    origin: EquationOrigin,
    diff_of: Option<usize>,
    b: Option<usize>,
    /// Unknowns (indices into `vars`) occurring in it.
    vars: Vec<usize>,
    /// Differentiations from the source equation.
    depth: u32,
}

struct Pantelides<'m> {
    model: &'m mut FlatModel,
    aliases: &'m Aliases,
    /// Per representative: whether a member has `fixed = true`, and its `stateSelect`.
    set_fixed: Vec<bool>,
    set_select: Vec<Option<StateSelect>>,
    vars: Vec<IVar>,
    eqs: Vec<IEq>,
    /// Flat variable or extra leaf → unknown.
    of_leaf: FxHashMap<FlatVar, usize>,
    assign: Vec<Option<usize>>,
    /// Unknowns constant between events and the equation that gives each
    /// ([`Pantelides::mark_piecewise_constant`]): matched so before the rest.
    defined: Vec<(usize, usize)>,
}

/// Reduces the index of `model` in place when its equations cannot be matched with the states
/// known; `None` when nothing was to be done (or the singularity is not one of index, which
/// the structural check then reports).
pub fn reduce(model: &mut FlatModel) -> Result<Option<Report>, Vec<Diagnostic>> {
    // The structure is that of the alias-eliminated system (what the structural check sees):
    // Pantelides works on the kept equations over the representatives of alias sets.
    let mut work = model.clone();
    // (`fixed = true` on a non-state is an initial equation, as the pipeline makes it.)
    super::alias::fixed_to_initial_equations(&mut work);
    let Ok(sys) = super::build_system(&mut work) else {
        return Ok(None);
    };
    if sys.equations.len() != sys.unknowns.len() {
        return Ok(None);
    }
    let matching = super::matching::maximum_matching(&sys.incidence, sys.unknowns.len());
    if matching.size == sys.equations.len() {
        return Ok(None);
    }
    // Alias elimination merged attributes into representatives; the rebuilt model keeps the
    // variables as written (the pipeline eliminates aliases again).
    work.vars = model.vars.clone();
    work.initial_equations = model.initial_equations.clone();
    let mut p = Pantelides::new(&mut work, &sys.aliases, &sys.equations);
    if p.run().is_err() {
        // Not a problem of index: the structural check names what is left over.
        return Ok(None);
    }
    if p.eqs.iter().all(|e| e.diff_of.is_none()) {
        return Ok(None);
    }
    let selection = p.select_dummies();
    let report = p.rebuild(selection)?;
    *model = work;
    Ok(Some(report))
}

fn is_unknown(k: VarKind) -> bool {
    matches!(k, VarKind::State | VarKind::Algebraic | VarKind::Discrete)
}

impl<'m> Pantelides<'m> {
    fn new(model: &'m mut FlatModel, aliases: &'m Aliases, kept: &[FlatEq]) -> Pantelides<'m> {
        let n = model.vars.len();
        // Per representative: a member's fixed start value or stateSelect speaks for the set.
        let mut set_fixed = vec![false; n];
        let mut set_select: Vec<Option<StateSelect>> = vec![None; n];
        for (i, v) in model.vars.iter().enumerate() {
            if !is_unknown(v.kind) {
                continue;
            }
            let r = aliases.resolve(FlatVar::new(i)).0.index();
            set_fixed[r] |= v.fixed == Some(true);
            if set_select[r].is_none() {
                set_select[r] = v.state_select;
            }
        }
        // A state a when-clause re-initialises must stay a state (8.6: `reinit` needs one):
        // taken as `stateSelect = always` where its set says nothing stronger.
        for w in &model.whens {
            for &(x, _) in &w.reinits {
                let r = aliases.resolve(x).0.index();
                if !matches!(
                    set_select[r],
                    Some(StateSelect::Never | StateSelect::Always)
                ) {
                    set_select[r] = Some(StateSelect::Always);
                }
            }
        }
        let mut p = Pantelides {
            model,
            aliases,
            set_fixed,
            set_select,
            vars: Vec::new(),
            eqs: Vec::new(),
            of_leaf: FxHashMap::default(),
            assign: Vec::new(),
            defined: Vec::new(),
        };
        for i in 0..n {
            let leaf = FlatVar::new(i);
            let kind = p.model.vars[i].kind;
            if !is_unknown(kind) || aliases.resolve(leaf).0 != leaf || aliases.bound[i].is_some() {
                continue;
            }
            let discrete = kind == VarKind::Discrete && !aliases.has_state[i];
            let name = p.model.vars[i].name.clone();
            let j = p.push_var(leaf, None, discrete, name, leaf);
            if aliases.has_state[i] {
                p.derivative(j);
            }
        }
        // The kept equations over representatives: v = s·r, der(v) = s·r'.
        let mut cache = FxHashMap::default();
        for &k in kept {
            let e = p.model.equations[k].clone();
            let lhs = p.over_representatives(e.lhs, &mut cache);
            let rhs = p.over_representatives(e.rhs, &mut cache);
            p.push_eq(lhs, rhs, e.span, e.origin, None, 0);
        }
        p.mark_piecewise_constant();
        p
    }

    /// Marks as discrete the continuous unknowns that an equation gives from parameters and
    /// discrete unknowns alone (no `time`, input or derivative): constant between events, as
    /// a trajectory planner's durations computed from its parameters are. Their derivative is
    /// zero; differentiating the equations that set them would only make more unknowns.
    fn mark_piecewise_constant(&mut self) {
        let mut used = vec![false; self.eqs.len()];
        let mut known = vec![false; self.vars.len()];
        loop {
            let mut changed = false;
            for (i, done) in used.iter_mut().enumerate() {
                if *done {
                    continue;
                }
                let mut open = self.eqs[i].vars.iter().filter(|&&j| !known[j]);
                let (Some(&j), None) = (open.next(), open.next()) else {
                    continue;
                };
                if self.vars[j].deriv_of.is_some() || self.vars[j].a.is_some() {
                    continue;
                }
                // A discrete unknown is constant between events whatever sets it; a
                // continuous one when its equation reads no time, input, derivative or
                // `pre` (of a continuous variable, its value).
                let model = &*self.model;
                let timed = |e: ExprId| {
                    model
                        .arena
                        .find_leaf(e, |n| match n {
                            Node::Time | Node::Der(_) | Node::Pre(_) | Node::Arg(_) => true,
                            Node::Var(v) => {
                                v.index() < model.vars.len() && model.var(v).kind == VarKind::Input
                            }
                            _ => false,
                        })
                        .is_some()
                };
                if !self.vars[j].discrete && (timed(self.eqs[i].lhs) || timed(self.eqs[i].rhs)) {
                    continue;
                }
                self.vars[j].discrete = true;
                known[j] = true;
                *done = true;
                self.defined.push((j, i));
                changed = true;
            }
            if !changed {
                break;
            }
        }
    }

    /// `e` with every unknown replaced by its representative (signed) or bound value, and
    /// `der(v)` by the derivative unknown of v's representative.
    fn over_representatives(&mut self, e: ExprId, cache: &mut FxHashMap<ExprId, ExprId>) -> ExprId {
        let (aliases, vars, of_leaf) = (self.aliases, &self.vars, &self.of_leaf);
        let model_vars = &self.model.vars;
        let mut f = |ar: &mut crate::symbolic::Arena<FlatVar>, node: Node<FlatVar>| {
            let (v, der) = match node {
                Node::Var(v) => (v, false),
                Node::Der(v) => (v, true),
                _ => return None,
            };
            if !is_unknown(model_vars[v].kind) {
                return None;
            }
            let (r, sign) = aliases.resolve(v);
            let value = match (aliases.bound[r.index()], der) {
                (Some(_), true) => return Some(ar.constant(0.0)),
                (Some(b), false) => b,
                (None, false) => ar.var(r),
                (None, true) => {
                    let d = vars[of_leaf[&r]].a.expect("a state set has a derivative");
                    ar.var(vars[d].leaf)
                }
            };
            Some(if sign < 0.0 { ar.neg(value) } else { value })
        };
        self.model.arena.substitute(e, cache, &mut f)
    }

    fn push_var(
        &mut self,
        leaf: FlatVar,
        deriv_of: Option<usize>,
        discrete: bool,
        name: String,
        base: FlatVar,
    ) -> usize {
        let j = self.vars.len();
        self.of_leaf.insert(leaf, j);
        self.vars.push(IVar {
            leaf,
            deriv_of,
            a: None,
            discrete,
            name,
            base,
        });
        self.assign.push(None);
        j
    }

    /// The derivative of unknown `j`, made on first use.
    fn derivative(&mut self, j: usize) -> usize {
        if let Some(d) = self.vars[j].a {
            return d;
        }
        let leaf = FlatVar::new(self.model.vars.len() + self.vars.len());
        let name = format!("der({})", self.vars[j].name);
        let base = self.vars[j].base;
        let d = self.push_var(leaf, Some(j), false, name, base);
        self.vars[j].a = Some(d);
        d
    }

    fn push_eq(
        &mut self,
        lhs: ExprId,
        rhs: ExprId,
        span: Span,
        origin: EquationOrigin,
        diff_of: Option<usize>,
        depth: u32,
    ) -> usize {
        let mut leaves = Vec::new();
        self.model.arena.leaves(lhs, &mut leaves);
        self.model.arena.leaves(rhs, &mut leaves);
        let mut vars = Vec::new();
        for l in leaves {
            if let Node::Var(v) = l {
                if let Some(&j) = self.of_leaf.get(&v) {
                    if !vars.contains(&j) {
                        vars.push(j);
                    }
                }
            }
        }
        self.eqs.push(IEq {
            lhs,
            rhs,
            span,
            origin,
            diff_of,
            b: None,
            vars,
            depth,
        });
        self.eqs.len() - 1
    }

    /// Pantelides' algorithm, started from a maximum matching of the equations as written.
    fn run(&mut self) -> Result<(), ()> {
        // The unknowns constant between events are matched to the equations that give them
        // (a maximum matching could give such an equation's unknown to another equation and
        // leave it unmatched: the path back passes through no discrete unknown), the rest by
        // a maximum matching.
        let mut pre_eq = vec![false; self.eqs.len()];
        let mut pre_var = vec![false; self.vars.len()];
        for &(j, i) in &self.defined {
            self.assign[j] = Some(i);
            pre_eq[i] = true;
            pre_var[j] = true;
        }
        let highest = |p: &Pantelides, j: usize| p.vars[j].a.is_none() && !pre_var[j];
        let adj: Vec<Vec<usize>> = self
            .eqs
            .iter()
            .enumerate()
            .map(|(i, e)| {
                if pre_eq[i] {
                    return Vec::new();
                }
                e.vars
                    .iter()
                    .copied()
                    .filter(|&j| highest(self, j))
                    .collect()
            })
            .collect();
        let m = super::matching::maximum_matching(&adj, self.vars.len());
        for (j, &r) in m.col_to_row.iter().enumerate() {
            if r != super::matching::UNMATCHED {
                self.assign[j] = Some(r);
            }
        }
        let unmatched: Vec<usize> = (0..self.eqs.len())
            .filter(|&r| !pre_eq[r] && m.row_to_col[r] == super::matching::UNMATCHED)
            .collect();
        for k in unmatched {
            let mut i = k;
            loop {
                let mut ecol = vec![false; self.eqs.len()];
                let mut vcol = vec![false; self.vars.len()];
                if self.augment(i, &mut ecol, &mut vcol) {
                    break;
                }
                let coloured: Vec<usize> = (0..self.vars.len()).filter(|&j| vcol[j]).collect();
                if coloured.iter().any(|&j| self.vars[j].discrete) {
                    return Err(());
                }
                for &j in &coloured {
                    self.derivative(j);
                }
                for l in (0..ecol.len()).filter(|&l| ecol[l]) {
                    self.differentiate(l)?;
                }
                for &j in &coloured {
                    let a = self.vars[j].a.expect("made above");
                    let e = self.assign[j].expect("a coloured unknown is matched");
                    self.assign[a] = self.eqs[e].b;
                }
                i = self.eqs[i].b.expect("differentiated above");
            }
        }
        Ok(())
    }

    /// An augmenting path from equation `root` over highest derivatives (iterative depth-first
    /// search); colours what it visits.
    fn augment(&mut self, root: usize, ecol: &mut [bool], vcol: &mut [bool]) -> bool {
        ecol[root] = true;
        // (equation, next position in its unknowns) and the unknown each level entered by.
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        let mut via: Vec<usize> = Vec::new();
        while let Some(&(i, pos)) = stack.last() {
            if pos == 0 {
                let free = self.eqs[i]
                    .vars
                    .iter()
                    .copied()
                    .find(|&j| self.vars[j].a.is_none() && self.assign[j].is_none());
                if let Some(j) = free {
                    self.assign[j] = Some(i);
                    for (level, &v) in via.iter().enumerate() {
                        self.assign[v] = Some(stack[level].0);
                    }
                    return true;
                }
            }
            let vars = &self.eqs[i].vars;
            // A discrete unknown is constant between events: its derivative is zero, so the
            // path does not pass through it to differentiate the equation that sets it.
            let next = (pos..vars.len()).find(|&q| {
                let j = vars[q];
                self.vars[j].a.is_none() && !vcol[j] && !self.vars[j].discrete
            });
            match next {
                Some(q) => {
                    let j = vars[q];
                    if let Some(top) = stack.last_mut() {
                        top.1 = q + 1;
                    }
                    vcol[j] = true;
                    let k = self.assign[j].expect("not free, so matched");
                    ecol[k] = true;
                    via.push(j);
                    stack.push((k, 0));
                }
                None => {
                    stack.pop();
                    via.pop();
                }
            }
        }
        false
    }

    /// Differentiates equation `l` along time (once: its derivative is `B(l)`).
    fn differentiate(&mut self, l: usize) -> Result<(), ()> {
        if self.eqs[l].b.is_some() {
            return Ok(());
        }
        if self.eqs[l].depth >= MAX_DIFFERENTIATIONS {
            return Err(());
        }
        // A delay's equation stands for `d = delay(e, T)`: its derivative is that of `e` some
        // time ago, which no equation of the model gives.
        if matches!(self.eqs[l].origin, EquationOrigin::Delay(_)) {
            return Err(());
        }
        let mut rates = FxHashMap::default();
        let mut leaves = Vec::new();
        self.model.arena.leaves(self.eqs[l].lhs, &mut leaves);
        self.model.arena.leaves(self.eqs[l].rhs, &mut leaves);
        for leaf in &leaves {
            if let Node::Var(v) = *leaf {
                if let Some(&j) = self.of_leaf.get(&v) {
                    if self.vars[j].discrete {
                        continue;
                    }
                    let d = self.derivative(j);
                    let e = self.model.arena.var(self.vars[d].leaf);
                    rates.insert(v, e);
                } else if v.index() < self.model.vars.len()
                    && self.model.var(v).kind == VarKind::Input
                {
                    // The derivative of an input is not known.
                    return Err(());
                }
            }
        }
        let mut d = Differentiator::along_time(rates);
        let (lhs, rhs) = (self.eqs[l].lhs, self.eqs[l].rhs);
        let dl = d.diff(&mut self.model.arena, lhs);
        let dr = d.diff(&mut self.model.arena, rhs);
        let (span, origin, depth) = (self.eqs[l].span, self.eqs[l].origin, self.eqs[l].depth);
        let b = self.push_eq(dl, dr, span, origin, Some(l), depth + 1);
        self.eqs[l].b = Some(b);
        Ok(())
    }

    /// The dummy derivatives, level by level from the most differentiated equations.
    fn select_dummies(&mut self) -> Selection {
        let mut sel = Selection::default();
        let values = InitialPoint::new(self);
        let mut g: Vec<usize> = (0..self.eqs.len())
            .filter(|&i| self.eqs[i].b.is_none() && self.eqs[i].diff_of.is_some())
            .collect();
        let mut z: Vec<usize> = {
            let mut in_g = FxHashSet::default();
            for &i in &g {
                in_g.extend(self.eqs[i].vars.iter().copied());
            }
            let mut z: Vec<usize> = (0..self.vars.len())
                .filter(|&j| {
                    self.vars[j].a.is_none() && self.vars[j].deriv_of.is_some() && in_g.contains(&j)
                })
                .collect();
            z.sort_unstable();
            z
        };
        let mut level = 1;
        while !g.is_empty() {
            let chosen = self.choose(&g, &z, &values, level, &mut sel);
            sel.dummies.extend(chosen.iter().copied());
            g = g
                .iter()
                .filter_map(|&i| self.eqs[i].diff_of)
                .filter(|&p| self.eqs[p].diff_of.is_some())
                .collect();
            z = chosen
                .iter()
                .filter_map(|&j| self.vars[j].deriv_of)
                .filter(|&w| self.vars[w].deriv_of.is_some())
                .collect();
            level += 1;
        }
        sel
    }

    /// `g.len()` columns of ∂g/∂z forming a regular matrix, by preference class and then by
    /// column pivoting at the initial point (structurally if that is singular).
    fn choose(
        &mut self,
        g: &[usize],
        z: &[usize],
        values: &InitialPoint,
        level: usize,
        sel: &mut Selection,
    ) -> Vec<usize> {
        let rows = g.len();
        let mut jac = vec![vec![0.0; rows]; z.len()];
        let mut pattern = vec![vec![false; rows]; z.len()];
        // Columns with an entry that a mode makes zero (`if saturated then 0 else 1`): chosen
        // as dummies only after the others, since the static choice must stay regular in
        // every mode the run reaches.
        let mut switching = vec![false; z.len()];
        for (c, &j) in z.iter().enumerate() {
            let mut d = Differentiator::new(self.vars[j].leaf);
            for (r, &i) in g.iter().enumerate() {
                if !self.eqs[i].vars.contains(&j) {
                    continue;
                }
                let (lhs, rhs) = (self.eqs[i].lhs, self.eqs[i].rhs);
                let dl = d.diff(&mut self.model.arena, lhs);
                let dr = d.diff(&mut self.model.arena, rhs);
                let e = self.model.arena.sub(dl, dr);
                if self.model.arena.as_const(e) == Some(0.0) {
                    continue;
                }
                pattern[c][r] = true;
                switching[c] |= switches_off(&self.model.arena, e);
                jac[c][r] = values.eval(self, e);
            }
        }
        let rank = |p: &Pantelides, c: usize| (preference(p, z[c]), switching[c]);
        let mut order: Vec<usize> = (0..z.len()).collect();
        order.sort_by_key(|&c| rank(self, c));
        let numeric_ok = jac.iter().flatten().all(|x| x.is_finite());
        let mut picked = if numeric_ok {
            pivot_columns(&jac, &order, rows, |c| rank(self, c))
        } else {
            Vec::new()
        };
        if picked.len() < rows {
            // Singular at the initial point for every choice: a generic matrix of the same
            // pattern (deterministic pseudo-random entries) chooses structurally.
            let generic: Vec<Vec<f64>> = pattern
                .iter()
                .enumerate()
                .map(|(c, col)| {
                    col.iter()
                        .enumerate()
                        .map(|(r, &nz)| if nz { generic_entry(c, r) } else { 0.0 })
                        .collect()
                })
                .collect();
            picked = pivot_columns(&generic, &order, rows, |c| rank(self, c));
            let names: Vec<String> = g
                .iter()
                .map(|&i| {
                    let e = &self.eqs[i];
                    format!("{} = {}", self.expr_text(e.lhs), self.expr_text(e.rhs))
                })
                .collect();
            sel.structural
                .push(format!("level {level} ({})", names.join("; ")));
        }
        if z.len() > rows {
            let name = |c: usize| self.vars[z[c]].name.clone();
            sel.choices.push(format!(
                "level {level}: {} chosen among {}",
                picked
                    .iter()
                    .map(|&c| format!("`{}`", name(c)))
                    .collect::<Vec<_>>()
                    .join(", "),
                z.iter()
                    .map(|&j| format!("`{}`", self.vars[j].name))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        picked.into_iter().map(|c| z[c]).collect()
    }

    fn expr_text(&self, e: ExprId) -> String {
        let n = self.model.vars.len();
        let name = |v: FlatVar| match self.of_leaf.get(&v) {
            Some(&j) => self.vars[j].name.clone(),
            None if v.index() < n => self.model.vars[v].name.clone(),
            None => "?".into(),
        };
        crate::symbolic::ExprPrinter {
            arena: &self.model.arena,
            name: &name,
            temps: None,
        }
        .to_string(e)
    }

    /// The index-one model: states whose derivative is not a dummy keep `der`, dummy
    /// derivatives become algebraic unknowns, differentiated equations are appended.
    fn rebuild(self, sel: Selection) -> Result<Report, Vec<Diagnostic>> {
        let Pantelides {
            model,
            aliases,
            vars,
            eqs,
            ..
        } = self;
        let is_state = |j: usize| vars[j].a.is_some_and(|d| !sel.dummies.contains(&d));
        let n = model.vars.len();
        let mut report = Report {
            differentiated: eqs.iter().filter(|e| e.diff_of.is_some()).count(),
            choices: sel.choices.clone(),
            structural: sel.structural.clone(),
            ..Report::default()
        };
        // Leaves of derivative unknowns: new algebraic variables (dummy derivatives), or
        // der() of their state. Derivatives come after what they differentiate, so a state
        // among them is numbered before its own derivative is reached.
        let mut leaf_map: FxHashMap<FlatVar, ExprId> = FxHashMap::default();
        let mut final_var: FxHashMap<usize, FlatVar> = FxHashMap::default();
        let mut extra_eqs = Vec::new();
        let mut new_vars: Vec<Variable> = Vec::new();
        for (j, v) in vars.iter().enumerate() {
            if v.leaf.index() < n {
                final_var.insert(j, v.leaf);
                continue;
            }
            let w = v.deriv_of.expect("an extra unknown is a derivative");
            let der_w = is_state(w).then(|| model.arena.der(final_var[&w]));
            if let (Some(d), false) = (der_w, is_state(j)) {
                leaf_map.insert(v.leaf, d);
                continue;
            }
            let id = FlatVar::new(n + new_vars.len());
            let span = model.var(v.base).span;
            let kind = if is_state(j) {
                VarKind::State
            } else {
                VarKind::Algebraic
            };
            let mut var = Variable::new(v.name.clone(), kind, crate::flat::ScalarType::Real, span);
            var.description = Some(format!("time derivative of {}", vars[w].name));
            new_vars.push(var);
            final_var.insert(j, id);
            let e = model.arena.var(id);
            leaf_map.insert(v.leaf, e);
            if let Some(dw) = der_w {
                // A state whose derivative is a state too: der(w) = w'.
                extra_eqs.push((dw, e, span));
            }
        }
        // Alias sets whose representative stops being a state: every member written under
        // der() becomes algebraic, and der(member) is ± the dummy derivative.
        let mut dummy_of_rep: FxHashMap<FlatVar, ExprId> = FxHashMap::default();
        for (j, v) in vars.iter().enumerate() {
            if v.leaf.index() >= n {
                continue;
            }
            if is_state(j) {
                report.states.push(v.name.clone());
                // An algebraic variable whose derivative the differentiated equations
                // introduced, and which is kept as a state, is one from now on.
                let k = &mut model.vars[v.leaf].kind;
                if *k == VarKind::Algebraic {
                    *k = VarKind::State;
                }
            } else if let Some(d) = v.a {
                dummy_of_rep.insert(v.leaf, leaf_map[&vars[d].leaf]);
            }
        }
        let mut der_of_demoted: FxHashMap<FlatVar, ExprId> = FxHashMap::default();
        for i in 0..n {
            let x = FlatVar::new(i);
            if !is_unknown(model.vars[i].kind) {
                continue;
            }
            let (r, sign) = aliases.resolve(x);
            if let Some(&d) = dummy_of_rep.get(&r) {
                if model.vars[i].kind == VarKind::State {
                    model.vars[i].kind = VarKind::Algebraic;
                    report.demoted.push(model.vars[i].name.clone());
                    report.warnings.extend(demotion_warning(&model.vars[i]));
                }
                let e = if sign < 0.0 { model.arena.neg(d) } else { d };
                der_of_demoted.insert(x, e);
            }
        }
        for &d in &sel.dummies {
            report.dummies.push(vars[d].name.clone());
        }
        let mut errors = Vec::new();
        for w in &model.whens {
            for &(x, _) in &w.reinits {
                if der_of_demoted.contains_key(&x) {
                    let name = &model.vars[x].name;
                    errors.push(
                        Diagnostic::error(
                            "index-reduction",
                            format!(
                                "`reinit({name})`: index reduction made `{name}` an algebraic variable (its derivative is a dummy derivative), so it cannot be re-initialised"
                            ),
                        )
                        .at(w.span, "this when-equation")
                        .help("give the states it depends on `stateSelect = StateSelect.avoid`, or this one `StateSelect.prefer`"),
                    );
                }
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        model.vars.extend(new_vars);
        let mut cache = FxHashMap::default();
        let mut f = |_: &mut crate::symbolic::Arena<FlatVar>, node: Node<FlatVar>| match node {
            Node::Var(v) => leaf_map.get(&v).copied(),
            Node::Der(v) => der_of_demoted.get(&v).copied(),
            _ => None,
        };
        let mut sub =
            |model: &mut FlatModel, e: ExprId| model.arena.substitute(e, &mut cache, &mut f);
        // The equations as written (der of demoted states replaced), then the differentiated
        // ones over representatives, then der(w) = w' for derivative states.
        for k in 0..model.equations.len() {
            let (l, r) = (model.equations[k].lhs, model.equations[k].rhs);
            model.equations[k].lhs = sub(model, l);
            model.equations[k].rhs = sub(model, r);
        }
        for e in eqs.iter().filter(|e| e.diff_of.is_some()) {
            let lhs = sub(model, e.lhs);
            let rhs = sub(model, e.rhs);
            model.equations.push(Equation {
                lhs,
                rhs,
                span: e.span,
                origin: e.origin,
            });
        }
        for (lhs, rhs, span) in extra_eqs {
            model.equations.push(Equation {
                lhs,
                rhs,
                span,
                origin: EquationOrigin::Source,
            });
        }
        for k in 0..model.initial_equations.len() {
            let (l, r) = (
                model.initial_equations[k].lhs,
                model.initial_equations[k].rhs,
            );
            model.initial_equations[k].lhs = sub(model, l);
            model.initial_equations[k].rhs = sub(model, r);
        }
        for k in 0..model.assertions.len() {
            let c = model.assertions[k].condition;
            model.assertions[k].condition = sub(model, c);
        }
        for k in 0..model.initial_assertions.len() {
            let c = model.initial_assertions[k].condition;
            model.initial_assertions[k].condition = sub(model, c);
        }
        for k in 0..model.delays.len() {
            let e = model.delays[k].expr;
            model.delays[k].expr = sub(model, e);
        }
        for k in 0..model.whens.len() {
            let c = model.whens[k].condition;
            model.whens[k].condition = sub(model, c);
            for a in 0..model.whens[k].assigns.len() {
                let e = model.whens[k].assigns[a].1;
                model.whens[k].assigns[a].1 = sub(model, e);
            }
            for a in 0..model.whens[k].reinits.len() {
                let e = model.whens[k].reinits[a].1;
                model.whens[k].reinits[a].1 = sub(model, e);
            }
        }
        Ok(report)
    }
}

/// What a user should hear when a state they marked is demoted.
fn demotion_warning(v: &Variable) -> Option<Diagnostic> {
    let name = &v.name;
    if v.fixed == Some(true) {
        return Some(
            Diagnostic::warning(
                "index-reduction",
                format!(
                    "`{name}` has `fixed = true`, but index reduction made it an algebraic variable (its derivative is a dummy derivative): its start value becomes an initial equation"
                ),
            )
            .at(v.start_span.unwrap_or(v.span), "fixed start value")
            .help("the states of a constrained set are not independent: give `fixed = true` to as many of them as the set has degrees of freedom"),
        );
    }
    (v.state_select == Some(StateSelect::Always)).then(|| {
        Diagnostic::warning(
            "index-reduction",
            format!("`{name}` has `stateSelect = StateSelect.always`, but index reduction could not keep it as a state"),
        )
        .at(v.span, "declared here")
    })
}

#[derive(Default)]
struct Selection {
    dummies: FxHashSet<usize>,
    choices: Vec<String>,
    structural: Vec<String>,
}

/// Order in which candidates become dummy derivatives (lowest first): by the `stateSelect`
/// of the variable whose state-ness the choice removes, then derivatives that are not model
/// variables (`der(x)` of a state `x`) before model variables, then a fixed start value last.
fn preference(p: &Pantelides, z: usize) -> (u8, u8, u8) {
    let z = &p.vars[z];
    let r = z.base.index();
    let ss = match p.set_select[r].unwrap_or(StateSelect::Default) {
        StateSelect::Never => 0,
        StateSelect::Avoid => 1,
        StateSelect::Default => 2,
        StateSelect::Prefer => 3,
        StateSelect::Always => 4,
    };
    // The variable demoted is the antiderivative; it is a model variable (the representative
    // of its alias set) or a derivative Pantelides made.
    let demoted_is_base = z.deriv_of.is_some_and(|w| p.vars[w].deriv_of.is_none());
    (
        ss,
        u8::from(demoted_is_base),
        u8::from(p.set_fixed[r] && demoted_is_base),
    )
}

/// Whether `e` has a factor that a selection makes zero in one of its branches (the
/// derivative of a clamp, `if h > hsat then 0 else 1`): zero or not as the mode switches.
/// Factors are looked for through products, negations, numerators, powers' bases and the
/// branches of if-expressions.
fn switches_off(ar: &crate::symbolic::Arena<FlatVar>, e: ExprId) -> bool {
    match ar.node(e) {
        Node::Neg(x) | Node::NoEvent(x) | Node::Div(x, _) | Node::Pow(x, _) => switches_off(ar, x),
        Node::Mul(x, y) => switches_off(ar, x) || switches_off(ar, y),
        Node::If(_, t, f) => [t, f]
            .into_iter()
            .any(|b| ar.as_const(b) == Some(0.0) || switches_off(ar, b)),
        _ => false,
    }
}

/// Greedy column selection: within the preference order, each next column with the largest
/// part orthogonal to those chosen (modified Gram–Schmidt), taking a column only when that
/// part is not negligible; classes are exhausted in order.
fn pivot_columns<K: Ord>(
    cols: &[Vec<f64>],
    order: &[usize],
    rows: usize,
    class: impl Fn(usize) -> K,
) -> Vec<usize> {
    let mut basis: Vec<Vec<f64>> = Vec::new();
    let mut picked = Vec::new();
    let mut rest: Vec<usize> = order.to_vec();
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let residual = |basis: &[Vec<f64>], c: &[f64]| {
        let mut r = c.to_vec();
        for q in basis {
            let d: f64 = q.iter().zip(&r).map(|(a, b)| a * b).sum();
            for (x, y) in r.iter_mut().zip(q) {
                *x -= d * y;
            }
        }
        r
    };
    while picked.len() < rows && !rest.is_empty() {
        let k = class(rest[0]);
        let same: Vec<usize> = rest.iter().copied().filter(|&c| class(c) == k).collect();
        let mut best: Option<(usize, f64, Vec<f64>)> = None;
        for &c in &same {
            let r = residual(&basis, &cols[c]);
            let size = norm(&r);
            let scale = norm(&cols[c]).max(1.0);
            if size > 1e-9 * scale && best.as_ref().is_none_or(|b| size > b.1) {
                best = Some((c, size, r));
            }
        }
        match best {
            Some((c, size, r)) => {
                basis.push(r.iter().map(|x| x / size).collect());
                picked.push(c);
                rest.retain(|&x| x != c);
            }
            None => rest.retain(|&x| class(x) != k),
        }
    }
    picked
}

/// A deterministic pseudo-random entry in [1, 2) for the structural choice.
fn generic_entry(c: usize, r: usize) -> f64 {
    let mut h =
        (c as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (r as u64).wrapping_add(0x632B_E59B);
    h ^= h >> 31;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 29;
    1.0 + (h % 1_000_003) as f64 / 1_000_003.0
}

/// Values at the initial point: parameters, start values (else zero), derivatives zero.
struct InitialPoint {
    values: FxHashMap<FlatVar, f64>,
    time: f64,
}

impl InitialPoint {
    fn new(p: &Pantelides) -> InitialPoint {
        let m = &*p.model;
        let mut values = FxHashMap::default();
        for (i, v) in m.vars.iter().enumerate() {
            let x = match (v.kind, v.binding, v.start) {
                (VarKind::Parameter | VarKind::Constant, Some(b), _) => {
                    super::alias::param_value(m, b, 0)
                }
                (_, _, Some(s)) => super::alias::param_value(m, s, 0),
                _ => None,
            };
            values.insert(FlatVar::new(i), x.unwrap_or(0.0));
        }
        let mut point = InitialPoint {
            values,
            time: m.experiment.start_time.unwrap_or(0.0),
        };
        point.propagate(p);
        point
    }

    /// Values for the unknowns without a start value that an explicit equation of the model
    /// defines (`R = {{cos(g), …}}`, `gamma = p*phi`), from values already known, pass by
    /// pass: a rotation matrix left at zero would make every choice look singular at the
    /// initial point, and the choice then falls back on the structure, which cannot see
    /// that two rotations by the same angle cancel.
    fn propagate(&mut self, p: &Pantelides) {
        let m = &*p.model;
        let n = m.vars.len();
        let mut known: Vec<bool> = m
            .vars
            .iter()
            .enumerate()
            .map(|(i, v)| {
                !is_unknown(v.kind)
                    || v.start.is_some()
                    || p.aliases.has_state[i]
                    || v.kind != VarKind::Algebraic
            })
            .collect();
        let explicit: Vec<(FlatVar, ExprId)> = p
            .eqs
            .iter()
            .filter(|e| e.diff_of.is_none() && e.depth == 0)
            .flat_map(|e| {
                let side = |a: ExprId, b: ExprId| match m.arena.node(a) {
                    Node::Var(v) if v.index() < n && !known[v.index()] => Some((v, b)),
                    _ => None,
                };
                side(e.lhs, e.rhs).or_else(|| side(e.rhs, e.lhs))
            })
            .collect();
        let mut leaves = Vec::new();
        for _ in 0..MAX_PROPAGATION_PASSES {
            let mut changed = false;
            for &(v, e) in &explicit {
                if known[v.index()] {
                    continue;
                }
                leaves.clear();
                m.arena.leaves_of([e], &mut leaves);
                let ready = leaves.iter().all(|l| match l {
                    Node::Var(w) | Node::Pre(w) => w.index() >= n || known[w.index()],
                    Node::Arg(_) => false,
                    _ => true,
                });
                if !ready {
                    continue;
                }
                let x = self.eval(p, e);
                if x.is_finite() {
                    self.values.insert(v, x);
                    known[v.index()] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    fn eval(&self, p: &Pantelides, e: ExprId) -> f64 {
        crate::symbolic::eval::eval(
            &p.model.arena,
            e,
            &mut |v| self.values.get(&v).copied().unwrap_or(0.0),
            self.time,
        )
    }
}
