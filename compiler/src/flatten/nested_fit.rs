//! A package standing for a constraining package (specification 6.4): its member classes
//! against the constraining package's, by name. Where the constraining package's class is not
//! replaceable, the new one must not be; where it is transitively non-replaceable (6.2: a long
//! definition not declared replaceable, or a short one not declared replaceable whose base is
//! transitively non-replaceable), the new one must be too, with the same public components and
//! no others; and where it is a non-replaceable long definition, the new one must be long.
//! A member class the new package inherits from the constraining one is the same class and
//! fits. Not checked: that a class neither replaceable nor transitively non-replaceable is
//! "linked to the same class" (6.4's last case).

use super::classes::Found;
use super::redeclare::PublicComponent;
use super::*;
use rustc_hash::FxHashSet;

impl<'t, 'a> Flattener<'t, 'a> {
    /// How package `new` does not stand for package `constraint` in its member classes
    /// (`None`: it does, or the two are not packages).
    pub(super) fn nested_misfit(&mut self, new: ClassId, constraint: ClassId) -> Option<String> {
        let package = |t: &ClassTree<'a>, c: ClassId| {
            t.info(c).restriction() == Some(ast::Restriction::Package)
        };
        if new == constraint || !package(self.tree, new) || !package(self.tree, constraint) {
            return None;
        }
        let mut names: Vec<String> = Vec::new();
        for k in self.tree.lineage(constraint) {
            for n in self.tree.child_names(k) {
                if !names.contains(&n) {
                    names.push(n);
                }
            }
        }
        for n in names {
            let Some(Found::Class(b)) = self.tree.member(constraint, &n, 0) else {
                continue;
            };
            let a = match self.tree.member(new, &n, 0) {
                Some(Found::Class(a)) => a,
                Some(Found::Component { .. }) => {
                    return Some(format!(
                        "its `{n}` is a component, the constraining package's a class"
                    ))
                }
                None => return Some(format!("it has no class `{n}`")),
            };
            if a == b {
                continue;
            }
            let (b_repl, a_repl) = (
                self.tree.declared_replaceable(b),
                self.tree.declared_replaceable(a),
            );
            if !b_repl && a_repl {
                return Some(format!(
                    "its class `{n}` is replaceable, the constraining package's is not"
                ));
            }
            let long = |t: &ClassTree<'a>, c: ClassId| {
                matches!(
                    t.info(c).def.map(|d| &d.body),
                    Some(ast::ClassBody::Long { .. })
                )
            };
            if !b_repl && long(self.tree, b) && !long(self.tree, a) {
                return Some(format!(
                    "its class `{n}` is a short definition, the constraining package's a long one"
                ));
            }
            if !self.non_replaceable_chain(b) {
                continue;
            }
            if !self.non_replaceable_chain(a) {
                return Some(format!(
                    "its class `{n}` is not transitively non-replaceable, the constraining package's is"
                ));
            }
            let (mut want, mut have) = (Vec::new(), Vec::new());
            self.collect_public_components(b, &mut want, &mut FxHashSet::default());
            self.collect_public_components(a, &mut have, &mut FxHashSet::default());
            let names = |l: &[PublicComponent<'a>]| -> Vec<Box<str>> {
                l.iter().map(|c| c.0.clone()).collect()
            };
            let (w, h) = (names(&want), names(&have));
            if let Some(m) = w.iter().find(|x| !h.contains(x)) {
                return Some(format!(
                    "its class `{n}` has no public element `{m}` (the constraining package's class is transitively non-replaceable)"
                ));
            }
            if let Some(x) = h.iter().find(|x| !w.contains(x)) {
                return Some(format!(
                    "its class `{n}` has the public element `{x}` the constraining package's has not (that class is transitively non-replaceable: no other elements)"
                ));
            }
        }
        None
    }

    /// Class `c` is transitively non-replaceable in 6.2's sense: not declared replaceable,
    /// and, a short definition, its base so too.
    fn non_replaceable_chain(&mut self, mut c: ClassId) -> bool {
        for _ in 0..64 {
            if self.tree.declared_replaceable(c) {
                return false;
            }
            match self.tree.base_of_short(c) {
                Some((b, _)) if b != c => c = b,
                _ => return true,
            }
        }
        true
    }
}
