//! The flat model: what flattening produces and every later phase starts from.
//!
//! Scalar variables with their kind and attributes, scalar equations that keep the span they
//! came from, and one expression arena. Arrays and for-equations are already expanded, connects
//! are already equations, and component hierarchy survives only in the dotted variable names.
//! The printer writes readable flat Modelica in a stable order (declaration order).

use crate::diag::Span;
use crate::symbolic::{fmt_real_pub, Arena, EntityVec, ExprId, ExprPrinter};

crate::symbolic::entity!(
    /// A variable of the flat model: an index into `FlatModel::vars`, and what `Node::Var`
    /// means in the flat model's arena.
    FlatVar
);
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarKind {
    /// Appears under `der()`.
    State,
    /// A continuous-time unknown that is not a state.
    Algebraic,
    /// Changes only at events (`discrete`, or Integer/Boolean non-parameters).
    Discrete,
    Parameter,
    Constant,
    /// A top-level input: a value the environment supplies each step.
    Input,
    /// A discrete variable assigned in a when-equation: known to the continuous system,
    /// changed only by event actions.
    Sampled,
}

impl VarKind {
    pub fn name(self) -> &'static str {
        match self {
            VarKind::State => "state",
            VarKind::Algebraic => "algebraic",
            VarKind::Discrete => "discrete",
            VarKind::Parameter => "parameter",
            VarKind::Constant => "constant",
            VarKind::Input => "input",
            VarKind::Sampled => "discrete (when)",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarType {
    Real,
    Integer,
    Boolean,
    /// An enumeration type (`FlatModel::enums`); its values are 1, 2, … in literal order.
    Enum(EnumId),
}

impl ScalarType {
    pub fn name(self) -> &'static str {
        match self {
            ScalarType::Real => "Real",
            ScalarType::Integer => "Integer",
            ScalarType::Boolean => "Boolean",
            ScalarType::Enum(_) => "enumeration",
        }
    }
}

/// Index of an enumeration type in `FlatModel::enums`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnumId(pub u32);

crate::symbolic::index_methods!(EnumId);

/// An enumeration type (specification 4.8.5): its qualified name and its literals; the value
/// of the k-th literal is k (from 1).
#[derive(Clone, Debug, PartialEq)]
pub struct EnumType {
    pub name: String,
    pub literals: Vec<String>,
}

/// The `stateSelect` attribute (specification 4.8.8.1), kept for state selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateSelect {
    Never,
    Avoid,
    Default,
    Prefer,
    Always,
}

impl StateSelect {
    /// From the value of the built-in enumeration `StateSelect` (1 = never … 5 = always).
    pub fn from_value(v: f64) -> Option<StateSelect> {
        Some(match v as i64 {
            1 => StateSelect::Never,
            2 => StateSelect::Avoid,
            3 => StateSelect::Default,
            4 => StateSelect::Prefer,
            5 => StateSelect::Always,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            StateSelect::Never => "never",
            StateSelect::Avoid => "avoid",
            StateSelect::Default => "default",
            StateSelect::Prefer => "prefer",
            StateSelect::Always => "always",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Variable {
    /// Dotted, subscripted name: `line.cap[3].v`.
    pub name: String,
    pub kind: VarKind,
    pub ty: ScalarType,
    /// A top-level `output`.
    pub is_output: bool,
    /// Parameter or constant value expression (may refer to other parameters).
    pub binding: Option<ExprId>,
    pub start: Option<ExprId>,
    /// Where the start value is written (the modifier, or the declaration's).
    pub start_span: Option<Span>,
    pub fixed: Option<bool>,
    /// `stateSelect`, when given.
    pub state_select: Option<StateSelect>,
    pub min: Option<ExprId>,
    pub max: Option<ExprId>,
    pub nominal: Option<ExprId>,
    pub unit: Option<String>,
    /// The `quantity` attribute, when given (connection sets compare it, 9.3).
    pub quantity: Option<String>,
    pub description: Option<String>,
    /// The declaration.
    pub span: Span,
    /// `annotation(__rtc(implicit = true))`: integrate implicitly in mixed mode.
    pub implicit: bool,
    /// `annotation(__rtc(fast = true))`: a fast state of multi-rate integration.
    pub fast: bool,
}

impl Variable {
    /// A variable with no binding, start value or other attribute set.
    pub fn new(name: String, kind: VarKind, ty: ScalarType, span: Span) -> Variable {
        Variable {
            name,
            kind,
            ty,
            is_output: false,
            binding: None,
            start: None,
            start_span: None,
            fixed: None,
            state_select: None,
            min: None,
            max: None,
            nominal: None,
            unit: None,
            quantity: None,
            description: None,
            span,
            implicit: false,
            fast: false,
        }
    }
}

crate::symbolic::entity!(
    /// An equation of the flat model: an index into `FlatModel::equations` (not a position in
    /// a step system, which has its own numbering).
    FlatEq
);

#[derive(Clone, Debug)]
pub struct Equation {
    pub lhs: ExprId,
    pub rhs: ExprId,
    pub span: Span,
    /// What produced it when it is not written in the source (`connect`, flow balance, …).
    pub origin: EquationOrigin,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EquationOrigin {
    Source,
    /// Equal potentials of a connection set.
    ConnectPotential,
    /// Sum of flows of a connection set, or an unconnected flow set to zero.
    ConnectFlow,
    /// A binding of a non-parameter variable (`Real y = 2*x`).
    Binding,
    /// `d = time`, standing for `d = delay(e, T)` ([`Delay`]): the equation that determines
    /// `d`, whose incidence is `d` alone (the delayed value depends on the past only, so it
    /// breaks algebraic loops); inline integration replaces it by the read of the delay's
    /// buffer, and index reduction never differentiates it.
    Delay(usize),
}

/// `delay(expr, delayTime)` (specification 3.7.4.1): `var` is `expr` at `time − delay`, and
/// `expr` at the start time while `time − delay` is before it. The delay is known when
/// compiling (its parameters become constants); the step keeps a buffer of `expr` sampled at
/// the step size and interpolates linearly (see `discretize::delays`).
#[derive(Clone, Debug)]
pub struct Delay {
    pub var: FlatVar,
    pub expr: ExprId,
    /// The delay time, and the parameter expression it was computed from.
    pub time: f64,
    pub time_expr: ExprId,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Assertion {
    pub condition: ExprId,
    pub message: String,
    pub span: Span,
    /// `level = AssertionLevel.warning` (specification 8.3.7): reported when it fails, and
    /// the run goes on.
    pub warning: bool,
}

/// `annotation(experiment(...))` of the top-level class.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Experiment {
    pub start_time: Option<f64>,
    pub stop_time: Option<f64>,
    pub interval: Option<f64>,
    pub tolerance: Option<f64>,
    /// `annotation(__rtc(ratio = N))`: fast sub-steps per step in multi-rate integration.
    pub ratio: Option<f64>,
}

/// A when-equation of the supported forms: a relation that triggers when it becomes true, or
/// `sample(start, interval)`; its actions re-initialise states and assign discrete variables
/// (`pre(v)` in the expressions: the value just before).
#[derive(Clone, Debug)]
pub struct When {
    /// A relation (a state event when it involves the continuous solution) or a Boolean
    /// expression of discrete variables (checked at event instants).
    pub condition: ExprId,
    /// `sample(start, interval)` instead of a condition (then `condition` is unused).
    pub sample: Option<(f64, f64)>,
    /// `initial()`: acts once, after initialisation.
    pub initial: bool,
    /// `terminal()`: acts once, at the end of a run that reached its stop time.
    pub terminal: bool,
    pub reinits: Vec<(FlatVar, ExprId)>,
    /// `v = expr` for discrete variables, in source order (sorted when compiled).
    pub assigns: Vec<(FlatVar, ExprId)>,
    /// `terminate("message")` in the body.
    pub terminate: Option<String>,
    /// (chain, branch): the when-equation it belongs to and its place among the `elsewhen`
    /// branches (0 for the `when` branch). At one instant only the first branch that fires acts.
    pub chain: (usize, usize),
    pub span: Span,
}

impl When {
    /// The condition as written.
    pub fn condition_text(&self, m: &FlatModel) -> String {
        match self.sample {
            Some((a, b)) => format!("sample({}, {})", fmt_real_pub(a), fmt_real_pub(b)),
            None if self.initial => "initial()".to_string(),
            None if self.terminal => "terminal()".to_string(),
            None => m.expr_string(self.condition),
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct FlatModel {
    pub name: String,
    pub description: Option<String>,
    pub vars: EntityVec<FlatVar, Variable>,
    pub equations: EntityVec<FlatEq, Equation>,
    pub initial_equations: Vec<Equation>,
    pub assertions: Vec<Assertion>,
    /// `assert` in a `when initial()` body: checked once, after initialisation.
    pub initial_assertions: Vec<Assertion>,
    /// `delay(e, T)` calls; each is a variable whose equation has origin
    /// [`EquationOrigin::Delay`].
    pub delays: Vec<Delay>,
    /// `when <relation> then reinit(x, e); … end when;`
    pub whens: Vec<When>,
    pub arena: Arena<FlatVar>,
    pub experiment: Experiment,
    /// The enumeration types of enumeration variables.
    pub enums: Vec<EnumType>,
    /// `initial()` read in an equation or a binding (specification 3.7.4.2): a Boolean
    /// parameter named `initial()` whose value is false; discretisation reads it as true in
    /// the initial system (the model at the start time) and false in every step.
    pub initial_flag: Option<FlatVar>,
    /// `homotopy(actual, simplified)` (specification 3.7.4.4) reads as λ·actual + (1 −
    /// λ)·simplified with this Real parameter λ (named `homotopy()`, value 1). Every plan is
    /// built with λ folded to 1 ([`FlatModel::homotopy_folded`]); only the solve of the
    /// model at the start time, where it fails otherwise, continues λ from 0 to 1.
    pub homotopy: Option<FlatVar>,
    /// What the compiler did to the model that its user should know (index reduction: the
    /// equations differentiated and the states chosen), for `rtc check`, `analyze` and `run`.
    pub notes: Vec<String>,
    /// The `semiLinear` calls, each as the expression it became and its three arguments, for
    /// the rules of specification 3.7.4.5 (`structure::semilinear`).
    pub semi_linear: Vec<SemiLinear>,
}

/// One scalar `semiLinear(x, a, b)`: `value` is the expression the call became
/// (`noEvent(if x >= 0 then a*x else b*x)`).
#[derive(Clone, Copy, Debug)]
pub struct SemiLinear {
    pub value: ExprId,
    pub x: ExprId,
    pub a: ExprId,
    pub b: ExprId,
}

impl FlatModel {
    /// The first impure external function (through a shim) the model calls while it runs: from
    /// its equations or when-clauses, not only from parameters' bindings and initial equations.
    pub fn impure_call_while_running(&self) -> Option<String> {
        let flat = self;
        let ar = &flat.arena;
        if !ar
            .functions()
            .iter()
            .any(|f| f.shim.as_ref().is_some_and(|s| s.impure))
        {
            return None;
        }
        let mut roots = Vec::new();
        for eq in flat.equations.iter() {
            roots.extend([eq.lhs, eq.rhs]);
        }
        // A `when terminal()` acts once, after the last row: what its calls leave in their
        // library is seen by no step.
        for w in flat.whens.iter().filter(|w| !w.terminal) {
            roots.push(w.condition);
            roots.extend(w.assigns.iter().chain(&w.reinits).map(|&(_, e)| e));
        }
        let mut seen = vec![false; ar.len()];
        let mut found = None;
        for r in roots {
            ar.visit_postorder(r, &mut seen, &mut |id| {
                if let crate::symbolic::Node::Call(c) = ar.node(id) {
                    let f = ar.function(ar.call_site(c).f);
                    if let Some(s) = f.shim.as_ref().filter(|s| s.impure) {
                        found.get_or_insert_with(|| s.calls.clone());
                    }
                }
            });
        }
        found
    }

    /// The model with the homotopy parameter folded to 1 everywhere (`homotopy(a, s)` is `a`)
    /// and made a constant; `None` when the model has no `homotopy`.
    pub fn homotopy_folded(&self) -> Option<FlatModel> {
        let lambda = self.homotopy?;
        let mut m = self.clone();
        let one = m.arena.constant(1.0);
        let mut cache = rustc_hash::FxHashMap::default();
        let mut f = |_: &mut Arena<FlatVar>, n: crate::symbolic::Node<FlatVar>| match n {
            crate::symbolic::Node::Var(v) if v == lambda => Some(one),
            _ => None,
        };
        let mut sub = |m: &mut FlatModel, e: ExprId| m.arena.substitute(e, &mut cache, &mut f);
        for k in 0..m.equations.len() {
            let (l, r) = (m.equations[k].lhs, m.equations[k].rhs);
            m.equations[k].lhs = sub(&mut m, l);
            m.equations[k].rhs = sub(&mut m, r);
        }
        for k in 0..m.initial_equations.len() {
            let (l, r) = (m.initial_equations[k].lhs, m.initial_equations[k].rhs);
            m.initial_equations[k].lhs = sub(&mut m, l);
            m.initial_equations[k].rhs = sub(&mut m, r);
        }
        for k in 0..m.vars.len() {
            if let Some(b) = m.vars[k].binding {
                m.vars[k].binding = Some(sub(&mut m, b));
            }
            if let Some(b) = m.vars[k].start {
                m.vars[k].start = Some(sub(&mut m, b));
            }
        }
        for k in 0..m.assertions.len() {
            let c = m.assertions[k].condition;
            m.assertions[k].condition = sub(&mut m, c);
        }
        for k in 0..m.initial_assertions.len() {
            let c = m.initial_assertions[k].condition;
            m.initial_assertions[k].condition = sub(&mut m, c);
        }
        for k in 0..m.delays.len() {
            let e = m.delays[k].expr;
            m.delays[k].expr = sub(&mut m, e);
        }
        for k in 0..m.whens.len() {
            let c = m.whens[k].condition;
            m.whens[k].condition = sub(&mut m, c);
            for a in 0..m.whens[k].assigns.len() {
                let e = m.whens[k].assigns[a].1;
                m.whens[k].assigns[a].1 = sub(&mut m, e);
            }
            for a in 0..m.whens[k].reinits.len() {
                let e = m.whens[k].reinits[a].1;
                m.whens[k].reinits[a].1 = sub(&mut m, e);
            }
        }
        m.vars[lambda].kind = VarKind::Constant;
        m.homotopy = None;
        Some(m)
    }

    pub fn var(&self, v: FlatVar) -> &Variable {
        &self.vars[v]
    }

    /// The name of a type as the model writes it (enumerations by their qualified name).
    pub fn type_name(&self, t: ScalarType) -> String {
        match t {
            ScalarType::Enum(e) => self.enums[e.0 as usize].name.clone(),
            t => t.name().to_string(),
        }
    }

    /// `E.lit` for the value `x` of enumeration `e` (the number if out of range).
    pub fn enum_literal(&self, e: EnumId, x: f64) -> String {
        let ty = &self.enums[e.0 as usize];
        match ty.literals.get((x as usize).wrapping_sub(1)) {
            Some(l) if x.fract() == 0.0 => format!("{}.{l}", ty.name),
            _ => crate::symbolic::fmt_real_pub(x),
        }
    }

    pub fn equation(&self, e: FlatEq) -> &Equation {
        &self.equations[e]
    }

    pub fn count(&self, kind: VarKind) -> usize {
        self.vars.iter().filter(|v| v.kind == kind).count()
    }

    pub fn expr_string(&self, e: ExprId) -> String {
        let name = |v: FlatVar| self.vars[v].name.clone();
        ExprPrinter {
            arena: &self.arena,
            name: &name,
            temps: None,
        }
        .to_string(e)
    }

    /// Readable flat Modelica, stable across runs (declaration and source order).
    pub fn print(&self) -> String {
        let mut s = String::new();
        // Functions compiled out of line, before the class that calls them.
        for f in self.arena.functions() {
            s.push_str(&f.print());
            s.push('\n');
        }
        let _ = write!(s, "class {}", self.name);
        if let Some(d) = &self.description {
            let _ = write!(s, " \"{}\"", escape(d));
        }
        s.push('\n');
        for v in &self.vars {
            s.push_str("  ");
            match v.kind {
                VarKind::Parameter => s.push_str("parameter "),
                VarKind::Constant => s.push_str("constant "),
                VarKind::Discrete if v.ty == ScalarType::Real => s.push_str("discrete "),
                VarKind::Input => s.push_str("input "),
                _ => {}
            }
            if v.is_output {
                s.push_str("output ");
            }
            s.push_str(&self.type_name(v.ty));
            s.push(' ');
            s.push_str(&v.name);
            let mut attrs = Vec::new();
            if let Some(u) = &v.unit {
                attrs.push(format!("unit = \"{}\"", escape(u)));
            }
            for (label, e) in [("min", v.min), ("max", v.max), ("start", v.start)] {
                if let Some(e) = e {
                    attrs.push(format!("{label} = {}", self.expr_string(e)));
                }
            }
            if let Some(f) = v.fixed {
                attrs.push(format!("fixed = {f}"));
            }
            if let Some(ss) = v.state_select {
                attrs.push(format!("stateSelect = StateSelect.{}", ss.name()));
            }
            if let Some(e) = v.nominal {
                attrs.push(format!("nominal = {}", self.expr_string(e)));
            }
            if !attrs.is_empty() {
                let _ = write!(s, "({})", attrs.join(", "));
            }
            if let Some(b) = v.binding {
                let text = match (v.ty, self.arena.as_const(b)) {
                    (ScalarType::Boolean, Some(x)) => (x != 0.0).to_string(),
                    (ScalarType::Enum(e), Some(x)) => self.enum_literal(e, x),
                    _ => self.expr_string(b),
                };
                let _ = write!(s, " = {text}");
            }
            if let Some(d) = &v.description {
                let _ = write!(s, " \"{}\"", escape(d));
            }
            let _ = writeln!(s, ";  // {}", v.kind.name());
        }
        if !self.initial_equations.is_empty() {
            s.push_str("initial equation\n");
            for e in &self.initial_equations {
                let _ = writeln!(
                    s,
                    "  {} = {};",
                    self.expr_string(e.lhs),
                    self.expr_string(e.rhs)
                );
            }
        }
        s.push_str("equation\n");
        for e in &self.equations {
            let rhs = match e.origin {
                EquationOrigin::Delay(k) => {
                    let d = &self.delays[k];
                    format!(
                        "delay({}, {})",
                        self.expr_string(d.expr),
                        self.expr_string(d.time_expr)
                    )
                }
                _ => self.expr_string(e.rhs),
            };
            let _ = writeln!(s, "  {} = {rhs};", self.expr_string(e.lhs));
        }
        for a in &self.assertions {
            let _ = writeln!(
                s,
                "  assert({}, \"{}\");",
                self.expr_string(a.condition),
                escape(&a.message)
            );
        }
        for (i, w) in self.whens.iter().enumerate() {
            let cond = w.condition_text(self);
            if w.chain.1 == 0 {
                let _ = writeln!(s, "  when {cond} then");
            } else {
                let _ = writeln!(s, "  elsewhen {cond} then");
            }
            for &(x, e) in &w.assigns {
                let _ = writeln!(s, "    {} = {};", self.vars[x].name, self.expr_string(e));
            }
            for &(x, e) in &w.reinits {
                let _ = writeln!(
                    s,
                    "    reinit({}, {});",
                    self.vars[x].name,
                    self.expr_string(e)
                );
            }
            if let Some(m) = &w.terminate {
                let _ = writeln!(s, "    terminate(\"{}\");", escape(m));
            }
            if self.whens.get(i + 1).is_none_or(|n| n.chain.0 != w.chain.0) {
                s.push_str("  end when;\n");
            }
        }
        let ex = &self.experiment;
        let mut parts = Vec::new();
        for (label, v) in [
            ("StartTime", ex.start_time),
            ("StopTime", ex.stop_time),
            ("Interval", ex.interval),
            ("Tolerance", ex.tolerance),
        ] {
            if let Some(v) = v {
                parts.push(format!("{label} = {}", fmt_real_pub(v)));
            }
        }
        if !parts.is_empty() {
            let _ = writeln!(s, "  annotation(experiment({}));", parts.join(", "));
        }
        let _ = writeln!(s, "end {};", self.name);
        s
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// Why the representative of an alias set was kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// It has `fixed = true`.
    FixedStart,
    /// It has an explicit start value.
    Start,
    /// It is a state (and no member has a start value).
    State,
    /// The first member (nothing distinguishes the others).
    First,
}

impl Kept {
    pub fn text(self) -> &'static str {
        match self {
            Kept::FixedStart => "fixed start value",
            Kept::Start => "start value",
            Kept::State => "state",
            Kept::First => "first declared",
        }
    }
}

/// An alias set of more than one member, for reports.
#[derive(Clone, Debug)]
pub struct AliasSet {
    pub rep: FlatVar,
    pub kept: Kept,
    /// The other members: `member = sign·rep`.
    pub members: Vec<(FlatVar, f64)>,
    /// The member whose start value the set takes (by the priority, the representative).
    pub start_from: Option<FlatVar>,
    /// The parameter expression the set is bound to, printed.
    pub bound: Option<String>,
}

impl AliasSet {
    /// `rep = a = -b …` with the reason the representative was kept and the bound value.
    pub fn text(&self, model: &FlatModel) -> String {
        let mut s = model.var(self.rep).name.clone();
        for &(m, sign) in &self.members {
            s.push_str(if sign < 0.0 { " = -" } else { " = " });
            s.push_str(&model.var(m).name);
        }
        s.push_str(&format!("  [kept: {}]", self.kept.text()));
        if let Some(b) = &self.bound {
            s.push_str(&format!("  [= {b}, known before simulation]"));
        }
        s
    }
}
