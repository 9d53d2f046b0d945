//! Records (specification 12.6): record values built by the implicit record
//! constructor `R(a = 1, b = 2)`, record components of a model read as values, bindings of
//! whole records (`R r = R(1, 2)`, `parameter R p = q`), equations between records (one per
//! field), and records as the inputs, outputs and locals of functions.
//!
//! A record value ([`RecordVal`]) holds its fields' values (numbers, Strings, nested
//! records); everything becomes scalar equations and bindings in the end, like arrays.

use super::functions::{FnDef, Param};
use super::*;

impl<'t, 'a> Flattener<'t, 'a> {
    /// `R(…)`: the implicit record constructor (inputs: the fields that can be modified).
    pub(super) fn record_constructor(
        &mut self,
        class: ClassId,
        args: &'a ast::CallArgs,
        env: Env,
        span: Span,
    ) -> DResult<Val> {
        let def = self.record_def(class, span)?;
        let mut outs = self.execute_isolated(&def, args, env, span)?;
        outs.pop().ok_or_else(|| {
            Box::new(
                Diagnostic::error("internal", "record constructor without a result")
                    .at(span, "here"),
            )
        })
    }

    /// The fields of a record class, inherited ones first.
    pub(super) fn record_def(&mut self, class: ClassId, span: Span) -> DResult<FnDef<'a>> {
        let mut def = FnDef::new(self.tree.info(class).full_name.clone(), true);
        let mut overrides = Vec::new();
        self.collect_record(class, &mut def, &mut overrides, span, 0)?;
        def.apply_defaults(overrides)?;
        Ok(def)
    }

    fn collect_record(
        &mut self,
        class: ClassId,
        def: &mut FnDef<'a>,
        overrides: &mut Vec<functions::Default<'a>>,
        span: Span,
        depth: usize,
    ) -> DResult<()> {
        if depth > 32 || self.ctx.extends_chain.contains(&class) {
            return Err(Box::new(
                Diagnostic::error(
                    "cycle",
                    format!("record `{}` inherits from itself", def.name),
                )
                .at(span, "here"),
            ));
        }
        // Inherited twice along different paths (a diamond): its fields are there already.
        if def.classes.contains(&class) {
            return Ok(());
        }
        let mut m = Mod::default();
        let mut dims = Vec::new();
        let mut caus = None;
        let class = self.resolve_short(class, &mut m, &mut dims, &mut caus, span)?;
        if !m.is_empty() || !dims.is_empty() {
            return Err(self.unsupported(
                span,
                "record constructors of modified or array record types",
            ));
        }
        def.classes.push(class);
        let Some(comp) = self.tree.info(class).composition() else {
            return Ok(());
        };
        let env = Env { node: None, class };
        for element in &comp.elements {
            match element {
                // The predefined `ExternalObject` (12.9.7) adds nothing.
                ast::Element::Extends(ext) if ext.base.to_dotted() == "ExternalObject" => {}
                ast::Element::Extends(ext) => {
                    let Some(Found::Class(b)) = self.tree.lookup_name(class, &ext.base) else {
                        return Err(self.unknown_class(&ext.base, class));
                    };
                    let mut sub = Vec::new();
                    if let Some(cm) = &ext.modification {
                        self.function_overrides(cm, env, &mut sub)?;
                    }
                    self.ctx.extends_chain.push(class);
                    let r = self.collect_record(b, def, overrides, span, depth + 1);
                    self.ctx.extends_chain.pop();
                    r?;
                    overrides.extend(sub);
                }
                ast::Element::Component(clause, prefix) => {
                    for decl in &clause.components {
                        let binding = decl.modification.as_ref().and_then(|m| match &m.binding {
                            Some(ast::Binding::Expr(e)) => Some((e, env)),
                            _ => None,
                        });
                        // Constants and final fields with a value are not inputs (12.6).
                        let fixed = binding.is_some()
                            && (prefix.final_
                                || clause.prefix.variability == Some(ast::Variability::Constant));
                        def.params.push(Param {
                            name: &decl.name.name,
                            is_input: !prefix.protected && !fixed,
                            is_output: false,
                            clause,
                            decl,
                            lexical: class,
                            binding,
                        });
                    }
                }
                ast::Element::Class(..) | ast::Element::Import(_) => {}
            }
        }
        Ok(())
    }

    /// After a record constructor ran: the record of its fields.
    pub(super) fn record_result(&mut self, def: &FnDef<'a>, span: Span) -> DResult<Val> {
        let u = self.unset();
        let mut fields = Vec::with_capacity(def.params.len());
        for p in &def.params {
            let v = self.local_value(p.name, span);
            let v = match v {
                Ok(Val::Arr(a)) if !a.data.contains(&u) => Val::Arr(a),
                Ok(Val::Arr(_)) | Err(_) => {
                    return Err(Box::new(
                        Diagnostic::error(
                            "no-value",
                            format!("field `{}` of record `{}` has no value", p.name, def.name),
                        )
                        .at(span, "give it in the constructor call")
                        .also(p.decl.name.span, "declared without a default"),
                    ))
                }
                Ok(v) => v,
            };
            fields.push((Box::from(p.name), v));
        }
        Ok(Val::Record(Rc::new(RecordVal {
            class: def.classes[0],
            name: def.name.clone(),
            dims: Vec::new(),
            fields,
        })))
    }

    /// A record value whose every field is unassigned (a function's record output or local
    /// before its fields are assigned).
    pub(super) fn record_template(
        &mut self,
        class: ClassId,
        span: Span,
        depth: usize,
    ) -> DResult<Val> {
        if depth > 16 {
            return Err(Box::new(
                Diagnostic::error("cycle", "a record contains itself").at(span, "here"),
            ));
        }
        let def = self.record_def(class, span)?;
        let mut fields = Vec::with_capacity(def.params.len());
        for p in &def.params {
            let env = Env {
                node: None,
                class: p.lexical,
            };
            let mut dims = Vec::new();
            for s in p.decl.subscripts.iter().chain(&p.clause.subscripts) {
                match s {
                    ast::Subscript::Expr(e) => dims.push(self.eval_dim(e, env)?),
                    ast::Subscript::Colon(sp) => {
                        return Err(
                            self.unsupported(*sp, "record fields of open size `:` in functions")
                        )
                    }
                }
            }
            let v = match self.local_type(p)? {
                functions::LocalTy::Num(ty) => {
                    let u = self.unset();
                    let n: usize = dims.iter().product();
                    Val::Arr(Arr {
                        dims,
                        data: vec![u; n],
                        ty,
                    })
                }
                functions::LocalTy::Str => Val::Str(String::new()),
                functions::LocalTy::Record(c) => {
                    let t = self.record_template(c, span, depth + 1)?;
                    self.record_array_of(t, &dims, span)?
                }
            };
            fields.push((Box::from(p.name), v));
        }
        Ok(Val::Record(Rc::new(RecordVal {
            class: def.classes[0],
            name: def.name.clone(),
            dims: Vec::new(),
            fields,
        })))
    }

    /// The record `cur` with the field at `path` assigned `value` under guard `g`.
    pub(super) fn set_field(
        &mut self,
        cur: &Val,
        path: &'a [ast::RefPart],
        value: Val,
        g: ExprId,
        span: Span,
    ) -> DResult<Val> {
        let part = &path[0];
        if !part.subscripts.is_empty() {
            return Err(
                self.unsupported(part.ident.span, "subscripted assignments to record fields")
            );
        }
        let old = algorithms::field_of(cur, part)?;
        let Val::Record(rv) = cur else {
            return Ok(old);
        };
        let new = if path.len() > 1 {
            self.set_field(&old, &path[1..], value, g, span)?
        } else {
            match (&old, value) {
                (Val::Arr(o), Val::Arr(n)) => {
                    if o.dims != n.dims || !types::assignable(o.ty, n.ty) {
                        return Err(Box::new(
                            Diagnostic::error(
                                "type",
                                format!(
                                    "field `{}` is {} of size {} and is assigned {} of size {}",
                                    part.ident.name,
                                    o.ty.name(),
                                    dims_text(&o.dims),
                                    n.ty.name(),
                                    dims_text(&n.dims)
                                ),
                            )
                            .at(span, "here"),
                        ));
                    }
                    let u = self.unset();
                    let data = o
                        .data
                        .iter()
                        .zip(&n.data)
                        .map(|(&o, &n)| {
                            if o == u {
                                n
                            } else {
                                self.flat.arena.if_(g, n, o)
                            }
                        })
                        .collect();
                    Val::Arr(Arr {
                        dims: o.dims.clone(),
                        data,
                        ty: o.ty,
                    })
                }
                (Val::Str(_), v @ Val::Str(_)) => self.merged(g, v, &old, span)?,
                (Val::Record(a), Val::Record(b)) if a.class == b.class => {
                    self.merged(g, Val::Record(b), &old, span)?
                }
                _ => {
                    return Err(Box::new(
                        Diagnostic::error(
                            "type",
                            format!(
                                "field `{}` is assigned a value of another kind",
                                part.ident.name
                            ),
                        )
                        .at(span, "here"),
                    ))
                }
            }
        };
        let mut fields = rv.fields.clone();
        for (n, v) in &mut fields {
            if **n == *part.ident.name {
                *v = new.clone();
            }
        }
        Ok(Val::Record(Rc::new(RecordVal {
            class: rv.class,
            name: rv.name.clone(),
            dims: Vec::new(),
            fields,
        })))
    }

    /// A record component of the model read as a value.
    pub(super) fn node_record(&mut self, node: NodeId, span: Span) -> DResult<Val> {
        let class = self.inst.nodes[node.0 as usize].classes[0];
        let order = self.inst.nodes[node.0 as usize].order.clone();
        let mut fields = Vec::with_capacity(order.len());
        for sid in order {
            let name = self.inst.slots[sid.0 as usize].name.clone();
            let v = match self.instantiate(sid)? {
                Entry::Vars { dims, vars } => {
                    let ty = vars
                        .first()
                        .map_or(ScalarType::Real, |v| self.flat.vars[*v].ty);
                    let data = vars.iter().map(|&v| self.var_expr(v)).collect();
                    Val::Arr(Arr { dims, data, ty })
                }
                Entry::Str(s) => Val::Str(s.to_string()),
                Entry::Object(v) => v,
                Entry::Nodes { dims, nodes } => self.nodes_record(&dims, &nodes, span)?,
                Entry::Disabled => continue,
            };
            fields.push((name, v));
        }
        Ok(Val::Record(Rc::new(RecordVal {
            class,
            name: self.tree.info(class).full_name.clone(),
            dims: Vec::new(),
            fields,
        })))
    }

    /// Whether a component instance is a record.
    pub(super) fn is_record_node(&self, node: NodeId) -> bool {
        let class = self.inst.nodes[node.0 as usize].classes[0];
        self.tree.info(class).restriction() == Some(ast::Restriction::Record)
    }

    /// The scalar equations of `a = b` between two record values, field by field.
    pub(super) fn record_equation(
        &mut self,
        a: &Val,
        b: &Val,
        span: Span,
        out: &mut Vec<Equation>,
    ) -> DResult<()> {
        match (a, b) {
            (Val::Record(x), Val::Record(y)) => {
                for (name, fx) in &x.fields {
                    let Some(fy) = y.field(name) else {
                        return Err(Box::new(
                            Diagnostic::error(
                                "type",
                                format!(
                                    "records `{}` and `{}` differ: no field `{name}` in the second",
                                    x.name, y.name
                                ),
                            )
                            .at(span, "equation between records"),
                        ));
                    };
                    self.record_equation(fx, fy, span, out)?;
                }
                Ok(())
            }
            (Val::Arr(x), Val::Arr(y)) => {
                if x.dims != y.dims || types::unify(x.ty, y.ty).is_none() {
                    return Err(Box::new(
                        Diagnostic::error("type", "fields of the records differ in type or size")
                            .at(span, "equation between records"),
                    ));
                }
                for (&l, &r) in x.data.iter().zip(&y.data) {
                    out.push(Equation {
                        lhs: l,
                        rhs: r,
                        span,
                        origin: EquationOrigin::Source,
                    });
                }
                Ok(())
            }
            (Val::Str(_), Val::Str(_)) => Ok(()),
            _ => Err(Box::new(
                Diagnostic::error(
                    "type",
                    "an equation between a record and a value that is not one",
                )
                .at(span, "here"),
            )),
        }
    }

    /// Record components of the model (one, or an array of them) read as a value.
    pub(super) fn nodes_record(
        &mut self,
        dims: &[usize],
        nodes: &[NodeId],
        span: Span,
    ) -> DResult<Val> {
        if dims.is_empty() && nodes.len() == 1 {
            return self.node_record(nodes[0], span);
        }
        let mut items = Vec::with_capacity(nodes.len());
        for &n in nodes {
            items.push(self.node_record(n, span)?);
        }
        self.stack_to_dims(items, dims, span)
    }

    /// Equally-shaped record values stacked into an array of records along a new first
    /// dimension (an array constructor of records).
    pub(super) fn stack_records(&mut self, items: Vec<Val>, span: Span) -> DResult<Val> {
        let n = items.len();
        let mut recs = Vec::with_capacity(n);
        for v in items {
            match v {
                Val::Record(r) => recs.push(r),
                _ => {
                    return Err(Box::new(
                        Diagnostic::error(
                            "type",
                            "an array constructor mixes records with other values",
                        )
                        .at(span, "here"),
                    ))
                }
            }
        }
        let first = recs[0].clone();
        for r in &recs[1..] {
            if r.class != first.class
                || r.dims != first.dims
                || r.fields.len() != first.fields.len()
            {
                return Err(Box::new(
                    Diagnostic::error(
                        "type",
                        format!(
                            "an array of records holds `{}` and `{}` (or arrays of different sizes)",
                            first.name, r.name
                        ),
                    )
                    .at(span, "here"),
                ));
            }
        }
        let mut fields = Vec::with_capacity(first.fields.len());
        for (k, (name, _)) in first.fields.iter().enumerate() {
            let column: Vec<Val> = recs.iter().map(|r| r.fields[k].1.clone()).collect();
            fields.push((name.clone(), self.stack_field(column, name, span)?));
        }
        let mut dims = vec![n];
        dims.extend(first.dims.iter().copied());
        Ok(Val::Record(Rc::new(RecordVal {
            class: first.class,
            name: first.name.clone(),
            dims,
            fields,
        })))
    }

    /// One field of the elements of an array of records, stacked.
    fn stack_field(&mut self, column: Vec<Val>, name: &str, span: Span) -> DResult<Val> {
        match &column[0] {
            Val::Arr(_) => {
                let mut arrs = Vec::with_capacity(column.len());
                for v in column {
                    let Val::Arr(a) = v else {
                        return Err(self.field_mismatch(name, span));
                    };
                    arrs.push(a);
                }
                let ty = arrs[0].ty;
                match Arr::stack(arrs) {
                    Some(a) => Ok(Val::Arr(a.with_ty(ty))),
                    None => Err(self.field_mismatch(name, span)),
                }
            }
            Val::Record(_) => self.stack_records(column, span),
            Val::Text(_) => Err(self.changing_text(span)),
            Val::Strs(_) => Err(self.unsupported(
                span,
                &format!("arrays of records with the String array field `{name}`"),
            )),
            Val::Str(s) => {
                // Strings are not values of the step: one String shared by every element.
                if column.iter().all(|v| matches!(v, Val::Str(t) if t == s)) {
                    Ok(Val::Str(s.clone()))
                } else {
                    Err(self.unsupported(
                        span,
                        &format!("arrays of records whose String field `{name}` differs between elements"),
                    ))
                }
            }
        }
    }

    fn field_mismatch(&self, name: &str, span: Span) -> Box<Diagnostic> {
        Box::new(
            Diagnostic::error(
                "size",
                format!("field `{name}` differs in type or size between the records of an array"),
            )
            .at(span, "here"),
        )
    }

    /// Records in row-major order stacked into an array of records of dimensions `dims`.
    fn stack_to_dims(&mut self, items: Vec<Val>, dims: &[usize], span: Span) -> DResult<Val> {
        if dims.len() <= 1 {
            return self.stack_records(items, span);
        }
        let inner: usize = dims[1..].iter().product();
        let mut rows = Vec::with_capacity(dims[0]);
        let mut it = items.into_iter();
        for _ in 0..dims[0] {
            let row: Vec<Val> = it.by_ref().take(inner).collect();
            rows.push(self.stack_to_dims(row, &dims[1..], span)?);
        }
        self.stack_records(rows, span)
    }

    /// `n` copies of a record value (a template) as an array of records of dimensions `dims`.
    pub(super) fn record_array_of(&mut self, t: Val, dims: &[usize], span: Span) -> DResult<Val> {
        if dims.is_empty() {
            return Ok(t);
        }
        let n: usize = dims.iter().product();
        if n == 0 {
            return Err(self.unsupported(span, "empty arrays of records"));
        }
        self.stack_to_dims(vec![t; n], dims, span)
    }

    /// Subscripts applied to an array of records: every field selected the same way.
    pub(super) fn record_subscripts(
        &mut self,
        r: &RecordVal,
        subs: &'a [ast::Subscript],
        env: Env,
        span: Span,
    ) -> DResult<Val> {
        if subs.is_empty() {
            return Ok(Val::Record(Rc::new(r.clone())));
        }
        if r.dims.is_empty() {
            return Err(Box::new(
                Diagnostic::error(
                    "index",
                    format!(
                        "a record (`{}`) is subscripted, but it is not an array",
                        r.name
                    ),
                )
                .at(span, "subscripted here"),
            ));
        }
        if subs.len() > r.dims.len() {
            return Err(Box::new(
                Diagnostic::error(
                    "index",
                    format!(
                        "{} subscripts for an array of records with {} dimensions",
                        subs.len(),
                        r.dims.len()
                    ),
                )
                .at(span, "too many subscripts"),
            ));
        }
        // The dimensions left: the selection applied to the record dimensions alone.
        let zero = self.flat.arena.constant(0.0);
        let n: usize = r.dims.iter().product();
        let shape = Arr {
            dims: r.dims.clone(),
            data: vec![zero; n],
            ty: ScalarType::Real,
        };
        let dims = self.select_elements(shape, subs, env, span)?.dims;
        let mut fields = Vec::with_capacity(r.fields.len());
        for (name, f) in &r.fields {
            let v = match f {
                Val::Arr(a) => Val::Arr(self.select_elements(a.clone(), subs, env, span)?),
                Val::Record(inner) => self.record_subscripts(inner, subs, env, span)?,
                Val::Str(s) => Val::Str(s.clone()),
                Val::Strs(s) => Val::Strs(s.clone()),
                Val::Text(t) => Val::Text(t.clone()),
            };
            fields.push((name.clone(), v));
        }
        Ok(Val::Record(Rc::new(RecordVal {
            class: r.class,
            name: r.name.clone(),
            dims,
            fields,
        })))
    }
}
