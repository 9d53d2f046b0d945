//! The instance tree: a class instance registers its elements (own and inherited) as slots with
//! their merged modifications; a slot is instantiated when its node is completed or when an
//! expression needs it. Short classes resolve here, and so do cycles and size limits of
//! instantiation (specification ch. 5, 7.1-7.2).

use super::*;
use instance_checks::{check_each_on_scalar, check_split_redeclaration, free_reference};

impl<'t, 'a> Flattener<'t, 'a> {
    pub(super) fn new_node(
        &mut self,
        path: String,
        is_connector: bool,
        parent: Option<NodeId>,
    ) -> NodeId {
        let id = NodeId::new(self.inst.nodes.len());
        self.inst.nodes.push(InstNode {
            path,
            slots: FxHashMap::default(),
            order: Vec::new(),
            classes: Vec::new(),
            is_connector,
            is_expandable: false,
            parent,
        });
        id
    }

    /// Resolves short class definitions down to a long class or built-in, merging their
    /// modifications (outer first) and collecting array dimensions and causality.
    pub(super) fn resolve_short(
        &mut self,
        class: ClassId,
        modif: &mut Mod<'a>,
        dims: &mut Vec<usize>,
        causality: &mut Option<ast::Causality>,
        span: Span,
    ) -> DResult<ClassId> {
        self.resolve_short_in(None, class, modif, dims, causality, span)
    }

    /// [`Self::resolve_short`] for a class used in instance `node`: a short definition's
    /// modifiers and sizes are read in the instance of the class that declares it (4.5.1:
    /// `model Load = Resistor(R = R)` takes the `R` of the model declaring `Load`).
    pub(super) fn resolve_short_in(
        &mut self,
        node: Option<NodeId>,
        mut class: ClassId,
        modif: &mut Mod<'a>,
        dims: &mut Vec<usize>,
        causality: &mut Option<ast::Causality>,
        span: Span,
    ) -> DResult<ClassId> {
        for _ in 0..64 {
            let info_parent = self.tree.info(class).parent;
            let Some(def) = self.tree.info(class).def else {
                return Ok(class);
            };
            match &def.body {
                ast::ClassBody::Short {
                    causality: c,
                    base,
                    subscripts,
                    modification,
                } => {
                    let lexical = info_parent.unwrap_or(class);
                    let env = Env {
                        node: self.instance_of(node, lexical),
                        class: lexical,
                    };
                    if let Some(r) = modification
                        .as_ref()
                        .filter(|_| def.encapsulated)
                        .and_then(free_reference)
                    {
                        let name = &r.parts[0].ident.name;
                        let d = typed::ENCAPSULATED_SHORT.broken(
                            r.span,
                            format!(
                                "`{name}` is not visible from the encapsulated short class `{}`: its modifiers are not looked up in the enclosing scope",
                                def.name.name
                            ),
                            "not visible",
                        );
                        return Err(Box::new(d));
                    }
                    if let Some(cm) = modification {
                        // A type's own modification applies to every element of an array of it;
                        // that of an array type (`type S = Integer[3](min = {1, 1, 1})`) to
                        // its elements in turn, where the component adds no dimensions. A
                        // type without subscripts may still become an array further down its
                        // chain; a scalar instance of another short class (`model PointMass =
                        // Parts.PointMass(sphereColor = {255, 0, 0})`) is not split, and its
                        // modifications of array elements apply whole.
                        let mut inner = Mod::from_class_mod(cm, env);
                        let may_become_array = def.restriction == ast::Restriction::Type;
                        if !dims.is_empty() || (subscripts.is_empty() && may_become_array) {
                            inner.mark_each();
                        }
                        *modif = merge(modif, &inner);
                    }
                    if causality.is_none() {
                        *causality = *c;
                    }
                    for s in subscripts {
                        match s {
                            ast::Subscript::Expr(e) => {
                                let n = self.eval_dim(e, env)?;
                                dims.push(n);
                            }
                            ast::Subscript::Colon(sp) => {
                                return Err(self.unsupported(*sp, "`:` in a type definition"))
                            }
                        }
                    }
                    class = match self.tree.base_of_short(class) {
                        Some((b, _)) => b,
                        None if def.encapsulated => {
                            let d = typed::ENCAPSULATED_SHORT.broken(
                                base.span,
                                format!(
                                    "`{}` is not visible from the encapsulated short class `{}`",
                                    base.to_dotted(),
                                    def.name.name
                                ),
                                "not visible",
                            );
                            return Err(Box::new(d));
                        }
                        None => return Err(self.unknown_class(base, lexical)),
                    };
                }
                ast::ClassBody::Enumeration { .. } => return Ok(class),
                ast::ClassBody::Der { .. } => {
                    return Err(self.unsupported(def.name.span, "der(...) class definitions"))
                }
                ast::ClassBody::Long {
                    composition,
                    class_extends: None,
                } if def.restriction == ast::Restriction::Type => {
                    // `type T extends Real(unit = "m"); end T;` (4.7: a type extends a
                    // predefined type, an enumeration or another type, and has no other
                    // element but the functions of an overdetermined type, 9.4): the base
                    // with the extends clause's modification, as a short definition would
                    // give it. The modification is looked up in T.
                    let mut exts = composition.elements.iter().filter_map(|e| match e {
                        ast::Element::Extends(x) => Some(Some(x)),
                        ast::Element::Component(..) => Some(None),
                        _ => None,
                    });
                    let (Some(Some(ext)), None) = (exts.next(), exts.next()) else {
                        return Ok(class);
                    };
                    if !composition.equations.is_empty()
                        || !composition.initial_equations.is_empty()
                        || !composition.algorithms.is_empty()
                        || composition.external.is_some()
                    {
                        return Ok(class);
                    }
                    let Some(Found::Class(base)) = self.tree.lookup_name(class, &ext.base) else {
                        return Ok(class);
                    };
                    if let Some(cm) = &ext.modification {
                        let env = Env {
                            node: self.instance_of(node, class),
                            class,
                        };
                        let mut inner = Mod::from_class_mod(cm, env);
                        inner.mark_each();
                        *modif = merge(modif, &inner);
                    }
                    class = base;
                }
                ast::ClassBody::Long { .. } => return Ok(class),
            }
        }
        Err(Box::new(
            Diagnostic::error("cycle", "type definition refers to itself").at(span, "here"),
        ))
    }

    /// The instance of class `c` that `node` is or is inside of, if any.
    pub(super) fn instance_of(&self, node: Option<NodeId>, c: ClassId) -> Option<NodeId> {
        let mut cur = node;
        while let Some(n) = cur {
            let n = &self.inst.nodes[n.0 as usize];
            if n.classes.contains(&c) {
                return cur;
            }
            cur = n.parent;
        }
        None
    }

    /// Registers the elements of `class` (and its bases) in `node`.
    pub(super) fn populate(
        &mut self,
        node: NodeId,
        class: ClassId,
        modif: &mut Mod<'a>,
        outer: Option<(Option<ast::Variability>, Option<ast::Causality>, bool)>,
    ) -> DResult<()> {
        if let Some(k) = self.ctx.extends_chain.iter().position(|&c| c == class) {
            let names: Vec<String> = self.ctx.extends_chain[k..]
                .iter()
                .chain([&class])
                .map(|&c| format!("`{}`", self.tree.info(c).full_name))
                .collect();
            return Err(Box::new(
                Diagnostic::error(
                    "cycle",
                    format!(
                        "`{}` inherits from itself: {}",
                        self.tree.info(class).full_name,
                        names.join(" extends ")
                    ),
                )
                .at(self.tree.info(class).span(), "here"),
            ));
        }
        // Inherited twice along different paths (a diamond): the elements are the same.
        if self.inst.nodes[node.0 as usize].classes.contains(&class) {
            return Ok(());
        }
        if self.inst.nodes[node.0 as usize].classes.len() > 256 {
            return Err(Box::new(
                Diagnostic::error("too-deep", "a class inherits from more than 256 classes")
                    .at(self.tree.info(class).span(), "here"),
            ));
        }
        self.inst.nodes[node.0 as usize].classes.push(class);
        self.register_class_redeclares(node, class, modif)?;
        self.register_element_redeclares(node, class)?;
        self.check_class_constraints(class)?;
        self.ctx.extends_chain.push(class);
        let r = self.populate_elements(node, class, modif, outer);
        self.ctx.extends_chain.pop();
        r
    }

    pub(super) fn populate_elements(
        &mut self,
        node: NodeId,
        class: ClassId,
        modif: &mut Mod<'a>,
        outer: Option<(Option<ast::Variability>, Option<ast::Causality>, bool)>,
    ) -> DResult<()> {
        self.check_rules(class);
        let Some(comp) = self.tree.info(class).composition() else {
            return Ok(());
        };
        let env = Env {
            node: Some(node),
            class,
        };
        // Components redeclared by elements of the body (`redeclare Real x[2];`, 7.3) act as
        // modifiers of the inherited declarations, beneath the modification from outside.
        let redeclared = redeclare::element_redeclares(comp, env);
        if let Some(base) = self.tree.class_extends_base(class) {
            // `redeclare model extends M(mods) … end M;`: the replaced `M` first (7.3.1).
            let mut m = merge(modif, &redeclared);
            if let Some(ast::ClassBody::Long {
                class_extends: Some(Some(cm)),
                ..
            }) = self.tree.info(class).def.map(|d| &d.body)
            {
                m = merge(&m, &Mod::from_class_mod(cm, env));
            }
            self.populate(node, base, &mut m, outer)?;
        }
        for element in &comp.elements {
            match element {
                ast::Element::Component(_, prefix) if prefix.redeclare => {}
                // The predefined `ExternalObject` (12.9.7) adds nothing.
                ast::Element::Extends(ext) if ext.base.to_dotted() == "ExternalObject" => {}
                ast::Element::Extends(ext) => {
                    let base = match self.tree.lookup_name(class, &ext.base) {
                        Some(Found::Class(b)) => b,
                        _ => return Err(self.unknown_class(&ext.base, class)),
                    };
                    let mut m = merge(modif, &redeclared);
                    let mut written = None;
                    if let Some(cm) = &ext.modification {
                        for a in &cm.args {
                            if let ast::Argument::Redeclare { span, what } = a {
                                return Err(self.unsupported(*span, what));
                            }
                        }
                        let inner = Mod::from_class_mod(cm, env);
                        m = merge(&m, &inner);
                        written = Some(inner);
                    }
                    let mut dims = Vec::new();
                    let mut caus = None;
                    let base = self.resolve_short_in(
                        Some(node),
                        base,
                        &mut m,
                        &mut dims,
                        &mut caus,
                        ext.span,
                    )?;
                    if self.tree.info(base).builtin.is_some() || self.enumeration(base)?.is_some() {
                        // Components or equations beside it are an error (4.5.2).
                        if let Some(ast::ClassBody::Long { composition, .. }) =
                            self.tree.info(class).def.map(|d| &d.body)
                        {
                            let own = composition
                                .elements
                                .iter()
                                .any(|e| matches!(e, ast::Element::Component(..)))
                                || !composition.equations.is_empty();
                            if own {
                                let msg = format!(
                                    "`{}` extends the predefined type `{}` and declares components or equations",
                                    self.tree.info(class).name,
                                    ext.base.to_dotted()
                                );
                                let d = typed::EXTENDS_ARRAY_OR_PREFIXED.broken(
                                    ext.base.span,
                                    msg,
                                    "predefined type",
                                );
                                return Err(Box::new(d));
                            }
                        }
                        // `extends Real` in a class other than a type: not yet.
                        return Err(self
                            .unsupported(ext.span, "extending a predefined or enumeration type"));
                    }
                    if let Some(w) = &written {
                        self.check_extends_modifiers(base, w, &redeclared)?;
                    }
                    // `extends InR` with `connector InR = input R`: R's elements are inputs.
                    let outer = match (outer, caus) {
                        (_, None) => outer,
                        (Some((v, c, f)), Some(k)) => Some((v, c.or(Some(k)), f)),
                        (None, Some(k)) => Some((None, Some(k), false)),
                    };
                    self.populate(node, base, &mut m, outer)?;
                }
                ast::Element::Component(clause, prefix) => {
                    for decl in &clause.components {
                        let mut m = modif.sub(&decl.name.name);
                        // A whole record's value binds its final fields too (to the values
                        // their own declarations give in the record it is taken from).
                        let from_record_value = m.subs.is_empty()
                            && m.binding.as_ref().is_some_and(|b| b.evaluated.is_some());
                        if prefix.final_ && !m.is_empty() && !from_record_value {
                            let msg = format!("`{}` is declared final", decl.name.name);
                            let at = m.span.unwrap_or(decl.name.span);
                            let d = typed::FINAL_MODIFIED
                                .broken(at, msg, "modified here")
                                .also(decl.name.span, "declared final");
                            return Err(Box::new(d));
                        }
                        if let Some(dm) = &decl.modification {
                            let mut inner = Mod::from_modification(dm, env);
                            inner.mark_component_breaks();
                            if let Some((path, at)) = modification::final_overridden(&m, &inner) {
                                let msg = format!(
                                    "`{}.{path}` is final by the declaration's modification",
                                    decl.name.name
                                );
                                let d = typed::FINAL_MODIFICATION
                                    .broken(at.unwrap_or(decl.name.span), msg, "modified here")
                                    .also(dm.span, "made final here");
                                return Err(Box::new(d));
                            }
                            // The type is looked up only where a part meets a whole value.
                            let over = modification::part_over_whole(&m, &inner);
                            if let Some((path, at)) = over {
                                if self.structured(class, &clause.type_name) {
                                    let name = &decl.name.name;
                                    let msg = format!(
                                        "`{name}.{path}` is given a value where the declaration gives `{name}` a whole value"
                                    );
                                    let d = typed::PART_OVER_WHOLE
                                        .broken(
                                            at.unwrap_or(decl.name.span),
                                            msg,
                                            "part modified here",
                                        )
                                        .also(dm.span, "the whole value");
                                    return Err(Box::new(d));
                                }
                            }
                            m = merge(&m, &inner);
                        }
                        let sid = self.add_slot(node, clause, decl, class, m, outer)?;
                        if let Some(sid) = sid {
                            let s = &mut self.inst.slots[sid.0 as usize];
                            (s.inner, s.outer) = (prefix.inner, prefix.outer);
                            s.prefix = Some(prefix);
                        } else {
                            // The same declaration inherited twice: with the same protection.
                            let first = self.inst.nodes[node.0 as usize].slots[&decl.name.name];
                            let s = &self.inst.slots[first.0 as usize];
                            if s.prefix.is_some_and(|p| p.protected) != prefix.protected {
                                let msg = format!(
                                    "`{}` is inherited twice, once public and once protected",
                                    decl.name.name
                                );
                                let d = typed::INHERITED_PROTECTION
                                    .broken(decl.name.span, msg, "declared again here")
                                    .also(s.decl.name.span, "first declared here");
                                return Err(Box::new(d));
                            }
                        }
                    }
                }
                ast::Element::Class(..) | ast::Element::Import(_) => {}
            }
        }
        self.check_element_redeclares(node, comp)
    }

    /// Whether a component of type `type_name` (declared in `class`) is non-simple (7.2.3): a
    /// record, model, block, connector or class, not a predefined type, a type derived from
    /// one or an enumeration.
    fn structured(&mut self, class: ClassId, type_name: &ast::Name) -> bool {
        let Some(classes::Found::Class(k)) = self.tree.lookup_name(class, type_name) else {
            return false;
        };
        self.tree.info(k).def.is_some_and(|d| {
            !matches!(d.restriction, ast::Restriction::Type)
                && !matches!(d.body, ast::ClassBody::Enumeration { .. })
        })
    }

    pub(super) fn add_slot(
        &mut self,
        node: NodeId,
        clause: &'a ast::ComponentClause,
        decl: &'a ast::ComponentDecl,
        lexical: ClassId,
        modif: Mod<'a>,
        outer: Option<(Option<ast::Variability>, Option<ast::Causality>, bool)>,
    ) -> DResult<Option<SlotId>> {
        if let Some(&existing) = self.inst.nodes[node.0 as usize].slots.get(&decl.name.name) {
            // The same declaration inherited twice (a model and its base both declare
            // `parameter Integer m = 3`) is one element (specification 7.1.3).
            let (c0, d0, l0) = {
                let s = &self.inst.slots[existing.0 as usize];
                (s.clause, s.decl, s.lexical)
            };
            if l0 != lexical && self.same_declaration(c0, d0, clause, decl) {
                return Ok(None);
            }
            let prev = self.inst.slots[existing.0 as usize].decl.name.span;
            return Err(Box::new(
                Diagnostic::error(
                    "duplicate",
                    format!("`{}` is declared twice", decl.name.name),
                )
                .at(decl.name.span, "declared again here")
                .also(prev, "first declared here"),
            ));
        }
        let id = SlotId::new(self.inst.slots.len());
        let (ov, oc, of) = outer.unwrap_or((None, None, false));
        self.inst.slots.push(Slot {
            name: decl.name.name.clone(),
            clause,
            decl,
            lexical,
            node,
            modif,
            state: SlotState::Pending,
            outer_variability: ov,
            outer_causality: oc,
            outer_flow: of,
            is_connector: false,
            inner: false,
            outer: false,
            inner_part: None,
            building_inner: false,
            prefix: None,
        });
        let n = &mut self.inst.nodes[node.0 as usize];
        n.slots.insert(decl.name.name.clone(), id);
        n.order.push(id);
        Ok(Some(id))
    }

    /// Whether two component declarations are identical: type, prefixes, dimensions and
    /// modification, compared as written without white space (annotations and descriptions
    /// may differ).
    fn same_declaration(
        &self,
        c0: &ast::ComponentClause,
        d0: &ast::ComponentDecl,
        c1: &ast::ComponentClause,
        d1: &ast::ComponentDecl,
    ) -> bool {
        let text = |s: Span| -> String {
            self.tree
                .sources
                .text(s)
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect()
        };
        let m = |d: &ast::ComponentDecl| d.modification.as_ref().map(|m| text(m.span));
        let subs = |d: &ast::ComponentDecl, c: &ast::ComponentClause| {
            (d.subscripts.len(), c.subscripts.len())
        };
        c0.type_name.to_dotted() == c1.type_name.to_dotted()
            && c0.prefix.variability == c1.prefix.variability
            && c0.prefix.causality == c1.prefix.causality
            && c0.prefix.connection == c1.prefix.connection
            && subs(d0, c0) == subs(d1, c1)
            && m(d0) == m(d1)
    }

    /// Applies `--param name=value` overrides to top-level parameters.
    pub(super) fn apply_overrides(
        &mut self,
        top: NodeId,
        overrides: &[(String, f64)],
    ) -> DResult<()> {
        for (name, value) in overrides {
            let Some(&sid) = self.inst.nodes[top.0 as usize].slots.get(name.as_str()) else {
                return Err(Box::new(Diagnostic::error(
                    "unknown-name",
                    format!("--param: the model has no top-level parameter `{name}`"),
                )));
            };
            let slot = &self.inst.slots[sid.0 as usize];
            if slot.clause.prefix.variability != Some(ast::Variability::Parameter) {
                return Err(Box::new(
                    Diagnostic::error(
                        "not-a-parameter",
                        format!("--param: `{name}` is not a parameter"),
                    )
                    .at(slot.decl.name.span, "declared here"),
                ));
            }
            if !slot.decl.subscripts.is_empty() || !slot.clause.subscripts.is_empty() {
                return Err(Box::new(
                    Diagnostic::error(
                        "command-line",
                        format!("--param: `{name}` is an array; --param sets scalar parameters"),
                    )
                    .at(slot.decl.name.span, "declared here"),
                ));
            }
            let lexical = slot.lexical;
            let expr = slot
                .decl
                .modification
                .as_ref()
                .and_then(|m| match &m.binding {
                    Some(ast::Binding::Expr(e)) => Some(e),
                    _ => None,
                });
            let fallback = OVERRIDE_EXPR.with(|e| *e);
            self.inst.slots[sid.0 as usize].modif.binding = Some(modification::ModValue {
                expr: expr.unwrap_or(fallback),
                env: Env {
                    node: Some(top),
                    class: lexical,
                },
                select: Vec::new(),
                value: Some(*value),
                evaluated: None,
            });
        }
        Ok(())
    }

    /// Instantiates every slot of a node (recursively).
    pub(super) fn complete_node(&mut self, node: NodeId) -> DResult<()> {
        // The elements of an expandable connector are only potentially present: they are
        // made when a connection or a reference needs them (`expandable.rs`).
        if self.inst.nodes[node.0 as usize].is_expandable {
            return Ok(());
        }
        let order = self.inst.nodes[node.0 as usize].order.clone();
        for sid in order {
            self.instantiate(sid)?;
        }
        Ok(())
    }

    pub(super) fn slot_path(&self, sid: SlotId) -> String {
        let s = &self.inst.slots[sid.0 as usize];
        let p = &self.inst.nodes[s.node.0 as usize].path;
        if p.is_empty() {
            s.name.to_string()
        } else {
            format!("{p}.{}", s.name)
        }
    }

    /// A component an expression refers into: made and populated now, completed later.
    pub(super) fn instantiate_referenced(&mut self, sid: SlotId) -> DResult<Entry> {
        let saved = std::mem::replace(&mut self.inst.shallow, true);
        let r = self.instantiate(sid);
        self.inst.shallow = saved;
        r
    }

    pub(super) fn instantiate(&mut self, sid: SlotId) -> DResult<Entry> {
        match &self.inst.slots[sid.0 as usize].state {
            SlotState::Done(e) => return Ok(e.clone()),
            SlotState::InProgress => {
                let d = self.inst.slots[sid.0 as usize].decl;
                return Err(Box::new(
                    Diagnostic::error("cycle", format!("`{}` depends on itself", d.name.name))
                        .at(d.name.span, "in its own definition"),
                ));
            }
            SlotState::Pending => {}
        }
        self.inst.slots[sid.0 as usize].state = SlotState::InProgress;
        let entry = match self.inst.slots[sid.0 as usize].outer {
            true => self.outer_entry(sid)?,
            false => self.instantiate_inner(sid)?,
        };
        self.inst.slots[sid.0 as usize].state = SlotState::Done(entry.clone());
        // An `inner outer` component's inner half exists whether or not a nested outer
        // reaches it (it is a declaration of its own).
        let s = &self.inst.slots[sid.0 as usize];
        if s.inner && s.outer && s.inner_part.is_none() {
            self.inner_part(sid)?;
        }
        Ok(entry)
    }

    /// An `outer` component is the `inner` one of the same name in the nearest enclosing
    /// instance (specification 5.4): the same instance, reached by both names, its variables
    /// and equations made once. An `inner outer` component without an enclosing inner is an
    /// inner itself.
    fn outer_entry(&mut self, sid: SlotId) -> DResult<Entry> {
        let (name, node, decl, clause, also_inner) = {
            let s = &self.inst.slots[sid.0 as usize];
            (s.name.clone(), s.node, s.decl, s.clause, s.inner)
        };
        // An `inner outer` component's modification applies to its inner half only
        // (specification 5.5); a plain outer one may have none.
        if decl.modification.is_some() && !also_inner {
            return Err(Box::new(
                Diagnostic::error(
                    "outer",
                    format!("the outer component `{name}` has a modification"),
                )
                .at(decl.name.span, "modified here")
                .help("modify the inner declaration instead (specification 5.4)"),
            ));
        }
        let outside = &self.inst.slots[sid.0 as usize].modif;
        if !also_inner && (outside.binding.is_some() || !outside.subs.is_empty()) {
            let at = outside.span.unwrap_or(decl.name.span);
            let msg = format!("the outer component `{name}` is modified from outside");
            let d = typed::OUTER_MODIFIED
                .broken(at, msg, "modified here")
                .also(decl.name.span, "outer declared here");
            return Err(Box::new(d));
        }
        let mut cur = self.inst.nodes[node.0 as usize].parent;
        while let Some(n) = cur {
            if let Some(&isid) = self.inst.nodes[n.0 as usize].slots.get(&*name) {
                if self.inst.slots[isid.0 as usize].inner {
                    let (ic, id) = {
                        let s = &self.inst.slots[isid.0 as usize];
                        (s.clause, s.decl)
                    };
                    let lexical = self.inst.slots[sid.0 as usize].lexical;
                    let outer_class = self.component_class(clause, lexical)?;
                    let entry = if self.inst.slots[isid.0 as usize].outer {
                        self.inner_part(isid)?
                    } else {
                        self.instantiate(isid)?
                    };
                    // A predefined type's inner is of the outer's type (Integer is no Real).
                    if let Entry::Vars { .. } = &entry {
                        let inner_lexical = self.inst.slots[isid.0 as usize].lexical;
                        let inner_class = self.component_class(ic, inner_lexical)?;
                        let (a, b) = (
                            self.tree.short_chain_end(inner_class),
                            self.tree.short_chain_end(outer_class),
                        );
                        if a != b {
                            let msg = format!(
                                "the inner `{name}` is declared `{}`, its outer `{}`: another type",
                                ic.type_name.to_dotted(),
                                clause.type_name.to_dotted()
                            );
                            let d = typed::INNER_SUBTYPE
                                .broken(decl.name.span, msg, "outer declared here")
                                .also(id.name.span, "inner declared here");
                            return Err(Box::new(d));
                        }
                    }
                    // The inner's instance must be of the outer's class or extend it.
                    if let Entry::Nodes { nodes, .. } = &entry {
                        let fits = nodes
                            .iter()
                            .all(|n| self.inst.nodes[n.0 as usize].classes.contains(&outer_class));
                        if !fits {
                            return Err(Box::new(
                                Diagnostic::error(
                                    "outer",
                                    format!(
                                        "the inner `{name}` (a `{}`) is not a `{}`, the class of its outer",
                                        ic.type_name.to_dotted(),
                                        clause.type_name.to_dotted()
                                    ),
                                )
                                .at(decl.name.span, "outer declared here")
                                .also(id.name.span, "inner declared here"),
                            ));
                        }
                    }
                    return Ok(entry);
                }
            }
            cur = self.inst.nodes[n.0 as usize].parent;
        }
        if also_inner {
            // No enclosing inner: its inner half is the component itself.
            let e = self.instantiate_inner(sid)?;
            self.inst.slots[sid.0 as usize].inner_part = Some(e.clone());
            return Ok(e);
        }
        let lexical = self.inst.slots[sid.0 as usize].lexical;
        let outer_class = self.component_class(clause, lexical)?;
        if let Some(message) = self.missing_inner_message(outer_class) {
            return self.default_inner(sid, &message);
        }
        Err(Box::new(
            Diagnostic::error(
                "outer",
                format!("no `inner` declaration of `{name}` in an enclosing instance"),
            )
            .at(decl.name.span, "outer component declared here")
            .help(format!(
                "declare `inner {} {name}` in a model that contains this component (specification 5.4)",
                clause.type_name.to_dotted()
            )),
        ))
    }

    /// The inner half of an `inner outer` component (specification 5.5: it "conceptually
    /// introduces two declarations"): a separate instance at its own path, made with the
    /// declaration's modification, unless the component found no enclosing inner and is its
    /// own inner. Its outer half is instantiated first.
    fn inner_part(&mut self, sid: SlotId) -> DResult<Entry> {
        if let Some(e) = &self.inst.slots[sid.0 as usize].inner_part {
            return Ok(e.clone());
        }
        if self.inst.slots[sid.0 as usize].building_inner {
            // Reached from inside the inner half while it is completed: the instances made
            // so far (instantiating records them in the slot).
            return match &self.inst.slots[sid.0 as usize].state {
                SlotState::Done(e) => Ok(e.clone()),
                _ => {
                    let d = self.inst.slots[sid.0 as usize].decl;
                    Err(Box::new(
                        Diagnostic::error("cycle", format!("`{}` depends on itself", d.name.name))
                            .at(d.name.span, "in its own definition"),
                    ))
                }
            };
        }
        let outer = self.instantiate(sid)?;
        if let Some(e) = &self.inst.slots[sid.0 as usize].inner_part {
            return Ok(e.clone());
        }
        // Instantiating records the entry in the slot (for modifiers that refer into the
        // component); the slot stays the outer half for its own references.
        self.inst.slots[sid.0 as usize].building_inner = true;
        let e = self.instantiate_inner(sid);
        self.inst.slots[sid.0 as usize].building_inner = false;
        self.inst.slots[sid.0 as usize].state = SlotState::Done(outer);
        let e = e?;
        self.inst.slots[sid.0 as usize].inner_part = Some(e.clone());
        Ok(e)
    }

    /// The `missingInnerMessage` annotation of a class (specification 5.4): a tool may make
    /// the missing inner itself.
    fn missing_inner_message(&self, class: ClassId) -> Option<String> {
        string_annotation(self.class_annotation(class), "missingInnerMessage")
    }

    /// The inner an outer without one gets when its class has a `missingInnerMessage`: a
    /// component of the outer's class with its default modifications, declared in the
    /// simulated model under the outer's name, with a warning that gives the message.
    fn default_inner(&mut self, sid: SlotId, message: &str) -> DResult<Entry> {
        let (name, clause, decl, lexical) = {
            let s = &self.inst.slots[sid.0 as usize];
            (s.name.clone(), s.clause, s.decl, s.lexical)
        };
        let top = self.inst.top.expect("instantiating below the top model");
        if self.inst.nodes[top.0 as usize].slots.contains_key(&*name) {
            return Err(Box::new(
                Diagnostic::error(
                    "outer",
                    format!("no `inner` declaration of `{name}`, and the model has a component `{name}` that is not one"),
                )
                .at(decl.name.span, "outer component declared here")
                .help(format!("declare `inner {} {name}` in the model", clause.type_name.to_dotted())),
            ));
        }
        let Some(isid) = self.add_slot(top, clause, decl, lexical, Mod::default(), None)? else {
            unreachable!("a fresh name");
        };
        self.inst.slots[isid.0 as usize].inner = true;
        self.diags.push(
            Diagnostic::warning(
                "outer",
                format!(
                    "no `inner` declaration of `{name}`: rtc adds the default `inner {} {name}` to the model{}",
                    clause.type_name.to_dotted(),
                    if message.is_empty() { String::new() } else { format!(" ({message})") }
                ),
            )
            .at(decl.name.span, "outer component declared here"),
        );
        self.instantiate(isid)
    }

    /// The modification binding each field of record component `decl` (of dimensions
    /// `dims`) to the field of the value `b`; for an array of records the fields hold arrays,
    /// from which each element selects its own.
    fn record_binding(
        &mut self,
        b: &modification::ModValue<'a>,
        dims: &[usize],
        decl: &'a ast::ComponentDecl,
    ) -> DResult<Mod<'a>> {
        let v = self.eval_mod_value_val(b)?;
        if let Val::Record(rv) = &v {
            if rv.dims != dims && b.select.is_empty() {
                return Err(Box::new(
                    Diagnostic::error(
                        "size",
                        format!(
                            "`{}` has size {} but is bound to records of size {}",
                            decl.name.name,
                            dims_text(dims),
                            dims_text(&rv.dims)
                        ),
                    )
                    .at(b.expr.span, dims_text(&rv.dims)),
                ));
            }
        }
        record_mod(&v, b).ok_or_else(|| {
            Box::new(
                Diagnostic::error(
                    "type",
                    format!(
                        "record `{}` is bound to a value that is not a record",
                        decl.name.name
                    ),
                )
                .at(b.expr.span, "not a record"),
            )
        })
    }

    /// The type of a component: a redeclared component's new type, named where the
    /// redeclaration is written, else its declared type; either through the instance's class
    /// redeclarations (whose modification is merged into the component's, beneath it).
    fn slot_type(
        &mut self,
        sid: SlotId,
        clause: &'a ast::ComponentClause,
        env: Env,
        modif: &mut Mod<'a>,
    ) -> DResult<(ClassId, &'a ast::ComponentClause, ClassId)> {
        let (type_clause, type_env) = match modif.redeclare {
            Some(r) => (r.clause, r.env),
            None => (clause, env),
        };
        let written = modif.clone();
        let c = match self.redeclared_class(&type_clause.type_name, type_env, 0)? {
            Some((c, m)) => {
                *modif = merge(modif, &m);
                c
            }
            None => self.component_class(type_clause, type_env.class)?,
        };
        self.check_within_reach(c, type_clause)?;
        self.check_final_class(c, &written, type_clause)?;
        self.check_test_case(c, type_env.class, type_clause)?;
        match modif.redeclare {
            Some(r) => self.check_component_redeclare(sid, c, r, modif)?,
            None => self.check_declared_constraint(sid, c)?,
        }
        Ok((c, type_clause, type_env.class))
    }

    /// The class of a component declaration (an error if the name is a component or unknown).
    pub(super) fn component_class(
        &mut self,
        clause: &'a ast::ComponentClause,
        lexical: ClassId,
    ) -> DResult<ClassId> {
        match self.tree.lookup_name(lexical, &clause.type_name) {
            Some(Found::Class(c)) => Ok(c),
            Some(Found::Component { .. }) => Err(Box::new(
                Diagnostic::error(
                    "not-a-class",
                    format!(
                        "`{}` is a component, not a type",
                        clause.type_name.to_dotted()
                    ),
                )
                .at(clause.type_name.span, "expected a type"),
            )),
            None if clause.type_name.to_dotted() == "Clock" => Err(self.unsupported(
                clause.type_name.span,
                "the synchronous language (`Clock` variables, specification ch. 16)",
            )),
            None => Err(self.unknown_class(&clause.type_name, lexical)),
        }
    }

    /// The dimensions of a component: declaration subscripts, then the clause's (the type's
    /// follow when its short class is resolved). With `:` the binding gives the size, and is
    /// evaluated first so `size(A, 1)` may refer to the array itself.
    pub(super) fn component_dims(
        &mut self,
        clause: &'a ast::ComponentClause,
        decl: &'a ast::ComponentDecl,
        sid: SlotId,
        env: Env,
        modif: &Mod<'a>,
    ) -> DResult<Vec<usize>> {
        let has_colon = decl
            .subscripts
            .iter()
            .chain(&clause.subscripts)
            .any(|s| matches!(s, ast::Subscript::Colon(_)));
        if has_colon {
            if let Some(b) = modif.binding.clone() {
                let v = self.eval_mod_value(&b)?;
                self.inst.pending_dims.insert(sid, v.dims);
            }
        }
        let mut dims = Vec::new();
        let mut colon = false;
        for s in decl.subscripts.iter().chain(&clause.subscripts) {
            match s {
                ast::Subscript::Expr(e) => dims.push(self.eval_dim(e, env)?),
                ast::Subscript::Colon(_) => {
                    colon = true;
                    dims.push(usize::MAX);
                }
            }
        }
        if colon {
            // `A[:, 2] = ...`: sizes come from the binding.
            let Some(b) = modif.binding.clone() else {
                return Err(Box::new(
                    Diagnostic::error(
                        "size",
                        format!(
                            "the size of `{}` is not given and it has no binding",
                            decl.name.name
                        ),
                    )
                    .at(decl.name.span, "declared with `:`"),
                ));
            };
            let v = self.eval_mod_value(&b)?;
            for (k, d) in dims.iter_mut().enumerate() {
                if *d == usize::MAX {
                    *d = *v.dims.get(k).ok_or_else(|| {
                        Box::new(
                            Diagnostic::error(
                                "size",
                                format!(
                                    "binding of `{}` has {} dimensions, the declaration more",
                                    decl.name.name,
                                    v.dims.len()
                                ),
                            )
                            .at(b.expr.span, "binding"),
                        )
                    })?;
                }
            }
        }
        Ok(dims)
    }

    pub(super) fn instantiate_inner(&mut self, sid: SlotId) -> DResult<Entry> {
        let (clause, decl, lexical, node, mut modif) = {
            let s = &self.inst.slots[sid.0 as usize];
            (s.clause, s.decl, s.lexical, s.node, s.modif.clone())
        };
        let env = Env {
            node: Some(node),
            class: lexical,
        };
        if let Some(cond) = &decl.condition {
            let (v, ty) = self.eval_const_typed(cond, env, "a component condition")?;
            if ty != ScalarType::Boolean {
                let msg = format!(
                    "the condition of `{}` is of type {}",
                    decl.name.name,
                    ty.name()
                );
                let d = typed::CONDITION_BOOLEAN.broken(cond.span, msg, "not Boolean");
                return Err(Box::new(d));
            }
            if v == 0.0 {
                return Ok(Entry::Disabled);
            }
        }
        let redeclared = modif.redeclare;
        // What the component's modification names (not the modifiers its type adds).
        let named: Vec<(Box<str>, Option<Span>)> = modif
            .subs
            .iter()
            .map(|(n, m)| (n.clone(), m.span))
            .collect();
        let (class, type_clause, type_scope) = self.slot_type(sid, clause, env, &mut modif)?;
        let mut dims = match redeclared {
            Some(r) => self.redeclared_dims(sid, r, class, &modif)?,
            None => self.component_dims(clause, decl, sid, env, &modif)?,
        };
        let prefix = redeclared_prefix(clause, redeclared);
        let mut causality = prefix.causality;
        let class = self.resolve_short_in(
            Some(node),
            class,
            &mut modif,
            &mut dims,
            &mut causality,
            clause.span,
        )?;
        let s = &self.inst.slots[sid.0 as usize];
        // In an expandable connector, input and output follow from the connections.
        let causality = if self.inst.nodes[s.node.0 as usize].is_expandable {
            None
        } else {
            causality.or(s.outer_causality)
        };
        let variability = prefix.variability.or(s.outer_variability);
        let is_flow = prefix.connection == Some(ast::Connection::Flow) || s.outer_flow;
        if dims.is_empty() {
            check_each_on_scalar(decl)?;
        }
        let path = self.slot_path(sid);
        let count = elements(&dims, decl.name.span, &format!("`{path}`"))?;
        self.check_size_limit(class, count, &path, decl)?;
        let builtin = self.tree.info(class).builtin;
        if builtin == Some(Builtin::String) {
            return self.string_entry(sid, &dims, &modif, variability);
        }
        let scalar = match builtin {
            Some(Builtin::Real) => Some(ScalarType::Real),
            Some(Builtin::Integer) => Some(ScalarType::Integer),
            Some(Builtin::Boolean) => Some(ScalarType::Boolean),
            _ => self.enumeration(class)?.map(ScalarType::Enum),
        };
        if let Some(ty) = scalar {
            let vars = self.make_vars(
                sid,
                &path,
                ty,
                &dims,
                &modif,
                variability,
                causality,
                is_flow,
            )?;
            let mut is_conn = false;
            // `connector RealInput = input Real`: a connector whose only element is itself.
            let tdef = self.tree.lookup_name(type_scope, &type_clause.type_name);
            if let Some(Found::Class(c)) = tdef {
                is_conn = self.short_chain_has_connector(c);
            }
            self.inst.slots[sid.0 as usize].is_connector = is_conn;
            return Ok(Entry::Vars {
                dims,
                vars: vars.into(),
            });
        }
        let info = self.tree.info(class);
        let restriction = info.restriction();
        let is_connector = matches!(
            restriction,
            Some(ast::Restriction::Connector | ast::Restriction::ExpandableConnector)
        );
        let is_expandable = restriction == Some(ast::Restriction::ExpandableConnector);
        if matches!(
            restriction,
            Some(
                ast::Restriction::Function
                    | ast::Restriction::Package
                    | ast::Restriction::OperatorFunction
            )
        ) {
            return Err(Box::new(
                Diagnostic::error(
                    "not-a-class",
                    format!(
                        "`{}` is a {} and cannot be a component's type",
                        info.full_name,
                        restriction.map(|r| r.keyword()).unwrap_or("class")
                    ),
                )
                .at(clause.type_name.span, "here"),
            ));
        }
        if info.def.is_some_and(|d| d.partial) {
            return Err(Box::new(
                Diagnostic::error(
                    "partial",
                    format!(
                        "component `{}` has partial type `{}`",
                        decl.name.name, info.full_name
                    ),
                )
                .at(clause.type_name.span, "partial class"),
            ));
        }
        self.check_containment(node, class, decl, clause)?;
        self.inst.slots[sid.0 as usize].is_connector = is_connector;
        self.check_redeclares(&modif)?;
        match &modif.binding {
            Some(b) if restriction == Some(ast::Restriction::Record) => {
                // `R r = value`: each field is bound to the value's field, which replaces
                // the field's declared value (an outer modification).
                let b = b.clone();
                let fields = self.record_binding(&b, &dims, decl)?;
                modif.binding = None;
                modif = merge(&fields, &modif);
            }
            Some(b) if tables::is_external_object(self.tree, class) => {
                // An external object (the MSL's tables): its value is the constructor's record.
                let b = b.clone();
                if !dims.is_empty() {
                    return Err(self.unsupported(b.expr.span, "arrays of external objects"));
                }
                let v = self.eval_mod_value_val(&b)?;
                return Ok(Entry::Object(v));
            }
            Some(b) => {
                return Err(self.unsupported(
                    b.expr.span,
                    "bindings of structured components other than records",
                ))
            }
            None => {}
        }
        check_split_redeclaration(&dims, &modif, &path)?;
        let outer = Some((variability, causality, is_flow));
        let mut nodes = Vec::with_capacity(count);
        for k in 0..count {
            let sub_path = format!("{path}{}", subscript_text(&dims, k));
            let child = self.new_node(sub_path, is_connector, Some(node));
            self.inst.nodes[child.0 as usize].is_expandable = is_expandable;
            let mut m = if dims.is_empty() {
                modif.clone()
            } else {
                modif.select(&dims, k)
            };
            self.populate(child, class, &mut m, outer)?;
            self.check_modifiers(child, &m, class)?;
            nodes.push(child);
        }
        if let Some(&first) = nodes.first() {
            self.check_protected_modified(first, &named)?;
        }
        // The instances exist now: a modifier that refers into the component itself
        // (`vIn(startTime = -vIn.width/2)`) may reach its elements while they are completed,
        // each element still guarded against depending on itself.
        let nodes: Rc<[NodeId]> = nodes.into();
        self.inst.slots[sid.0 as usize].state = SlotState::Done(Entry::Nodes {
            dims: dims.clone(),
            nodes: nodes.clone(),
        });
        if self.inst.shallow {
            self.inst.incomplete.extend(nodes.iter().copied());
        } else {
            for &child in nodes.iter() {
                self.complete_node(child)?;
            }
        }
        Ok(Entry::Nodes { dims, nodes })
    }

    pub(super) fn short_chain_has_connector(&mut self, mut c: ClassId) -> bool {
        for _ in 0..64 {
            let info = self.tree.info(c);
            if matches!(
                info.restriction(),
                Some(ast::Restriction::Connector | ast::Restriction::ExpandableConnector)
            ) {
                return true;
            }
            match self.tree.base_of_short(c) {
                Some((b, _)) => c = b,
                None => return false,
            }
        }
        false
    }

    /// A String component: parameters and constants carry their value for messages and
    /// comparisons; String variables are not supported.
    pub(super) fn string_entry(
        &mut self,
        sid: SlotId,
        dims: &[usize],
        modif: &Mod<'a>,
        variability: Option<ast::Variability>,
    ) -> DResult<Entry> {
        let decl = self.inst.slots[sid.0 as usize].decl;
        if variability.is_none() || variability == Some(ast::Variability::Discrete) {
            return Err(self.unsupported(
                decl.span,
                "String variables (String parameters and constants are)",
            ));
        }
        if !dims.is_empty() {
            return Err(self.unsupported(decl.span, "arrays of Strings"));
        }
        if let Some((name, sub)) = modif.subs.iter().find(|(n, _)| &**n != "start") {
            let mut d = Diagnostic::error(
                "unknown-modifier",
                format!("a String parameter has no attribute `{name}`"),
            );
            if let Some(sp) = sub.span {
                d = d.at(sp, "not an attribute");
            }
            return Err(Box::new(d));
        }
        let value = match modif.binding.clone().or_else(|| modif.sub("start").binding) {
            Some(b) => match self.eval_mod_value_val(&b)? {
                Val::Str(s) => s,
                Val::Text(_) => return Err(self.changing_text(b.expr.span)),
                Val::Strs(_) => return Err(self.unsupported(decl.span, "arrays of Strings")),
                Val::Record(r) => {
                    return Err(Box::new(
                        Diagnostic::error(
                            "type",
                            format!(
                                "the value of String `{}` is a record (`{}`)",
                                decl.name.name, r.name
                            ),
                        )
                        .at(b.expr.span, "a record"),
                    ))
                }
                Val::Arr(a) => return Err(Box::new(
                    Diagnostic::error(
                        "type",
                        format!(
                            "the value of String `{}` is {}",
                            decl.name.name,
                            a.ty.name()
                        ),
                    )
                    .at(b.expr.span, a.ty.name())
                    .help(
                        "a String value is written in double quotes; String(x) converts a number",
                    ),
                )),
            },
            None if variability == Some(ast::Variability::Constant) => {
                return Err(Box::new(
                    Diagnostic::error(
                        "no-value",
                        format!("constant `{}` has no value", decl.name.name),
                    )
                    .at(decl.name.span, "declared without a value"),
                ))
            }
            None => String::new(),
        };
        Ok(Entry::Str(value.into()))
    }
}

/// The modification that binds every field of a record component to a record value's field.
/// The type prefixes of a component: a redeclaration keeps each group of prefixes it does
/// not give anew (7.3).
fn redeclared_prefix(
    clause: &ast::ComponentClause,
    redeclared: Option<modification::Redeclared<'_>>,
) -> ast::TypePrefix {
    match redeclared {
        Some(r) => ast::TypePrefix {
            connection: r.clause.prefix.connection.or(clause.prefix.connection),
            variability: r.clause.prefix.variability.or(clause.prefix.variability),
            causality: r.clause.prefix.causality.or(clause.prefix.causality),
        },
        None => clause.prefix,
    }
}

fn record_mod<'a>(v: &Val, b: &modification::ModValue<'a>) -> Option<Mod<'a>> {
    let Val::Record(rv) = v else {
        return None;
    };
    let mut m = Mod::default();
    for (name, fv) in &rv.fields {
        let sub = match fv {
            // A record field: its fields bound one by one; an array of records is bound as a
            // whole (each element then selects its own).
            Val::Record(r) if r.dims.is_empty() => record_mod(fv, b)?,
            _ => Mod {
                binding: Some(modification::ModValue {
                    expr: b.expr,
                    env: b.env,
                    select: Vec::new(),
                    value: None,
                    evaluated: Some(fv.clone()),
                }),
                span: Some(b.expr.span),
                ..Mod::default()
            },
        };
        m.subs.push((name.clone(), sub));
    }
    Some(m)
}
