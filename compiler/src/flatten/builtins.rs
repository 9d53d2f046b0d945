//! Calls of built-in functions and operators (specification 3.7, 10.3): elementary functions,
//! `der`, `pre`, event operators, array functions and reductions; user functions are refused here
//! for now.

use super::*;

impl<'t, 'a> Flattener<'t, 'a> {
    pub(super) fn eval_call(
        &mut self,
        e: &'a ast::Expr,
        target: &'a ast::CallTarget,
        args: &'a ast::CallArgs,
        env: Env,
    ) -> DResult<Val> {
        let name = match target {
            ast::CallTarget::Der => "der".to_string(),
            ast::CallTarget::Initial => {
                return Err(self.unsupported(e.span, "`initial()` conditions"))
            }
            ast::CallTarget::Pure => "pure".to_string(),
            ast::CallTarget::Ref(r) => {
                if r.parts.len() == 1 && r.parts[0].subscripts.is_empty() && !r.global {
                    r.parts[0].ident.name.to_string()
                } else {
                    r.parts
                        .iter()
                        .map(|p| p.ident.name.to_string())
                        .collect::<Vec<_>>()
                        .join(".")
                }
            }
        };
        if !args.iterators.is_empty() {
            // Reductions: sum(e for i in r), etc.
            let body = args.positional.first().ok_or_else(|| {
                Box::new(
                    Diagnostic::error("arguments", "reduction without expression")
                        .at(e.span, "here"),
                )
            })?;
            let items = self.iterate(&args.iterators, env, &mut |s| s.eval_arr(body, env))?;
            let ty = unify_items(&items, std::iter::repeat(body.span))?;
            let stacked = Arr::stack(items).map(|a| a.with_ty(ty)).ok_or_else(|| {
                Box::new(
                    Diagnostic::error("size", "reduction elements have different sizes")
                        .at(e.span, "here"),
                )
            })?;
            return self.reduce(&name, &stacked, body.span).map(Val::Arr);
        }
        let nargs = args.positional.len();
        let check_args = |s: &Self, lo: usize, hi: usize| -> DResult<()> {
            if nargs < lo || nargs > hi || (!args.named.is_empty() && name != "homotopy") {
                let expect = if lo == hi {
                    format!("{lo}")
                } else {
                    format!("{lo} to {hi}")
                };
                let _ = s;
                return Err(Box::new(
                    Diagnostic::error(
                        "arguments",
                        format!(
                            "`{name}` takes {expect} argument{}, got {nargs}",
                            if hi == 1 { "" } else { "s" }
                        ),
                    )
                    .at(args.span, "arguments"),
                ));
            }
            Ok(())
        };
        if let Some(f) = Func1::from_name(&name) {
            check_args(self, 1, 1)?;
            let x = self.eval_arr(&args.positional[0], env)?;
            types::numeric_arg(&x, args.positional[0].span, &name)?;
            let ty = match f {
                Func1::Abs => x.ty,
                Func1::Sign => ScalarType::Integer,
                _ => ScalarType::Real,
            };
            return Ok(Val::Arr(
                x.map(&mut self.flat.arena, |ar, v| ar.call1(f, v))
                    .with_ty(ty),
            ));
        }
        match name.as_str() {
            "atan2" | "div" | "mod" | "rem" => {
                check_args(self, 2, 2)?;
                let f = Func2::from_name(&name).unwrap_or(Func2::Atan2);
                let x = self.eval_arr(&args.positional[0], env)?;
                let y = self.eval_arr(&args.positional[1], env)?;
                types::numeric_arg(&x, args.positional[0].span, &name)?;
                types::numeric_arg(&y, args.positional[1].span, &name)?;
                let ty = if name == "atan2" {
                    ScalarType::Real
                } else {
                    types::promote(x.ty, y.ty)
                };
                let r = values::zip(&mut self.flat.arena, &x, &y, |ar, p, q| ar.call2(f, p, q));
                r.map(|a| Val::Arr(a.with_ty(ty)))
                    .ok_or_else(|| self.size_mismatch(e.span, &name, &x.dims, &y.dims))
            }
            "min" | "max" => {
                check_args(self, 1, 2)?;
                let f = if name == "min" {
                    Func2::Min
                } else {
                    Func2::Max
                };
                let x = self.eval_arr(&args.positional[0], env)?;
                if nargs == 1 {
                    return self.reduce(&name, &x, e.span).map(Val::Arr);
                }
                let y = self.eval_arr(&args.positional[1], env)?;
                if !x.is_scalar() || !y.is_scalar() {
                    return Err(self.size_mismatch(e.span, &name, &x.dims, &y.dims));
                }
                let Some(ty) = types::unify(x.ty, y.ty) else {
                    return Err(Box::new(
                        Diagnostic::error(
                            "type",
                            format!("`{name}` of {} and {}", types::a(x.ty), types::a(y.ty)),
                        )
                        .at(args.span, "arguments"),
                    ));
                };
                Ok(Val::Arr(Arr::scalar(
                    self.flat.arena.call2(f, x.data[0], y.data[0]),
                    ty,
                )))
            }
            "der" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                if x.ty != ScalarType::Real {
                    return Err(Box::new(
                        Diagnostic::error(
                            "type",
                            format!("`der` needs a Real expression, but this is {}", x.ty.name()),
                        )
                        .at(args.positional[0].span, x.ty.name())
                        .help("Integer and Boolean variables change only at events; they have no derivative"),
                    ));
                }
                let mut data = Vec::with_capacity(x.data.len());
                for &v in &x.data {
                    data.push(self.der_of(v, args.positional[0].span)?);
                }
                Ok(Val::Arr(Arr {
                    dims: x.dims,
                    data,
                    ty: ScalarType::Real,
                }))
            }
            "pre" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                let mut data = Vec::with_capacity(x.data.len());
                for &v in &x.data {
                    match self.flat.arena.node(v) {
                        Node::Var(id) => data.push(self.flat.arena.pre(id)),
                        _ => {
                            return Err(Box::new(
                                Diagnostic::error("arguments", "`pre` needs a variable")
                                    .at(args.positional[0].span, "not a variable"),
                            ))
                        }
                    }
                }
                Ok(Val::Arr(Arr {
                    dims: x.dims,
                    data,
                    ty: x.ty,
                }))
            }
            "edge" | "change" if self.in_when => {
                // At an event instant: edge(b) = b and not pre(b), change(v) = v <> pre(v).
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                if name == "edge" {
                    types::boolean(&x, args.positional[0].span, "the argument of `edge`")?;
                }
                let mut data = Vec::with_capacity(x.data.len());
                for &v in &x.data {
                    let Node::Var(id) = self.flat.arena.node(v) else {
                        return Err(Box::new(
                            Diagnostic::error("arguments", format!("`{name}` needs a variable"))
                                .at(args.positional[0].span, "not a variable"),
                        ));
                    };
                    let p = self.flat.arena.pre(id);
                    let ar = &mut self.flat.arena;
                    data.push(if name == "edge" {
                        let np = ar.not(p);
                        ar.and(v, np)
                    } else {
                        ar.cmp(CmpOp::Ne, v, p)
                    });
                }
                Ok(Val::Arr(Arr {
                    dims: x.dims,
                    data,
                    ty: ScalarType::Boolean,
                }))
            }
            "noEvent" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                Ok(Val::Arr(
                    x.map(&mut self.flat.arena, |ar, v| ar.no_event(v)),
                ))
            }
            "smooth" => {
                check_args(self, 2, 2)?;
                self.eval_const(&args.positional[0], env, "the order of smooth()")?;
                self.eval(&args.positional[1], env)
            }
            "homotopy" => {
                let actual = args
                    .positional
                    .first()
                    .or_else(|| {
                        args.named
                            .iter()
                            .find(|(n, _)| &*n.name == "actual")
                            .map(|(_, x)| x)
                    })
                    .ok_or_else(|| {
                        Box::new(
                            Diagnostic::error("arguments", "`homotopy` needs `actual`")
                                .at(args.span, "here"),
                        )
                    })?;
                self.eval(actual, env)
            }
            "pure" => {
                check_args(self, 1, 1)?;
                self.eval(&args.positional[0], env)
            }
            "integer" | "Integer" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                types::numeric_arg(&x, args.positional[0].span, &name)?;
                Ok(Val::Arr(
                    x.map(&mut self.flat.arena, |ar, v| ar.call1(Func1::Floor, v))
                        .with_ty(ScalarType::Integer),
                ))
            }
            "size" => {
                check_args(self, 1, 2)?;
                let x = match self.pending_size(&args.positional[0], env) {
                    // Only the size is read.
                    Some(dims) => Arr {
                        dims,
                        data: Vec::new(),
                        ty: ScalarType::Real,
                    },
                    None => self.eval_arr(&args.positional[0], env)?,
                };
                if nargs == 2 {
                    let k = self.eval_const(&args.positional[1], env, "the dimension of size()")?;
                    let k = k as usize;
                    if k == 0 || k > x.dims.len() {
                        return Err(Box::new(
                            Diagnostic::error(
                                "size",
                                format!(
                                    "size(…, {k}) of an array with {} dimensions",
                                    x.dims.len()
                                ),
                            )
                            .at(e.span, "here"),
                        ));
                    }
                    return Ok(int_const(self, x.dims[k - 1]));
                }
                let data = x
                    .dims
                    .iter()
                    .map(|&d| self.flat.arena.constant(d as f64))
                    .collect();
                Ok(Val::Arr(Arr {
                    dims: vec![x.dims.len()],
                    data,
                    ty: ScalarType::Integer,
                }))
            }
            "ndims" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                Ok(int_const(self, x.dims.len()))
            }
            "zeros" | "ones" => {
                let mut dims = Vec::new();
                for a in &args.positional {
                    dims.push(self.eval_dim(a, env)?);
                }
                let v = self
                    .flat
                    .arena
                    .constant(if name == "zeros" { 0.0 } else { 1.0 });
                let n = elements(&dims, e.span, &format!("`{name}(…)`"))?;
                Ok(Val::Arr(Arr {
                    dims,
                    data: vec![v; n],
                    ty: ScalarType::Integer,
                }))
            }
            "fill" => {
                if nargs < 1 {
                    check_args(self, 1, usize::MAX)?;
                }
                let x = self.eval_arr(&args.positional[0], env)?;
                let mut dims = Vec::new();
                for a in &args.positional[1..] {
                    dims.push(self.eval_dim(a, env)?);
                }
                let n = elements(&dims, e.span, "`fill(…)`")?;
                let n_all = n.saturating_mul(x.data.len().max(1));
                if n_all > MAX_ELEMENTS {
                    elements(&[n_all], e.span, "`fill(…)`")?;
                }
                let mut data = Vec::with_capacity(n * x.data.len());
                for _ in 0..n {
                    data.extend_from_slice(&x.data);
                }
                dims.extend_from_slice(&x.dims);
                Ok(Val::Arr(Arr {
                    dims,
                    data,
                    ty: x.ty,
                }))
            }
            "identity" => {
                check_args(self, 1, 1)?;
                let n = self.eval_dim(&args.positional[0], env)?;
                elements(&[n, n], e.span, "`identity(…)`")?;
                let one = self.flat.arena.constant(1.0);
                let zero = self.flat.arena.constant(0.0);
                let data = (0..n * n)
                    .map(|k| if k / n == k % n { one } else { zero })
                    .collect();
                Ok(Val::Arr(Arr {
                    dims: vec![n, n],
                    data,
                    ty: ScalarType::Integer,
                }))
            }
            "transpose" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                values::transpose(&x).map(Val::Arr).ok_or_else(|| {
                    Box::new(
                        Diagnostic::error("size", "transpose needs a matrix").at(e.span, "here"),
                    )
                })
            }
            "vector" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                let n = x.data.len();
                Ok(Val::Arr(Arr {
                    dims: vec![n],
                    data: x.data,
                    ty: x.ty,
                }))
            }
            "scalar" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                if x.data.len() != 1 {
                    return Err(Box::new(
                        Diagnostic::error(
                            "size",
                            "scalar() of an array with more than one element",
                        )
                        .at(e.span, "here"),
                    ));
                }
                Ok(Val::Arr(Arr::scalar(x.data[0], x.ty)))
            }
            "sum" | "product" => {
                check_args(self, 1, 1)?;
                let x = self.eval_arr(&args.positional[0], env)?;
                self.reduce(&name, &x, e.span).map(Val::Arr)
            }
            "String" => Ok(Val::Str(String::new())),
            "cross" | "cat" | "skew" | "outerProduct" | "symmetric" | "diagonal" | "linspace"
            | "promote" | "array" => {
                Err(self.unsupported(e.span, &format!("the `{name}` function")))
            }
            "sample"
            | "edge"
            | "change"
            | "reinit"
            | "terminal"
            | "initial"
            | "delay"
            | "spatialDistribution"
            | "cardinality"
            | "semiLinear"
            | "inStream"
            | "actualStream"
            | "getInstanceName"
            | "Clock"
            | "hold"
            | "previous"
            | "subSample"
            | "superSample"
            | "shiftSample"
            | "backSample"
            | "noClock"
            | "interval"
            | "firstTick" => Err(self.unsupported(e.span, &format!("the `{name}` operator"))),
            _ => {
                // A user-defined function or record constructor?
                let what = match target {
                    ast::CallTarget::Ref(r) => {
                        let n = ref_as_name(r);
                        match n.and_then(|n| self.tree.lookup_name(env.class, &n)) {
                            Some(Found::Class(c)) => Some(self.tree.info(c).restriction()),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                match what {
                    Some(Some(ast::Restriction::Function)) => {
                        Err(self.unsupported(e.span, &format!("calls of user function `{name}`")))
                    }
                    Some(Some(ast::Restriction::Record)) => {
                        Err(self.unsupported(e.span, "record constructors"))
                    }
                    Some(_) => Err(Box::new(
                        Diagnostic::error("not-a-function", format!("`{name}` is not a function"))
                            .at(e.span, "called here"),
                    )),
                    None => {
                        let mut cands: Vec<String> =
                            Func1::ALL.iter().map(|f| f.name().to_string()).collect();
                        cands.extend(
                            [
                                "atan2", "min", "max", "der", "pre", "sum", "size", "zeros",
                                "ones", "fill", "noEvent", "smooth",
                            ]
                            .iter()
                            .map(|s| s.to_string()),
                        );
                        let mut d =
                            Diagnostic::error("unknown-name", format!("unknown function `{name}`"))
                                .at(e.span, "not a built-in or a function in scope");
                        if let Some(s) = suggest(&name, &cands) {
                            d = d.help(format!("did you mean `{s}`?"));
                        }
                        Err(Box::new(d))
                    }
                }
            }
        }
    }

    /// The size of an array whose declaration is being instantiated, if `e` names one.
    pub(super) fn pending_size(&self, e: &ast::Expr, env: Env) -> Option<Vec<usize>> {
        let ast::ExprKind::Ref(r) = &e.kind else {
            return None;
        };
        if r.parts.len() != 1 || !r.parts[0].subscripts.is_empty() {
            return None;
        }
        let node = env.node?;
        let sid = *self.nodes[node.0 as usize]
            .slots
            .get(&r.parts[0].ident.name)?;
        match self.slots[sid.0 as usize].state {
            SlotState::InProgress => self.pending_dims.get(&sid).cloned(),
            _ => None,
        }
    }

    pub(super) fn reduce(&mut self, name: &str, x: &Arr, span: Span) -> DResult<Arr> {
        if matches!(name, "sum" | "product") {
            types::numeric_arg(x, span, name)?;
        }
        let ty = x.ty;
        let ar = &mut self.flat.arena;
        if x.data.is_empty() {
            let v = match name {
                "sum" => 0.0,
                "product" => 1.0,
                _ => {
                    return Err(Box::new(
                        Diagnostic::error("size", format!("`{name}` of an empty array"))
                            .at(span, "here"),
                    ))
                }
            };
            return Ok(Arr::scalar(ar.constant(v), ty));
        }
        let mut acc = x.data[0];
        for &v in &x.data[1..] {
            acc = match name {
                "sum" => ar.add(acc, v),
                "product" => ar.mul(acc, v),
                "min" => ar.call2(Func2::Min, acc, v),
                "max" => ar.call2(Func2::Max, acc, v),
                _ => return Err(self.unsupported(span, &format!("`{name}` as a reduction"))),
            };
        }
        Ok(Arr::scalar(acc, ty))
    }

    /// `der` of a scalar expression: a variable's derivative, zero for parameters and
    /// constants, and linearity through sums and constant factors.
    pub(super) fn der_of(&mut self, e: ExprId, span: Span) -> DResult<ExprId> {
        let ar = &self.flat.arena;
        match ar.node(e) {
            Node::Const(_) => Ok(self.flat.arena.constant(0.0)),
            Node::Var(v) => match self.flat.vars[v.index()].kind {
                VarKind::Parameter | VarKind::Constant => Ok(self.flat.arena.constant(0.0)),
                VarKind::Discrete | VarKind::Input => Err(Box::new(
                    Diagnostic::error(
                        "der",
                        format!(
                            "der() of `{}`, which is {}",
                            self.flat.vars[v.index()].name,
                            if self.flat.vars[v.index()].kind == VarKind::Input {
                                "an input"
                            } else {
                                "discrete (Integer, Boolean or `discrete`)"
                            }
                        ),
                    )
                    .at(span, "here"),
                )),
                _ => Ok(self.flat.arena.der(v)),
            },
            Node::Time => Ok(self.flat.arena.constant(1.0)),
            Node::Neg(a) => {
                let d = self.der_of(a, span)?;
                Ok(self.flat.arena.neg(d))
            }
            Node::Add(a, b) | Node::Sub(a, b) => {
                let is_add = matches!(ar.node(e), Node::Add(..));
                let da = self.der_of(a, span)?;
                let db = self.der_of(b, span)?;
                Ok(if is_add {
                    self.flat.arena.add(da, db)
                } else {
                    self.flat.arena.sub(da, db)
                })
            }
            Node::Mul(a, b) => {
                if self.fold(a).is_some() {
                    let db = self.der_of(b, span)?;
                    Ok(self.flat.arena.mul(a, db))
                } else if self.fold(b).is_some() {
                    let da = self.der_of(a, span)?;
                    Ok(self.flat.arena.mul(da, b))
                } else {
                    Err(self.unsupported(span, "der() of products of variables"))
                }
            }
            Node::Div(a, b) if self.fold(b).is_some() => {
                let da = self.der_of(a, span)?;
                Ok(self.flat.arena.div(da, b))
            }
            _ => Err(self.unsupported(span, "der() of nonlinear expressions")),
        }
    }
}

pub(super) fn ref_as_name(r: &ast::ComponentRef) -> Option<ast::Name> {
    if r.parts.iter().any(|p| !p.subscripts.is_empty()) {
        return None;
    }
    Some(ast::Name {
        global: r.global,
        parts: r.parts.iter().map(|p| p.ident.clone()).collect(),
        span: r.span,
    })
}
