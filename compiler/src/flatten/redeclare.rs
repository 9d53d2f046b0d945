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
//! be of its kind and have every public component of it (6.4; an enumeration, its literals).
//! Where it does not, the diagnostic names the constraining class and what is missing.
//!
//! Redeclarations are also written as elements of a class body (7.3): `redeclare model L =
//! N;` and the class extension `redeclare model extends M … end M;` (7.3.1) are registered
//! like those of a modification ([`Flattener::register_element_redeclares`]; a class
//! extension's implicit base is the replaced class, `ClassTree::class_extends_base`), and a
//! component element `redeclare Real x[2];` becomes a modifier of the class's bases
//! ([`element_redeclares`]). A redeclared component keeps the groups of prefixes its new
//! declaration leaves out, and takes the dimensions it gives where they fit the replaced
//! declaration ([`Flattener::redeclared_dims`]).

use super::modification::{ClassRedeclared, Redeclared};
use super::*;
use rustc_hash::FxHashSet;

/// A public component of a class: its name, declaration, prefixes and the class declaring it.
pub(super) type PublicComponent<'a> = (
    Box<str>,
    &'a ast::ComponentClause,
    &'a ast::ComponentDecl,
    &'a ast::ElementPrefix,
    ClassId,
);

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
                    .at(r.span, "redeclared here")
                    .also(
                        self.tree.info(element).span(),
                        "declared without `replaceable`",
                    ),
                ));
            }
            // A function's new definition is checked where it is written, called or not
            // (6.6); other classes when they are instantiated.
            let end = self.tree.short_chain_end(element);
            if self.tree.info(end).restriction() == Some(ast::Restriction::Function) {
                self.resolve_class_redeclared(r, element, 0)?;
            }
            self.inst
                .class_redecls
                .entry(node)
                .or_default()
                .push((name.clone(), *r));
        }
        Ok(())
    }

    /// Registers the redeclarations written as class elements of `class`'s body (7.3):
    /// `redeclare model M = N;` and class extensions `redeclare model extends M … end M;`
    /// (7.3.1) give the class element `M` that `class` inherits a new definition in `node`,
    /// after the redeclarations of the modification (an outer one wins).
    pub(super) fn register_element_redeclares(
        &mut self,
        node: NodeId,
        class: ClassId,
    ) -> DResult<()> {
        let Some(comp) = self.tree.info(class).composition() else {
            return Ok(());
        };
        for e in &comp.elements {
            let ast::Element::Class(def, prefix) = e else {
                continue;
            };
            let extension = matches!(
                &def.body,
                ast::ClassBody::Long {
                    class_extends: Some(_),
                    ..
                }
            );
            if !prefix.redeclare && !extension {
                continue;
            }
            let name = &def.name.name;
            let Some(inherited) = self.inherited_class(class, name) else {
                let msg = format!(
                    "`{}` inherits no class `{name}` to redeclare",
                    self.tree.info(class).full_name
                );
                let d = typed::REDECLARE_INHERITED.broken(def.name.span, msg, "redeclared here");
                return Err(Box::new(d));
            };
            let (replaceable, old) = self.class_element_prefix(inherited);
            let full = self.tree.info(inherited).full_name.clone();
            if old.is_some_and(|p| p.final_) {
                let msg = format!("`{full}` is declared final");
                let d = typed::REDECLARE_CONSTANT_FINAL
                    .broken(def.name.span, msg, "redeclared here")
                    .also(self.tree.info(inherited).span(), "declared final");
                return Err(Box::new(d));
            }
            if !replaceable {
                return Err(Box::new(
                    Diagnostic::error(
                        "redeclare",
                        format!("`{full}` is not replaceable, so it cannot be redeclared"),
                    )
                    .at(def.name.span, "redeclared here")
                    .also(
                        self.tree.info(inherited).span(),
                        "declared without `replaceable`",
                    ),
                ));
            }
            if old.is_some_and(|p| p.protected) != prefix.protected {
                let msg = format!("`{full}` is redeclared with another visibility");
                let d = typed::REDECLARE_VISIBILITY.broken(def.name.span, msg, "redeclared here");
                return Err(Box::new(d));
            }
            let Some(own) = self.tree.child(class, name) else {
                continue;
            };
            let list = self.inst.class_redecls.entry(node).or_default();
            if list.iter().any(|(n, _)| n == name) {
                continue;
            }
            let env = Env {
                node: Some(node),
                class,
            };
            let r = ClassRedeclared {
                def,
                span: def.span,
                env,
                element: Some(own),
            };
            list.push((name.clone(), r));
        }
        Ok(())
    }

    /// Each replaceable class element of `class` with a `constrainedby` clause fits it
    /// (7.3.2: `replaceable model M = MA constrainedby MB`), checked once per element.
    pub(super) fn check_class_constraints(&mut self, class: ClassId) -> DResult<()> {
        let Some(comp) = self.tree.info(class).composition() else {
            return Ok(());
        };
        for e in &comp.elements {
            let ast::Element::Class(def, prefix) = e else {
                continue;
            };
            let Some((cname, _)) = &prefix.constraining else {
                continue;
            };
            let Some(own) = self.tree.child(class, &def.name.name) else {
                continue;
            };
            if !self.checked_constraints.insert(own) {
                continue;
            }
            let Some(Found::Class(constraint)) = self.tree.lookup_name(class, cname) else {
                return Err(self.unknown_class(cname, class));
            };
            let what = ("class", &*def.name.name, def.name.span);
            self.fits(own, constraint, &cname.to_dotted(), what)?;
        }
        Ok(())
    }

    /// The class element `name` that `class` inherits (not its own).
    fn inherited_class(&mut self, class: ClassId, name: &str) -> Option<ClassId> {
        for b in self.tree.bases(class) {
            if let Some(Found::Class(k)) = self.tree.member(b, name, 0) {
                return Some(k);
            }
        }
        None
    }

    /// `(replaceable, constrainedby)` of class element `c` as declared in its parent.
    pub(super) fn class_element_prefix(
        &self,
        c: ClassId,
    ) -> (bool, Option<&'a ast::ElementPrefix>) {
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
        // The redeclaring element itself, named in its own class: read lexically.
        if r.element == Some(element) {
            return Ok(None);
        }
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
                .at(r.span, "here"),
            ));
        }
        let (base_class, mut m) = match (r.element, &r.def.body) {
            // An element of a class body is a class of the tree: instantiating it resolves
            // its short definition or its class extension.
            (Some(own), _) => (own, Mod::default()),
            (
                None,
                ast::ClassBody::Short {
                    base,
                    modification,
                    subscripts,
                    ..
                },
            ) => {
                if !subscripts.is_empty() {
                    return Err(self.unsupported(r.def.span, "array types in class redeclarations"));
                }
                let base_class = self.class_in_env(base, r.env, depth + 1)?;
                let m = match modification {
                    Some(cm) => {
                        let mut inner = Mod::from_class_mod(cm, r.env);
                        inner.mark_each();
                        inner
                    }
                    None => Mod::default(),
                };
                (base_class, m)
            }
            (None, _) => {
                return Err(self.unsupported(
                    r.def.span,
                    "redeclarations of a class with a long definition in a modifier (`redeclare model S … end S;`)",
                ))
            }
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
        let what = ("class", &*r.def.name.name, r.span);
        let mut defaulted = Vec::new();
        if let ast::ClassBody::Short {
            modification: Some(cm),
            ..
        } = &r.def.body
        {
            modified_names(cm, &mut defaulted);
        }
        self.fits_with(new, constraint, cname, what, &defaulted)
    }

    /// `new` has every public component of `constraint` (named `cname`), else a diagnostic at
    /// the redeclaration of `what` (what is redeclared: "class" or "component's type", its
    /// name, where).
    fn fits(
        &mut self,
        new: ClassId,
        constraint: ClassId,
        cname: &str,
        what: (&str, &str, Span),
    ) -> DResult<()> {
        self.fits_with(new, constraint, cname, what, &[])
    }

    /// [`Self::fits`], `defaulted` naming the inputs the redeclaration's own modifier gives
    /// (`redeclare function f = g(k = 2)`).
    fn fits_with(
        &mut self,
        new: ClassId,
        constraint: ClassId,
        cname: &str,
        (kind, name, span): (&str, &str, Span),
        defaulted: &[Box<str>],
    ) -> DResult<()> {
        if defaulted.is_empty() && self.fits_checked.contains(&(new, constraint)) {
            return Ok(());
        }
        if let Some(why) = self.kinds_differ(new, constraint) {
            let d = typed::REDECLARE_KIND.broken(
                span,
                format!(
                    "`{}` does not fit the constraining class `{cname}` of `{name}`: {why}",
                    self.tree.info(new).full_name,
                ),
                "redeclared here",
            );
            return Err(Box::new(d));
        }
        let (mut want, mut have) = (Vec::new(), Vec::new());
        self.collect_public_components(constraint, &mut want, &mut FxHashSet::default());
        self.collect_public_components(new, &mut have, &mut FxHashSet::default());
        let mut missing = None;
        for w in &want {
            match have.iter().find(|h| h.0 == w.0) {
                None => {
                    missing = Some(w.0.clone());
                    break;
                }
                Some(h) => {
                    if let Some(why) = self.element_misfit(h, w) {
                        let msg = format!(
                            "`{}` does not fit the constraining class `{cname}` of `{name}`: its element `{}` does not stand for the one there: {why}",
                            self.tree.info(new).full_name,
                            w.0
                        );
                        let d = typed::REDECLARE_ELEMENT
                            .broken(span, msg, "redeclared here")
                            .also(h.2.name.span, "this element")
                            .also(w.2.name.span, "the constraining class's element");
                        return Err(Box::new(d));
                    }
                }
            }
        }
        let Some(missing) = missing else {
            if let Some(why) = self.nested_misfit(new, constraint) {
                let msg = format!(
                    "`{}` does not fit the constraining package `{cname}` of `{name}`: {why}",
                    self.tree.info(new).full_name,
                );
                let d = typed::REDECLARE_NESTED.broken(span, msg, "redeclared here");
                return Err(Box::new(d));
            }
            if let Some(why) = self.function_misfit(new, constraint, &have, &want, defaulted) {
                let msg = format!(
                    "`{}` does not fit the constraining function `{cname}` of `{name}`: {why}",
                    self.tree.info(new).full_name,
                );
                let d = typed::FUNCTION_COMPATIBLE.broken(span, msg, "redeclared here");
                return Err(Box::new(d));
            }
            self.fits_checked.insert((new, constraint));
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

    /// How a function `new` is not function-compatible with the function `constraint`
    /// (6.6), given their public components in order: inputs and outputs by name in the
    /// same order before any additional ones, defaults kept, additional inputs defaulted (by
    /// their declaration or by a modifier of the short class that names the function).
    fn function_misfit(
        &mut self,
        new: ClassId,
        constraint: ClassId,
        have: &[PublicComponent<'a>],
        want: &[PublicComponent<'a>],
        defaulted: &[Box<str>],
    ) -> Option<String> {
        let function = |t: &mut ClassTree<'a>, c: ClassId| {
            let end = t.short_chain_end(c);
            t.info(end).restriction() == Some(ast::Restriction::Function)
        };
        if !function(self.tree, new) || !function(self.tree, constraint) {
            return None;
        }
        let of = |list: &[PublicComponent<'a>], k: ast::Causality| -> Vec<PublicComponent<'a>> {
            list.iter()
                .filter(|c| c.1.prefix.causality == Some(k))
                .cloned()
                .collect()
        };
        for (k, what) in [
            (ast::Causality::Input, "inputs"),
            (ast::Causality::Output, "outputs"),
        ] {
            let (h, w) = (of(have, k), of(want, k));
            let names =
                |l: &[PublicComponent<'a>]| l.iter().map(|c| c.0.to_string()).collect::<Vec<_>>();
            let (hn, wn) = (names(&h), names(&w));
            if hn.len() < wn.len() || hn[..wn.len()] != wn[..] {
                return Some(format!(
                    "its {what} ({}) do not begin with the constraining function's ({}) in that order",
                    hn.join(", "),
                    wn.join(", ")
                ));
            }
        }
        // An impure function cannot stand for a pure one (6.6).
        if self.tree.impure(new) && !self.tree.impure(constraint) {
            return Some("it is impure, the constraining function is not".to_string());
        }
        let mut modified = self.short_modified_names(new);
        modified.extend(defaulted.iter().cloned());
        let defaulted = |c: &PublicComponent<'a>| {
            c.2.modification
                .as_ref()
                .is_some_and(|m| m.binding.is_some())
                || modified.iter().any(|n| **n == *c.0)
        };
        let (h, w) = (
            of(have, ast::Causality::Input),
            of(want, ast::Causality::Input),
        );
        let has_default = |c: &PublicComponent<'a>| {
            c.2.modification
                .as_ref()
                .is_some_and(|m| m.binding.is_some())
        };
        for (i, hc) in h.iter().enumerate() {
            if defaulted(hc) {
                continue;
            }
            match w.get(i) {
                Some(wc) if has_default(wc) => {
                    return Some(format!(
                        "its input `{}` has no default, the constraining function's has one",
                        hc.0
                    ));
                }
                Some(_) => {}
                None => {
                    return Some(format!(
                        "its additional input `{}` has no default (a call written for the constraining function does not give it)",
                        hc.0
                    ));
                }
            }
        }
        None
    }

    /// The names the modifiers of a chain of short class definitions from `c` set
    /// (`function f = g(k = 2)`).
    fn short_modified_names(&mut self, mut c: ClassId) -> Vec<Box<str>> {
        let mut out = Vec::new();
        for _ in 0..64 {
            let info = self.tree.info(c);
            let Some(ast::ClassBody::Short {
                base, modification, ..
            }) = info.def.map(|d| &d.body)
            else {
                break;
            };
            if let Some(cm) = modification {
                modified_names(cm, &mut out);
            }
            let scope = info.parent.unwrap_or(c);
            match self.tree.lookup_name(scope, base) {
                Some(Found::Class(b)) if b != c => c = b,
                _ => break,
            }
        }
        out
    }

    /// The input/output prefix of a declaration, its type's included: `RealInput u` is
    /// `input Real u` (`scope`: the class the declaration is written in).
    pub(super) fn declared_causality(
        &mut self,
        clause: &ast::ComponentClause,
        scope: ClassId,
    ) -> Option<ast::Causality> {
        if clause.prefix.causality.is_some() {
            return clause.prefix.causality;
        }
        let Some(Found::Class(mut c)) = self.tree.lookup_name(scope, &clause.type_name) else {
            return None;
        };
        for _ in 0..64 {
            if let Some(ast::ClassBody::Short {
                causality: Some(k), ..
            }) = self.tree.info(c).def.map(|d| &d.body)
            {
                return Some(*k);
            }
            match self.tree.base_of_short(c) {
                Some((b, _)) if b != c => c = b,
                _ => break,
            }
        }
        None
    }

    /// Why class `new` cannot stand where `old` is expected for its kind (6.4): another
    /// specialized class (functions, packages, connectors, models and blocks, types and
    /// records each only among themselves; `class` fits all), or enumerations with other
    /// literals. Short definitions are followed to the class they define.
    fn kinds_differ(&mut self, new: ClassId, old: ClassId) -> Option<String> {
        fn group(r: ast::Restriction) -> Option<&'static str> {
            use ast::Restriction as R;
            match r {
                R::Class => None,
                R::Function | R::OperatorFunction => Some("a function"),
                R::Package => Some("a package"),
                R::Connector | R::ExpandableConnector => Some("a connector"),
                R::Model | R::Block => Some("a model or block"),
                R::Type | R::Record | R::OperatorRecord => Some("a type or record"),
                R::Operator => Some("an operator"),
            }
        }
        let (rn, ro) = (
            self.tree.info(new).restriction(),
            self.tree.info(old).restriction(),
        );
        if let (Some(gn), Some(go)) = (rn.and_then(group), ro.and_then(group)) {
            if gn != go {
                return Some(format!("it is {gn}, where {go} is expected"));
            }
        }
        let (bn, bo) = (
            self.tree.short_chain_end(new),
            self.tree.short_chain_end(old),
        );
        // 6.4: the same operator record base class, or neither one (an operator record may be
        // extended only by a short class definition, so its base ends the short chain).
        let operator = |this: &mut Self, c: ClassId| {
            (this.tree.info(c).restriction() == Some(ast::Restriction::OperatorRecord)).then_some(c)
        };
        let (on, oo) = (operator(self, bn), operator(self, bo));
        if on != oo {
            let name = |this: &mut Self, c: ClassId| this.tree.info(c).full_name.clone();
            return Some(match (on, oo) {
                (Some(n), None) => format!(
                    "it is the operator record `{}`, and the constraining class is no operator record",
                    name(self, n)
                ),
                (None, Some(o)) => format!(
                    "the constraining class is the operator record `{}`, and this is no operator record",
                    name(self, o)
                ),
                (Some(n), Some(o)) => format!(
                    "its operator record `{}` is not the constraining class's `{}`",
                    name(self, n),
                    name(self, o)
                ),
                (None, None) => unreachable!("they differ"),
            });
        }
        let (pn, po) = (self.tree.info(bn).builtin, self.tree.info(bo).builtin);
        if (pn.is_some() || po.is_some()) && pn != po {
            return Some(format!(
                "it is `{}`, where `{}` is expected",
                self.tree.info(bn).full_name,
                self.tree.info(bo).full_name
            ));
        }
        let literals = |this: &mut Self, mut c: ClassId| -> Option<(Vec<Box<str>>, bool)> {
            for _ in 0..64 {
                match this.tree.info(c).def.map(|d| &d.body) {
                    Some(ast::ClassBody::Enumeration { literals, open }) => {
                        let names = literals.iter().map(|(l, _)| l.name.clone()).collect();
                        return Some((names, *open));
                    }
                    Some(ast::ClassBody::Short { .. }) => c = this.tree.base_of_short(c)?.0,
                    _ => return None,
                }
            }
            None
        };
        let (want, open) = literals(self, old)?;
        match literals(self, new) {
            _ if open => None,
            Some((have, _)) if have == want => None,
            Some((have, _)) => Some(format!(
                "its literals ({}) are not those expected ({})",
                have.join(", "),
                want.join(", ")
            )),
            None => Some("it is not an enumeration".into()),
        }
    }

    /// Names of the public components of a class and its bases (through short definitions).
    pub(super) fn public_components(&mut self, c: ClassId) -> Vec<Box<str>> {
        let mut out = Vec::new();
        let mut seen = FxHashSet::default();
        self.collect_public_components(c, &mut out, &mut seen);
        out.into_iter().map(|d| d.0).collect()
    }

    /// The public components of a class and its bases with their declarations, the one of
    /// the most derived class for a name declared twice (a redeclare element). Each class
    /// is read once: inheritance cycles (reported where the class is instantiated) and
    /// diamonds cost no more than the classes they name.
    pub(super) fn collect_public_components(
        &mut self,
        c: ClassId,
        out: &mut Vec<PublicComponent<'a>>,
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
                    let entry = (d.name.name.clone(), clause, d, prefix, c);
                    match out.iter_mut().find(|o| o.0 == d.name.name) {
                        Some(o) => *o = entry,
                        None => out.push(entry),
                    }
                }
            }
        }
    }

    /// How a public element `have` of a new class does not stand for the element `want` of
    /// the constraining class (6.4): its flow/stream, input/output or inner/outer prefixes
    /// differ, its variability is higher, it is not final where `want` is, its number of
    /// declared dimensions differs, one is conditional and the other not, or their
    /// predefined types differ.
    fn element_misfit(
        &mut self,
        have: &PublicComponent<'a>,
        want: &PublicComponent<'a>,
    ) -> Option<&'static str> {
        let (hc, hd, hp, hs) = (have.1, have.2, have.3, have.4);
        let (wc, wd, wp, ws) = (want.1, want.2, want.3, want.4);
        let rank = |v: Option<ast::Variability>| match v {
            Some(ast::Variability::Constant) => 0,
            Some(ast::Variability::Parameter) => 1,
            Some(ast::Variability::Discrete) => 2,
            None => 3,
        };
        let ndims = |c: &ast::ComponentClause, d: &ast::ComponentDecl| {
            c.subscripts.len() + d.subscripts.len()
        };
        if hc.prefix.connection != wc.prefix.connection {
            return Some("its flow/stream prefix differs");
        }
        // A type's input/output (`RealInput u`) is read only where the two prefixes differ.
        let causal_differs = match (hc.prefix.causality, wc.prefix.causality) {
            (a, b) if a == b => false,
            (Some(a), None) => self.declared_causality(wc, ws) != Some(a),
            (None, Some(b)) => self.declared_causality(hc, hs) != Some(b),
            _ => true,
        };
        if causal_differs {
            return Some("its input/output prefix differs");
        }
        if (hp.inner, hp.outer) != (wp.inner, wp.outer) {
            return Some("its inner/outer prefix differs");
        }
        if rank(hc.prefix.variability) > rank(wc.prefix.variability) {
            return Some("its variability is higher");
        }
        if wp.final_ && !hp.final_ {
            return Some("it is not final");
        }
        // A final element keeps its contents (6.4): two final values that differ.
        let binding = |d: &'a ast::ComponentDecl| match d.modification.as_ref()?.binding.as_ref() {
            Some(ast::Binding::Expr(e)) => Some(e),
            _ => None,
        };
        if wp.final_ && hp.final_ {
            if let (Some(a), Some(b)) = (binding(hd), binding(wd)) {
                if differs(a, b) {
                    return Some("it is final with another value than the constraining class's");
                }
            }
        }
        if ndims(hc, hd) != ndims(wc, wd) {
            return Some("its number of dimensions differs");
        }
        if hd.condition.is_some() != wd.condition.is_some() {
            return Some("one of the two is conditional");
        }
        if let (Some(a), Some(b)) = (&hd.condition, &wd.condition) {
            if differs(a, b) {
                return Some("its condition differs from the constraining class's");
            }
        }
        let builtin = |this: &mut Self, clause: &ast::ComponentClause, scope: ClassId| {
            let Some(Found::Class(c)) = this.tree.lookup_name(scope, &clause.type_name) else {
                return None;
            };
            let c = this.tree.short_chain_end(c);
            Some(this.tree.info(c).builtin)
        };
        // Only where one of the two is written as a predefined type: resolving every type
        // name would load classes the model never instantiates (disabled components).
        let predefined = |c: &ast::ComponentClause| {
            let n = &c.type_name;
            n.parts.len() == 1
                && matches!(&*n.parts[0].name, "Real" | "Integer" | "Boolean" | "String")
        };
        if !predefined(hc) && !predefined(wc) {
            return None;
        }
        match (builtin(self, hc, hs), builtin(self, wc, ws)) {
            (Some(a), Some(b)) if (a.is_some() || b.is_some()) && a != b => {
                Some("its predefined type differs")
            }
            _ => None,
        }
    }

    /// A redeclared component (`redeclare Conductor r`): its declaration must be
    /// `replaceable` (and not redeclared before without `replaceable`), its new declaration
    /// has no condition (4.4.5), and its new type must fit the constraining class
    /// (`constrainedby C`, else the declared type), as must a new `constrainedby` (7.3.2).
    pub(super) fn check_component_redeclare(
        &mut self,
        sid: SlotId,
        new: ClassId,
        r: Redeclared<'a>,
        modif: &Mod<'a>,
    ) -> DResult<()> {
        let (clause, decl, lexical, prefix) = {
            let s = &self.inst.slots[sid.0 as usize];
            (s.clause, s.decl, s.lexical, s.prefix)
        };
        if let Some(cond) = &r.decl.condition {
            let msg = format!("the redeclaration of `{}` has a condition", decl.name.name);
            let d = typed::REDECLARE_CONDITION.broken(cond.span, msg, "condition");
            return Err(Box::new(d));
        }
        let Some(prefix) = prefix else {
            return Ok(());
        };
        let new_clause = r.clause;
        let replaceable = match modif.replaced {
            Some(prev) => prev.replaceable,
            None => prefix.replaceable,
        };
        if !replaceable {
            let mut d = Diagnostic::error(
                "redeclare",
                format!(
                    "`{}` is not replaceable, so it cannot be redeclared",
                    decl.name.name
                ),
            )
            .at(new_clause.span, "redeclared here");
            d = match modif.replaced {
                Some(prev) => d
                    .also(prev.clause.span, "redeclared before without `replaceable`")
                    .help("Modelica 3.6 §7.3.3: to allow further redeclarations one must use `redeclare replaceable`"),
                None => d.also(decl.name.span, "declared without `replaceable`"),
            };
            return Err(Box::new(d));
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
        self.fits(new, constraint, &cname.to_dotted(), what)?;
        // Redeclared from outside the instance that holds it (a component's modifier, not an
        // extends clause or an element of a class that inherits it): plug-compatible (6.5).
        let holder = self.inst.slots[sid.0 as usize].node;
        if r.env.node != Some(holder) {
            // The bindings the redeclaration's own modifier and the component's modification
            // give (`redeclare Conductor r(G = 1)`).
            let mut bound: Vec<Box<str>> = modif
                .subs
                .iter()
                .filter(|(_, m)| m.binding.is_some())
                .map(|(n, _)| n.clone())
                .collect();
            if let Some(cm) = r
                .decl
                .modification
                .as_ref()
                .and_then(|m| m.class_mod.as_ref())
            {
                for a in &cm.args {
                    if let ast::Argument::Modify(m) = a {
                        let binds = m.modification.as_ref().is_some_and(|x| x.binding.is_some());
                        if let (true, Some(p)) = (binds, m.name.parts.first()) {
                            bound.push(p.name.clone());
                        }
                    }
                }
            }
            if let Some((why, at)) = self.plug_misfit(new, constraint, &bound) {
                let msg = format!(
                    "`{}` is not plug-compatible with `{}` for the redeclaration of `{}`: {why}",
                    self.tree.info(new).full_name,
                    cname.to_dotted(),
                    decl.name.name
                );
                let d = typed::REDECLARE_PLUG
                    .broken(new_clause.span, msg, "redeclared here")
                    .also(at, "this element");
                return Err(Box::new(d));
            }
        }
        if let Some((new_cname, _)) = r.constraining {
            let new_constraint = match self.tree.lookup_name(r.env.class, new_cname) {
                Some(Found::Class(c)) => c,
                _ => return Err(self.unknown_class(new_cname, r.env.class)),
            };
            let what = (
                "component's constraining type",
                &*decl.name.name,
                new_cname.span,
            );
            self.fits(new_constraint, constraint, &cname.to_dotted(), what)?;
            let what = ("component's type", &*decl.name.name, new_clause.span);
            self.fits(new, new_constraint, &new_cname.to_dotted(), what)?;
        }
        Ok(())
    }

    /// Why a public component of `new` that `constraint` does not have is not
    /// default-connectable (6.5), with its declaration: an input connector or an expandable
    /// one (nothing could connect to it from where the redeclaration is), or a parameter,
    /// constant or non-connector input of a predefined type without a binding equation (its
    /// declaration's, or one of `bound`, the names the redeclaration's modifiers bind).
    fn plug_misfit(
        &mut self,
        new: ClassId,
        constraint: ClassId,
        bound: &[Box<str>],
    ) -> Option<(String, Span)> {
        let (mut want, mut have) = (Vec::new(), Vec::new());
        self.collect_public_components(constraint, &mut want, &mut FxHashSet::default());
        self.collect_public_components(new, &mut have, &mut FxHashSet::default());
        for (name, clause, decl, _, owner) in have {
            if want.iter().any(|w| w.0 == name) {
                continue;
            }
            let Some(Found::Class(ty)) = self.tree.lookup_name(owner, &clause.type_name) else {
                continue;
            };
            // The input prefix: the declaration's, else one of its type's short definitions.
            let mut causality = clause.prefix.causality;
            let mut c = ty;
            for _ in 0..64 {
                if let Some(ast::ClassBody::Short { causality: own, .. }) =
                    self.tree.info(c).def.map(|d| &d.body)
                {
                    causality = causality.or(*own);
                }
                match self.tree.base_of_short(c) {
                    Some((b, _)) if b != c => c = b,
                    _ => break,
                }
            }
            let restriction = self.tree.info(ty).restriction();
            let input = causality == Some(ast::Causality::Input);
            let bound = bound.contains(&name)
                || decl
                    .modification
                    .as_ref()
                    .is_some_and(|m| m.binding.is_some());
            let why = match restriction {
                Some(ast::Restriction::ExpandableConnector) => {
                    format!("its new element `{name}` is an expandable connector")
                }
                Some(ast::Restriction::Connector) if input => {
                    format!("its new element `{name}` is an input connector")
                }
                Some(ast::Restriction::Connector) => continue,
                _ => {
                    let fixed = matches!(
                        clause.prefix.variability,
                        Some(ast::Variability::Parameter | ast::Variability::Constant)
                    );
                    let end = self.tree.short_chain_end(ty);
                    if !(fixed || input) || bound || self.tree.info(end).builtin.is_none() {
                        continue;
                    }
                    format!("its new element `{name}` has no binding equation")
                }
            };
            return Some((why, decl.name.span));
        }
        None
    }

    /// A replaceable declaration's own type must fit its `constrainedby` class (7.3.2).
    pub(super) fn check_declared_constraint(&mut self, sid: SlotId, class: ClassId) -> DResult<()> {
        let (decl, lexical, prefix) = {
            let s = &self.inst.slots[sid.0 as usize];
            (s.decl, s.lexical, s.prefix)
        };
        let Some((cname, _)) = prefix.and_then(|p| p.constraining.as_ref()) else {
            return Ok(());
        };
        let Some(Found::Class(constraint)) = self.tree.lookup_name(lexical, cname) else {
            return Err(self.unknown_class(cname, lexical));
        };
        let what = ("component's type", &*decl.name.name, decl.name.span);
        self.fits(class, constraint, &cname.to_dotted(), what)
    }

    /// The modifiers of an `extends` clause name elements of the base class (7.2), a class
    /// redeclaration a class and a component redeclaration a component (6.4), and none an
    /// element the class body redeclares (7.3).
    pub(super) fn check_extends_modifiers(
        &mut self,
        base: ClassId,
        m: &Mod<'a>,
        redeclared: &Mod<'a>,
    ) -> DResult<()> {
        // Once per clause and base; the element redeclarations of the class are the same.
        if let Some(at) = m.span {
            if !self.extends_checked.insert((base, at)) {
                return Ok(());
            }
        }
        let base_name = self.tree.info(base).full_name.clone();
        for (name, sub) in &m.subs {
            let at = sub.span.unwrap_or_default();
            if let Some((_, r)) = redeclared.subs.iter().find(|(n, _)| n == name) {
                let msg = format!("`{name}` is both redeclared in the class and modified here");
                let mut d = typed::REDECLARE_AND_MODIFIED.broken(at, msg, "modified here");
                if let Some(sp) = r.span {
                    d = d.also(sp, "redeclared here");
                }
                return Err(Box::new(d));
            }
            match self.tree.member(base, name, 0) {
                Some(Found::Component { .. }) => {}
                Some(Found::Class(_)) if sub.redeclare.is_some() => {
                    let msg = format!("`{base_name}.{name}` is a class, not a component");
                    let d = typed::REDECLARE_KIND.broken(at, msg, "redeclared as a component");
                    return Err(Box::new(d));
                }
                Some(Found::Class(_)) => {}
                None => {
                    let candidates: Vec<String> = self
                        .public_components(base)
                        .iter()
                        .map(|s| s.to_string())
                        .collect();
                    let mut d = Diagnostic::error(
                        "unknown-modifier",
                        format!("`{base_name}` has no element `{name}` to modify"),
                    )
                    .at(at, "modifies nothing");
                    if let Some(s) = suggest(name, &candidates) {
                        d = d.help(format!("did you mean `{s}`?"));
                    }
                    return Err(Box::new(d));
                }
            }
        }
        for (name, r) in &m.classes {
            match self.tree.member(base, name, 0) {
                Some(Found::Class(_)) => {}
                Some(Found::Component { .. }) => {
                    let msg = format!("`{base_name}.{name}` is a component, not a class");
                    let d = typed::REDECLARE_KIND.broken(r.span, msg, "redeclared as a class");
                    return Err(Box::new(d));
                }
                None => {
                    return Err(Box::new(
                        Diagnostic::error(
                            "redeclare",
                            format!("`{base_name}` has no class `{name}` to redeclare"),
                        )
                        .at(r.span, "redeclared here"),
                    ))
                }
            }
        }
        Ok(())
    }

    /// Each component redeclared by an element of the body replaces one the class inherits,
    /// with the same visibility (7.3, 7.3.3).
    pub(super) fn check_element_redeclares(
        &self,
        node: NodeId,
        comp: &'a ast::Composition,
    ) -> DResult<()> {
        for (_, decl, prefix) in redeclared_components(comp) {
            let name = &decl.name.name;
            let Some(&sid) = self.inst.nodes[node.0 as usize].slots.get(name) else {
                let msg = format!("no inherited element `{name}` to redeclare");
                let d = typed::REDECLARE_INHERITED.broken(decl.name.span, msg, "redeclared here");
                return Err(Box::new(d));
            };
            let s = &self.inst.slots[sid.0 as usize];
            if s.prefix.is_some_and(|p| p.protected) != prefix.protected {
                let msg = format!("`{name}` is redeclared with another visibility");
                let d = typed::REDECLARE_VISIBILITY
                    .broken(decl.name.span, msg, "redeclared here")
                    .also(s.decl.name.span, "declared here");
                return Err(Box::new(d));
            }
        }
        Ok(())
    }

    /// The dimensions of a redeclared component (7.3.2, 7.3.3): those the new declaration
    /// gives, else the old declaration's; the new ones as many as the old, each size the old
    /// one fixes the same, and the new type with as many dimensions as the old type.
    pub(super) fn redeclared_dims(
        &mut self,
        sid: SlotId,
        r: modification::Redeclared<'a>,
        new_class: ClassId,
        modif: &Mod<'a>,
    ) -> DResult<Vec<usize>> {
        let (clause, decl, lexical, node) = {
            let s = &self.inst.slots[sid.0 as usize];
            (s.clause, s.decl, s.lexical, s.node)
        };
        let env = Env {
            node: Some(node),
            class: lexical,
        };
        let type_dims = |this: &mut Self, c: ClassId| -> DResult<usize> {
            let (mut m, mut dims, mut caus) = (Mod::default(), Vec::new(), None);
            this.resolve_short(c, &mut m, &mut dims, &mut caus, clause.span)?;
            Ok(dims.len())
        };
        let old_class = self.component_class(clause, lexical)?;
        let (old_n, new_n) = (type_dims(self, old_class)?, type_dims(self, new_class)?);
        let at = r.clause.type_name.span;
        if old_n != new_n {
            let msg = format!(
                "`{}` is redeclared with a type of {new_n} dimensions in place of one of {old_n}",
                decl.name.name
            );
            let d = typed::REDECLARE_DIMENSIONS
                .broken(at, msg, "redeclared here")
                .also(clause.type_name.span, "declared type");
            return Err(Box::new(d));
        }
        let given = |d: &'a ast::ComponentDecl, c: &'a ast::ComponentClause| {
            d.subscripts.iter().chain(&c.subscripts).collect::<Vec<_>>()
        };
        let (old, new) = (given(decl, clause), given(r.decl, r.clause));
        if new.is_empty() {
            return self.component_dims(clause, decl, sid, env, modif);
        }
        let dims = self.component_dims(r.clause, r.decl, sid, r.env, modif)?;
        if old.is_empty() {
            return Ok(dims);
        }
        let mismatch = if old.len() != new.len() {
            Some(format!(
                "{} dimensions in place of {}",
                new.len(),
                old.len()
            ))
        } else {
            let mut found = None;
            for (k, s) in old.iter().enumerate() {
                if let ast::Subscript::Expr(e) = s {
                    let n = self.eval_dim(e, env)?;
                    if n != dims[k] {
                        found = Some(format!(
                            "size {} in place of {n} in dimension {}",
                            dims[k],
                            k + 1
                        ));
                        break;
                    }
                }
            }
            found
        };
        if let Some(what) = mismatch {
            let msg = format!("`{}` is redeclared with {what}", decl.name.name);
            let d = typed::REDECLARE_DIMENSIONS
                .broken(r.decl.name.span, msg, "redeclared here")
                .also(decl.name.span, "declared here");
            return Err(Box::new(d));
        }
        Ok(dims)
    }
}

/// The component declarations of a class body written with `redeclare`.
fn redeclared_components(
    comp: &ast::Composition,
) -> impl Iterator<
    Item = (
        &ast::ComponentClause,
        &ast::ComponentDecl,
        &ast::ElementPrefix,
    ),
> {
    comp.elements
        .iter()
        .filter_map(|e| match e {
            ast::Element::Component(clause, prefix) if prefix.redeclare => Some((clause, prefix)),
            _ => None,
        })
        .flat_map(|(clause, prefix)| clause.components.iter().map(move |d| (clause, d, prefix)))
}

/// The components a class body redeclares (`redeclare Real x[2] = v;`), as the modifier
/// `(redeclare Real x[2] = v)` of its bases.
pub(super) fn element_redeclares<'a>(comp: &'a ast::Composition, env: Env) -> Mod<'a> {
    let mut out = Mod::default();
    for (clause, decl, prefix) in redeclared_components(comp) {
        let mut leaf = match &decl.modification {
            Some(m) => Mod::from_modification(m, env),
            None => Mod::default(),
        };
        leaf.final_ = prefix.final_;
        leaf.span = Some(decl.name.span);
        leaf.redeclare = Some(modification::Redeclared {
            clause,
            decl,
            env,
            replaceable: prefix.replaceable,
            constraining: prefix.constraining.as_ref(),
        });
        out.subs.push((decl.name.name.clone(), leaf));
    }
    out
}

/// The first names of the elements a class modification modifies (`g(k = 2, r.x = 1)`: k, r).
fn modified_names(cm: &ast::ClassMod, out: &mut Vec<Box<str>>) {
    for a in &cm.args {
        if let ast::Argument::Modify(m) = a {
            if let Some(p) = m.name.parts.first() {
                out.push(p.name.clone());
            }
        }
    }
}

/// Whether two expressions written in two classes (an element and the one it stands for,
/// 6.4) have different contents, where that can be told from their form alone: literals of
/// other values, names that differ, operators that differ, or one of these against another
/// of them (`b` against `not b`). Expressions of other forms (calls, arrays, if-expressions)
/// are not told apart: no refusal without proof.
fn differs(a: &ast::Expr, b: &ast::Expr) -> bool {
    use ast::ExprKind as K;
    let number = |e: &ast::Expr| match e.kind {
        K::Integer(i) => Some(i as f64),
        K::Real(x) => Some(x),
        _ => None,
    };
    let simple = |e: &ast::Expr| {
        matches!(
            e.kind,
            K::Integer(_)
                | K::Real(_)
                | K::Bool(_)
                | K::Str(_)
                | K::Ref(_)
                | K::Unary(..)
                | K::Binary(..)
        )
    };
    if let (Some(x), Some(y)) = (number(a), number(b)) {
        return x != y;
    }
    match (&a.kind, &b.kind) {
        (K::Bool(x), K::Bool(y)) => x != y,
        (K::Str(x), K::Str(y)) => x != y,
        (K::Ref(x), K::Ref(y)) => {
            let plain = |r: &ast::ComponentRef| r.parts.iter().all(|p| p.subscripts.is_empty());
            plain(x) && plain(y) && x.to_source_string() != y.to_source_string()
        }
        (K::Unary(o, x), K::Unary(p, y)) => o != p || differs(x, y),
        (K::Binary(o, x1, x2), K::Binary(p, y1, y2)) => {
            o != p || differs(x1, y1) || differs(x2, y2)
        }
        _ => {
            simple(a)
                && simple(b)
                && std::mem::discriminant(&a.kind) != std::mem::discriminant(&b.kind)
        }
    }
}
