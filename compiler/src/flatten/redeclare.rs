//! Class redeclarations (specification 7.3.2): `redeclare model S = Ramp(k = 2)` and
//! `redeclare package Medium = MediumB` in a component's modification or an `extends`
//! modification give a replaceable class element of the modified instance a new definition.
//!
//! Lookup of class names is lexical (`classes.rs`); a redeclaration depends on the instance.
//! So the instance node keeps the redeclarations written for it, and a type name read in an
//! instance context ([`Env`] with a node) first resolves lexically, then, if that names a
//! class element of the node's classes (or of an enclosing instance's), takes the
//! redeclaration registered there: the new definition's base, looked up where the
//! redeclaration is written (so `redeclare package Medium = Medium` passes an outer
//! redeclaration down), with its modification to apply to components of the type.
//!
//! A redeclaration must name a `replaceable` class element, and the new class must fit the
//! element's constraining class (`constrainedby C`, else the element's declared definition):
//! it must have every public component of it. Where it does not, the diagnostic names the
//! constraining class and the missing element.

use super::modification::ClassRedeclared;
use super::*;
use rustc_hash::FxHashSet;

/// Nested redeclarations resolved through each other deeper than this are refused.
const MAX_REDECLARE_DEPTH: u32 = 32;

impl<'t, 'a> Flattener<'t, 'a> {
    /// Registers the class redeclarations of `modif` for `node` (the outermost first: an
    /// entry already there wins).
    pub(super) fn register_class_redeclares(
        &mut self,
        node: NodeId,
        class: ClassId,
        modif: &Mod<'a>,
    ) -> DResult<()> {
        for (name, r) in &modif.classes {
            let list = self.inst.class_redecls.entry(node).or_default();
            if list.iter().any(|(n, _)| n == name) {
                continue;
            }
            // It names a class element of this class or its bases (else of a class populated
            // later into the node, or of none: `check_modifiers` reports that).
            let Some(Found::Class(element)) = self.tree.member(class, name, 0) else {
                continue;
            };
            let (replaceable, _) = self.class_element_prefix(element);
            if !replaceable {
                return Err(Box::new(
                    Diagnostic::error(
                        "redeclare",
                        format!(
                            "`{}` is not replaceable, so it cannot be redeclared",
                            self.tree.info(element).full_name
                        ),
                    )
                    .at(r.arg.span, "redeclared here")
                    .also(
                        self.tree.info(element).span(),
                        "declared without `replaceable`",
                    ),
                ));
            }
            self.inst
                .class_redecls
                .entry(node)
                .or_default()
                .push((name.clone(), *r));
        }
        Ok(())
    }

    /// `(replaceable, constrainedby)` of class element `c` as declared in its parent.
    fn class_element_prefix(&self, c: ClassId) -> (bool, Option<&'a ast::ElementPrefix>) {
        let info = self.tree.info(c);
        let Some(parent) = info.parent else {
            return (false, None);
        };
        let Some(comp) = self.tree.info(parent).composition() else {
            return (false, None);
        };
        let name = info.def.map(|d| &d.name.name);
        for e in &comp.elements {
            if let ast::Element::Class(def, prefix) = e {
                if Some(&def.name.name) == name {
                    return (prefix.replaceable, Some(prefix));
                }
            }
        }
        (false, None)
    }

    /// A class name read in an instance context: the class it names after the instance's
    /// redeclarations, and the modification a redeclaration gives it (to apply to components
    /// of the type). `None`: no redeclaration applies (resolve it lexically).
    pub(super) fn redeclared_class(
        &mut self,
        name: &ast::Name,
        env: Env,
        depth: u32,
    ) -> DResult<Option<(ClassId, Mod<'a>)>> {
        let Some(node) = env.node else {
            return Ok(None);
        };
        if name.global || self.inst.class_redecls.is_empty() {
            return Ok(None);
        }
        let first = &name.parts[0].name;
        let Some(Found::Class(element)) = self.tree.lookup_simple(env.class, first, 0) else {
            return Ok(None);
        };
        let Some(parent) = self.tree.info(element).parent else {
            return Ok(None);
        };
        // The instance whose class declares the element: this node or an enclosing one.
        let mut cur = Some(node);
        let mut found = None;
        while let Some(n) = cur {
            if self.inst.nodes[n.0 as usize].classes.contains(&parent) {
                found = self
                    .inst
                    .class_redecls
                    .get(&n)
                    .and_then(|l| l.iter().find(|(k, _)| k == first))
                    .map(|(_, r)| *r);
                break;
            }
            cur = self.inst.nodes[n.0 as usize].parent;
        }
        let Some(r) = found else {
            return Ok(None);
        };
        let (base, m) = self.resolve_class_redeclared(&r, element, depth)?;
        // `Medium.density`: the rest of the name inside the new class.
        let mut c = base;
        for part in &name.parts[1..] {
            match self.tree.member(c, &part.name, 0) {
                Some(Found::Class(k)) => c = k,
                _ => return Ok(None),
            }
        }
        let m = if name.parts.len() == 1 {
            m
        } else {
            Mod::default()
        };
        Ok(Some((c, m)))
    }

    /// The new definition of a redeclared class element: its base class (looked up where the
    /// redeclaration is written, through that instance's own redeclarations) and its
    /// modification (with the constraining clause's beneath it), checked to fit the
    /// element's constraining class.
    fn resolve_class_redeclared(
        &mut self,
        r: &ClassRedeclared<'a>,
        element: ClassId,
        depth: u32,
    ) -> DResult<(ClassId, Mod<'a>)> {
        if depth > MAX_REDECLARE_DEPTH {
            return Err(Box::new(
                Diagnostic::error(
                    "cycle",
                    "class redeclarations refer to each other without end",
                )
                .at(r.arg.span, "here"),
            ));
        }
        let ast::ClassBody::Short {
            base,
            modification,
            subscripts,
            ..
        } = &r.arg.def.body
        else {
            return Err(self.unsupported(
                r.arg.def.span,
                "redeclarations of a class with a long definition (`redeclare model S … end S;`)",
            ));
        };
        if !subscripts.is_empty() {
            return Err(self.unsupported(r.arg.def.span, "array types in class redeclarations"));
        }
        let base_class = self.class_in_env(base, r.env, depth + 1)?;
        let mut m = match modification {
            Some(cm) => {
                let mut inner = Mod::from_class_mod(cm, r.env);
                inner.mark_each();
                inner
            }
            None => Mod::default(),
        };
        // The constraining class: `constrainedby C(mods)` of the element, or its own
        // definition's base; the new class must have all its public components.
        let (_, prefix) = self.class_element_prefix(element);
        let parent = self.tree.info(element).parent.unwrap_or(element);
        let constraint = match prefix.and_then(|p| p.constraining.as_ref()) {
            Some((cname, cmod)) => {
                if let Some(cm) = cmod {
                    let env = Env {
                        node: None,
                        class: parent,
                    };
                    let mut inner = Mod::from_class_mod(cm, env);
                    inner.mark_each();
                    m = merge(&m, &inner);
                }
                match self.tree.lookup_name(parent, cname) {
                    Some(Found::Class(c)) => Some((c, cname.to_dotted())),
                    _ => return Err(self.unknown_class(cname, parent)),
                }
            }
            None => Some((element, self.tree.info(element).full_name.clone())),
        };
        if let Some((c, cname)) = constraint {
            self.check_fits(base_class, c, &cname, r)?;
        }
        Ok((base_class, m))
    }

    /// A class name looked up in `env`, through the instance's redeclarations.
    pub(super) fn class_in_env(
        &mut self,
        name: &ast::Name,
        env: Env,
        depth: u32,
    ) -> DResult<ClassId> {
        if let Some((c, _)) = self.redeclared_class(name, env, depth)? {
            return Ok(c);
        }
        let found = if name.global {
            self.tree.lookup_top_name(name)
        } else {
            self.tree.lookup_name(env.class, name)
        };
        match found {
            Some(Found::Class(c)) => Ok(c),
            _ => Err(self.unknown_class(name, env.class)),
        }
    }

    /// The new class must have every public component of the constraining class.
    fn check_fits(
        &mut self,
        new: ClassId,
        constraint: ClassId,
        cname: &str,
        r: &ClassRedeclared<'a>,
    ) -> DResult<()> {
        let what = ("class", &*r.arg.def.name.name, r.arg.span);
        self.fits(new, constraint, cname, what)
    }

    /// `new` has every public component of `constraint` (named `cname`), else a diagnostic at
    /// the redeclaration of `what` (what is redeclared: "class" or "component's type", its
    /// name, where).
    fn fits(
        &mut self,
        new: ClassId,
        constraint: ClassId,
        cname: &str,
        (kind, name, span): (&str, &str, Span),
    ) -> DResult<()> {
        let want = self.public_components(constraint);
        let have = self.public_components(new);
        let Some(missing) = want.iter().find(|w| !have.contains(w)) else {
            return Ok(());
        };
        Err(Box::new(
            Diagnostic::error(
                "redeclare",
                format!(
                    "`{}` does not fit the constraining class `{cname}` of `{name}`: it has no element `{missing}`",
                    self.tree.info(new).full_name,
                ),
            )
            .at(span, "redeclared here")
            .help(format!("a redeclared {kind} must have every public element of `{cname}`")),
        ))
    }

    /// Names of the public components of a class and its bases (through short definitions).
    /// Each class is read once: inheritance cycles (reported where the class is
    /// instantiated) and diamonds cost no more than the classes they name.
    fn public_components(&mut self, c: ClassId) -> Vec<Box<str>> {
        let mut out = Vec::new();
        let mut seen = FxHashSet::default();
        self.collect_public_components(c, &mut out, &mut seen);
        out
    }

    fn collect_public_components(
        &mut self,
        c: ClassId,
        out: &mut Vec<Box<str>>,
        seen: &mut FxHashSet<ClassId>,
    ) {
        if !seen.insert(c) {
            return;
        }
        let info = self.tree.info(c);
        if let Some(ast::ClassBody::Short { base, .. }) = info.def.map(|d| &d.body) {
            let scope = info.parent.unwrap_or(c);
            if let Some(Found::Class(b)) = self.tree.lookup_name(scope, base) {
                self.collect_public_components(b, out, seen);
            }
            return;
        }
        for b in self.tree.bases(c) {
            self.collect_public_components(b, out, seen);
        }
        let Some(comp) = self.tree.info(c).composition() else {
            return;
        };
        for e in &comp.elements {
            if let ast::Element::Component(clause, prefix) = e {
                if prefix.protected {
                    continue;
                }
                for d in &clause.components {
                    if !out.contains(&d.name.name) {
                        out.push(d.name.name.clone());
                    }
                }
            }
        }
    }

    /// A redeclared component (`redeclare Conductor r`): its declaration must be
    /// `replaceable`, and its new type must fit the constraining class (`constrainedby C`,
    /// else the declared type).
    pub(super) fn check_component_redeclare(
        &mut self,
        sid: SlotId,
        new: ClassId,
        new_clause: &'a ast::ComponentClause,
    ) -> DResult<()> {
        let (clause, decl, lexical, prefix) = {
            let s = &self.inst.slots[sid.0 as usize];
            (s.clause, s.decl, s.lexical, s.prefix)
        };
        let Some(prefix) = prefix else {
            return Ok(());
        };
        if !prefix.replaceable {
            return Err(Box::new(
                Diagnostic::error(
                    "redeclare",
                    format!(
                        "`{}` is not replaceable, so it cannot be redeclared",
                        decl.name.name
                    ),
                )
                .at(new_clause.span, "redeclared here")
                .also(decl.name.span, "declared without `replaceable`"),
            ));
        }
        if prefix.final_ || clause.prefix.variability == Some(ast::Variability::Constant) {
            let msg = format!("`{}` is declared final or constant", decl.name.name);
            let d = typed::REDECLARE_CONSTANT_FINAL
                .broken(new_clause.span, msg, "redeclared here")
                .also(decl.name.span, "declared here");
            return Err(Box::new(d));
        }
        let cname = match &prefix.constraining {
            Some((n, _)) => n,
            None => &clause.type_name,
        };
        let Some(Found::Class(constraint)) = self.tree.lookup_name(lexical, cname) else {
            return Ok(());
        };
        let what = ("component's type", &*decl.name.name, new_clause.span);
        self.fits(new, constraint, &cname.to_dotted(), what)
    }
}
