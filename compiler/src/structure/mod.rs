//! Structure: which equation determines which unknown.
//!
//! Here: alias elimination, the incidence of the continuous-time system (unknowns are the
//! derivatives of states and the algebraic variables; states, parameters and inputs are known)
//! and a maximum matching, which decides whether the model is balanced and structurally
//! nonsingular and, when it is not, names the equations and variables left unmatched.

pub mod alias;
pub mod blt;
pub mod index;
pub mod matching;
pub mod semilinear;
pub mod tearing;
pub mod vanishing;

use crate::diag::Diagnostic;
use crate::flat::{FlatEq, FlatVar};
use crate::flat::{FlatModel, VarKind};
use crate::symbolic::Node;
use rustc_hash::FxHashMap;

/// An unknown of the continuous-time system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unknown {
    /// `der(x)` of a state representative.
    Der(FlatVar),
    /// An algebraic (or discrete) representative.
    Var(FlatVar),
}

/// Counts for `rtc check`.
#[derive(Clone, Debug)]
pub struct Summary {
    pub states: usize,
    pub algebraic: usize,
    pub parameters: usize,
    pub inputs: usize,
    pub outputs: usize,
    /// Scalar equations of the flat model.
    pub equations: usize,
    /// Equations removed as aliases.
    pub aliases: usize,
    /// Warnings of alias elimination (start values of aliases that disagree).
    pub warnings: Vec<Diagnostic>,
}

impl Summary {
    pub fn line(&self, model: &FlatModel) -> String {
        let n =
            |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
        format!(
            "{}: {}, {}, {}, {} ({} eliminated as aliases, {} remain); {}, {}",
            model.name,
            n(self.states, "state", "states"),
            n(self.algebraic, "algebraic variable", "algebraic variables"),
            n(self.parameters, "parameter", "parameters"),
            n(self.equations, "equation", "equations"),
            self.aliases,
            self.equations - self.aliases,
            n(self.inputs, "input", "inputs"),
            n(self.outputs, "output", "outputs")
        )
    }
}

/// The continuous-time system after alias elimination.
pub struct System {
    pub aliases: alias::Aliases,
    pub unknowns: Vec<Unknown>,
    pub unknown_index: FxHashMap<Unknown, usize>,
    /// Equation indices into `model.equations`.
    pub equations: Vec<FlatEq>,
    /// `incidence[i]`: unknowns (indices) in equation `equations[i]`.
    pub incidence: Vec<Vec<usize>>,
}

pub fn build_system(model: &mut FlatModel) -> Result<System, Vec<Diagnostic>> {
    let aliases = alias::eliminate(model)?;
    let mut unknowns = Vec::new();
    let mut unknown_index = FxHashMap::default();
    for (i, v) in model.vars.iter().enumerate() {
        let id = FlatVar::new(i);
        let (r, _) = aliases.resolve(id);
        if r != id || aliases.bound[i].is_some() {
            continue;
        }
        let u = match v.kind {
            _ if aliases.has_state[i] => Unknown::Der(id),
            VarKind::Algebraic | VarKind::Discrete => Unknown::Var(id),
            _ => continue,
        };
        unknown_index.insert(u, unknowns.len());
        unknowns.push(u);
    }
    let mut incidence = Vec::with_capacity(aliases.kept.len());
    let mut leaves = Vec::new();
    for &k in &aliases.kept {
        let eq = model.equation(k);
        leaves.clear();
        model.arena.leaves(eq.lhs, &mut leaves);
        model.arena.leaves(eq.rhs, &mut leaves);
        let mut row = Vec::new();
        for n in &leaves {
            let u = match *n {
                Node::Var(v) => {
                    let (r, _) = aliases.resolve(v);
                    if aliases.has_state[r.index()] {
                        continue;
                    }
                    Unknown::Var(r)
                }
                Node::Der(v) => Unknown::Der(aliases.resolve(v).0),
                _ => continue,
            };
            if let Some(&j) = unknown_index.get(&u) {
                if !row.contains(&j) {
                    row.push(j);
                }
            }
        }
        incidence.push(row);
    }
    Ok(System {
        equations: aliases.kept.clone(),
        aliases,
        unknowns,
        unknown_index,
        incidence,
    })
}

pub fn unknown_name(model: &FlatModel, u: Unknown) -> String {
    match u {
        Unknown::Der(v) => format!("der({})", model.var(v).name),
        Unknown::Var(v) => model.var(v).name.clone(),
    }
}

/// Checks balance and structural regularity; returns the summary or the diagnostics.
pub fn check(model: &FlatModel) -> Result<Summary, Vec<Diagnostic>> {
    let mut m = model.clone();
    let mut sys = build_system(&mut m)?;
    let summary = Summary {
        states: m
            .vars
            .iter()
            .enumerate()
            .filter(|(i, _)| {
                sys.aliases.rep[*i].0.index() == *i
                    && sys.aliases.has_state[*i]
                    && sys.aliases.bound[*i].is_none()
            })
            .count(),
        algebraic: sys
            .unknowns
            .iter()
            .filter(|u| matches!(u, Unknown::Var(_)))
            .count(),
        parameters: m.count(VarKind::Parameter),
        inputs: m.count(VarKind::Input),
        outputs: m.vars.iter().filter(|v| v.is_output).count(),
        equations: m.equations.len(),
        aliases: sys.aliases.eliminated,
        warnings: std::mem::take(&mut sys.aliases.warnings),
    };
    let matching = matching::maximum_matching(&sys.incidence, sys.unknowns.len());
    let neq = sys.equations.len();
    let nunk = sys.unknowns.len();
    if matching.size == neq && neq == nunk {
        return Ok(summary);
    }
    let unmatched_vars: Vec<String> = (0..nunk)
        .filter(|&c| matching.col_to_row[c] == matching::UNMATCHED)
        .map(|c| unknown_name(&m, sys.unknowns[c]))
        .collect();
    let unmatched_eqs: Vec<FlatEq> = (0..neq)
        .filter(|&r| matching.row_to_col[r] == matching::UNMATCHED)
        .map(|r| sys.equations[r])
        .collect();
    let list = |v: &[String]| {
        let mut s = v
            .iter()
            .take(12)
            .map(|x| format!("`{x}`"))
            .collect::<Vec<_>>()
            .join(", ");
        if v.len() > 12 {
            s.push_str(&format!(" and {} more", v.len() - 12));
        }
        s
    };
    let mut d = if neq != nunk {
        Diagnostic::error(
            "unbalanced",
            format!(
                "the model is not balanced: {neq} equation{} for {nunk} unknown{}{}",
                if neq == 1 { "" } else { "s" },
                if nunk == 1 { "" } else { "s" },
                if neq > nunk {
                    " (too many equations)"
                } else {
                    " (too few equations)"
                }
            ),
        )
    } else {
        Diagnostic::error(
            "singular",
            format!(
                "the model is structurally singular: {} of {neq} equations cannot be matched to an unknown",
                neq - matching.size
            ),
        )
    };
    let mut help = Vec::new();
    if !unmatched_vars.is_empty() {
        help.push(format!("no equation determines {}", list(&unmatched_vars)));
    }
    if !unmatched_eqs.is_empty() {
        let texts: Vec<String> = unmatched_eqs
            .iter()
            .map(|&k| {
                let e = m.equation(k);
                format!("{} = {}", m.expr_string(e.lhs), m.expr_string(e.rhs))
            })
            .collect();
        help.push(format!("equations left over: {}", list(&texts)));
        for (n, &k) in unmatched_eqs.iter().take(6).enumerate() {
            let span = m.equation(k).span;
            d = if n == 0 {
                d.at(span, "this equation has no unknown left to determine")
            } else {
                d.also(span, "also left over")
            };
        }
    } else if let Some(v) = unmatched_vars.first() {
        if let Some(var) = m
            .vars
            .iter()
            .find(|x| &x.name == v || format!("der({})", x.name) == *v)
        {
            d = d.at(var.span, "declared here");
        }
    }
    if neq == nunk {
        help.push(
            "index reduction (differentiating constraints between states, as for two capacitors in parallel) does not resolve it: some equations are redundant or contradictory, and some unknowns are determined by none"
                .into(),
        );
    }
    d = d.help(help.join("\n"));
    Err(vec![d])
}
