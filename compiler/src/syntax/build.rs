//! pest parse tree → typed AST.
//!
//! The grammar guarantees the shape of each pair, so the walkers below only look at rule kinds.
//! Where the grammar is looser than the language (a class `end` name that differs from its
//! declared name) the builder reports a diagnostic instead of trusting the tree.

use super::ast::*;
use super::Rule;
use crate::diag::{Diagnostic, FileId, Span};
use pest::iterators::{Pair, Pairs};

pub(super) type P<'a> = Pair<'a, Rule>;
pub(super) type R<T> = Result<T, Box<Diagnostic>>;

pub(super) struct Ctx {
    pub(super) file: FileId,
}

impl Ctx {
    pub(super) fn span(&self, p: &P) -> Span {
        let s = p.as_span();
        Span::new(self.file, s.start(), s.end())
    }

    pub(super) fn ident(&self, p: P) -> Ident {
        let span = self.span(&p);
        let text = p.as_str();
        Ident {
            name: text.into(),
            span,
        }
    }
}

pub(super) fn internal(span: Span, what: &str) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::error("internal", format!("internal parser error: {what}"))
            .at(span, "while reading this"),
    )
}

pub fn stored_definition(mut pairs: Pairs<Rule>, file: FileId) -> R<StoredDefinition> {
    let cx = Ctx { file };
    let mut sd = StoredDefinition::default();
    let Some(top) = pairs.next() else {
        return Ok(sd);
    };
    for p in top.into_inner() {
        match p.as_rule() {
            Rule::within_clause => {
                let name = p.into_inner().find(|q| q.as_rule() == Rule::name);
                sd.within = Some(name.map(|n| cx.name(n, false)));
            }
            Rule::class_definition => sd.classes.push(cx.class_definition(p)?),
            _ => {}
        }
    }
    Ok(sd)
}

pub fn expression(p: P, file: FileId) -> R<Expr> {
    Ctx { file }.expression(p)
}

impl Ctx {
    fn name(&self, p: P, global: bool) -> Name {
        let span = self.span(&p);
        let parts = p
            .into_inner()
            .filter(|q| q.as_rule() == Rule::IDENT)
            .map(|q| self.ident(q))
            .collect();
        Name {
            global,
            parts,
            span,
        }
    }

    pub(super) fn type_specifier(&self, p: P) -> Name {
        let span = self.span(&p);
        let mut global = false;
        let mut name = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::global_dot => global = true,
                Rule::name => name = Some(self.name(q, global)),
                _ => {}
            }
        }
        let mut n = name.unwrap_or(Name {
            global,
            parts: Vec::new(),
            span,
        });
        n.span = span;
        n
    }

    fn class_definition(&self, p: P) -> R<ClassDef> {
        let span = self.span(&p);
        let mut encapsulated = false;
        let mut partial = false;
        let mut restriction = Restriction::Class;
        let mut purity = None;
        let mut spec = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::encapsulated => encapsulated = true,
                Rule::class_prefixes => {
                    (partial, restriction, purity) = self.class_prefixes(q);
                }
                Rule::class_specifier => spec = Some(q),
                _ => {}
            }
        }
        let spec = spec.ok_or_else(|| internal(span, "class without specifier"))?;
        let inner = spec
            .into_inner()
            .next()
            .ok_or_else(|| internal(span, "empty class specifier"))?;
        let (name, body, description) = match inner.as_rule() {
            Rule::long_class_specifier => self.long_class_specifier(inner)?,
            Rule::short_class_specifier => self.short_class_specifier(inner)?,
            Rule::der_class_specifier => self.der_class_specifier(inner)?,
            _ => return Err(internal(span, "unknown class specifier")),
        };
        Ok(ClassDef {
            name,
            restriction,
            partial,
            encapsulated,
            purity,
            span,
            body,
            description,
        })
    }

    fn class_prefixes(&self, p: P) -> (bool, Restriction, Option<Purity>) {
        let mut partial = false;
        let mut restriction = Restriction::Class;
        let mut purity = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::partial => partial = true,
                Rule::class_restriction => {
                    if let Some(r) = q.into_inner().next() {
                        restriction = match r.as_rule() {
                            Rule::kw_class => Restriction::Class,
                            Rule::kw_model => Restriction::Model,
                            Rule::operator_record => Restriction::OperatorRecord,
                            Rule::kw_record => Restriction::Record,
                            Rule::kw_block => Restriction::Block,
                            Rule::expandable_connector => Restriction::ExpandableConnector,
                            Rule::kw_connector => Restriction::Connector,
                            Rule::kw_type => Restriction::Type,
                            Rule::kw_package => Restriction::Package,
                            Rule::function_prefix => {
                                let mut operator = false;
                                for x in r.into_inner().flatten() {
                                    match x.as_rule() {
                                        Rule::kw_operator => operator = true,
                                        Rule::kw_pure => purity = Some(Purity::Pure),
                                        Rule::kw_impure => purity = Some(Purity::Impure),
                                        _ => {}
                                    }
                                }
                                if operator {
                                    Restriction::OperatorFunction
                                } else {
                                    Restriction::Function
                                }
                            }
                            Rule::kw_operator => Restriction::Operator,
                            _ => Restriction::Class,
                        }
                    }
                }
                _ => {}
            }
        }
        (partial, restriction, purity)
    }

    fn long_class_specifier(&self, p: P) -> R<(Ident, ClassBody, Description)> {
        let mut idents = Vec::new();
        let mut is_extends = false;
        let mut class_mod = None;
        let mut text = None;
        let mut composition = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::IDENT => idents.push(self.ident(q)),
                Rule::kw_extends => is_extends = true,
                Rule::class_modification => class_mod = Some(self.class_modification(q)?),
                Rule::description_string => text = self.description_string(q),
                Rule::composition => composition = Some(self.composition(q)?),
                _ => {}
            }
        }
        let (Some(name), Some(end)) = (idents.first().cloned(), idents.get(1).cloned()) else {
            return Err(internal(Span::default(), "class without name"));
        };
        if name.name != end.name {
            return Err(Box::new(
                Diagnostic::error(
                    "syntax",
                    format!("class `{}` is closed with `end {}`", name.name, end.name),
                )
                .at(end.span, format!("expected `end {}`", name.name))
                .also(name.span, "class opened here"),
            ));
        }
        let composition = composition.unwrap_or_default();
        let annotation = composition.annotation.clone();
        Ok((
            name,
            ClassBody::Long {
                composition: Box::new(composition),
                class_extends: if is_extends { Some(class_mod) } else { None },
            },
            Description { text, annotation },
        ))
    }

    fn short_class_specifier(&self, p: P) -> R<(Ident, ClassBody, Description)> {
        let mut name = None;
        let mut causality = None;
        let mut base = None;
        let mut subscripts = Vec::new();
        let mut modification = None;
        let mut description = Description::default();
        let mut enumeration = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::IDENT => name = Some(self.ident(q)),
                Rule::base_prefix => {
                    causality = q.into_inner().next().map(|c| match c.as_rule() {
                        Rule::kw_input => Causality::Input,
                        _ => Causality::Output,
                    })
                }
                Rule::type_specifier => base = Some(self.type_specifier(q)),
                Rule::array_subscripts => subscripts = self.array_subscripts(q)?,
                Rule::class_modification => modification = Some(self.class_modification(q)?),
                Rule::description => description = self.description(q)?,
                Rule::enumeration_spec => {
                    let mut literals = Vec::new();
                    let mut open = false;
                    for e in q.into_inner() {
                        match e.as_rule() {
                            Rule::enum_colon => open = true,
                            Rule::enum_list => {
                                for lit in e.into_inner() {
                                    let mut it = lit.into_inner();
                                    let id = it.next().map(|i| self.ident(i));
                                    let d = match it.next() {
                                        Some(d) => self.description(d)?,
                                        None => Description::default(),
                                    };
                                    if let Some(id) = id {
                                        literals.push((id, d));
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                    enumeration = Some(ClassBody::Enumeration { literals, open });
                }
                _ => {}
            }
        }
        let name = name.ok_or_else(|| internal(Span::default(), "short class without name"))?;
        let body = match enumeration {
            Some(e) => e,
            None => ClassBody::Short {
                causality,
                base: base.ok_or_else(|| internal(name.span, "short class without base"))?,
                subscripts,
                modification,
            },
        };
        Ok((name, body, description))
    }

    fn der_class_specifier(&self, p: P) -> R<(Ident, ClassBody, Description)> {
        let mut idents = Vec::new();
        let mut base = None;
        let mut description = Description::default();
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::IDENT => idents.push(self.ident(q)),
                Rule::type_specifier => base = Some(self.type_specifier(q)),
                Rule::description => description = self.description(q)?,
                _ => {}
            }
        }
        if idents.is_empty() {
            return Err(internal(Span::default(), "der class without name"));
        }
        let name = idents.remove(0);
        let base = base.ok_or_else(|| internal(name.span, "der class without base"))?;
        Ok((name, ClassBody::Der { base, vars: idents }, description))
    }

    fn composition(&self, p: P) -> R<Composition> {
        let mut c = Composition::default();
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::element_list => self.element_list(q, false, &mut c.elements)?,
                Rule::public_section => {
                    for e in q.into_inner() {
                        if e.as_rule() == Rule::element_list {
                            self.element_list(e, false, &mut c.elements)?;
                        }
                    }
                }
                Rule::protected_section => {
                    for e in q.into_inner() {
                        if e.as_rule() == Rule::element_list {
                            self.element_list(e, true, &mut c.elements)?;
                        }
                    }
                }
                Rule::equation_section => {
                    let mut initial = false;
                    let mut eqs = Vec::new();
                    for e in q.into_inner() {
                        match e.as_rule() {
                            Rule::initial_ => initial = true,
                            Rule::some_equation => eqs.push(self.some_equation(e)?),
                            _ => {}
                        }
                    }
                    if initial {
                        c.initial_equations.extend(eqs);
                    } else {
                        c.algorithms.extend(calls_of_when_equations(&mut eqs));
                        c.equations.extend(eqs);
                    }
                }
                Rule::algorithm_section => {
                    let span = self.span(&q);
                    let mut initial = false;
                    let mut statements = Vec::new();
                    for e in q.into_inner() {
                        match e.as_rule() {
                            Rule::initial_ => initial = true,
                            Rule::statement => statements.push(self.statement(e)?),
                            _ => {}
                        }
                    }
                    c.algorithms.push(Algorithm {
                        initial,
                        statements,
                        span,
                        from_when_equation: false,
                    });
                }
                Rule::external_clause => c.external = Some(self.external_clause(q)?),
                Rule::annotation_clause => c.annotation = Some(self.annotation_clause(q)?),
                _ => {}
            }
        }
        Ok(c)
    }

    fn element_list(&self, p: P, protected: bool, out: &mut Vec<Element>) -> R<()> {
        for e in p.into_inner() {
            if e.as_rule() == Rule::element {
                out.push(self.element(e, protected)?);
            }
        }
        Ok(())
    }

    fn element(&self, p: P, protected: bool) -> R<Element> {
        let span = self.span(&p);
        let mut prefix = ElementPrefix {
            protected,
            ..ElementPrefix::default()
        };
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::import_clause => return self.import_clause(q),
                Rule::extends_clause => return self.extends_clause(q),
                Rule::redeclare => prefix.redeclare = true,
                Rule::final_ => prefix.final_ = true,
                Rule::inner => prefix.inner = true,
                Rule::outer => prefix.outer = true,
                Rule::class_definition => {
                    return Ok(Element::Class(Box::new(self.class_definition(q)?), prefix))
                }
                Rule::component_clause => {
                    return Ok(Element::Component(self.component_clause(q)?, prefix))
                }
                Rule::replaceable_element => {
                    prefix.replaceable = true;
                    let mut result = None;
                    for r in q.into_inner() {
                        match r.as_rule() {
                            Rule::class_definition => {
                                result = Some(Element::Class(
                                    Box::new(self.class_definition(r)?),
                                    ElementPrefix::default(),
                                ))
                            }
                            Rule::component_clause => {
                                result = Some(Element::Component(
                                    self.component_clause(r)?,
                                    ElementPrefix::default(),
                                ))
                            }
                            Rule::constraining_clause => {
                                prefix.constraining = Some(self.constraining_clause(r)?)
                            }
                            Rule::description => {
                                prefix.constraining_description = Some(self.description(r)?)
                            }
                            _ => {}
                        }
                    }
                    return match result {
                        Some(Element::Class(c, _)) => Ok(Element::Class(c, prefix)),
                        Some(Element::Component(c, _)) => Ok(Element::Component(c, prefix)),
                        _ => Err(internal(span, "replaceable without element")),
                    };
                }
                _ => {}
            }
        }
        Err(internal(span, "empty element"))
    }

    fn constraining_clause(&self, p: P) -> R<(Name, Option<ClassMod>)> {
        let mut name = None;
        let mut m = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::type_specifier => name = Some(self.type_specifier(q)),
                Rule::class_modification => m = Some(self.class_modification(q)?),
                _ => {}
            }
        }
        let name = name.ok_or_else(|| internal(Span::default(), "constrainedby without name"))?;
        Ok((name, m))
    }

    fn import_clause(&self, p: P) -> R<Element> {
        let span = self.span(&p);
        let mut kind = None;
        for q in p.into_inner() {
            let mut inner: Vec<P> = q.clone().into_inner().collect();
            match q.as_rule() {
                Rule::import_rename if inner.len() == 2 => {
                    let n = inner.pop().map(|x| self.name(x, false));
                    let id = inner.pop().map(|x| self.ident(x));
                    if let (Some(id), Some(n)) = (id, n) {
                        kind = Some(ImportKind::Renamed(id, n));
                    }
                }
                Rule::import_wildcard => {
                    if let Some(n) = inner.pop() {
                        kind = Some(ImportKind::Wildcard(self.name(n, false)));
                    }
                }
                Rule::import_qualified => {
                    if let Some(n) = inner.pop() {
                        kind = Some(ImportKind::Qualified(self.name(n, false)));
                    }
                }
                Rule::import_list_form => {
                    let mut name = None;
                    let mut ids = Vec::new();
                    for x in inner {
                        match x.as_rule() {
                            Rule::name => name = Some(self.name(x, false)),
                            Rule::import_list => {
                                ids = x.into_inner().map(|i| self.ident(i)).collect()
                            }
                            _ => {}
                        }
                    }
                    if let Some(n) = name {
                        kind = Some(ImportKind::List(n, ids));
                    }
                }
                _ => {}
            }
        }
        let kind = kind.ok_or_else(|| internal(span, "malformed import"))?;
        Ok(Element::Import(Import { kind, span }))
    }

    fn extends_clause(&self, p: P) -> R<Element> {
        let span = self.span(&p);
        let mut base = None;
        let mut modification = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::type_specifier => base = Some(self.type_specifier(q)),
                Rule::class_or_inheritance_modification => {
                    let mspan = self.span(&q);
                    let mut args = Vec::new();
                    for a in q.into_inner() {
                        match a.as_rule() {
                            Rule::argument => args.push(self.argument(a)?),
                            Rule::inheritance_modification => args.push(Argument::Redeclare {
                                span: self.span(&a),
                                what: "break in an extends modification",
                            }),
                            _ => {}
                        }
                    }
                    modification = Some(ClassMod { args, span: mspan });
                }
                _ => {}
            }
        }
        let base = base.ok_or_else(|| internal(span, "extends without base"))?;
        Ok(Element::Extends(Extends {
            base,
            modification,
            span,
        }))
    }

    fn type_prefix(&self, p: P) -> TypePrefix {
        let mut tp = TypePrefix::default();
        for q in p.into_inner() {
            let kw = q.into_inner().next().map(|k| k.as_rule());
            match kw {
                Some(Rule::kw_flow) => tp.connection = Some(Connection::Flow),
                Some(Rule::kw_stream) => tp.connection = Some(Connection::Stream),
                Some(Rule::kw_discrete) => tp.variability = Some(Variability::Discrete),
                Some(Rule::kw_parameter) => tp.variability = Some(Variability::Parameter),
                Some(Rule::kw_constant) => tp.variability = Some(Variability::Constant),
                Some(Rule::kw_input) => tp.causality = Some(Causality::Input),
                Some(Rule::kw_output) => tp.causality = Some(Causality::Output),
                _ => {}
            }
        }
        tp
    }

    fn component_clause(&self, p: P) -> R<ComponentClause> {
        let span = self.span(&p);
        let mut prefix = TypePrefix::default();
        let mut type_name = None;
        let mut subscripts = Vec::new();
        let mut components = Vec::new();
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::type_prefix => prefix = self.type_prefix(q),
                Rule::type_specifier => type_name = Some(self.type_specifier(q)),
                Rule::array_subscripts => subscripts = self.array_subscripts(q)?,
                Rule::component_list => {
                    for d in q.into_inner() {
                        components.push(self.component_declaration(d)?);
                    }
                }
                _ => {}
            }
        }
        let type_name = type_name.ok_or_else(|| internal(span, "component without type"))?;
        Ok(ComponentClause {
            prefix,
            type_name,
            subscripts,
            components,
            span,
        })
    }

    fn component_declaration(&self, p: P) -> R<ComponentDecl> {
        let span = self.span(&p);
        let mut decl = None;
        let mut condition = None;
        let mut description = Description::default();
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::declaration => decl = Some(self.declaration(q)?),
                Rule::condition_attribute => {
                    if let Some(e) = q.into_inner().find(|x| x.as_rule() == Rule::expression) {
                        condition = Some(self.expression(e)?);
                    }
                }
                Rule::description => description = self.description(q)?,
                _ => {}
            }
        }
        let (name, subscripts, modification) =
            decl.ok_or_else(|| internal(span, "component without declaration"))?;
        Ok(ComponentDecl {
            name,
            subscripts,
            modification,
            condition,
            description,
            span,
        })
    }

    fn declaration(&self, p: P) -> R<(Ident, Vec<Subscript>, Option<Modification>)> {
        let span = self.span(&p);
        let mut name = None;
        let mut subs = Vec::new();
        let mut m = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::IDENT => name = Some(self.ident(q)),
                Rule::array_subscripts => subs = self.array_subscripts(q)?,
                Rule::modification => m = Some(self.modification(q)?),
                _ => {}
            }
        }
        let name = name.ok_or_else(|| internal(span, "declaration without name"))?;
        Ok((name, subs, m))
    }

    fn modification(&self, p: P) -> R<Modification> {
        let span = self.span(&p);
        let mut class_mod = None;
        let mut binding = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::class_modification => class_mod = Some(self.class_modification(q)?),
                Rule::modification_expression => {
                    if let Some(x) = q.into_inner().next() {
                        binding = Some(match x.as_rule() {
                            Rule::break_ => Binding::Break(self.span(&x)),
                            _ => Binding::Expr(self.expression(x)?),
                        });
                    }
                }
                _ => {}
            }
        }
        Ok(Modification {
            class_mod,
            binding,
            span,
        })
    }

    fn class_modification(&self, p: P) -> R<ClassMod> {
        let span = self.span(&p);
        let mut args = Vec::new();
        for q in p.into_inner() {
            if q.as_rule() == Rule::argument_list {
                for a in q.into_inner() {
                    args.push(self.argument(a)?);
                }
            }
        }
        Ok(ClassMod { args, span })
    }

    fn argument(&self, p: P) -> R<Argument> {
        let span = self.span(&p);
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(span, "empty argument"))?;
        match inner.as_rule() {
            Rule::element_redeclaration => {
                let mut each = false;
                let mut final_ = false;
                for q in inner.into_inner() {
                    match q.as_rule() {
                        Rule::each => each = true,
                        Rule::final_ => final_ = true,
                        Rule::component_clause1 => {
                            return self.redeclare_component(q, (each, final_, false), None, span)
                        }
                        Rule::element_replaceable => {
                            let comp = q
                                .clone()
                                .into_inner()
                                .find(|r| r.as_rule() == Rule::component_clause1);
                            if let Some(c) = comp {
                                let constraining = self.constraining_of(&q)?;
                                return self.redeclare_component(
                                    c,
                                    (each, final_, true),
                                    constraining,
                                    span,
                                );
                            }
                            return self.redeclare_class(q, each, final_, span);
                        }
                        Rule::short_class_definition => {
                            return self.redeclare_class(q, each, final_, span)
                        }
                        _ => {}
                    }
                }
                Err(internal(span, "malformed redeclaration"))
            }
            Rule::element_modification_or_replaceable => {
                let mut each = false;
                let mut final_ = false;
                for q in inner.into_inner() {
                    match q.as_rule() {
                        Rule::each => each = true,
                        Rule::final_ => final_ = true,
                        Rule::element_replaceable => {
                            let comp = q
                                .clone()
                                .into_inner()
                                .find(|r| r.as_rule() == Rule::component_clause1);
                            if let Some(c) = comp {
                                let constraining = self.constraining_of(&q)?;
                                return self.redeclare_component(
                                    c,
                                    (each, final_, true),
                                    constraining,
                                    span,
                                );
                            }
                            return self.redeclare_class(q, each, final_, span);
                        }
                        Rule::element_modification => {
                            let mut name = None;
                            let mut modification = None;
                            let mut description = None;
                            for r in q.into_inner() {
                                match r.as_rule() {
                                    Rule::name => name = Some(self.name(r, false)),
                                    Rule::modification => {
                                        modification = Some(self.modification(r)?)
                                    }
                                    Rule::description_string => {
                                        description = self.description_string(r)
                                    }
                                    _ => {}
                                }
                            }
                            let name = name.ok_or_else(|| internal(span, "unnamed modifier"))?;
                            return Ok(Argument::Modify(Box::new(ElementModification {
                                each,
                                final_,
                                name,
                                modification,
                                description,
                                span,
                            })));
                        }
                        _ => {}
                    }
                }
                Err(internal(span, "malformed argument"))
            }
            _ => Err(internal(span, "unknown argument")),
        }
    }

    /// A class redeclaration: `short_class_definition`, or `element_replaceable` holding one
    /// with its optional `constrainedby`.
    fn redeclare_class(&self, p: P, each: bool, final_: bool, span: Span) -> R<Argument> {
        let (def_p, constraining) = if p.as_rule() == Rule::short_class_definition {
            (p, None)
        } else {
            let mut def_p = None;
            let mut constraining = None;
            for r in p.into_inner() {
                match r.as_rule() {
                    Rule::short_class_definition => def_p = Some(r),
                    Rule::constraining_clause => constraining = Some(self.constraining_clause(r)?),
                    _ => {}
                }
            }
            (
                def_p.ok_or_else(|| internal(span, "replaceable without a definition"))?,
                constraining,
            )
        };
        let dspan = self.span(&def_p);
        let mut partial = false;
        let mut restriction = Restriction::Class;
        let mut purity = None;
        let mut spec = None;
        for q in def_p.into_inner() {
            match q.as_rule() {
                Rule::class_prefixes => {
                    (partial, restriction, purity) = self.class_prefixes(q);
                }
                Rule::short_class_specifier => spec = Some(q),
                _ => {}
            }
        }
        let spec = spec.ok_or_else(|| internal(dspan, "class redeclaration without definition"))?;
        let (name, body, description) = self.short_class_specifier(spec)?;
        Ok(Argument::RedeclareClass(Box::new(RedeclareClass {
            each,
            final_,
            def: ClassDef {
                name,
                restriction,
                partial,
                encapsulated: false,
                purity,
                span: dspan,
                body,
                description,
            },
            constraining,
            span,
        })))
    }

    /// The `constrainedby` clause of an `element_replaceable`, if any.
    fn constraining_of(&self, p: &P) -> R<Option<(Name, Option<ClassMod>)>> {
        match p
            .clone()
            .into_inner()
            .find(|r| r.as_rule() == Rule::constraining_clause)
        {
            Some(r) => Ok(Some(self.constraining_clause(r)?)),
            None => Ok(None),
        }
    }

    /// `Type name(mods)` of a redeclaration (`component_clause1`), with its `each`, `final`
    /// and `replaceable` prefixes and `constrainedby` clause.
    fn redeclare_component(
        &self,
        p: P,
        (each, final_, replaceable): (bool, bool, bool),
        constraining: Option<(Name, Option<ClassMod>)>,
        span: Span,
    ) -> R<Argument> {
        let cspan = self.span(&p);
        let mut prefix = TypePrefix::default();
        let mut type_name = None;
        let mut components = Vec::new();
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::type_prefix => prefix = self.type_prefix(q),
                Rule::type_specifier => type_name = Some(self.type_specifier(q)),
                Rule::component_declaration1 => {
                    let dspan = self.span(&q);
                    let mut decl = None;
                    let mut description = Description::default();
                    for r in q.into_inner() {
                        match r.as_rule() {
                            Rule::declaration => decl = Some(self.declaration(r)?),
                            Rule::description => description = self.description(r)?,
                            _ => {}
                        }
                    }
                    let (name, subscripts, modification) =
                        decl.ok_or_else(|| internal(dspan, "redeclaration without a name"))?;
                    components.push(ComponentDecl {
                        name,
                        subscripts,
                        modification,
                        condition: None,
                        description,
                        span: dspan,
                    });
                }
                _ => {}
            }
        }
        let type_name = type_name.ok_or_else(|| internal(cspan, "redeclaration without type"))?;
        Ok(Argument::RedeclareComponent(Box::new(RedeclareComponent {
            each,
            final_,
            replaceable,
            constraining,
            clause: ComponentClause {
                prefix,
                type_name,
                subscripts: Vec::new(),
                components,
                span: cspan,
            },
            span,
        })))
    }

    fn external_clause(&self, p: P) -> R<External> {
        let mut x = External {
            language: None,
            output: None,
            function: None,
            args: Vec::new(),
            annotation: None,
            span: self.span(&p),
        };
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::language_specification => {
                    x.language = q.into_inner().next().map(|s| unquote(s.as_str()));
                }
                Rule::external_function_call => {
                    for r in q.into_inner() {
                        match r.as_rule() {
                            Rule::component_reference => {
                                x.output = Some(self.component_reference(r)?)
                            }
                            Rule::IDENT => x.function = Some(self.ident(r)),
                            Rule::expression_list => x.args = self.expression_list(r)?,
                            _ => {}
                        }
                    }
                }
                Rule::annotation_clause => x.annotation = Some(self.annotation_clause(q)?),
                _ => {}
            }
        }
        Ok(x)
    }

    fn description_string(&self, p: P) -> Option<String> {
        let mut out: Option<String> = None;
        for q in p.into_inner() {
            if q.as_rule() == Rule::STRING {
                let s = unquote(q.as_str());
                out = Some(match out {
                    Some(o) => o + &s,
                    None => s,
                });
            }
        }
        out
    }

    fn description(&self, p: P) -> R<Description> {
        let mut d = Description::default();
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::description_string => d.text = self.description_string(q),
                Rule::annotation_clause => d.annotation = Some(self.annotation_clause(q)?),
                _ => {}
            }
        }
        Ok(d)
    }

    fn annotation_clause(&self, p: P) -> R<ClassMod> {
        let span = self.span(&p);
        match p
            .into_inner()
            .find(|q| q.as_rule() == Rule::class_modification)
        {
            Some(q) => self.class_modification(q),
            None => Ok(ClassMod {
                args: Vec::new(),
                span,
            }),
        }
    }

    // ------------------------------------------------------------ equations

    fn equation_block(&self, p: P) -> R<Vec<Equation>> {
        p.into_inner()
            .filter(|q| q.as_rule() == Rule::some_equation)
            .map(|q| self.some_equation(q))
            .collect()
    }

    fn some_equation(&self, p: P) -> R<Equation> {
        let span = self.span(&p);
        let mut parts = p.into_inner();
        let inner = parts
            .next()
            .ok_or_else(|| internal(span, "empty equation"))?;
        // The equation's annotation (a connection's Line and Text, 18.6.4).
        let mut annotation = None;
        for q in parts.flat_map(|d| d.into_inner()) {
            if q.as_rule() == Rule::annotation_clause {
                annotation = Some(self.annotation_clause(q)?);
            }
        }
        let kind = match inner.as_rule() {
            Rule::equality_equation => {
                let mut it = inner.into_inner();
                let (Some(l), Some(r)) = (it.next(), it.next()) else {
                    return Err(internal(span, "malformed equation"));
                };
                EquationKind::Equality(self.expression(l)?, self.expression(r)?)
            }
            Rule::call_equation => {
                let mut it = inner.into_inner();
                let (Some(f), Some(a)) = (it.next(), it.next()) else {
                    return Err(internal(span, "malformed call"));
                };
                EquationKind::Call(self.component_reference(f)?, self.function_call_args(a)?)
            }
            Rule::connect_equation => {
                let refs: Vec<P> = inner
                    .into_inner()
                    .filter(|q| q.as_rule() == Rule::component_reference)
                    .collect();
                let mut it = refs.into_iter();
                let (Some(a), Some(b)) = (it.next(), it.next()) else {
                    return Err(internal(span, "malformed connect"));
                };
                EquationKind::Connect(self.component_reference(a)?, self.component_reference(b)?)
            }
            Rule::if_equation => {
                let (branches, otherwise) = self.conditional(inner, |s, b| s.equation_block(b))?;
                EquationKind::If {
                    branches,
                    otherwise,
                }
            }
            Rule::when_equation => {
                let (branches, _) = self.conditional(inner, |s, b| s.equation_block(b))?;
                EquationKind::When { branches }
            }
            Rule::for_equation => {
                let mut indices = Vec::new();
                let mut body = Vec::new();
                for q in inner.into_inner() {
                    match q.as_rule() {
                        Rule::for_indices => indices = self.for_indices(q)?,
                        Rule::equation_block => body = self.equation_block(q)?,
                        _ => {}
                    }
                }
                EquationKind::For { indices, body }
            }
            _ => return Err(internal(span, "unknown equation")),
        };
        Ok(Equation {
            kind,
            span,
            annotation,
        })
    }

    /// The shared shape of `if`/`when` equations and statements: conditions and blocks.
    #[allow(clippy::type_complexity)]
    fn conditional<T>(
        &self,
        p: P,
        block: impl Fn(&Self, P) -> R<Vec<T>>,
    ) -> R<(Vec<(Expr, Vec<T>)>, Vec<T>)> {
        let mut branches = Vec::new();
        let mut otherwise = Vec::new();
        let mut pending: Option<Expr> = None;
        let mut in_else = false;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::kw_else => in_else = true,
                Rule::expression => pending = Some(self.expression(q)?),
                Rule::equation_block | Rule::statement_block => {
                    let b = block(self, q)?;
                    if in_else {
                        otherwise = b;
                    } else if let Some(c) = pending.take() {
                        branches.push((c, b));
                    }
                }
                _ => {}
            }
        }
        Ok((branches, otherwise))
    }

    pub(super) fn for_indices(&self, p: P) -> R<Vec<ForIndex>> {
        let mut out = Vec::new();
        for q in p.into_inner() {
            let mut name = None;
            let mut range = None;
            for r in q.into_inner() {
                match r.as_rule() {
                    Rule::IDENT => name = Some(self.ident(r)),
                    Rule::expression => range = Some(self.expression(r)?),
                    _ => {}
                }
            }
            if let Some(name) = name {
                out.push(ForIndex { name, range });
            }
        }
        Ok(out)
    }

    fn statement_block(&self, p: P) -> R<Vec<Statement>> {
        p.into_inner()
            .filter(|q| q.as_rule() == Rule::statement)
            .map(|q| self.statement(q))
            .collect()
    }

    fn statement(&self, p: P) -> R<Statement> {
        let span = self.span(&p);
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(span, "empty statement"))?;
        let kind = match inner.as_rule() {
            Rule::assign_statement => {
                let mut it = inner.into_inner();
                let (Some(l), Some(r)) = (it.next(), it.next()) else {
                    return Err(internal(span, "malformed assignment"));
                };
                StatementKind::Assign(self.component_reference(l)?, self.expression(r)?)
            }
            Rule::call_statement => {
                let mut it = inner.into_inner();
                let (Some(f), Some(a)) = (it.next(), it.next()) else {
                    return Err(internal(span, "malformed call"));
                };
                StatementKind::Call(self.component_reference(f)?, self.function_call_args(a)?)
            }
            Rule::multi_assign_statement => {
                let mut outs = Vec::new();
                let mut f = None;
                let mut a = None;
                for q in inner.into_inner() {
                    match q.as_rule() {
                        Rule::output_expression_list => outs = self.output_expression_list(q)?,
                        Rule::component_reference => f = Some(self.component_reference(q)?),
                        Rule::function_call_args => a = Some(self.function_call_args(q)?),
                        _ => {}
                    }
                }
                let (Some(f), Some(a)) = (f, a) else {
                    return Err(internal(span, "malformed multiple assignment"));
                };
                StatementKind::MultiAssign(outs, f, a)
            }
            Rule::break_statement => StatementKind::Break,
            Rule::return_statement => StatementKind::Return,
            Rule::if_statement => {
                let (branches, otherwise) = self.conditional(inner, |s, b| s.statement_block(b))?;
                StatementKind::If {
                    branches,
                    otherwise,
                }
            }
            Rule::when_statement => {
                let (branches, _) = self.conditional(inner, |s, b| s.statement_block(b))?;
                StatementKind::When { branches }
            }
            Rule::for_statement => {
                let mut indices = Vec::new();
                let mut body = Vec::new();
                for q in inner.into_inner() {
                    match q.as_rule() {
                        Rule::for_indices => indices = self.for_indices(q)?,
                        Rule::statement_block => body = self.statement_block(q)?,
                        _ => {}
                    }
                }
                StatementKind::For { indices, body }
            }
            Rule::while_statement => {
                let mut cond = None;
                let mut body = Vec::new();
                for q in inner.into_inner() {
                    match q.as_rule() {
                        Rule::expression => cond = Some(self.expression(q)?),
                        Rule::statement_block => body = self.statement_block(q)?,
                        _ => {}
                    }
                }
                let cond = cond.ok_or_else(|| internal(span, "while without condition"))?;
                StatementKind::While(cond, body)
            }
            _ => return Err(internal(span, "unknown statement")),
        };
        Ok(Statement { kind, span })
    }
}

/// Contents of a string literal with escapes resolved.
pub(super) fn unquote(s: &str) -> String {
    let inner = s
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(s);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('"') => out.push('"'),
                Some('\'') => out.push('\''),
                Some('\\') => out.push('\\'),
                Some('?') => out.push('?'),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Empty calls in when-equations (`when terminal() then Streams.close(file); end when;`, as
/// the MSL writes): an empty call is a "null equation" (specification 12.4.7), the zero-output
/// case of `(out1, …) = f(…)` that 8.3.5.3 allows in a when-equation, made when the clause
/// fires. Each when-equation's calls (other than `assert`, `terminate`, `reinit`) move to a
/// when-statement of the same conditions, in an algorithm section of their own, so that they
/// are made as a when-statement's calls are (in order, once per event); the flattener
/// refuses there a call of a function with outputs (`from_when_equation`).
fn calls_of_when_equations(eqs: &mut Vec<Equation>) -> Vec<Algorithm> {
    let mut out = Vec::new();
    let mut emptied = Vec::with_capacity(eqs.len());
    for eq in eqs.iter_mut() {
        let EquationKind::When { branches } = &mut eq.kind else {
            emptied.push(false);
            continue;
        };
        let mut moved = false;
        let mut stmts_of = Vec::with_capacity(branches.len());
        for (cond, body) in branches.iter_mut() {
            let (calls, rest): (Vec<Equation>, Vec<Equation>) =
                std::mem::take(body).into_iter().partition(|b| {
                    matches!(&b.kind, EquationKind::Call(f, _)
                        if !matches!(f.to_source_string().as_str(), "assert" | "terminate" | "reinit")
                            && !f.to_source_string().starts_with("Connections."))
                });
            *body = rest;
            moved |= !calls.is_empty();
            let stmts = calls
                .into_iter()
                .filter_map(|b| match b.kind {
                    EquationKind::Call(f, args) => Some(Statement {
                        kind: StatementKind::Call(f, args),
                        span: b.span,
                    }),
                    _ => None,
                })
                .collect();
            stmts_of.push((cond.clone(), stmts));
        }
        emptied.push(moved && branches.iter().all(|(_, b)| b.is_empty()));
        if moved {
            out.push(Algorithm {
                initial: false,
                statements: vec![Statement {
                    kind: StatementKind::When { branches: stmts_of },
                    span: eq.span,
                }],
                span: eq.span,
                from_when_equation: true,
            });
        }
    }
    let mut emptied = emptied.into_iter();
    eqs.retain(|_| !emptied.next().unwrap_or(false));
    out
}
