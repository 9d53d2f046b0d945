//! Component references: lookup through the instance tree and the lexical scopes (package
//! constants), array subscripts and slices, components of component arrays (specification 5.3,
//! 10.5).

use super::*;

impl<'t, 'a> Flattener<'t, 'a> {
    pub(super) fn eval_ref(&mut self, r: &'a ast::ComponentRef, env: Env) -> DResult<Val> {
        let first = &r.parts[0];
        if !r.global && r.parts.len() == 1 {
            if let Some(&(_, v, ty)) = self
                .ctx
                .loop_vars
                .iter()
                .rev()
                .find(|(n, _, _)| *n == first.ident.name)
            {
                let a = Arr::scalar(self.flat.arena.constant(v), ty);
                return self
                    .apply_subscripts_arr(a, &first.subscripts, env, r.span)
                    .map(Val::Arr);
            }
        }
        if !r.global && self.frame_has(&first.ident.name, env) {
            return self.frame_ref(r, env);
        }
        if !r.global {
            self.not_conditional(r, env)?;
        }
        match self.resolve(r, env)? {
            Resolved::Value(v) => Ok(v),
            Resolved::Nodes { dims, nodes }
                if !nodes.is_empty() && nodes.iter().all(|&n| self.is_record_node(n)) =>
            {
                self.nodes_record(&dims, &nodes, r.span)
            }
            Resolved::Nodes { .. } => Err(Box::new(
                Diagnostic::error(
                    "type",
                    format!("`{}` is a component, not a value", r.to_source_string()),
                )
                .at(r.span, "used as a value")
                .help("refer to one of its variables, e.g. `comp.v`"),
            )),
        }
    }

    /// A conditional component is only modified or connected, never read in an expression
    /// (4.4.5): its value would not exist where its condition is false.
    fn not_conditional(&mut self, r: &ast::ComponentRef, env: Env) -> DResult<()> {
        let Some(node) = env.node else {
            return Ok(());
        };
        let Some(&sid) = self.inst.nodes[node.0 as usize]
            .slots
            .get(&*r.parts[0].ident.name)
        else {
            return Ok(());
        };
        let decl = self.inst.slots[sid.0 as usize].decl;
        let Some(cond) = &decl.condition else {
            return Ok(());
        };
        Err(Box::new(
            typed::CONDITIONAL_USED
                .broken(
                    r.span,
                    format!(
                        "`{}` reads the conditional component `{}`",
                        r.to_source_string(),
                        decl.name.name
                    ),
                    "read here",
                )
                .also(cond.span, "its condition"),
        ))
    }

    /// Resolves a component reference to values or instances.
    pub(super) fn resolve(&mut self, r: &'a ast::ComponentRef, env: Env) -> DResult<Resolved> {
        let first = &r.parts[0];
        let name = &*first.ident.name;
        // 1. A component of the instance.
        if !r.global {
            if let Some(node) = env.node {
                if let Some(&sid) = self.inst.nodes[node.0 as usize].slots.get(name) {
                    let entry = self.instantiate_referenced(sid)?;
                    self.inst.last_slot = Some(sid);
                    return self.walk(entry, r, 0, env);
                }
            }
            if name == "time" && first.subscripts.is_empty() && r.parts.len() == 1 {
                return Ok(Resolved::Value(Val::Arr(Arr::real(self.flat.arena.time()))));
            }
        }
        // 2. A class or package constant through the lexical scopes (a redeclared package
        // of the instance first: `Medium.cp`).
        let found = if r.global {
            self.tree.top_level(name).map(Found::Class)
        } else {
            let n = ast::Name {
                global: false,
                parts: vec![first.ident.clone()],
                span: first.ident.span,
            };
            match self.redeclared_class(&n, env, 0)? {
                Some((c, _)) => Some(Found::Class(c)),
                None => self.tree.lookup_simple(env.class, name, 0),
            }
        };
        let mut k = 0;
        let mut found = match found {
            Some(f) => f,
            None => return Err(self.unknown_component(r, 0, env)),
        };
        loop {
            match found {
                Found::Component {
                    owner,
                    clause,
                    decl,
                } => {
                    if clause.prefix.variability != Some(ast::Variability::Constant) {
                        return Err(Box::new(
                            Diagnostic::error(
                                "unknown-name",
                                format!(
                                    "`{}` is not a constant, so it cannot be used from outside an instance",
                                    decl.name.name
                                ),
                            )
                            .at(r.parts[k].ident.span, "not visible here"),
                        ));
                    }
                    let value = self.package_constant(owner, clause, decl)?;
                    let subs = &r.parts[k].subscripts;
                    // A constant table indexed by values known only at run time (the MSL's
                    // logic tables `OrTable[a, b]`): a selection among its elements.
                    let v = match self.apply_subscripts_arr(value.clone(), subs, env, r.span) {
                        Err(d) if d.code == "not-constant" => {
                            self.select_elements(value, subs, env, r.span)?
                        }
                        other => other?,
                    };
                    if k + 1 < r.parts.len() {
                        return Err(self.unsupported(r.span, "fields of package constants"));
                    }
                    return Ok(Resolved::Value(Val::Arr(v)));
                }
                Found::Class(c) => {
                    k += 1;
                    if k >= r.parts.len() {
                        return Err(Box::new(
                            Diagnostic::error(
                                "type",
                                format!("`{}` is a class, not a value", r.to_source_string()),
                            )
                            .at(r.span, "used as a value"),
                        ));
                    }
                    if let Some(en) = self.enumeration_through_short(c)? {
                        let part = &r.parts[k];
                        if k + 1 < r.parts.len() || !part.subscripts.is_empty() {
                            return Err(Box::new(
                                Diagnostic::error(
                                    "type",
                                    format!("`{}` is an enumeration literal", part.ident.name),
                                )
                                .at(r.span, "neither subscripts nor elements"),
                            ));
                        }
                        let v = self.enum_literal_value(en, &part.ident)?;
                        return Ok(Resolved::Value(Val::Arr(v)));
                    }
                    found = match self.tree.member(c, &r.parts[k].ident.name, 0) {
                        Some(f) => f,
                        None => return Err(self.unknown_component(r, k, env)),
                    };
                    self.looked_inside(c, &found, r, k)?;
                }
            }
        }
    }

    /// What a composite name `A.B` may find inside the class `A` (5.3.2, 5.3.3): `A` is not
    /// partial, and unless it is a package (or holds only classes and constants, the
    /// deprecated package-like case) only its encapsulated classes.
    fn looked_inside(
        &mut self,
        c: ClassId,
        found: &Found<'a>,
        r: &ast::ComponentRef,
        k: usize,
    ) -> DResult<()> {
        let end = self.tree.short_chain_end(c);
        let Some(def) = self.tree.info(end).def else {
            return Ok(());
        };
        let holder = r.parts[..k]
            .iter()
            .map(|p| &*p.ident.name)
            .collect::<Vec<_>>()
            .join(".");
        if def.partial {
            return Err(Box::new(
                Diagnostic::error(
                    "lookup",
                    format!("`{holder}` is partial: a name cannot be looked up inside it"),
                )
                .at(r.parts[k - 1].ident.span, "partial")
                .help(
                    "Modelica 3.6 §5.3.2: the class looked inside by a composite name shall not \
                     be partial in a simulation model",
                ),
            ));
        }
        let encapsulated_class = matches!(found, Found::Class(x)
            if self.tree.info(*x).def.is_some_and(|d| d.encapsulated));
        if encapsulated_class || self.package_like(end, 0) {
            return Ok(());
        }
        Err(Box::new(
            Diagnostic::error(
                "lookup",
                format!(
                    "`{holder}` is {} {}, not a package: `{}` cannot be looked up inside it",
                    article(def.restriction.keyword()),
                    def.restriction.keyword(),
                    r.parts[k].ident.name
                ),
            )
            .at(r.parts[k].ident.span, "not visible from outside")
            .help(
                "Modelica 3.6 §5.3.2: inside a class that is not a package, a composite name \
                 finds only encapsulated elements",
            ),
        ))
    }

    /// A package or operator, or a class whose elements (its bases' included) are classes,
    /// imports and constants only, with no equations or algorithms (5.3.2's deprecated case).
    fn package_like(&mut self, c: ClassId, depth: u32) -> bool {
        let Some(def) = self.tree.info(c).def else {
            return true;
        };
        if matches!(
            def.restriction,
            ast::Restriction::Package | ast::Restriction::Operator
        ) {
            return true;
        }
        if depth > 16 {
            return true;
        }
        let Some(comp) = self.tree.info(c).composition() else {
            return true;
        };
        let own = comp.equations.is_empty()
            && comp.initial_equations.is_empty()
            && comp.algorithms.is_empty()
            && comp.elements.iter().all(|e| match e {
                ast::Element::Component(cl, _) => {
                    cl.prefix.variability == Some(ast::Variability::Constant)
                }
                _ => true,
            });
        own && self
            .tree
            .bases(c)
            .into_iter()
            .all(|b| self.package_like(b, depth + 1))
    }

    /// A function called through a component (5.3.2): `s.f(…)`, `s[1].P.g(…)` — leading
    /// components of the instance, each scalar or indexed by constants down to one, then
    /// classes looked up in the last component's class, the last a function.
    /// Returns the function and the instance it is called through.
    pub(super) fn function_via_component_at(
        &mut self,
        r: &'a ast::ComponentRef,
        env: Env,
    ) -> Option<(ClassId, NodeId)> {
        let mut node = env.node?;
        if r.global || r.parts.len() < 2 {
            return None;
        }
        let mut k = 0;
        while let Some(&sid) = self.inst.nodes[node.0 as usize]
            .slots
            .get(&r.parts[k].ident.name)
        {
            let Ok(Entry::Nodes { dims, nodes }) = self.instantiate_referenced(sid) else {
                return None;
            };
            let mut index = 0;
            if r.parts[k].subscripts.len() != dims.len() {
                return None;
            }
            for (s, &n) in r.parts[k].subscripts.iter().zip(&dims) {
                let ast::Subscript::Expr(e) = s else {
                    return None;
                };
                let i = self.eval_const(e, env, "an index").ok()?;
                if i < 1.0 || i.fract() != 0.0 || i as usize > n {
                    return None;
                }
                index = index * n + (i as usize - 1);
            }
            node = *nodes.get(index)?;
            k += 1;
            if k + 1 >= r.parts.len() {
                break;
            }
        }
        if k == 0 {
            return None;
        }
        let mut c = *self.inst.nodes[node.0 as usize].classes.first()?;
        for (j, part) in r.parts[k..].iter().enumerate() {
            if !part.subscripts.is_empty() {
                return None;
            }
            // The instance's redeclaration of the class (`world(redeclare function
            // gravityAcceleration = …)`), not the class it replaces.
            if j == 0 {
                let n = ast::Name {
                    global: false,
                    parts: vec![part.ident.clone()],
                    span: part.ident.span,
                };
                let env = Env {
                    node: Some(node),
                    class: c,
                };
                if let Ok(Some((x, m))) = self.redeclared_class(&n, env, 0) {
                    if !m.is_empty() {
                        // Its modification would be lost: refuse rather than compute with
                        // the new function's defaults.
                        let d = self.unsupported(
                            r.span,
                            "a function redeclared with a modification in an instance, called through it",
                        );
                        self.push_error(*d);
                    }
                    c = x;
                    continue;
                }
            }
            match self.tree.member(c, &part.ident.name, 0) {
                Some(Found::Class(x)) => c = x,
                _ => return None,
            }
        }
        matches!(
            self.tree.info(c).restriction(),
            Some(ast::Restriction::Function)
        )
        .then_some((c, node))
    }

    pub(super) fn unknown_component(
        &mut self,
        r: &ast::ComponentRef,
        k: usize,
        env: Env,
    ) -> Box<Diagnostic> {
        let part = &r.parts[k];
        let mut candidates: Vec<String> = Vec::new();
        if k == 0 {
            if let Some(node) = env.node {
                candidates.extend(
                    self.inst.nodes[node.0 as usize]
                        .slots
                        .keys()
                        .map(|s| s.to_string()),
                );
            }
            candidates.extend(self.tree.visible_names(env.class));
            candidates.extend(self.ctx.loop_vars.iter().map(|(n, _, _)| n.to_string()));
            candidates.push("time".into());
        }
        let mut d = Diagnostic::error(
            "unknown-name",
            format!("unknown name `{}`", part.ident.name),
        )
        .at(part.ident.span, "not declared");
        if k == 0 && !r.global && self.tree.top_level(&part.ident.name).is_some() {
            // Found only past an encapsulated class.
            d = d.help(format!(
                "Modelica 3.6 §13.2: inside an encapsulated class, other packages' classes are \
                 named through an import (`import {};`)",
                part.ident.name
            ));
        } else if let Some(s) = suggest(&part.ident.name, &candidates) {
            d = d.help(format!("did you mean `{s}`?"));
        }
        Box::new(d)
    }

    pub(super) fn package_constant(
        &mut self,
        owner: ClassId,
        clause: &'a ast::ComponentClause,
        decl: &'a ast::ComponentDecl,
    ) -> DResult<Arr> {
        let key = (owner, decl.name.name.clone());
        if let Some(v) = self.package_consts.get(&key) {
            return Ok(v.clone());
        }
        let env = Env {
            node: None,
            class: owner,
        };
        let binding = decl.modification.as_ref().and_then(|m| match &m.binding {
            Some(ast::Binding::Expr(e)) => Some(e),
            _ => None,
        });
        let Some(b) = binding else {
            return Err(Box::new(
                Diagnostic::error(
                    "no-value",
                    format!("constant `{}` has no value", decl.name.name),
                )
                .at(decl.name.span, "declared without a value"),
            ));
        };
        let _ = clause;
        let saved = std::mem::take(&mut self.ctx.loop_vars);
        let v = self.eval_arr(b, env);
        self.ctx.loop_vars = saved;
        let v = v?;
        for &x in &v.data {
            if self.fold(x).is_none() {
                return Err(Box::new(
                    Diagnostic::error(
                        "not-constant",
                        format!("constant `{}` has a non-constant value", decl.name.name),
                    )
                    .at(b.span, "not constant"),
                ));
            }
        }
        self.package_consts.insert(key, v.clone());
        Ok(v)
    }

    /// Continues resolving `r` from part `k`, whose entry is `entry`.
    pub(super) fn walk(
        &mut self,
        entry: Entry,
        r: &'a ast::ComponentRef,
        k: usize,
        env: Env,
    ) -> DResult<Resolved> {
        let part = &r.parts[k];
        match entry {
            Entry::Disabled => Err(Box::new(
                Diagnostic::error(
                    "disabled",
                    format!(
                        "`{}` is a conditional component that is disabled",
                        part.ident.name
                    ),
                )
                .at(part.ident.span, "its condition is false"),
            )),
            Entry::Object(v) => {
                if k + 1 < r.parts.len() || !part.subscripts.is_empty() {
                    return Err(self.unsupported(r.span, "elements of external objects"));
                }
                Ok(Resolved::Value(v))
            }
            Entry::Str(value) => {
                if k + 1 < r.parts.len() || !part.subscripts.is_empty() {
                    return Err(Box::new(
                        Diagnostic::error("type", format!("`{}` is a String", part.ident.name))
                            .at(r.span, "neither subscripts nor elements"),
                    ));
                }
                Ok(Resolved::Value(Val::Str(value.to_string())))
            }
            Entry::Vars { dims, vars } => {
                if k + 1 < r.parts.len() {
                    return Err(Box::new(
                        Diagnostic::error(
                            "unknown-name",
                            format!(
                                "`{}` is a scalar variable and has no element `{}`",
                                part.ident.name,
                                r.parts[k + 1].ident.name
                            ),
                        )
                        .at(r.parts[k + 1].ident.span, "no such element"),
                    ));
                }
                let ty = vars
                    .first()
                    .map_or(ScalarType::Real, |&v| self.flat.vars[v].ty);
                match self.apply_subscripts_list(&dims, &vars, &part.subscripts, env, r.span) {
                    Ok((dims, vars)) => {
                        let data = vars.iter().map(|&v| self.var_expr(v)).collect();
                        Ok(Resolved::Value(Val::Arr(Arr { dims, data, ty })))
                    }
                    // An index known only at run time (`x[k]` with a discrete k): a selection.
                    Err(d) if d.code == "not-constant" => {
                        let data = vars.iter().map(|&v| self.var_expr(v)).collect();
                        let a = Arr { dims, data, ty };
                        let a = self.select_elements(a, &part.subscripts, env, r.span)?;
                        Ok(Resolved::Value(Val::Arr(a)))
                    }
                    Err(d) => Err(d),
                }
            }
            Entry::Nodes { dims, nodes } => {
                let (dims, nodes) =
                    self.apply_subscripts_list(&dims, &nodes, &part.subscripts, env, r.span)?;
                if k + 1 == r.parts.len() {
                    return Ok(Resolved::Nodes { dims, nodes });
                }
                let next = &r.parts[k + 1];
                let mut results = Vec::with_capacity(nodes.len());
                for &n in &nodes {
                    let Some(&sid) = self.inst.nodes[n.0 as usize].slots.get(&next.ident.name)
                    else {
                        let candidates: Vec<String> = self.inst.nodes[n.0 as usize]
                            .slots
                            .keys()
                            .map(|s| s.to_string())
                            .collect();
                        let mut d = Diagnostic::error(
                            "unknown-name",
                            format!("`{}` has no element `{}`", part.ident.name, next.ident.name),
                        )
                        .at(next.ident.span, "no such element");
                        if let Some(s) = suggest(&next.ident.name, &candidates) {
                            d = d.help(format!("did you mean `{s}`?"));
                        }
                        return Err(Box::new(d));
                    };
                    if self.inst.slots[sid.0 as usize]
                        .prefix
                        .is_some_and(|p| p.protected)
                    {
                        let msg = format!(
                            "`{}` is protected in `{}`",
                            next.ident.name, part.ident.name
                        );
                        let d = typed::PROTECTED_ACCESS.broken(next.ident.span, msg, "protected");
                        return Err(Box::new(d));
                    }
                    let e = self.instantiate_referenced(sid)?;
                    self.inst.last_slot = Some(sid);
                    results.push(self.walk(e, r, k + 1, env)?);
                }
                combine(dims, results, r.span)
            }
        }
    }

    /// A variable in an expression: constants are inlined, everything else stays symbolic.
    pub(super) fn var_expr(&mut self, v: FlatVar) -> ExprId {
        let var = &self.flat.vars[v];
        if var.kind == VarKind::Constant {
            if let Some(b) = var.binding {
                if self.flat.arena.as_const(b).is_some() {
                    return b;
                }
            }
        }
        self.flat.arena.var(v)
    }

    pub(super) fn subscript_indices(
        &mut self,
        s: &'a ast::Subscript,
        n: usize,
        env: Env,
    ) -> DResult<Option<Vec<usize>>> {
        match s {
            ast::Subscript::Colon(_) => Ok(None),
            ast::Subscript::Expr(e) => {
                self.ctx.end_stack.push(n);
                let r = self.eval_arr(e, env);
                self.ctx.end_stack.pop();
                let a = r?;
                if !matches!(a.ty, ScalarType::Enum(_)) {
                    types::integer(&a, e.span, "an array subscript")?;
                }
                let mut out = Vec::with_capacity(a.data.len());
                for &x in &a.data {
                    let Some(v) = self.fold(x) else {
                        return Err(Box::new(
                            Diagnostic::error("not-constant", "array subscripts must be known at compile time")
                                .at(e.span, "depends on a variable")
                                .help("rtc expands arrays to scalars; a variable index would need run-time lookup"),
                        ));
                    };
                    if v < 1.0 || v.fract() != 0.0 || v as usize > n {
                        return Err(Box::new(
                            Diagnostic::error(
                                "index",
                                format!("index {v} is out of bounds 1..{n}"),
                            )
                            .at(e.span, "out of bounds"),
                        ));
                    }
                    out.push(v as usize - 1);
                }
                if a.dims.is_empty() {
                    Ok(Some(out))
                } else {
                    // A vector of indices keeps the dimension: mark by returning it as a slice.
                    Ok(Some(out).map(|mut o| {
                        o.push(usize::MAX);
                        o
                    }))
                }
            }
        }
    }

    /// Applies subscripts to an array value.
    pub(super) fn apply_subscripts_arr(
        &mut self,
        a: Arr,
        subs: &'a [ast::Subscript],
        env: Env,
        span: Span,
    ) -> DResult<Arr> {
        if subs.is_empty() {
            return Ok(a);
        }
        let (dims, data) = self.apply_subscripts_list(&a.dims, &a.data, subs, env, span)?;
        Ok(Arr {
            dims,
            data,
            ty: a.ty,
        })
    }

    pub(super) fn apply_subscripts_list<T: Copy>(
        &mut self,
        dims: &[usize],
        data: &[T],
        subs: &'a [ast::Subscript],
        env: Env,
        span: Span,
    ) -> DResult<(Vec<usize>, Vec<T>)> {
        if subs.is_empty() {
            return Ok((dims.to_vec(), data.to_vec()));
        }
        if subs.len() > dims.len() {
            return Err(Box::new(
                Diagnostic::error(
                    "index",
                    format!(
                        "{} subscripts for an array with {} dimensions",
                        subs.len(),
                        dims.len()
                    ),
                )
                .at(span, "too many subscripts"),
            ));
        }
        // Per dimension: chosen indices and whether the dimension is kept.
        let mut choice: Vec<(Vec<usize>, bool)> = Vec::with_capacity(dims.len());
        for (k, &n) in dims.iter().enumerate() {
            match subs.get(k) {
                None => choice.push(((0..n).collect(), true)),
                Some(s) => match self.subscript_indices(s, n, env)? {
                    None => choice.push(((0..n).collect(), true)),
                    Some(mut idx) => {
                        let keep = idx.last() == Some(&usize::MAX);
                        if keep {
                            idx.pop();
                        }
                        choice.push((idx, keep));
                    }
                },
            }
        }
        let new_dims: Vec<usize> = choice
            .iter()
            .filter(|(_, k)| *k)
            .map(|(i, _)| i.len())
            .collect();
        let mut strides = vec![1usize; dims.len()];
        for k in (0..dims.len().saturating_sub(1)).rev() {
            strides[k] = strides[k + 1] * dims[k + 1];
        }
        let total: usize = choice.iter().map(|(i, _)| i.len()).product();
        let mut out = Vec::with_capacity(total);
        let mut counter = vec![0usize; dims.len()];
        if total > 0 {
            loop {
                let mut flat = 0;
                for k in 0..dims.len() {
                    flat += choice[k].0[counter[k]] * strides[k];
                }
                out.push(data[flat]);
                // Increment the odometer.
                let mut k = dims.len();
                loop {
                    if k == 0 {
                        break;
                    }
                    k -= 1;
                    counter[k] += 1;
                    if counter[k] < choice[k].0.len() {
                        break;
                    }
                    counter[k] = 0;
                    if k == 0 {
                        return Ok((new_dims, out));
                    }
                }
                if dims.is_empty() {
                    break;
                }
            }
        }
        Ok((new_dims, out))
    }
}

/// Joins per-instance results of `comp[:].x` into one result with the instance dimensions first.
pub(super) fn combine(dims: Vec<usize>, results: Vec<Resolved>, span: Span) -> DResult<Resolved> {
    if dims.is_empty() && results.len() == 1 {
        return results.into_iter().next().ok_or_else(|| {
            Box::new(Diagnostic::error("internal", "empty reference").at(span, "here"))
        });
    }
    let mut arrs = Vec::new();
    let mut node_lists = Vec::new();
    let mut inner_dims = None;
    for r in results {
        match r {
            Resolved::Value(Val::Arr(a)) => arrs.push(a),
            Resolved::Nodes { dims: d, nodes } => {
                inner_dims = Some(d);
                node_lists.extend(nodes);
            }
            Resolved::Value(Val::Str(_) | Val::Text(_) | Val::Strs(_)) => {
                return Err(Box::new(
                    Diagnostic::error("type", "array of strings").at(span, "here"),
                ))
            }
            Resolved::Value(Val::Record(_)) => {
                return Err(Box::new(
                    Diagnostic::error("unsupported", "not yet supported: arrays of records")
                        .at(span, "here"),
                ))
            }
        }
    }
    if !arrs.is_empty() {
        let inner = arrs[0].dims.clone();
        let mut data = Vec::new();
        for a in &arrs {
            if a.dims != inner {
                return Err(Box::new(
                    Diagnostic::error("size", "elements of a component array have different sizes")
                        .at(span, "here"),
                ));
            }
            data.extend_from_slice(&a.data);
        }
        let mut d = dims;
        d.extend(inner);
        let ty = arrs[0].ty;
        return Ok(Resolved::Value(Val::Arr(Arr { dims: d, data, ty })));
    }
    let mut d = dims;
    d.extend(inner_dims.unwrap_or_default());
    Ok(Resolved::Nodes {
        dims: d,
        nodes: node_lists,
    })
}

/// "a" or "an" before a class kind's keyword.
fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}
