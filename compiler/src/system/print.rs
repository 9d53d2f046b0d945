//! The step system as text (`rtc analyze --emit system`): stable across runs, one line per
//! variable and per equation, so tests can compare it and users can read what inline
//! integration made of their model.

use super::SysVar;
use super::{Discretized, Origin, SEquation, SVarKind, System};
use crate::symbolic::{ExprId, ExprPrinter};
use std::fmt::Write;

fn kind_text(k: SVarKind) -> &'static str {
    match k {
        SVarKind::State => "state",
        SVarKind::Derivative => "derivative",
        SVarKind::Algebraic => "algebraic",
        SVarKind::Pre => "pre",
        SVarKind::Parameter => "parameter",
        SVarKind::Input => "input",
        SVarKind::Time => "time",
        SVarKind::StepStart => "step start",
        SVarKind::StepSize => "step size",
        SVarKind::Stage => "stage",
        SVarKind::Discrete => "discrete",
    }
}

impl Discretized {
    /// An expression of this system with its variables' names.
    pub fn expr_string(&self, e: ExprId) -> String {
        let name = |v: SysVar| {
            self.vars
                .get(v)
                .map_or_else(|| format!("?{}", v.0), |x| x.name.clone())
        };
        ExprPrinter {
            arena: &self.arena,
            name: &name,
            temps: None,
        }
        .to_string(e)
    }

    fn equation_text(&self, e: &SEquation) -> String {
        let origin = match e.origin {
            Origin::Model(k) => format!("model equation {}", k.index()),
            Origin::Formula(v) => format!("formula of {}", self.name_of(v)),
            Origin::Delay => "delay buffer".to_string(),
        };
        format!(
            "{} = {}    // {origin}",
            self.expr_string(e.lhs),
            self.expr_string(e.rhs)
        )
    }

    fn write_system(&self, s: &mut String, title: &str, sys: &System) {
        let unknowns: Vec<&str> = sys.unknowns.iter().map(|&v| self.name_of(v)).collect();
        let _ = writeln!(
            s,
            "{title}: {} equations, unknowns: {}",
            sys.equations.len(),
            unknowns.join(", ")
        );
        for (k, e) in sys.equations.iter_enumerated() {
            let _ = writeln!(s, "  {k}: {}", self.equation_text(e));
        }
    }

    /// The whole system: variables (slot, name, kind, start value or binding), formulas, `pre`
    /// copies, the initial and the step system, and the events.
    pub fn print(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "system {}", self.name);
        let _ = writeln!(s, "variables:");
        for (i, v) in self.vars.iter().enumerate() {
            let _ = write!(s, "  {i:4} {} : {}", v.name, kind_text(v.kind));
            if let Some(p) = v.pre_of {
                let _ = write!(s, " of {}", self.name_of(p));
            }
            if let Some(b) = v.binding {
                let what = if v.kind == SVarKind::Parameter {
                    "="
                } else {
                    "start"
                };
                let _ = write!(s, " {what} {}", self.expr_string(b));
            }
            s.push('\n');
        }
        if !self.formulas.is_empty() {
            let f: Vec<String> = self
                .formulas
                .iter()
                .map(|&(x, f)| format!("{}: {}", self.name_of(x), f.name()))
                .collect();
            let _ = writeln!(s, "formulas: {}", f.join(", "));
        }
        if !self.pre_copies.is_empty() {
            let p: Vec<String> = self
                .pre_copies
                .iter()
                .map(|&(p, v)| format!("{} := {}", self.name_of(p), self.name_of(v)))
                .collect();
            let _ = writeln!(s, "pre copies at the step start: {}", p.join(", "));
        }
        if !self.discrete_pre.is_empty() {
            let p: Vec<String> = self
                .discrete_pre
                .iter()
                .map(|&(p, v)| format!("{} := {}", self.name_of(p), self.name_of(v)))
                .collect();
            let _ = writeln!(s, "pre copies at event rounds: {}", p.join(", "));
        }
        self.write_system(&mut s, "init", &self.init);
        self.write_system(&mut s, "step", &self.step);
        for (k, e) in self.events.iter_enumerated() {
            let _ = writeln!(s, "event {k}: {}", e.text);
            for &(x, v) in &e.assigns {
                let _ = writeln!(s, "  {} := {}", self.name_of(x), self.expr_string(v));
            }
            for &(x, v) in &e.reinits {
                let _ = writeln!(s, "  reinit({}, {})", self.name_of(x), self.expr_string(v));
            }
        }
        s
    }
}
