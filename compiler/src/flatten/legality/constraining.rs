//! 6.3: "In a class all references to elements of that class should be limited to their
//! constraining interface": a replaceable component `replaceable MA m constrainedby MB` (or a
//! component of a replaceable class `replaceable model M = MA constrainedby MB`) is read
//! only through MB's public elements, which every redeclaration keeps. A reference to an
//! element MA has and MB has not (`m.y`) works with MA and breaks with another class fitting
//! MB. The specification says "should": a warning, where the class's equations, algorithms,
//! bindings or modifiers name such an element.

use super::statements::{equation_exprs, statement_exprs};
use super::{each_expr, Checker, Rule};
use crate::flatten::classes::{ClassId, Found};
use crate::syntax::ast;
use rustc_hash::FxHashSet;

const CONSTRAINING_INTERFACE: Rule = Rule {
    section: "6.3",
    code: "redeclare",
    text: "in a class, references to the elements of a replaceable element should be limited \
           to its constraining interface: the public elements of its constraining class",
};

impl Checker<'_, '_> {
    /// 6.3: references through a replaceable element to elements outside its constraining
    /// class (a warning).
    pub(super) fn constraining_access(&mut self, comp: &ast::Composition) {
        // The replaceable components with a constraining class other than their type, and
        // the public element names of that class.
        let mut limited: Vec<(&str, String, Vec<String>)> = Vec::new();
        for e in &comp.elements {
            let ast::Element::Component(clause, prefix) = e else {
                continue;
            };
            let constraint = if prefix.replaceable {
                prefix.constraining.as_ref().map(|(n, _)| n.clone())
            } else {
                self.replaceable_class_constraint(comp, &clause.type_name)
            };
            let Some(name) = constraint else {
                continue;
            };
            let Some(Found::Class(c)) = self.tree.lookup_name(self.class, &name) else {
                continue;
            };
            let names = self.public_element_names(c);
            for d in &clause.components {
                limited.push((&d.name.name, name.to_dotted(), names.clone()));
            }
        }
        if limited.is_empty() {
            return;
        }
        let mut exprs: Vec<&ast::Expr> = Vec::new();
        let mut calls = Vec::new();
        for alg in &comp.algorithms {
            statement_exprs(&alg.statements, true, &mut exprs, &mut calls);
        }
        equation_exprs(&comp.equations, true, &mut exprs, &mut calls);
        equation_exprs(&comp.initial_equations, true, &mut exprs, &mut calls);
        for e in &comp.elements {
            if let ast::Element::Component(clause, _) = e {
                for d in &clause.components {
                    if let Some(m) = &d.modification {
                        modification_exprs(m, &mut exprs);
                    }
                    if let Some(c) = &d.condition {
                        exprs.push(c);
                    }
                }
            }
        }
        let mut refs: Vec<&ast::ComponentRef> = Vec::new();
        for x in &exprs {
            each_expr(x, &mut |e| {
                if let ast::ExprKind::Ref(r) = &e.kind {
                    refs.push(r);
                }
            });
        }
        let mut connects = Vec::new();
        connect_refs(&comp.equations, &mut connects);
        refs.extend(connects);
        let mut seen = FxHashSet::default();
        for r in refs {
            if r.global || r.parts.len() < 2 {
                continue;
            }
            let (first, second) = (&r.parts[0].ident.name, &r.parts[1].ident);
            let Some((_, class, names)) = limited.iter().find(|(n, _, _)| **n == **first) else {
                continue;
            };
            if names.iter().any(|n| **n == *second.name)
                || !seen.insert((first.clone(), second.name.clone()))
            {
                continue;
            }
            let msg = format!(
                "`{first}.{}` reads an element outside the constraining class `{class}` of the replaceable `{first}`: a redeclaration to another class that fits `{class}` need not have it",
                second.name
            );
            let mut d =
                CONSTRAINING_INTERFACE.broken(second.span, msg, "not in the constraining class");
            d.severity = crate::diag::Severity::Warning;
            self.report(d);
        }
    }

    /// The constraining class of a type name that is a replaceable class element of this
    /// class with a `constrainedby` (`replaceable model M = MA constrainedby MB;`).
    fn replaceable_class_constraint(
        &self,
        comp: &ast::Composition,
        type_name: &ast::Name,
    ) -> Option<ast::Name> {
        if type_name.parts.len() != 1 {
            return None;
        }
        comp.elements.iter().find_map(|e| match e {
            ast::Element::Class(def, p)
                if p.replaceable && def.name.name == type_name.parts[0].name =>
            {
                p.constraining.as_ref().map(|(n, _)| n.clone())
            }
            _ => None,
        })
    }

    /// The names of `c`'s public components and member classes, inherited ones included.
    fn public_element_names(&mut self, c: ClassId) -> Vec<String> {
        let mut out = Vec::new();
        for k in self.tree.lineage(c) {
            out.extend(self.tree.child_names(k));
            if let Some(comp) = self.tree.info(k).composition() {
                for e in &comp.elements {
                    if let ast::Element::Component(clause, prefix) = e {
                        if !prefix.protected {
                            out.extend(clause.components.iter().map(|d| d.name.name.to_string()));
                        }
                    }
                }
            }
        }
        out
    }
}

/// The expressions of a modification: its binding and its arguments' modifications.
fn modification_exprs<'x>(m: &'x ast::Modification, out: &mut Vec<&'x ast::Expr>) {
    if let Some(ast::Binding::Expr(e)) = &m.binding {
        out.push(e);
    }
    if let Some(cm) = &m.class_mod {
        for a in &cm.args {
            if let ast::Argument::Modify(em) = a {
                if let Some(m) = &em.modification {
                    modification_exprs(m, out);
                }
            }
        }
    }
}

/// The references `connect` equations name, nested ones included.
fn connect_refs<'x>(eqs: &'x [ast::Equation], out: &mut Vec<&'x ast::ComponentRef>) {
    super::statements::each_equation(eqs, false, &mut |eq| {
        if let ast::EquationKind::Connect(a, b) = &eq.kind {
            out.push(a);
            out.push(b);
        }
    });
}
