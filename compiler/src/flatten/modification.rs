//! Modifications: the values and attributes an element gets from the outside.
//!
//! A [`Mod`] is a tree: an optional binding and sub-modifications by element name. Merging puts
//! an outer modification over an inner one (specification 7.2.4: the outer one wins), so the
//! precedence is component modification > extends modification > declaration. Each binding
//! remembers the scope it was written in ([`Env`]); it is evaluated there, lazily, when the
//! element is instantiated. For an element of an array declared without `each`, the binding is
//! an array and the element takes its part of it (`select`).

use super::classes::ClassId;
use super::NodeId;
use crate::diag::Span;
use crate::syntax::ast;

/// Where an expression is evaluated: an instance (for component names) and a class (for
/// class names, imports and package constants).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Env {
    pub node: Option<NodeId>,
    pub class: ClassId,
}

#[derive(Clone, Debug)]
pub struct ModValue<'a> {
    pub expr: &'a ast::Expr,
    pub env: Env,
    /// Element selections applied after evaluation: (leading dimensions, flat index).
    pub select: Vec<(Vec<usize>, usize)>,
    /// A value given on the command line, which replaces `expr`.
    pub value: Option<f64>,
    /// A value already evaluated (a field of a whole record's binding), which replaces `expr`.
    pub evaluated: Option<super::Val>,
}

#[derive(Clone, Debug, Default)]
pub struct Mod<'a> {
    pub binding: Option<ModValue<'a>>,
    /// `= break` (7.2.7): the value is removed, unless a modification outside this one
    /// gives one again.
    pub broken: bool,
    /// The `break` was written in a component's modification (`Sub s(y = break)`), where it
    /// may not remove a variable's binding equation (4.7; an extends modification may).
    pub broken_in_component: bool,
    pub subs: Vec<(Box<str>, Mod<'a>)>,
    pub each: bool,
    pub final_: bool,
    /// The written modification (for diagnostics).
    pub span: Option<Span>,
    /// `redeclare`/`replaceable` arguments, which flattening does not support yet.
    pub redeclares: Vec<(Span, &'static str)>,
    /// `redeclare Type name(…)`: the component's new type, looked up where it is written.
    pub redeclare: Option<Redeclared<'a>>,
    /// The redeclaration that `redeclare` replaces (from an inner modification), if any.
    pub replaced: Option<Redeclared<'a>>,
    /// `redeclare model S = Ramp(…)`, `redeclare package Medium = M`: class elements of the
    /// modified instance given new definitions (outermost first).
    pub classes: Vec<(Box<str>, ClassRedeclared<'a>)>,
}

/// A class element given a new definition by a redeclaration (specification 7.3.2).
#[derive(Clone, Copy, Debug)]
pub struct ClassRedeclared<'a> {
    /// The new definition: a short class definition in a modifier (`model S = Ramp(k = 2)`),
    /// or, as an element of a class body, a short one or a class extension
    /// (`redeclare model extends S … end S;`).
    pub def: &'a ast::ClassDef,
    /// The whole redeclaration (for diagnostics).
    pub span: Span,
    /// The scope the redeclaration is written in (its base name resolves there).
    pub env: Env,
    /// A redeclaration written as an element of a class body: the class it defines there.
    pub element: Option<ClassId>,
}

/// A component's type given by a redeclaration (specification 7.3).
#[derive(Clone, Copy, Debug)]
pub struct Redeclared<'a> {
    pub clause: &'a ast::ComponentClause,
    /// The new declaration (its dimensions and modification).
    pub decl: &'a ast::ComponentDecl,
    /// `redeclare replaceable`: it may be redeclared again (7.3.3).
    pub replaceable: bool,
    /// Its own `constrainedby` clause (7.3.2).
    pub constraining: Option<&'a (ast::Name, Option<ast::ClassMod>)>,
    /// The scope the redeclaration is written in (its type name resolves there).
    pub env: Env,
}

impl<'a> Mod<'a> {
    pub fn is_empty(&self) -> bool {
        self.binding.is_none()
            && !self.broken
            && self.subs.is_empty()
            && self.redeclares.is_empty()
            && self.redeclare.is_none()
            && self.classes.is_empty()
    }

    /// Builds a modification from its source form, evaluated in `env`.
    pub fn from_modification(m: &'a ast::Modification, env: Env) -> Mod<'a> {
        let mut out = match &m.class_mod {
            Some(cm) => Mod::from_class_mod(cm, env),
            None => Mod::default(),
        };
        match &m.binding {
            Some(ast::Binding::Expr(e)) => {
                out.binding = Some(ModValue {
                    expr: e,
                    env,
                    select: Vec::new(),
                    value: None,
                    evaluated: None,
                });
            }
            Some(ast::Binding::Break(_)) => out.broken = true,
            None => {}
        }
        out.span = Some(m.span);
        out
    }

    /// Marks every `break` in this modification as written in a component's modification.
    pub fn mark_component_breaks(&mut self) {
        self.broken_in_component |= self.broken;
        for (_, m) in &mut self.subs {
            m.mark_component_breaks();
        }
    }

    pub fn from_class_mod(cm: &'a ast::ClassMod, env: Env) -> Mod<'a> {
        let mut out = Mod {
            span: Some(cm.span),
            ..Mod::default()
        };
        for arg in &cm.args {
            if let ast::Argument::Redeclare { span, what } = arg {
                out.redeclares.push((*span, what));
            }
            if let ast::Argument::RedeclareClass(rc) = arg {
                let r = ClassRedeclared {
                    def: &rc.def,
                    span: rc.span,
                    env,
                    element: None,
                };
                out.classes.push((rc.def.name.name.clone(), r));
            }
            if let ast::Argument::RedeclareComponent(rc) = arg {
                // `redeclare T c(mods)`: c gets type T and the modification (mods).
                let Some(decl) = rc.clause.components.first() else {
                    continue;
                };
                let mut leaf = match &decl.modification {
                    Some(m) => Mod::from_modification(m, env),
                    None => Mod::default(),
                };
                leaf.each = rc.each;
                leaf.final_ = rc.final_;
                leaf.span = Some(rc.span);
                leaf.redeclare = Some(Redeclared {
                    clause: &rc.clause,
                    decl,
                    env,
                    replaceable: rc.replaceable,
                    constraining: rc.constraining.as_ref(),
                });
                out.subs.push((decl.name.name.clone(), leaf));
            }
            if let ast::Argument::Modify(em) = arg {
                let mut leaf = match &em.modification {
                    Some(m) => Mod::from_modification(m, env),
                    None => Mod::default(),
                };
                leaf.each = em.each;
                leaf.final_ = em.final_;
                leaf.span = Some(em.span);
                // `a.b.c = 1` is `a(b(c = 1))`.
                let mut node = leaf;
                for part in em.name.parts[1..].iter().rev() {
                    node = Mod {
                        subs: vec![(part.name.clone(), node)],
                        span: Some(em.span),
                        ..Mod::default()
                    };
                }
                if let Some(first) = em.name.parts.first() {
                    out.subs.push((first.name.clone(), node));
                }
            }
        }
        out
    }

    /// Marks the modification and all its parts `each` (a type's own modification).
    pub fn mark_each(&mut self) {
        self.each = true;
        for (_, s) in &mut self.subs {
            s.mark_each();
        }
    }

    /// The merged modification for element `name` (outermost first wins).
    pub fn sub(&self, name: &str) -> Mod<'a> {
        let mut acc: Option<Mod<'a>> = None;
        for (n, m) in &self.subs {
            if &**n == name {
                acc = Some(match acc {
                    None => m.clone(),
                    Some(outer) => merge(&outer, m),
                });
            }
        }
        acc.unwrap_or_default()
    }

    /// The same modification as seen by element `index` of an array with `ndims` leading
    /// dimensions: bindings not marked `each` select their element.
    pub fn select(&self, dims: &[usize], index: usize) -> Mod<'a> {
        if self.each {
            // `each` gives every element of this array the whole value; it is used up here,
            // so an array inside each element (`tf[2](each b = {1, 2})` with `b[:]`) takes
            // the value element by element.
            let mut m = self.clone();
            m.each = false;
            return m;
        }
        let mut out = self.clone();
        if let Some(b) = &mut out.binding {
            b.select.push((dims.to_vec(), index));
        }
        out.subs = self
            .subs
            .iter()
            .map(|(n, m)| (n.clone(), m.select(dims, index)))
            .collect();
        out
    }
}

/// `outer` applied on top of `inner`.
pub fn merge<'a>(outer: &Mod<'a>, inner: &Mod<'a>) -> Mod<'a> {
    if inner.is_empty() {
        return outer.clone();
    }
    if outer.is_empty() {
        let mut m = inner.clone();
        m.each = m.each || outer.each;
        return m;
    }
    let mut subs = outer.subs.clone();
    subs.extend(inner.subs.iter().cloned());
    let mut redeclares = outer.redeclares.clone();
    redeclares.extend(inner.redeclares.iter().cloned());
    let mut classes = outer.classes.clone();
    classes.extend(inner.classes.iter().cloned());
    Mod {
        redeclares,
        classes,
        redeclare: outer.redeclare.or(inner.redeclare),
        replaced: match (outer.redeclare, inner.redeclare) {
            (Some(_), Some(r)) => Some(r),
            _ => outer.replaced.or(inner.replaced),
        },
        // The outermost value wins; an outer `break` removes the inner ones (7.2.7).
        binding: if outer.broken {
            outer.binding.clone()
        } else {
            outer.binding.clone().or_else(|| inner.binding.clone())
        },
        broken: outer.binding.is_none() && (outer.broken || inner.broken),
        broken_in_component: outer.binding.is_none()
            && if outer.broken {
                outer.broken_in_component
            } else {
                inner.broken && inner.broken_in_component
            },
        subs,
        each: outer.each,
        final_: outer.final_ || inner.final_,
        span: outer.span.or(inner.span),
    }
}

/// Where an outer modification `outer` modifies again what the declaration's own
/// modification `inner` made final (7.2.6): the path of the final element and where the
/// outer one is written. A whole value from outside over a final part (7.2.3) is not
/// refused: the MSL binds records so (`statorCoreParameters = data.statorCoreParameters`
/// over `final m = 3`), and the part keeps its final value.
pub fn final_overridden<'a>(outer: &Mod<'a>, inner: &Mod<'a>) -> Option<(String, Option<Span>)> {
    for (name, im) in &inner.subs {
        let om = outer.sub(name);
        if im.final_ {
            if !om.is_empty() {
                return Some((name.to_string(), om.span.or(outer.span)));
            }
        } else if !om.is_empty() {
            if let Some((path, at)) = final_overridden(&om, im) {
                return Some((format!("{name}.{path}"), at));
            }
        }
    }
    None
}

/// Where an outer modification `outer` gives values to parts of an element whose whole value
/// the declaration's own modification `inner` gives (7.2.3: `b(a(x = 4))` over `R a = R(2,
/// 3)`): the part's path below the component and where it is written. An outer value of the
/// whole replaces the inner one, and is not judged here.
pub fn part_over_whole<'a>(outer: &Mod<'a>, inner: &Mod<'a>) -> Option<(String, Option<Span>)> {
    if inner.binding.is_some() && outer.binding.is_none() && !outer.broken {
        if let Some((name, m)) = outer.subs.iter().find(|(_, m)| m.binding.is_some()) {
            return Some((name.to_string(), m.span.or(outer.span)));
        }
    }
    for (name, im) in &inner.subs {
        let om = outer.sub(name);
        if om.is_empty() {
            continue;
        }
        if let Some((path, at)) = part_over_whole(&om, im) {
            return Some((format!("{name}.{path}"), at));
        }
    }
    None
}
