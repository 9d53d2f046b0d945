//! Say no while instantiating: the rules the instance tree decides — modifications of
//! protected elements, of final elements and of the elements of final classes (7.2.6), the
//! modifiers of an encapsulated short class (4.5.1), `each` on scalars and split
//! redeclarations (7.2.5), containment cycles and size limits, and the parts of the language
//! and library rtc does not reach. Called from `instances.rs` where it meets each case.

use super::*;

impl<'t, 'a> Flattener<'t, 'a> {
    /// A component's modification modifies no protected element of it (4.1: only an
    /// `extends` clause's modification and the element's own declaration may).
    pub(super) fn check_protected_modified(
        &self,
        node: NodeId,
        named: &[(Box<str>, Option<Span>)],
    ) -> DResult<()> {
        for (name, span) in named {
            let Some(&sid) = self.inst.nodes[node.0 as usize].slots.get(name) else {
                continue;
            };
            let s = &self.inst.slots[sid.0 as usize];
            if s.prefix.is_some_and(|p| p.protected) {
                let msg = format!("`{name}` is protected");
                let d = typed::PROTECTED_MODIFIED
                    .broken(span.unwrap_or(s.decl.name.span), msg, "modified here")
                    .also(s.decl.name.span, "declared protected");
                return Err(Box::new(d));
            }
        }
        Ok(())
    }

    /// Every element of a class declared `final` (`final model MyTF = TF(b = 2)`) is final,
    /// also where a class extending it inherits it (7.2.6): a component of such a class may
    /// not modify them.
    pub(super) fn check_final_class(
        &mut self,
        c: ClassId,
        modif: &Mod<'a>,
        clause: &'a ast::ComponentClause,
    ) -> DResult<()> {
        for (name, m) in &modif.subs {
            let Some(fc) = self.final_class_holding(c, name, 0) else {
                continue;
            };
            let full = self.tree.info(fc).full_name.clone();
            let msg = format!("`{name}` is an element of the final class `{full}`");
            let mut d = typed::FINAL_MODIFIED.broken(
                m.span.or(modif.span).unwrap_or(clause.type_name.span),
                msg,
                "modified here",
            );
            if let Some(def) = self.tree.info(fc).def {
                d = d.also(def.name.span, "declared final");
            }
            return Err(Box::new(d));
        }
        Ok(())
    }

    /// A class with a `TestCase` annotation is used only in classes that have one too (18.4):
    /// `c`, the class of a component declared in `user`.
    pub(super) fn check_test_case(
        &mut self,
        c: ClassId,
        user: ClassId,
        clause: &'a ast::ComponentClause,
    ) -> DResult<()> {
        if !self.class_annotated(c, "TestCase") || self.class_annotated(user, "TestCase") {
            return Ok(());
        }
        let msg = format!(
            "`{}` has a TestCase annotation and `{}` has none",
            self.tree.info(c).full_name,
            self.tree.info(user).full_name
        );
        let mut d = typed::TEST_CASE_USED.broken(clause.type_name.span, msg, "used here");
        if let Some(def) = self.tree.info(c).def {
            d = d.also(def.name.span, "a test case");
        }
        Err(Box::new(d))
    }

    /// Whether class `c`'s own annotation has an element `name`.
    fn class_annotated(&self, c: ClassId, name: &str) -> bool {
        self.class_annotation(c)
            .any(|a| matches!(a, ast::Argument::Modify(m) if m.name.to_dotted() == name))
    }

    /// The elements of class `c`'s own annotation.
    pub(super) fn class_annotation(&self, c: ClassId) -> impl Iterator<Item = &'a ast::Argument> {
        // A long class's annotation (written at the end of its body) is its description's
        // too (syntax/build.rs).
        let def = self.tree.info(c).def;
        def.and_then(|d| d.description.annotation.as_ref())
            .into_iter()
            .flat_map(|a| a.args.iter())
    }

    /// The class declared `final` that makes element `name` of class `c` final: `c` itself,
    /// or a class it extends.
    pub(super) fn final_class_holding(
        &mut self,
        c: ClassId,
        name: &str,
        depth: u32,
    ) -> Option<ClassId> {
        if depth > 32 {
            return None;
        }
        if self.class_element_prefix(c).1.is_some_and(|p| p.final_)
            && self.tree.member(c, name, 0).is_some()
        {
            return Some(c);
        }
        self.tree
            .bases(c)
            .into_iter()
            .find_map(|b| self.final_class_holding(b, name, depth + 1))
    }

    /// Parts of the language and library rtc does not reach are named as such, not reported
    /// through an error deep inside them: the synchronous language's `Clock` (specification
    /// ch. 16) and the Modelica Standard Library's media and fluid libraries.
    pub(super) fn check_within_reach(
        &self,
        c: ClassId,
        clause: &'a ast::ComponentClause,
    ) -> DResult<()> {
        let name = &self.tree.info(c).full_name;
        let out_of_reach = [
            ("Modelica.Media.", "the Modelica.Media library (media models: property functions on records of thermodynamic states)"),
            ("Modelica.Fluid.", "the Modelica.Fluid library (it builds on Modelica.Media)"),
            ("Modelica.Clocked.", "the synchronous language of Modelica.Clocked (`Clock`, specification ch. 16)"),
        ];
        for (prefix, what) in out_of_reach {
            if name.starts_with(prefix) {
                return Err(Box::new(
                    Diagnostic::error("unsupported", format!("not yet supported: {what}"))
                        .at(clause.type_name.span, format!("`{name}`"))
                        .help("see the book's chapter on the language rtc accepts"),
                ));
            }
        }
        Ok(())
    }

    /// A class whose instance contains an instance of itself (a record with a component of
    /// its own type, a model that names itself through an import) never ends; nor do
    /// components nested without limit.
    pub(super) fn check_containment(
        &self,
        node: NodeId,
        class: ClassId,
        decl: &ast::ComponentDecl,
        clause: &ast::ComponentClause,
    ) -> DResult<()> {
        let mut anc = Some(node);
        let mut depth = 0;
        while let Some(a) = anc {
            let n = &self.inst.nodes[a.0 as usize];
            if n.classes.first() == Some(&class) {
                let name = self.tree.info(class).full_name.clone();
                return Err(Box::new(
                    Diagnostic::error(
                        "cycle",
                        format!(
                            "`{}` has type `{name}`, which contains it: the instance would never end",
                            decl.name.name
                        ),
                    )
                    .at(clause.type_name.span, format!("`{name}` inside `{name}`"))
                    .help("a component cannot have the type of a class it is part of"),
                ));
            }
            depth += 1;
            anc = n.parent;
        }
        if depth > MAX_INSTANCE_DEPTH {
            return Err(Box::new(
                Diagnostic::error(
                    "too-deep",
                    format!("components nest more than {MAX_INSTANCE_DEPTH} levels deep"),
                )
                .at(decl.name.span, "here"),
            ));
        }
        Ok(())
    }

    /// A component of `count` elements keeps the model within rtc's limits on scalar
    /// variables and component instances.
    pub(super) fn check_size_limit(
        &mut self,
        class: ClassId,
        count: usize,
        path: &str,
        decl: &ast::ComponentDecl,
    ) -> DResult<()> {
        let is_scalar =
            self.tree.info(class).builtin.is_some() || self.enumeration(class)?.is_some();
        let limit = if is_scalar {
            (self.flat.vars.len(), MAX_VARIABLES, "scalar variables")
        } else {
            (self.inst.nodes.len(), MAX_INSTANCES, "component instances")
        };
        if limit.0 + count > limit.1 {
            return Err(Box::new(
                Diagnostic::error(
                    "too-large",
                    format!(
                        "with `{path}` ({count} elements) the model has more than {} {}, rtc's limit",
                        limit.1, limit.2
                    ),
                )
                .at(decl.name.span, "too large")
                .help("a real-time step function cannot compute a model of this size in a frame; check the sizes"),
            ));
        }
        Ok(())
    }

    pub(super) fn check_redeclares(&self, m: &Mod<'a>) -> DResult<()> {
        if let Some((span, what)) = m.redeclares.first() {
            return Err(self.unsupported(*span, what));
        }
        for (_, sub) in &m.subs {
            self.check_redeclares(sub)?;
        }
        Ok(())
    }

    /// Every modifier must name an element of the class.
    pub(super) fn check_modifiers(
        &mut self,
        node: NodeId,
        m: &Mod<'a>,
        class: ClassId,
    ) -> DResult<()> {
        for (name, r) in &m.classes {
            let registered = self
                .inst
                .class_redecls
                .get(&node)
                .is_some_and(|l| l.iter().any(|(n, _)| n == name));
            if !registered {
                return Err(Box::new(
                    Diagnostic::error(
                        "redeclare",
                        format!(
                            "`{}` has no class `{name}` to redeclare",
                            self.tree.info(class).full_name
                        ),
                    )
                    .at(r.span, "redeclared here"),
                ));
            }
        }
        for (name, sub) in &m.subs {
            if !self.inst.nodes[node.0 as usize].slots.contains_key(name) {
                let candidates: Vec<String> = self.inst.nodes[node.0 as usize]
                    .slots
                    .keys()
                    .map(|k| k.to_string())
                    .collect();
                let mut d = Diagnostic::error(
                    "unknown-modifier",
                    format!(
                        "`{}` has no element `{name}` to modify",
                        self.tree.info(class).full_name
                    ),
                );
                if let Some(sp) = sub.span {
                    d = d.at(sp, "modifies nothing");
                }
                if let Some(s) = suggest(name, &candidates) {
                    d = d.help(format!("did you mean `{s}`?"));
                } else {
                    let mut c = candidates;
                    c.sort();
                    d = d.help(format!("its elements are: {}", c.join(", ")));
                }
                return Err(Box::new(d));
            }
        }
        Ok(())
    }
}

/// `each` needs an array: a scalar component's own modification has none (7.2.5).
pub(super) fn check_each_on_scalar(decl: &ast::ComponentDecl) -> DResult<()> {
    let Some(cm) = decl
        .modification
        .as_ref()
        .and_then(|m| m.class_mod.as_ref())
    else {
        return Ok(());
    };
    for arg in &cm.args {
        let each = match arg {
            ast::Argument::Modify(em) if em.each => Some(em.span),
            ast::Argument::RedeclareComponent(rc) if rc.each => Some(rc.span),
            ast::Argument::RedeclareClass(rc) if rc.each => Some(rc.span),
            _ => None,
        };
        if let Some(span) = each {
            let msg = format!("`each` in the modification of scalar `{}`", decl.name.name);
            let d = typed::EACH_ON_SCALAR
                .broken(span, msg, "`each` here")
                .also(decl.name.span, "not an array");
            return Err(Box::new(d));
        }
    }
    Ok(())
}

/// 7.2.5: the modification of an array component is split over its elements (unless written
/// with `each`); a component redeclaration split with it is illegal.
pub(super) fn check_split_redeclaration(dims: &[usize], modif: &Mod, path: &str) -> DResult<()> {
    if dims.is_empty() || modif.each {
        return Ok(());
    }
    let Some(sp) = split_redeclaration(modif) else {
        return Ok(());
    };
    let d = typed::SPLIT_REDECLARATION.broken(
        sp,
        format!(
            "the modification of the array `{path}` is split over its elements, and this redeclaration with it"
        ),
        "redeclared without `each`",
    );
    Err(Box::new(d))
}

/// 7.2.5: a component redeclaration in a modifier that is split over an array's elements
/// (neither it nor a modifier around it written with `each`): where it is written.
pub(super) fn split_redeclaration(m: &Mod) -> Option<Span> {
    for (_, sub) in &m.subs {
        if sub.each {
            continue;
        }
        if let Some(r) = &sub.redeclare {
            return Some(sub.span.unwrap_or(r.decl.name.span));
        }
        if let Some(sp) = split_redeclaration(sub) {
            return Some(sp);
        }
    }
    None
}

/// A reference in the values of modification `cm` that only the enclosing scope could
/// resolve: not global (`.A.b`), not `time`, not an iterator of the expression (4.5.1: the
/// modifiers of an encapsulated short class definition see no enclosing scope).
pub(super) fn free_reference(cm: &ast::ClassMod) -> Option<&ast::ComponentRef> {
    fn all<'e>(
        es: impl Iterator<Item = &'e ast::Expr>,
        bound: &mut Vec<&'e str>,
    ) -> Option<&'e ast::ComponentRef> {
        for x in es {
            if let Some(r) = in_expr(x, bound) {
                return Some(r);
            }
        }
        None
    }
    fn in_expr<'e>(e: &'e ast::Expr, bound: &mut Vec<&'e str>) -> Option<&'e ast::ComponentRef> {
        use ast::ExprKind as K;
        match &e.kind {
            K::Ref(r) => {
                let first: &str = &r.parts[0].ident.name;
                (!r.global && first != "time" && !bound.contains(&first)).then_some(r)
            }
            K::Call(_, args) => {
                let n = bound.len();
                bound.extend(args.iterators.iter().map(|i| &*i.name.name));
                let found = all(
                    args.positional
                        .iter()
                        .chain(args.named.iter().map(|(_, x)| x))
                        .chain(args.iterators.iter().filter_map(|i| i.range.as_ref())),
                    bound,
                );
                bound.truncate(n);
                found
            }
            K::Unary(_, x) => in_expr(x, bound),
            K::Binary(_, x, y) => in_expr(x, bound).or_else(|| in_expr(y, bound)),
            K::If {
                branches,
                otherwise,
            } => all(
                branches
                    .iter()
                    .flat_map(|(c, v)| [c, v])
                    .chain(std::iter::once(&**otherwise)),
                bound,
            ),
            K::Range { start, step, stop } => all(
                std::iter::once(&**start)
                    .chain(step.as_deref())
                    .chain(std::iter::once(&**stop)),
                bound,
            ),
            K::Array(xs) => all(xs.iter(), bound),
            K::Matrix(rows) => all(rows.iter().flatten(), bound),
            K::Tuple(xs) => all(xs.iter().flatten(), bound),
            K::Comprehension(x, its) => {
                let n = bound.len();
                bound.extend(its.iter().map(|i| &*i.name.name));
                let found = in_expr(x, bound)
                    .or_else(|| all(its.iter().filter_map(|i| i.range.as_ref()), bound));
                bound.truncate(n);
                found
            }
            K::Subscripted(x, _) => in_expr(x, bound),
            _ => None,
        }
    }
    cm.args.iter().find_map(|a| match a {
        ast::Argument::Modify(m) => m.modification.as_ref().and_then(|md| {
            let value = match &md.binding {
                Some(ast::Binding::Expr(e)) => in_expr(e, &mut Vec::new()),
                _ => None,
            };
            value.or_else(|| md.class_mod.as_ref().and_then(free_reference))
        }),
        _ => None,
    })
}
