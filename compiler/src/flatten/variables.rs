//! Components of the predefined types become flat variables: kind, attributes (start, fixed, min,
//! max, nominal, unit, quantity), bindings as values or equations, and the type of each (specification 4.8,
//! 7.2).

use super::*;
use crate::flat::StateSelect;

impl<'t, 'a> Flattener<'t, 'a> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn make_vars(
        &mut self,
        sid: SlotId,
        path: &str,
        ty: ScalarType,
        dims: &[usize],
        modif: &Mod<'a>,
        variability: Option<ast::Variability>,
        causality: Option<ast::Causality>,
        is_flow: bool,
    ) -> DResult<Vec<FlatVar>> {
        let (decl, node) = {
            let s = &self.inst.slots[sid.0 as usize];
            (s.decl, s.node)
        };
        for (name, sub) in &modif.subs {
            if !matches!(
                &**name,
                "start"
                    | "fixed"
                    | "min"
                    | "max"
                    | "nominal"
                    | "unit"
                    | "displayUnit"
                    | "quantity"
                    | "stateSelect"
            ) {
                let mut d = Diagnostic::error(
                    "unknown-modifier",
                    format!("`{}` has no attribute `{name}`", self.flat.type_name(ty)),
                )
                .help("the attributes are start, fixed, min, max, nominal, unit, displayUnit, quantity, stateSelect");
                if let Some(sp) = sub.span {
                    d = d.at(sp, "not an attribute");
                }
                return Err(Box::new(d));
            }
        }
        let is_top = self.inst.top == Some(node);
        let top_connector = !is_top && self.is_top_connector(node);
        let kind = match variability {
            Some(ast::Variability::Constant) => VarKind::Constant,
            Some(ast::Variability::Parameter) => VarKind::Parameter,
            Some(ast::Variability::Discrete) => VarKind::Discrete,
            None => {
                if causality == Some(ast::Causality::Input)
                    && (is_top || top_connector)
                    && modif.binding.is_none()
                {
                    VarKind::Input
                } else if ty == ScalarType::Real {
                    VarKind::Algebraic
                } else {
                    VarKind::Discrete
                }
            }
        };
        let is_output = causality == Some(ast::Causality::Output) && (is_top || top_connector);
        let count: usize = dims.iter().product();
        let description = decl.description.text.clone();
        let unit = self.string_attribute(modif, "unit", "m/s")?;
        let quantity = self.string_attribute(modif, "quantity", "Length")?;
        let is_stream = self.inst.slots[sid.0 as usize].clause.prefix.connection
            == Some(ast::Connection::Stream);
        let implicit = rtc_annotation_flag(decl, "implicit");
        let fast = rtc_annotation_flag(decl, "fast");
        if count == 0 {
            // No element takes the binding, but it is an expression of the model all the
            // same: its errors (a negative size, operands of other sizes, 10.3.3, 10.7) and
            // its size are checked.
            self.empty_binding(modif, dims)?;
        }
        self.check_bound_variable(node, modif, kind, causality, decl)?;
        let mut out = Vec::with_capacity(count);
        for k in 0..count {
            let m = if dims.is_empty() {
                modif.clone()
            } else {
                modif.select(dims, k)
            };
            let name = format!("{path}{}", subscript_text(dims, k));
            let id = FlatVar::new(self.flat.vars.len());
            self.flat.vars.push(Variable {
                is_output,
                unit: unit.clone(),
                quantity: quantity.clone(),
                description: description.clone(),
                implicit,
                fast,
                ..Variable::new(name, kind, ty, decl.name.span)
            });
            self.meta.push(VarMeta {
                is_flow,
                is_stream,
                is_causal: (!self.inst.nodes[node.0 as usize].is_expandable).then_some(causality),
                added: self.added_bus_slots.contains(&sid),
            });
            if is_flow || is_stream {
                self.inst.var_owner.insert(id, node);
            }
            out.push(id);
            self.var_attributes(id, &m, ty, decl)?;
            self.var_binding(id, &m, ty, kind, decl)?;
        }
        Ok(out)
    }

    /// 4.7: in a model or block, a modification — of a component, an extends clause or a short
    /// class definition — binds only parameters, constants, inputs and variables whose own
    /// declaration has a binding equation (it may replace that one); any other variable's
    /// equation is the class's own, and a value from outside would unbalance it. Records'
    /// and connectors' elements may be bound from anywhere.
    fn check_bound_variable(
        &mut self,
        node: NodeId,
        modif: &Mod<'a>,
        kind: VarKind,
        causality: Option<ast::Causality>,
        decl: &ast::ComponentDecl,
    ) -> DResult<()> {
        let Some(b) = &modif.binding else {
            return Ok(());
        };
        if b.value.is_some()
            || b.evaluated.is_some()
            || matches!(
                kind,
                VarKind::Parameter | VarKind::Constant | VarKind::Input
            )
            || causality == Some(ast::Causality::Input)
            || decl
                .modification
                .as_ref()
                .is_some_and(|m| m.binding.is_some())
        {
            return Ok(());
        }
        let Some(&class) = self.inst.nodes[node.0 as usize].classes.first() else {
            return Ok(());
        };
        let end = self.tree.short_chain_end(class);
        if !matches!(
            self.tree.info(end).restriction(),
            Some(ast::Restriction::Model | ast::Restriction::Block)
        ) {
            return Ok(());
        }
        let name = &decl.name.name;
        let msg = format!(
            "a modification binds `{name}`, which is not a parameter, a constant or an input and has no binding equation of its own"
        );
        Err(Box::new(
            typed::MODIFIED_BINDING
                .broken(b.expr.span, msg, "here")
                .also(decl.name.span, "declared here"),
        ))
    }

    /// The binding of an array without elements, evaluated for its errors and its size.
    fn empty_binding(&mut self, modif: &Mod<'a>, dims: &[usize]) -> DResult<()> {
        let Some(b) = &modif.binding else {
            return Ok(());
        };
        if b.value.is_some() || b.evaluated.is_some() || !b.select.is_empty() {
            return Ok(());
        }
        let v = self.eval_arr(b.expr, b.env)?;
        if v.dims != dims {
            return Err(self.size_mismatch(b.expr.span, "the binding", dims, &v.dims));
        }
        Ok(())
    }

    /// The attributes of one scalar variable: start, min, max and nominal of its type, and
    /// `fixed`, a constant Boolean.
    fn var_attributes(
        &mut self,
        id: FlatVar,
        m: &Mod<'a>,
        ty: ScalarType,
        decl: &ast::ComponentDecl,
    ) -> DResult<()> {
        // Attributes: start, min, max and nominal of the variable's type, fixed Boolean.
        let vname = self.flat.vars[id].name.clone();
        let start = self.attr_scalar(m, "start", ty, &vname)?;
        let min = self.attr_scalar(m, "min", ty, &vname)?;
        let max = self.attr_scalar(m, "max", ty, &vname)?;
        let nominal = self.attr_scalar(m, "nominal", ty, &vname)?;
        let fixed = match self.attr_scalar(m, "fixed", ScalarType::Boolean, &vname)? {
            Some(e) => match self.fold(e) {
                Some(v) => Some(v != 0.0),
                None => {
                    return Err(Box::new(
                        Diagnostic::error("not-constant", "`fixed` must be a constant Boolean")
                            .at(m.sub("fixed").span.unwrap_or(decl.span), "here"),
                    ))
                }
            },
            None => None,
        };
        let state_select = self.state_select(m, &vname)?;
        let start_span = m.sub("start").binding.map(|b| b.expr.span);
        let v = &mut self.flat.vars[id];
        v.start = start;
        v.start_span = start_span.filter(|s| *s != Span::default());
        v.min = min;
        v.max = max;
        v.nominal = nominal;
        v.fixed = fixed;
        v.state_select = state_select;
        Ok(())
    }

    /// The `stateSelect` attribute: a constant of the predefined enumeration `StateSelect`.
    fn state_select(&mut self, m: &Mod<'a>, var: &str) -> DResult<Option<StateSelect>> {
        let Some(b) = m.sub("stateSelect").binding else {
            return Ok(None);
        };
        let ss = self.tree.builtin("StateSelect");
        let ty = match ss {
            Some(c) => self.enumeration(c)?.map(ScalarType::Enum),
            None => None,
        };
        let v = self.eval_mod_value(&b)?;
        let value = v.as_scalar().and_then(|x| self.fold(x));
        match (ty, value) {
            (Some(t), Some(x)) if v.ty == t => Ok(StateSelect::from_value(x)),
            (_, None) => Err(Box::new(
                Diagnostic::error(
                    "not-constant",
                    format!("the `stateSelect` of `{var}` must be known before simulation"),
                )
                .at(b.expr.span, "not a constant"),
            )),
            _ => Err(Box::new(
                Diagnostic::error(
                    "type",
                    format!(
                        "the `stateSelect` of `{var}` is a StateSelect literal, but this is {}",
                        self.flat.type_name(v.ty)
                    ),
                )
                .at(b.expr.span, self.flat.type_name(v.ty))
                .help("e.g. stateSelect = StateSelect.prefer"),
            )),
        }
    }

    /// The binding of one scalar variable: a parameter's or constant's value, an equation for
    /// any other variable; a parameter without one takes its start value (with a warning).
    fn var_binding(
        &mut self,
        id: FlatVar,
        m: &Mod<'a>,
        ty: ScalarType,
        kind: VarKind,
        decl: &ast::ComponentDecl,
    ) -> DResult<()> {
        let vname = self.flat.vars[id].name.clone();
        let start = self.flat.vars[id].start;
        if m.broken_in_component
            && !matches!(
                kind,
                VarKind::Parameter | VarKind::Constant | VarKind::Input
            )
        {
            let d = Diagnostic::error(
                "modifier",
                format!("a component's modification removes the binding equation of `{vname}` with `break`"),
            )
            .at(m.span.unwrap_or(decl.name.span), "here")
            .also(decl.name.span, "declared here")
            .help("Modelica 3.6 §4.7, §7.2.7: a model or block component's modification may not remove a variable's binding equation (its class would no longer be balanced); an extends modification may, where the derived class gives the equation");
            return Err(Box::new(d));
        }
        if let Some(b) = &m.binding {
            let val = self.eval_mod_value(b)?;
            // `--param b=true` arrives as 1 (the command line has no types).
            let flag = b.value.is_some_and(|x| x == 0.0 || x == 1.0);
            if !(flag && ty == ScalarType::Boolean) {
                types::assign(ty, &vname, &val, b.expr.span, "is bound to {a}")?;
            }
            let Some(e) = val.as_scalar() else {
                return Err(Box::new(
                    Diagnostic::error(
                        "size",
                        format!(
                            "`{}` is a scalar element but its binding has size {}",
                            self.flat.vars[id].name,
                            dims_text(&val.dims)
                        ),
                    )
                    .at(b.expr.span, "binding")
                    .help("use `each` to give every element the same value"),
                ));
            };
            if matches!(kind, VarKind::Parameter | VarKind::Constant) {
                self.check_binding_variability(id, kind, e, b.expr.span)?;
            }
            match kind {
                VarKind::Parameter | VarKind::Constant => self.flat.vars[id].binding = Some(e),
                _ => {
                    let lhs = self.flat.arena.var(id);
                    self.flat.equations.push(Equation {
                        lhs,
                        rhs: e,
                        span: b.expr.span,
                        origin: EquationOrigin::Binding,
                    });
                }
            }
        } else if kind == VarKind::Parameter && self.flat.vars[id].fixed == Some(false) {
            // Computed during initialisation (specification 8.6): an initial equation gives
            // its value (`parameters_from_initial_equations`), the start value is a guess.
        } else if matches!(kind, VarKind::Parameter | VarKind::Constant) {
            // A parameter without a value takes its start value (specification 8.6).
            match start {
                Some(s) => {
                    self.flat.vars[id].binding = Some(s);
                    if kind == VarKind::Parameter {
                        let vname = self.flat.vars[id].name.clone();
                        self.diags.push(
                            Diagnostic::warning(
                                "parameter-default",
                                format!(
                                    "parameter `{vname}` has no value; using its start value {}",
                                    self.flat.expr_string(s)
                                ),
                            )
                            .at(
                                decl.name.span,
                                if m.broken {
                                    "its value removed by `break`"
                                } else {
                                    "declared without a value"
                                },
                            )
                            .help("give it a value with a modification, e.g. `R = 10`"),
                        );
                    }
                }
                None => {
                    let vname = self.flat.vars[id].name.clone();
                    return Err(Box::new(
                        Diagnostic::error(
                            "no-value",
                            format!("{} `{vname}` has no value", kind.name()),
                        )
                        .at(decl.name.span, "declared without a value")
                        .help("give it a value, e.g. with a modification"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// A parameter's binding is a parameter expression, a constant's a constant expression
    /// (4.4.2.1, 4.4.4): no `time`, `der`, `pre` or variable of higher variability in it.
    fn check_binding_variability(
        &self,
        id: FlatVar,
        kind: VarKind,
        e: ExprId,
        span: Span,
    ) -> DResult<()> {
        let (vars, flag) = (&self.flat.vars, self.flat.initial_flag);
        let higher = |v: FlatVar| match vars[v].kind {
            VarKind::Constant => Some(v) == flag,
            VarKind::Parameter => kind == VarKind::Constant || Some(v) == flag,
            _ => true,
        };
        let hit = self.flat.arena.find_leaf(e, |n| match n {
            Node::Var(v) => higher(v),
            Node::Der(_) | Node::Pre(_) | Node::Time => true,
            Node::Arg(_) => false,
            _ => false,
        });
        let Some(n) = hit else {
            return Ok(());
        };
        let what = match n {
            Node::Var(v) if Some(v) == flag => "`initial()`".to_string(),
            Node::Var(v) => {
                let k = match vars[v].kind {
                    VarKind::State | VarKind::Algebraic => "the continuous-time variable",
                    VarKind::Discrete | VarKind::Sampled => "the discrete-time variable",
                    VarKind::Input => "the input",
                    _ => "the parameter",
                };
                format!("{k} `{}`", vars[v].name)
            }
            Node::Der(v) => format!("`der({})`", vars[v].name),
            Node::Pre(v) => format!("`pre({})`", vars[v].name),
            _ => "`time`".to_string(),
        };
        let (rule, needs) = if kind == VarKind::Constant {
            (&typed::CONSTANT_BINDING, "a constant expression")
        } else {
            (&typed::PARAMETER_BINDING, "a parameter expression")
        };
        let msg = format!(
            "the binding of {} `{}` reads {what}: it must be {needs}",
            kind.name(),
            vars[id].name
        );
        Err(Box::new(rule.broken(span, msg, "binding")))
    }

    /// A connector that is a direct component of the model: its inputs are the model's inputs.
    pub(super) fn is_top_connector(&self, node: NodeId) -> bool {
        let n = &self.inst.nodes[node.0 as usize];
        n.is_connector && n.parent.is_some() && n.parent == self.inst.top
    }

    pub(super) fn attr_scalar(
        &mut self,
        m: &Mod<'a>,
        name: &str,
        ty: ScalarType,
        var: &str,
    ) -> DResult<Option<ExprId>> {
        let sub = m.sub(name);
        let Some(b) = sub.binding else {
            return Ok(None);
        };
        let v = self.eval_mod_value(&b)?;
        if name == "fixed" {
            types::boolean(
                &v,
                b.expr.span,
                &format!("the `fixed` attribute of `{var}`"),
            )?;
        } else {
            types::assign(
                ty,
                var,
                &v,
                b.expr.span,
                &format!("has {{a}} `{name}` value"),
            )?;
        }
        match v.as_scalar() {
            Some(e) => Ok(Some(e)),
            None => Err(Box::new(
                Diagnostic::error(
                    "size",
                    format!(
                        "attribute `{name}` needs a scalar, got size {}",
                        dims_text(&v.dims)
                    ),
                )
                .at(b.expr.span, "here")
                .help("for an array use `each`, or give one value per element"),
            )),
        }
    }

    pub(super) fn eval_mod_value_val(&mut self, b: &modification::ModValue<'a>) -> DResult<Val> {
        if let Some(x) = b.value {
            // A `--param` value: Integer where it is a whole number, so it can set an
            // Integer parameter.
            let ty = if x.fract() == 0.0 && x.abs() < 9e15 {
                ScalarType::Integer
            } else {
                ScalarType::Real
            };
            return Ok(Val::Arr(Arr::scalar(self.flat.arena.constant(x), ty)));
        }
        let mut v = match &b.evaluated {
            Some(v) => v.clone(),
            None => {
                let saved = std::mem::take(&mut self.ctx.loop_vars);
                let r = self.eval(b.expr, b.env);
                self.ctx.loop_vars = saved;
                r?
            }
        };
        for (sel_dims, index) in &b.select {
            let (ndims, index) = (sel_dims.len(), *index);
            if let Val::Record(r) = &v {
                // An array of records: element `index` of every field.
                if r.dims.len() >= ndims && r.dims[..ndims] == sel_dims[..] {
                    v = Val::Record(std::rc::Rc::new(select_record(r, ndims, index)));
                    continue;
                }
                if r.dims.is_empty() {
                    return Ok(v);
                }
                return Err(Box::new(
                    Diagnostic::error(
                        "size",
                        format!(
                            "the records have size {} but the array is declared with size {}",
                            dims_text(&r.dims),
                            dims_text(sel_dims)
                        ),
                    )
                    .at(b.expr.span, "this value"),
                ));
            }
            let Val::Arr(a) = &v else {
                return Ok(v);
            };
            if a.dims.len() >= ndims && a.dims[..ndims] != sel_dims[..] {
                return Err(Box::new(
                    Diagnostic::error(
                        "size",
                        format!(
                            "the value has size {} but the array is declared with size {}",
                            dims_text(&a.dims),
                            dims_text(sel_dims)
                        ),
                    )
                    .at(b.expr.span, "this value")
                    .help(
                        "give one value per element, or use `each` for the same value everywhere",
                    ),
                ));
            }
            if a.dims.len() < ndims {
                return Err(Box::new(
                    Diagnostic::error(
                        "size",
                        format!(
                            "a modifier of an array without `each` needs an array value, got size {}",
                            dims_text(&a.dims)
                        ),
                    )
                    .at(b.expr.span, "here")
                    .help("add `each` to give every element the same value"),
                ));
            }
            let block = a.block(ndims);
            let data = a.data[index * block..(index + 1) * block].to_vec();
            v = Val::Arr(Arr {
                dims: a.dims[ndims..].to_vec(),
                data,
                ty: a.ty,
            });
        }
        Ok(v)
    }

    pub(super) fn eval_mod_value(&mut self, b: &modification::ModValue<'a>) -> DResult<Arr> {
        match self.eval_mod_value_val(b)? {
            Val::Arr(a) => Ok(a),
            Val::Str(_) | Val::Text(_) | Val::Strs(_) => Err(Box::new(
                Diagnostic::error("type", "a string where a number is expected")
                    .at(b.expr.span, "here"),
            )),
            Val::Record(_) => Err(Box::new(
                Diagnostic::error("type", "a record where a number is expected")
                    .at(b.expr.span, "here"),
            )),
        }
    }
}

/// Element `index` (row-major over the first `ndims` dimensions) of an array of records.
fn select_record(r: &values::RecordVal, ndims: usize, index: usize) -> values::RecordVal {
    let fields = r
        .fields
        .iter()
        .map(|(n, f)| {
            let v = match f {
                Val::Arr(a) => {
                    let block = a.block(ndims);
                    Val::Arr(Arr {
                        dims: a.dims[ndims..].to_vec(),
                        data: a.data[index * block..(index + 1) * block].to_vec(),
                        ty: a.ty,
                    })
                }
                Val::Record(inner) if inner.dims.len() >= ndims => {
                    Val::Record(std::rc::Rc::new(select_record(inner, ndims, index)))
                }
                other => other.clone(),
            };
            (n.clone(), v)
        })
        .collect();
    values::RecordVal {
        class: r.class,
        name: r.name.clone(),
        dims: r.dims[ndims..].to_vec(),
        fields,
    }
}

/// Whether the declaration carries `annotation(__rtc(<flag> = true))`.
pub(super) fn rtc_annotation_flag(decl: &ast::ComponentDecl, flag: &str) -> bool {
    let Some(ann) = &decl.description.annotation else {
        return false;
    };
    ann.args.iter().any(|a| {
        let ast::Argument::Modify(m) = a else {
            return false;
        };
        if m.name.to_dotted() != "__rtc" {
            return false;
        }
        let Some(cm) = m.modification.as_ref().and_then(|x| x.class_mod.as_ref()) else {
            return false;
        };
        cm.args.iter().any(|b| match b {
            ast::Argument::Modify(e) => {
                e.name.to_dotted() == flag
                    && matches!(
                        e.modification.as_ref().and_then(|x| x.binding.as_ref()),
                        Some(ast::Binding::Expr(ast::Expr {
                            kind: ast::ExprKind::Bool(true),
                            ..
                        }))
                    )
            }
            _ => false,
        })
    })
}

impl<'a> Flattener<'_, 'a> {
    /// The value of String attribute `name` (`unit`, `quantity`) in `modif`, if given.
    fn string_attribute(
        &mut self,
        modif: &Mod<'a>,
        name: &str,
        example: &str,
    ) -> DResult<Option<String>> {
        let Some(b) = modif.sub(name).binding else {
            return Ok(None);
        };
        match self.eval_mod_value_val(&b)? {
            Val::Str(s) => Ok(Some(s)),
            Val::Text(_) => Err(self.changing_text(b.expr.span)),
            Val::Strs(_) => Err(Box::new(
                Diagnostic::error(
                    "type",
                    format!("the `{name}` attribute is one String, not an array"),
                )
                .at(b.expr.span, "an array of Strings"),
            )),
            Val::Record(_) => Err(Box::new(
                Diagnostic::error(
                    "type",
                    format!("the `{name}` attribute is a String, not a record"),
                )
                .at(b.expr.span, "a record"),
            )),
            Val::Arr(a) => Err(Box::new(
                Diagnostic::error(
                    "type",
                    format!(
                        "the `{name}` attribute is a String, but this is {}",
                        a.ty.name()
                    ),
                )
                .at(b.expr.span, a.ty.name())
                .help(format!(
                    "write it in double quotes, e.g. {name} = \"{example}\""
                )),
            )),
        }
    }
}
