//! What inheriting may not change: the classes an extends-clause names (§5.6.1.4).

use super::{Checker, Rule};
use crate::syntax::ast;

const EXTENDS_LOOKUP: Rule = Rule {
    section: "5.6.1.4",
    code: "lookup",
    text: "the names of the classes extended are looked up the same before and after the \
           extends-clauses are inherited: no inherited element may take the place of one",
};

impl Checker<'_, '_> {
    /// 5.6.1.4: the first name of each extends-clause, looked up outside what the class
    /// inherits (its own elements, then the enclosing classes), must not be shadowed by an
    /// element one of its base classes brings (`extends A; extends B;` where A declares a
    /// class B: after inheriting, `B` would be A's).
    pub(super) fn inheritance_rules(&mut self, def: &ast::ClassDef) {
        let ast::ClassBody::Long { composition, .. } = &def.body else {
            return;
        };
        let extends: Vec<&ast::Extends> = composition
            .elements
            .iter()
            .filter_map(|e| match e {
                ast::Element::Extends(x) => Some(x),
                _ => None,
            })
            .collect();
        if extends.is_empty() {
            return;
        }
        let class = self.class;
        let bases = self.tree.bases(class);
        for ext in extends {
            if ext.base.global {
                continue;
            }
            let first = &*ext.base.parts[0].name;
            // The class's own element comes first before and after inheriting alike.
            if self.tree.child(class, first).is_some()
                || self.tree.local_component(class, first).is_some()
            {
                continue;
            }
            let Some(inherited) = bases.iter().find_map(|&b| self.tree.member(b, first, 0)) else {
                continue;
            };
            let before = match self.tree.info(class).parent {
                Some(parent) => self.tree.lookup_simple(parent, first, 0),
                None => self
                    .tree
                    .builtin(first)
                    .or_else(|| self.tree.top_level(first))
                    .map(super::Found::Class),
            };
            let Some(before) = before else {
                continue;
            };
            if super::super::classes::same_found(&before, &inherited) {
                continue;
            }
            let msg = format!(
                "`{first}` of `extends {}` names another element once the base classes are inherited",
                ext.base.to_dotted()
            );
            self.report(EXTENDS_LOOKUP.broken(ext.base.span, msg, "looked up again"));
        }
    }
}
