//! Invariants of the step system, checked between passes (after inline integration and after
//! each transform): a violation is a bug in rtc, reported as an internal diagnostic.
//!
//! - every variable an expression reads exists, and the special slots have their kinds;
//! - the initial and the step system are square, and their unknowns are distinct unknowns
//!   (state, derivative, algebraic or stage values, never parameters or inputs);
//! - no equation still contains `der()` or `pre()` (inline integration replaced them by
//!   derivative and `pre` variables);
//! - every `pre` variable names the variable it copies, every `pre` copy fills a `pre`
//!   variable, and every formula belongs to a state.

use super::{Discretized, SVarKind, System};
use crate::diag::Diagnostic;
use crate::symbolic::{ExprId, Node};

fn bug(msg: String) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::error("internal", format!("step system invariant violated: {msg}"))
            .help("this is a bug in rtc; please report it with the model"),
    )
}

pub fn verify(d: &Discretized) -> Result<(), Box<Diagnostic>> {
    let n = d.vars.len();
    for (slot, kind) in [
        (d.time, SVarKind::Time),
        (d.step_start, SVarKind::StepStart),
        (d.step_size, SVarKind::StepSize),
    ] {
        if d.vars.get(slot).map(|v| v.kind) != Some(kind) {
            return Err(bug(format!("slot {} is not the {kind:?} slot", slot.0)));
        }
    }
    // Each node is looked at once for all the expressions that share it: one walk per
    // property over the arena's nodes reachable from the roots (the messages are made only
    // for a violation).
    let mut reads = Walk::new(d);
    let mut in_equations = Walk::new(d);
    let mut check_expr = |e: ExprId, what: &dyn Fn() -> String| -> Result<(), Box<Diagnostic>> {
        if e.index() >= d.arena.len() {
            return Err(bug(format!(
                "{} refers to expression {} beyond the arena",
                what(),
                e.index()
            )));
        }
        match reads.find(
            e,
            |l| matches!(l, Node::Var(v) | Node::Der(v) | Node::Pre(v) if v.index() >= n),
        ) {
            Some(Node::Var(v) | Node::Der(v) | Node::Pre(v)) => {
                Err(bug(format!("{} reads variable {} of {n}", what(), v.0)))
            }
            _ => Ok(()),
        }
    };
    for (title, sys) in [("init", &d.init), ("step", &d.step)] {
        square(d, title, sys)?;
        for (k, e) in sys.equations.iter_enumerated() {
            let what = || format!("{title} equation {k}");
            for side in [e.lhs, e.rhs] {
                check_expr(side, &what)?;
                if in_equations
                    .find(side, |l| matches!(l, Node::Der(_) | Node::Pre(_)))
                    .is_some()
                {
                    return Err(bug(format!(
                        "{} still contains der() or pre(): {}",
                        what(),
                        d.expr_string(side)
                    )));
                }
            }
        }
    }
    for (i, v) in d.vars.iter().enumerate() {
        if v.kind == SVarKind::Pre && v.pre_of.is_none_or(|p| p.index() >= n) {
            return Err(bug(format!("pre variable `{}` copies nothing", v.name)));
        }
        if let Some(b) = v.binding {
            check_expr(b, &|| format!("the binding of `{}` (slot {i})", v.name))?;
        }
    }
    for &(p, v) in d.pre_copies.iter().chain(&d.discrete_pre) {
        if p.index() >= n || v.index() >= n || d.vars[p].kind != SVarKind::Pre {
            return Err(bug(format!(
                "pre copy {} := {} does not fill a pre slot",
                p.0, v.0
            )));
        }
    }
    for &(x, f) in &d.formulas {
        if d.vars.get(x).map(|v| v.kind) != Some(SVarKind::State) {
            return Err(bug(format!(
                "formula {} of slot {} that is not a state",
                f.name(),
                x.0
            )));
        }
    }
    for o in &d.outputs {
        check_expr(o.expr, &|| format!("output `{}`", o.name))?;
    }
    for (k, e) in d.events.iter_enumerated() {
        let what = || format!("event {k}");
        check_expr(e.z, &what)?;
        for &(x, v) in e.assigns.iter().chain(&e.reinits) {
            if x.index() >= n {
                return Err(bug(format!("{} assigns slot {} of {n}", what(), x.0)));
            }
            check_expr(v, &what)?;
        }
    }
    Ok(())
}

/// A walk over the nodes reachable from several roots, each node visited once in all (a
/// node's property does not depend on the root it was reached from).
struct Walk<'d> {
    d: &'d Discretized,
    seen: Vec<bool>,
    stack: Vec<ExprId>,
}

impl<'d> Walk<'d> {
    fn new(d: &'d Discretized) -> Walk<'d> {
        Walk {
            d,
            seen: vec![false; d.arena.len()],
            stack: Vec::new(),
        }
    }

    /// The first leaf below `root` not seen before that `bad` holds for.
    fn find(
        &mut self,
        root: ExprId,
        bad: impl Fn(&Node<crate::system::SysVar>) -> bool,
    ) -> Option<Node<crate::system::SysVar>> {
        self.stack.clear();
        self.stack.push(root);
        while let Some(id) = self.stack.pop() {
            if std::mem::replace(&mut self.seen[id.index()], true) {
                continue;
            }
            let node = self.d.arena.node(id);
            if bad(&node) {
                return Some(node);
            }
            self.stack.extend(self.d.arena.children(id));
        }
        None
    }
}

fn square(d: &Discretized, title: &str, sys: &System) -> Result<(), Box<Diagnostic>> {
    if sys.equations.len() != sys.unknowns.len() {
        return Err(bug(format!(
            "the {title} system has {} equations for {} unknowns",
            sys.equations.len(),
            sys.unknowns.len()
        )));
    }
    let mut seen = vec![false; d.vars.len()];
    for &u in &sys.unknowns {
        let Some(v) = d.vars.get(u) else {
            return Err(bug(format!("{title} unknown {} beyond the variables", u.0)));
        };
        if std::mem::replace(&mut seen[u.index()], true) {
            return Err(bug(format!(
                "`{}` is an unknown of the {title} system twice",
                v.name
            )));
        }
        if matches!(
            v.kind,
            SVarKind::Parameter
                | SVarKind::Input
                | SVarKind::Time
                | SVarKind::StepStart
                | SVarKind::StepSize
        ) {
            return Err(bug(format!(
                "{title} unknown `{}` is a {:?}",
                v.name, v.kind
            )));
        }
    }
    Ok(())
}
