//! Where statements and equations may stand: `break` and `return` (§11.2.4, §12.1.2),
//! when-statements (§11.2.7.1, §12.2) and when-equations (§8.3.5.2), `reinit` (§8.3.6),
//! `connect` in a when-equation (§8.3.5.3), and what a function may not call (§12.2, §3.6.7).

use super::{call_exprs, each_expr, Checker, Rule};
use crate::diag::Span;
use crate::syntax::ast::{self, CallTarget, ExprKind, Restriction as R, StatementKind as S};
use rustc_hash::FxHashMap;

const PURE_CALLS_IMPURE: Rule = Rule {
    section: "12.3",
    code: "function",
    text: "an impure function shall be declared impure: a function not declared impure may \
           call an impure one only inside pure(…)",
};
const IMPURE_CALL_PLACE: Rule = Rule {
    section: "12.3",
    code: "function",
    text: "an impure function is called only from impure functions, when-clauses, pure(…), \
           initial equations and algorithms, and bindings of parameters",
};
const EXTERNAL_PURITY: Rule = Rule {
    section: "12.3",
    code: "function",
    text: "external functions must be explicitly declared pure or impure; one that is not is \
           assumed impure (deprecated), and a diagnostic must be given where it is called",
};
const DIMENSION_SOURCES: Rule = Rule {
    section: "12.4.5",
    code: "function",
    text: "the sizes of a function's non-input arrays not declared with a colon are given by \
           its inputs, constants and parameters (or expressions of these)",
};
const BREAK_OUTSIDE_LOOP: Rule = Rule {
    section: "11.2.4",
    code: "statement",
    text: "break may only be used in a while- or for-loop",
};
const RETURN_OUTSIDE_FUNCTION: Rule = Rule {
    section: "12.1.2",
    code: "statement",
    text: "return may only be used in an algorithm section of a function",
};
const WHEN_STATEMENT_PLACE: Rule = Rule {
    section: "11.2.7.1",
    code: "when",
    text: "a when-statement shall not be used in a function or an initial algorithm, nor inside \
           another when-statement, an if-statement, a for- or a while-loop",
};
const WHEN_EQUATION_PLACE: Rule = Rule {
    section: "8.3.5.2",
    code: "when",
    text: "when-equations shall not occur inside initial equations and cannot be nested",
};
const WHEN_EQUATION_FORM: Rule = Rule {
    section: "8.3.5.3",
    code: "when",
    text: "the equations within a when-equation are v = expr, (out1, ...) = f(...), assert, \
           terminate, reinit, and for- and if-equations of these; no connect",
};
const TUPLE_TARGETS: Rule = Rule {
    section: "12.4.3",
    code: "equation",
    text: "the parenthesised left-hand side of a call with several outputs lists component \
           references (or leaves places empty)",
};
const REINIT_PLACE: Rule = Rule {
    section: "8.3.6",
    code: "reinit",
    text: "reinit can only be used in the body of a when-equation",
};
const FUNCTION_OPERATOR: Rule = Rule {
    section: "12.2",
    code: "function",
    text: "a function cannot call der, initial, terminal, sample, pre, edge, change, reinit, \
           delay, cardinality, inStream, actualStream or the operators of Connections",
};
const TIME_IN_FUNCTION: Rule = Rule {
    section: "3.6.7",
    code: "function",
    text: "the built-in variable time is only available in models and blocks, not in functions",
};

/// The operators a function may not call (§12.2), besides `der` and `initial`.
const NOT_IN_FUNCTIONS: [&str; 10] = [
    "terminal",
    "sample",
    "pre",
    "edge",
    "change",
    "reinit",
    "delay",
    "cardinality",
    "inStream",
    "actualStream",
];

/// Where a statement stands.
#[derive(Clone, Copy, Default)]
struct Place {
    function: bool,
    initial: bool,
    loops: u32,
    when: bool,
    /// Inside an if-statement or a loop.
    control: bool,
}

impl Checker<'_, '_> {
    pub(super) fn statement_rules(&mut self, def: &ast::ClassDef) {
        let ast::ClassBody::Long { composition, .. } = &def.body else {
            return;
        };
        let function = matches!(def.restriction, R::Function | R::OperatorFunction);
        for alg in &composition.algorithms {
            let place = Place {
                function,
                initial: alg.initial,
                ..Place::default()
            };
            self.statements(&alg.statements, place);
        }
        for eq in &composition.equations {
            self.equation(eq, false, false);
        }
        for eq in &composition.initial_equations {
            self.equation(eq, true, false);
        }
        if function {
            self.function_body(composition);
            self.dimension_sources(composition);
            if def.purity != Some(ast::Purity::Impure) {
                self.pure_body(def, composition);
            }
        } else {
            self.impure_in_equations(composition);
            self.undeclared_external_calls(composition);
            self.constraining_access(composition);
        }
    }

    /// The calls of impure functions among `exprs` and `calls` outside `pure(…)`: the call's
    /// place and the function's name.
    fn impure_calls<'x>(
        &mut self,
        exprs: &[&'x ast::Expr],
        mut calls: Vec<(Span, &'x ast::ComponentRef)>,
    ) -> Vec<(Span, String)> {
        let mut wrapped: Vec<Span> = Vec::new();
        for x in exprs {
            each_expr(x, &mut |e| match &e.kind {
                ExprKind::Call(CallTarget::Pure, _) => wrapped.push(e.span),
                ExprKind::Call(CallTarget::Ref(r), _) => calls.push((e.span, r)),
                _ => {}
            });
        }
        let inside = |s: Span, w: &Span| s.file == w.file && s.start >= w.start && s.end <= w.end;
        let mut out = Vec::new();
        for (span, r) in calls {
            if wrapped.iter().any(|w| inside(span, w)) {
                continue;
            }
            let Some((k, name)) = self.called_class(r) else {
                continue;
            };
            if self.tree.impure(k) {
                out.push((span, name));
            }
        }
        out
    }

    /// 12.3: the equations and algorithms of a class that is not a function call no impure
    /// function outside when-clauses, initial sections and `pure(…)` (there it would be
    /// called at every evaluation of the model, not once at an event).
    fn impure_in_equations(&mut self, comp: &ast::Composition) {
        let mut exprs: Vec<&ast::Expr> = Vec::new();
        let mut calls = Vec::new();
        for alg in comp.algorithms.iter().filter(|a| !a.initial) {
            statement_exprs(&alg.statements, false, &mut exprs, &mut calls);
        }
        equation_exprs(&comp.equations, false, &mut exprs, &mut calls);
        for (span, name) in self.impure_calls(&exprs, calls) {
            let msg = format!(
                "the impure function `{name}` is called outside a when-clause, an initial section and pure(…)"
            );
            // The MSL 4.1 breaks this rule itself (`Media.Examples.
            // SolveOneNonlinearEquation.Inverse_sine` prints in an equation).
            self.report_lenient(IMPURE_CALL_PLACE.broken(span, msg, "impure call"));
        }
    }

    /// 12.3: an external function called from a model's equations or algorithms (when-clauses
    /// and initial sections included) is declared pure or impure. A warning, not a refusal:
    /// the specification keeps the undeclared form as deprecated (assumed impure, called
    /// without restriction) and asks for a diagnostic where a simulation model calls it.
    fn undeclared_external_calls(&mut self, comp: &ast::Composition) {
        let mut exprs: Vec<&ast::Expr> = Vec::new();
        let mut calls = Vec::new();
        for alg in &comp.algorithms {
            statement_exprs(&alg.statements, true, &mut exprs, &mut calls);
        }
        equation_exprs(&comp.equations, true, &mut exprs, &mut calls);
        equation_exprs(&comp.initial_equations, true, &mut exprs, &mut calls);
        for x in &exprs {
            each_expr(x, &mut |e| {
                if let ExprKind::Call(CallTarget::Ref(r), _) = &e.kind {
                    calls.push((e.span, r));
                }
            });
        }
        for (span, r) in calls {
            let Some((k, name)) = self.called_class(r) else {
                continue;
            };
            if !self.tree.undeclared_external(k) {
                continue;
            }
            let msg = format!(
                "the external function `{name}` is called, but declared neither pure nor impure"
            );
            let mut d = EXTERNAL_PURITY.broken(span, msg, "external call");
            d.severity = crate::diag::Severity::Warning;
            self.report(d);
        }
    }

    /// 12.4.5 (and 12.2): a function's outputs and protected arrays have sizes given by its
    /// inputs, constants and parameters, or by expressions of these: known when the function
    /// is entered. A protected or output variable counts where its binding is such an
    /// expression (the MSL's `Integer m = size(x, 1)`), and `size(a, k)` reads only `a`'s
    /// sizes; one the algorithm assigns is known only once the body runs.
    fn dimension_sources(&mut self, comp: &ast::Composition) {
        // Each variable of the function: known at entry, or its binding to judge.
        let mut vars: FxHashMap<&str, Option<&ast::Expr>> = FxHashMap::default();
        let mut known: FxHashMap<&str, bool> = FxHashMap::default();
        for e in &comp.elements {
            if let ast::Element::Component(clause, _) = e {
                let given = clause.prefix.causality == Some(ast::Causality::Input)
                    || matches!(
                        clause.prefix.variability,
                        Some(ast::Variability::Constant | ast::Variability::Parameter)
                    );
                for decl in &clause.components {
                    if given {
                        known.insert(&decl.name.name, true);
                    } else {
                        let m = decl.modification.as_ref();
                        let binding = match m.and_then(|m| m.binding.as_ref()) {
                            Some(ast::Binding::Expr(x)) => Some(x),
                            _ => None,
                        };
                        vars.insert(&decl.name.name, binding);
                    }
                }
            }
        }
        let mut found = Vec::new();
        for e in &comp.elements {
            let ast::Element::Component(clause, _) = e else {
                continue;
            };
            if clause.prefix.causality == Some(ast::Causality::Input) {
                continue;
            }
            for decl in &clause.components {
                for sub in decl.subscripts.iter().chain(&clause.subscripts) {
                    let ast::Subscript::Expr(x) = sub else {
                        continue;
                    };
                    for (span, name) in entry_refs(x) {
                        if !known_at_entry(name, &vars, &mut known, 0) {
                            found.push((span, decl.name.name.to_string(), name.to_string()));
                        }
                    }
                }
            }
        }
        for (span, array, by) in found {
            let msg = format!(
                "the size of `{array}` is given by `{by}`, which the function's algorithm assigns: it is known only once the body runs"
            );
            self.report_lenient(DIMENSION_SOURCES.broken(span, msg, "not known at entry"));
        }
    }

    /// A function not declared impure calls no impure function outside `pure(…)` (12.3).
    fn pure_body(&mut self, def: &ast::ClassDef, comp: &ast::Composition) {
        let mut exprs: Vec<&ast::Expr> = Vec::new();
        let mut calls = Vec::new();
        for alg in &comp.algorithms {
            statement_exprs(&alg.statements, true, &mut exprs, &mut calls);
        }
        for (span, name) in self.impure_calls(&exprs, calls) {
            let msg = format!(
                "the function `{}` is not declared impure but calls the impure `{name}`",
                def.name.name
            );
            // The MSL 4.1 breaks this rule itself (`Random.Utilities.initializeImpureRandom`,
            // `Files.loadResource`).
            self.report_lenient(PURE_CALLS_IMPURE.broken(span, msg, "impure call"));
        }
    }

    fn statements(&mut self, body: &[ast::Statement], place: Place) {
        for s in body {
            self.statement(s, place);
        }
    }

    fn statement(&mut self, s: &ast::Statement, place: Place) {
        match &s.kind {
            S::Break if place.loops == 0 => {
                let msg = "`break` outside a for- or while-loop";
                self.report(BREAK_OUTSIDE_LOOP.broken(s.span, msg, "break"));
            }
            S::Return if !place.function => {
                let msg = "`return` outside a function";
                self.report(RETURN_OUTSIDE_FUNCTION.broken(s.span, msg, "return"));
            }
            S::Call(name, _) if !place.function && is_named(name, "reinit") => {
                let msg = "`reinit` in an algorithm section";
                self.report(REINIT_PLACE.broken(s.span, msg, "reinit"));
            }
            S::If {
                branches,
                otherwise,
            } => {
                let inner = Place {
                    control: true,
                    ..place
                };
                for (_, b) in branches {
                    self.statements(b, inner);
                }
                self.statements(otherwise, inner);
            }
            S::For { body, .. } | S::While(_, body) => {
                let inner = Place {
                    control: true,
                    loops: place.loops + 1,
                    ..place
                };
                self.statements(body, inner);
            }
            S::When { branches } => {
                let why = if place.function {
                    Some("a when-statement in a function")
                } else if place.initial {
                    Some("a when-statement in an initial algorithm")
                } else if place.when {
                    Some("a when-statement inside another when-statement")
                } else if place.control {
                    Some("a when-statement inside an if-statement or a loop")
                } else {
                    None
                };
                if let Some(why) = why {
                    self.report(WHEN_STATEMENT_PLACE.broken(s.span, why, "when"));
                }
                // Inside a when-statement, a `break` still breaks the enclosing loop.
                let inner = Place {
                    when: true,
                    ..place
                };
                for (_, b) in branches {
                    self.statements(b, inner);
                }
            }
            _ => {}
        }
    }

    fn equation(&mut self, eq: &ast::Equation, initial: bool, when: bool) {
        match &eq.kind {
            ast::EquationKind::When { branches } => {
                let why = if initial {
                    Some("a when-equation in an initial equation section")
                } else if when {
                    Some("a when-equation inside another when-equation")
                } else {
                    None
                };
                if let Some(why) = why {
                    self.report(WHEN_EQUATION_PLACE.broken(eq.span, why, "when"));
                }
                for (_, b) in branches {
                    for e in b {
                        self.equation(e, initial, true);
                    }
                }
            }
            ast::EquationKind::If {
                branches,
                otherwise,
            } => {
                for (_, b) in branches {
                    for e in b {
                        self.equation(e, initial, when);
                    }
                }
                for e in otherwise {
                    self.equation(e, initial, when);
                }
            }
            ast::EquationKind::For { body, .. } => {
                for e in body {
                    self.equation(e, initial, when);
                }
            }
            ast::EquationKind::Call(name, _) if !when && is_named(name, "reinit") => {
                let msg = "`reinit` outside a when-equation";
                self.report(REINIT_PLACE.broken(eq.span, msg, "reinit"));
            }
            ast::EquationKind::Equality(
                ast::Expr {
                    kind: ExprKind::Tuple(items),
                    ..
                },
                _,
            ) => {
                for x in items.iter().flatten() {
                    if !matches!(x.kind, ExprKind::Ref(_)) {
                        let msg = "a call's outputs assigned to an expression";
                        self.report(TUPLE_TARGETS.broken(x.span, msg, "not a component"));
                    }
                }
            }
            ast::EquationKind::Connect(..) if when => {
                let msg = "`connect` inside a when-equation";
                self.report(WHEN_EQUATION_FORM.broken(eq.span, msg, "connect"));
            }
            _ => {}
        }
    }

    /// The operators and the variable `time` a function may not use, in its bindings and its
    /// statements.
    fn function_body(&mut self, comp: &ast::Composition) {
        let mut exprs: Vec<&ast::Expr> = Vec::new();
        for e in &comp.elements {
            if let ast::Element::Component(clause, _) = e {
                for decl in &clause.components {
                    let m = decl.modification.as_ref();
                    if let Some(ast::Binding::Expr(x)) = m.and_then(|m| m.binding.as_ref()) {
                        exprs.push(x);
                    }
                }
            }
        }
        let mut calls = Vec::new();
        for alg in &comp.algorithms {
            statement_exprs(&alg.statements, true, &mut exprs, &mut calls);
        }
        let mut found = Vec::new();
        for (span, r) in calls {
            let first = &*r.parts[0].ident.name;
            if (r.parts.len() == 1 && NOT_IN_FUNCTIONS.contains(&first))
                || (r.parts.len() == 2 && first == "Connections")
            {
                found.push((span, r.to_source_string()));
            }
        }
        for x in exprs {
            each_expr(x, &mut |e| match &e.kind {
                ExprKind::Call(CallTarget::Der, _) => found.push((e.span, "der".to_string())),
                ExprKind::Call(CallTarget::Initial, _) => {
                    found.push((e.span, "initial".to_string()))
                }
                ExprKind::Call(CallTarget::Ref(r), _) => {
                    let first = &*r.parts[0].ident.name;
                    if (r.parts.len() == 1 && NOT_IN_FUNCTIONS.contains(&first))
                        || (r.parts.len() == 2 && first == "Connections")
                    {
                        found.push((e.span, r.to_source_string()));
                    }
                }
                ExprKind::Ref(r) if r.parts.len() == 1 && &*r.parts[0].ident.name == "time" => {
                    found.push((e.span, "time".to_string()))
                }
                _ => {}
            });
        }
        for (span, name) in found {
            let first = name.split('.').next().unwrap_or_default();
            // A function or component of that name declared by the user hides the operator.
            if self.tree.lookup_simple(self.class, first, 0).is_some() {
                continue;
            }
            if name == "time" {
                let msg = "`time` used in a function";
                self.report(TIME_IN_FUNCTION.broken(span, msg, "time"));
            } else {
                let msg = format!("`{name}` called in a function");
                self.report(FUNCTION_OPERATOR.broken(span, msg, "here"));
            }
        }
    }
}

fn is_named(r: &ast::ComponentRef, name: &str) -> bool {
    r.parts.len() == 1 && &*r.parts[0].ident.name == name
}

/// The expressions of statements, nested ones included.
/// The expressions of the statements `body` and the calls they make as statements, those
/// in when-statements too where `when`.
pub(super) fn statement_exprs<'x>(
    body: &'x [ast::Statement],
    when: bool,
    out: &mut Vec<&'x ast::Expr>,
    calls: &mut Vec<(Span, &'x ast::ComponentRef)>,
) {
    for s in body {
        match &s.kind {
            S::Assign(_, e) => out.push(e),
            S::Call(_, args) | S::MultiAssign(_, _, args) => call_exprs(args, out),
            S::Break | S::Return => {}
            S::If {
                branches,
                otherwise,
            } => {
                for (c, b) in branches {
                    out.push(c);
                    statement_exprs(b, when, out, calls);
                }
                statement_exprs(otherwise, when, out, calls);
            }
            S::For { indices, body } => {
                out.extend(indices.iter().filter_map(|i| i.range.as_ref()));
                statement_exprs(body, when, out, calls);
            }
            S::While(c, body) => {
                out.push(c);
                statement_exprs(body, when, out, calls);
            }
            S::When { .. } if !when => continue,
            S::When { branches } => {
                for (c, b) in branches {
                    out.push(c);
                    statement_exprs(b, when, out, calls);
                }
            }
        }
        if let S::Call(name, _) | S::MultiAssign(_, name, _) = &s.kind {
            calls.push((s.span, name));
        }
    }
}

/// Every equation of `eqs`, the if-, for- (and, with `when`, when-) equations before the
/// equations inside them.
pub(super) fn each_equation<'x>(
    eqs: &'x [ast::Equation],
    when: bool,
    f: &mut dyn FnMut(&'x ast::Equation),
) {
    for eq in eqs {
        f(eq);
        match &eq.kind {
            ast::EquationKind::If {
                branches,
                otherwise,
            } => {
                for (_, b) in branches {
                    each_equation(b, when, f);
                }
                each_equation(otherwise, when, f);
            }
            ast::EquationKind::For { body, .. } => each_equation(body, when, f),
            ast::EquationKind::When { branches } if when => {
                for (_, b) in branches {
                    each_equation(b, when, f);
                }
            }
            _ => {}
        }
    }
}

/// The expressions of the equations `eqs` (inside when-equations only if `when`), and the
/// calls they make as equations.
pub(super) fn equation_exprs<'x>(
    eqs: &'x [ast::Equation],
    when: bool,
    out: &mut Vec<&'x ast::Expr>,
    calls: &mut Vec<(Span, &'x ast::ComponentRef)>,
) {
    each_equation(eqs, when, &mut |eq| match &eq.kind {
        ast::EquationKind::Equality(a, b) => {
            out.push(a);
            out.push(b);
        }
        ast::EquationKind::If { branches, .. } => out.extend(branches.iter().map(|(c, _)| c)),
        ast::EquationKind::For { indices, .. } => {
            out.extend(indices.iter().filter_map(|i| i.range.as_ref()));
        }
        ast::EquationKind::Call(name, args) => {
            call_exprs(args, out);
            calls.push((eq.span, name));
        }
        ast::EquationKind::When { branches } if when => {
            out.extend(branches.iter().map(|(c, _)| c));
        }
        ast::EquationKind::Connect(..) | ast::EquationKind::When { .. } => {}
    });
}

/// The unqualified names `x` reads as values: outside the first argument of `size(…)`, which
/// reads only an array's sizes.
fn entry_refs(x: &ast::Expr) -> Vec<(Span, &str)> {
    let mut sized: Vec<Span> = Vec::new();
    let mut refs = Vec::new();
    each_expr(x, &mut |e| match &e.kind {
        ExprKind::Call(CallTarget::Ref(r), args)
            if r.parts.len() == 1 && &*r.parts[0].ident.name == "size" =>
        {
            sized.extend(args.positional.first().map(|a| a.span));
        }
        ExprKind::Ref(r) if !r.global => refs.push((e.span, &*r.parts[0].ident.name)),
        _ => {}
    });
    let inside = |s: Span, w: &Span| s.file == w.file && s.start >= w.start && s.end <= w.end;
    refs.retain(|(s, _)| !sized.iter().any(|w| inside(*s, w)));
    refs
}

/// Whether the function's variable `name` is known when the function is entered: an input,
/// constant or parameter, a name not of the function (looked up outside, where only constants
/// are visible), or one whose binding reads only such names.
fn known_at_entry<'x>(
    name: &'x str,
    vars: &FxHashMap<&'x str, Option<&'x ast::Expr>>,
    known: &mut FxHashMap<&'x str, bool>,
    depth: u32,
) -> bool {
    if let Some(&k) = known.get(name) {
        return k;
    }
    let Some(&binding) = vars.get(name) else {
        return true;
    };
    // Assume not while judging (a binding that reads itself is not known).
    known.insert(name, false);
    let k = depth < 32
        && binding.is_some_and(|b| {
            entry_refs(b)
                .into_iter()
                .all(|(_, n)| known_at_entry(n, vars, known, depth + 1))
        });
    known.insert(name, k);
    k
}
