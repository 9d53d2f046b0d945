//! Expressions (specification ch. 3, 10.6): literals, operators with their types, if-expressions,
//! ranges, array constructors and comprehensions, evaluated to typed arrays of scalar expressions.

use super::*;

impl<'t, 'a> Flattener<'t, 'a> {
    /// `[a, b; c, d]`: rows concatenated horizontally, then vertically.
    /// `[a, b; c, d]` (specification 10.4.2): every element promoted to the same number of
    /// dimensions (at least 2), each row concatenated along dimension 2, the rows along 1.
    fn matrix(&mut self, e: &'a ast::Expr, rows: &'a [Vec<ast::Expr>], env: Env) -> DResult<Val> {
        let mut elems = Vec::new();
        let mut all = Vec::new();
        for row in rows {
            let mut items = Vec::new();
            for it in row {
                let a = self.eval_arr(it, env)?;
                all.push((a.ty, it.span));
                items.push(a);
            }
            elems.push(items);
        }
        let n = elems
            .iter()
            .flatten()
            .map(|a| a.dims.len())
            .max()
            .unwrap_or(2)
            .max(2);
        let mut row_mats = Vec::new();
        for items in &elems {
            let items: Vec<Arr> = items.iter().map(|a| values::promote(a, n)).collect();
            row_mats.push(values::cat(&items, 1).ok_or_else(|| {
                Box::new(
                    Diagnostic::error("size", "matrix row elements have different row counts")
                        .at(e.span, "here"),
                )
            })?);
        }
        let mut ty = all.first().map_or(ScalarType::Real, |(t, _)| *t);
        for &(t, sp) in &all {
            ty = types::unify(ty, t).ok_or_else(|| {
                Box::new(
                    Diagnostic::error(
                        "type",
                        format!("a matrix mixes {} and {} elements", ty.name(), t.name()),
                    )
                    .at(sp, t.name()),
                )
            })?;
        }
        values::cat(&row_mats, 0)
            .map(|a| Val::Arr(a.with_ty(ty)))
            .ok_or_else(|| {
                Box::new(
                    Diagnostic::error("size", "matrix rows have different lengths")
                        .at(e.span, "here"),
                )
            })
    }

    /// `a:b` and `a:s:b` with constant bounds: Integer if all three are, else Real.
    fn range(
        &mut self,
        e: &'a ast::Expr,
        start: &'a ast::Expr,
        step: Option<&'a ast::Expr>,
        stop: &'a ast::Expr,
        env: Env,
    ) -> DResult<Val> {
        let (a, ta) = self.eval_const_typed(start, env, "a range bound")?;
        let (s, ts) = match step {
            Some(s) => self.eval_const_typed(s, env, "a range step")?,
            None => (1.0, ScalarType::Integer),
        };
        let (b, tb) = self.eval_const_typed(stop, env, "a range bound")?;
        let ty = match (ta, tb) {
            // `E.a : E.c`: the literals from a to c.
            (ScalarType::Enum(x), ScalarType::Enum(y)) if x == y && step.is_none() => ta,
            (ScalarType::Enum(_), _) | (_, ScalarType::Enum(_)) => {
                return Err(Box::new(
                    Diagnostic::error(
                        "type",
                        format!(
                            "a range from {} to {}{}",
                            self.flat.type_name(ta),
                            self.flat.type_name(tb),
                            if step.is_some() { " with a step" } else { "" }
                        ),
                    )
                    .at(e.span, "here")
                    .help("a range of enumeration literals has both bounds of one enumeration and no step"),
                ))
            }
            _ => promote3(ta, ts, tb),
        };
        if s == 0.0 {
            return Err(Box::new(
                Diagnostic::error("range", "range step is zero").at(e.span, "here"),
            ));
        }
        let n = ((b - a) / s + 1e-9).floor() + 1.0;
        if n > MAX_ELEMENTS as f64 || n.is_nan() {
            return Err(Box::new(
                Diagnostic::error(
                    "too-large",
                    format!(
                        "the range has {n} elements; rtc's limit for one array is {MAX_ELEMENTS}"
                    ),
                )
                .at(e.span, "too large"),
            ));
        }
        let n = if n > 0.0 { n as usize } else { 0 };
        let data = (0..n)
            .map(|k| self.flat.arena.constant(a + k as f64 * s))
            .collect();
        Ok(Val::Arr(Arr {
            dims: vec![n],
            data,
            ty,
        }))
    }

    /// An if-expression: conditions Boolean, branches of one type and size; branches a structural condition rules out are not evaluated.
    fn if_expression(
        &mut self,
        e: &'a ast::Expr,
        branches: &'a [(ast::Expr, ast::Expr)],
        otherwise: &'a ast::Expr,
        env: Env,
    ) -> DResult<Val> {
        // Conditions known at compile time select a branch without evaluating the others (a
        // recursive function's base case relies on it); the branch may then be any value,
        // a String or a record included.
        let mut first_open = branches.len();
        for (k, (cond, value)) in branches.iter().enumerate() {
            let c = self.eval_condition(cond, env, "the condition of an if-expression")?;
            match self.fold_if_structural(c) {
                Some(v) if v != 0.0 => {
                    let chosen = self.eval(value, env)?;
                    let others = branches
                        .iter()
                        .map(|b| &b.1)
                        .filter(|v| !std::ptr::eq(*v, value));
                    for other in others.chain(std::iter::once(otherwise)) {
                        self.dropped_branch(&chosen, value, other, env)?;
                    }
                    return Ok(chosen);
                }
                Some(_) => {}
                None => {
                    first_open = k;
                    break;
                }
            }
        }
        if first_open == branches.len() {
            let chosen = self.eval(otherwise, env)?;
            for (_, other) in branches {
                self.dropped_branch(&chosen, otherwise, other, env)?;
            }
            return Ok(chosen);
        }
        let branches = &branches[first_open..];
        let mut last = branches.len();
        for (k, (cond, _)) in branches.iter().enumerate() {
            let c = self.eval_condition(cond, env, "the condition of an if-expression")?;
            if self.fold_if_structural(c).is_some_and(|v| v != 0.0) {
                last = k;
                break;
            }
        }
        let (branches, otherwise) = if last < branches.len() {
            (&branches[..last], &branches[last].1)
        } else {
            (branches, otherwise)
        };
        let mut result = self.eval_arr(otherwise, env)?;
        for (cond, value) in branches.iter().rev() {
            let c = self.eval_condition(cond, env, "the condition of an if-expression")?;
            // A branch that a structural condition rules out is not evaluated (it
            // may index out of bounds for the parameters that rule it out).
            let folded = self.fold_if_structural(c);
            if folded == Some(0.0) {
                continue;
            }
            let v = self.eval_arr(value, env)?;
            let Some(ty) = self.unify_types(v.ty, result.ty) else {
                return Err(Box::new(
                    Diagnostic::error(
                        "type",
                        format!(
                            "the branches of this if-expression have types {} and {}",
                            v.ty.name(),
                            result.ty.name()
                        ),
                    )
                    .at(value.span, v.ty.name())
                    .also(otherwise.span, result.ty.name()),
                ));
            };
            if folded.is_some() {
                result = v.with_ty(ty);
                continue;
            }
            if v.dims != result.dims {
                return Err(self.size_mismatch(
                    e.span,
                    "the branches of an if-expression",
                    &v.dims,
                    &result.dims,
                ));
            }
            let data = v
                .data
                .iter()
                .zip(&result.data)
                .map(|(&t, &f)| self.flat.arena.if_(c, t, f))
                .collect();
            result = Arr {
                dims: v.dims,
                data,
                ty,
            };
        }
        Ok(Val::Arr(result))
    }

    /// The common type of two type-compatible operands (6.7): [`types::unify`], and two
    /// enumeration types with the same literals in the same order.
    fn unify_types(&self, a: ScalarType, b: ScalarType) -> Option<ScalarType> {
        if let (ScalarType::Enum(x), ScalarType::Enum(y)) = (a, b) {
            let e = &self.flat.enums;
            return (e[x.0 as usize].literals == e[y.0 as usize].literals).then_some(a);
        }
        types::unify(a, b)
    }

    /// Whether two values are type compatible (6.7): numbers of unifiable types with as many
    /// dimensions, strings, or records with the same named elements, each compatible.
    fn compatible(&self, a: &Val, b: &Val) -> bool {
        match (a, b) {
            (Val::Arr(a), Val::Arr(b)) => {
                self.unify_types(a.ty, b.ty).is_some() && a.dims.len() == b.dims.len()
            }
            (Val::Str(_) | Val::Text(_), Val::Str(_) | Val::Text(_)) => true,
            (Val::Record(x), Val::Record(y)) => {
                x.dims.len() == y.dims.len()
                    && x.fields.len() == y.fields.len()
                    && x.fields
                        .iter()
                        .all(|(name, v)| y.field(name).is_some_and(|w| self.compatible(v, w)))
            }
            _ => false,
        }
    }

    /// The type of a branch a structural condition rules out, against the one it selects
    /// (3.6.5, 6.7: the branches of an if-expression are type compatible). Only a branch
    /// without calls is evaluated (a recursive function's other branch would recurse), and
    /// one that cannot be evaluated (an index out of bounds for these parameters, a
    /// disabled conditional component) is left alone.
    fn dropped_branch(
        &mut self,
        chosen: &Val,
        at: &'a ast::Expr,
        dropped: &'a ast::Expr,
        env: Env,
    ) -> DResult<()> {
        let mut calls = false;
        super::legality::each_expr(dropped, &mut |x| {
            calls |= matches!(x.kind, ast::ExprKind::Call(..));
        });
        if calls {
            return Ok(());
        }
        let Ok(other) = self.eval(dropped, env) else {
            return Ok(());
        };
        let enums = &self.flat.enums;
        let kind = |v: &Val| match v {
            Val::Arr(a) => {
                let ty = match a.ty {
                    ScalarType::Enum(e) => enums[e.0 as usize].name.clone(),
                    t => t.name().to_string(),
                };
                let dims = if a.dims.is_empty() {
                    String::new()
                } else {
                    dims_text(&a.dims)
                };
                format!("{ty}{dims}")
            }
            Val::Str(_) | Val::Text(_) => "String".to_string(),
            Val::Strs(s) => format!("String{}", dims_text(&s.dims)),
            Val::Record(r) => format!("a record `{}`", r.name),
        };
        if self.compatible(chosen, &other) {
            return Ok(());
        }
        Err(Box::new(
            Diagnostic::error(
                "type",
                format!(
                    "the branches of this if-expression are not type compatible: {} and {}",
                    kind(chosen),
                    kind(&other)
                ),
            )
            .at(dropped.span, kind(&other))
            .also(at.span, kind(chosen))
            .help(
                "Modelica 3.6 §3.6.5, §6.7: the branches of an if-expression must be type \
                 compatible (Real with Integer, Boolean with Boolean, String with String, \
                 records with the same named elements, arrays with as many dimensions), \
                 also where the condition selects one when compiling",
            ),
        ))
    }

    pub(super) fn eval_arr(&mut self, e: &'a ast::Expr, env: Env) -> DResult<Arr> {
        let v = self.eval(e, env)?;
        self.as_arr(v, e.span)
    }

    /// A value that must be numbers (located at `span` otherwise).
    pub(super) fn as_arr(&self, v: Val, span: Span) -> DResult<Arr> {
        match v {
            Val::Arr(a) => Ok(a),
            Val::Str(_) | Val::Text(_) => Err(Box::new(
                Diagnostic::error("type", "a string where a number is expected").at(span, "here"),
            )),
            Val::Strs(s) => Err(Box::new(
                Diagnostic::error(
                    "type",
                    format!(
                        "an array of Strings (size {}) where a number is expected",
                        dims_text(&s.dims)
                    ),
                )
                .at(span, "here"),
            )),
            Val::Record(r) => Err(Box::new(
                Diagnostic::error(
                    "type",
                    format!("a record (`{}`) where a number is expected", r.name),
                )
                .at(span, "here")
                .help("use one of its fields, e.g. `r.x`"),
            )),
        }
    }

    pub(super) fn eval_scalar(&mut self, e: &'a ast::Expr, env: Env) -> DResult<ExprId> {
        let a = self.eval_arr(e, env)?;
        a.as_scalar().ok_or_else(|| {
            Box::new(
                Diagnostic::error(
                    "size",
                    format!("expected a scalar, got size {}", dims_text(&a.dims)),
                )
                .at(e.span, "here"),
            )
        })
    }

    pub(super) fn eval(&mut self, e: &'a ast::Expr, env: Env) -> DResult<Val> {
        use ast::ExprKind as K;
        let ar = |s: &mut Self, x: f64, ty: ScalarType| {
            Val::Arr(Arr::scalar(s.flat.arena.constant(x), ty))
        };
        match &e.kind {
            K::Integer(i) => Ok(ar(self, *i as f64, ScalarType::Integer)),
            K::Real(x) => Ok(ar(self, *x, ScalarType::Real)),
            K::Bool(b) => Ok(ar(self, if *b { 1.0 } else { 0.0 }, ScalarType::Boolean)),
            K::Str(s) => Ok(Val::Str(s.clone())),
            K::End => match self.ctx.end_stack.last() {
                Some(&n) => Ok(ar(self, n as f64, ScalarType::Integer)),
                None => Err(Box::new(
                    Diagnostic::error("syntax", "`end` outside of a subscript").at(e.span, "here"),
                )),
            },
            K::Ref(r) => self.eval_ref(r, env),
            K::Call(target, args) => self.eval_call(e, target, args, env),
            K::Unary(op, a) => {
                let x = self.eval_arr(a, env)?;
                Ok(Val::Arr(match op {
                    ast::UnaryOp::Neg => {
                        types::unary_numeric(&x, a.span, "-")?;
                        x.map(&mut self.flat.arena, |ar, v| ar.neg(v))
                    }
                    ast::UnaryOp::Plus => {
                        types::unary_numeric(&x, a.span, "+")?;
                        x
                    }
                    ast::UnaryOp::Not => {
                        types::boolean(&x, a.span, "the operand of `not`")?;
                        x.map(&mut self.flat.arena, |ar, v| ar.not(v))
                    }
                }))
            }
            K::Binary(op, a, b) => {
                let (x, y) = match (self.eval(a, env)?, self.eval(b, env)?) {
                    (Val::Arr(x), Val::Arr(y)) => (x, y),
                    (Val::Str(x), Val::Str(y)) => return self.string_binary(*op, &x, &y, e.span),
                    (x @ (Val::Str(_) | Val::Text(_)), y @ (Val::Str(_) | Val::Text(_))) => {
                        // A String made while the model runs: only joined.
                        return match (op, Text::join(&x, &y)) {
                            (ast::BinaryOp::Add, Some(t)) => Ok(Val::Text(Rc::new(t))),
                            _ => Err(self.changing_text(e.span)),
                        };
                    }
                    (Val::Strs(_), _) | (_, Val::Strs(_)) => {
                        return Err(Box::new(
                            Diagnostic::error(
                                "type",
                                format!("`{}` applied to an array of Strings", op.symbol()),
                            )
                            .at(e.span, "here")
                            .help("compare or join their elements: `s[i] == \"=\"`"),
                        ));
                    }
                    (Val::Record(r), _) | (_, Val::Record(r)) => {
                        return Err(Box::new(
                            Diagnostic::error(
                                "type",
                                format!("`{}` applied to a record (`{}`)", op.symbol(), r.name),
                            )
                            .at(e.span, "here")
                            .help("operators on records (operator records) are not supported; combine their fields"),
                        ));
                    }
                    (Val::Str(_) | Val::Text(_), _) | (_, Val::Str(_) | Val::Text(_)) => {
                        let at = if matches!(self.eval(a, env)?, Val::Str(_) | Val::Text(_)) {
                            a.span
                        } else {
                            b.span
                        };
                        return Err(Box::new(
                            Diagnostic::error(
                                "type",
                                format!("`{}` combines a String with a number", op.symbol()),
                            )
                            .at(at, "String")
                            .help("Strings are for messages and names; String(x) makes a String of a number"),
                        ));
                    }
                };
                let ty = types::binary(*op, &x, a.span, &y, b.span)?;
                self.binary(*op, &x, &y, e.span).map(|r| Val::Arr(r.with_ty(ty)))
            }
            K::If {
                branches,
                otherwise,
            } => {
                self.if_expression(e, branches, otherwise, env)
            }
            K::Range { start, step, stop } => {
                self.range(e, start, step.as_deref(), stop, env)
            }
            K::Array(items) => {
                let mut arrs = Vec::with_capacity(items.len());
                for it in items {
                    match self.eval(it, env)? {
                        v @ (Val::Str(_) | Val::Strs(_)) => {
                            // An array of Strings (`{"=", ";"}`).
                            let mut vals = vec![v];
                            for more in &items[1..] {
                                vals.push(self.eval(more, env)?);
                            }
                            return self.stack_strings(vals, &items[..], e.span);
                        }
                        Val::Record(r) => {
                            // An array of records (`{P(x = 1), P(x = 2)}`).
                            let mut recs = vec![Val::Record(r)];
                            for more in &items[1..] {
                                recs.push(self.eval(more, env)?);
                            }
                            return self.stack_records(recs, e.span);
                        }
                        v => arrs.push(self.as_arr(v, it.span)?),
                    }
                }
                let ty = unify_items(&arrs, items.iter().map(|i| i.span))?;
                let dims: Vec<Vec<usize>> = arrs.iter().map(|a| a.dims.clone()).collect();
                Arr::stack(arrs).map(|a| Val::Arr(a.with_ty(ty))).ok_or_else(|| {
                    Box::new(
                        Diagnostic::error(
                            "size",
                            "elements of an array constructor have different sizes",
                        )
                        .at(e.span, format!("sizes {}", dims.iter().map(|d| dims_text(d)).collect::<Vec<_>>().join(", "))),
                    )
                })
            }
            K::Comprehension(body, iters) => {
                let vals = self.iterate(iters, env, &mut |s| s.eval(body, env))?;
                if matches!(vals.first(), Some(Val::Record(_))) {
                    // An array of records (`{if c then r1 else r2 for k in 1:n}`).
                    return self.stack_records(vals, e.span);
                }
                let mut items = Vec::with_capacity(vals.len());
                for v in vals {
                    items.push(self.as_arr(v, body.span)?);
                }
                let ty = unify_items(&items, std::iter::repeat(body.span))?;
                Arr::stack(items).map(|a| Val::Arr(a.with_ty(ty))).ok_or_else(|| {
                    Box::new(
                        Diagnostic::error("size", "elements of an array comprehension have different sizes")
                            .at(e.span, "here"),
                    )
                })
            }
            K::Matrix(rows) => {
                self.matrix(e, rows, env)
            }
            K::Tuple(_) => Err(Box::new(
                Diagnostic::error("syntax", "a parenthesised list is only allowed on the left of a function call assignment")
                    .at(e.span, "here"),
            )),
            K::Subscripted(base, subs) => match self.eval(base, env)? {
                Val::Record(r) => self.record_subscripts(&r, subs, env, e.span),
                Val::Strs(s) => self.string_subscripts(&s, subs, env, e.span),
                v => {
                    let v = self.as_arr(v, base.span)?;
                    self.apply_subscripts_arr(v, subs, env, e.span).map(Val::Arr)
                }
            },
            K::PartialApplication(_) => Err(self.unsupported(e.span, "function partial applications")),
        }
    }

    /// Folds a condition if it depends on constants and parameters only.
    pub(super) fn fold_if_structural(&mut self, c: ExprId) -> Option<f64> {
        self.fold(c)
    }

    /// A scalar Boolean condition (`if`, `when`, `assert`).
    pub(super) fn eval_condition(
        &mut self,
        e: &'a ast::Expr,
        env: Env,
        what: &str,
    ) -> DResult<ExprId> {
        let a = self.eval_arr(e, env)?;
        types::boolean(&a, e.span, what)?;
        a.as_scalar().ok_or_else(|| {
            Box::new(
                Diagnostic::error(
                    "size",
                    format!("{what} must be a scalar, got size {}", dims_text(&a.dims)),
                )
                .at(e.span, "here"),
            )
        })
    }

    /// `==`, `<>`, `<`, … of two Strings (a Boolean known at compile time) and `+`.
    pub(super) fn string_binary(
        &mut self,
        op: ast::BinaryOp,
        x: &str,
        y: &str,
        span: Span,
    ) -> DResult<Val> {
        use ast::BinaryOp as B;
        let r = match op {
            B::Add => return Ok(Val::Str(format!("{x}{y}"))),
            B::Eq => x == y,
            B::Ne => x != y,
            B::Lt => x < y,
            B::Le => x <= y,
            B::Gt => x > y,
            B::Ge => x >= y,
            _ => {
                return Err(Box::new(
                    Diagnostic::error(
                        "type",
                        format!("`{}` is not defined for Strings", op.symbol()),
                    )
                    .at(span, "String operands")
                    .help("Strings can be joined with `+` and compared"),
                ))
            }
        };
        let c = self.flat.arena.constant(if r { 1.0 } else { 0.0 });
        Ok(Val::Arr(Arr::scalar(c, ScalarType::Boolean)))
    }

    pub(super) fn binary(
        &mut self,
        op: ast::BinaryOp,
        x: &Arr,
        y: &Arr,
        span: Span,
    ) -> DResult<Arr> {
        use ast::BinaryOp as B;
        let real = |a: &Arr| a.ty == ScalarType::Real;
        if matches!(op, B::Eq | B::Ne)
            && (real(x) || real(y))
            && !self.fns.frames.iter().any(|f| !f.is_model)
        {
            let msg = format!("`{}` compares Real values outside a function", op.symbol());
            return Err(Box::new(typed::REAL_EQUALITY.broken(span, msg, "here")));
        }
        if op == B::ElemPow || (op == B::Pow && x.is_scalar() && y.is_scalar()) {
            check_power(&self.flat.arena, x, y, span)?;
        }
        let ar = &mut self.flat.arena;
        let r = match op {
            B::Add | B::Sub => {
                if x.is_scalar() != y.is_scalar() {
                    None
                } else if op == B::Add {
                    values::zip_same(ar, x, y, |a, p, q| a.add(p, q))
                } else {
                    values::zip_same(ar, x, y, |a, p, q| a.sub(p, q))
                }
            }
            B::ElemAdd => values::zip(ar, x, y, |a, p, q| a.add(p, q)),
            B::ElemSub => values::zip(ar, x, y, |a, p, q| a.sub(p, q)),
            B::Mul => {
                // Work of the product (multiply-adds): bounded like for-loop iterations.
                let work = match (x.dims.as_slice(), y.dims.as_slice()) {
                    ([m, n], [_, p]) => m.saturating_mul(*n).saturating_mul(*p),
                    ([m, n], [_]) | ([m], [_, n]) => m.saturating_mul(*n),
                    _ => x.data.len().saturating_add(y.data.len()),
                };
                if work > MAX_ITERATIONS {
                    return Err(Box::new(
                        Diagnostic::error(
                            "too-large",
                            format!(
                                "this product of sizes {} and {} takes {work} multiplications, more than rtc's limit of {MAX_ITERATIONS}",
                                dims_text(&x.dims),
                                dims_text(&y.dims)
                            ),
                        )
                        .at(span, "too large"),
                    ));
                }
                values::multiply(ar, x, y)
            }
            B::ElemMul => values::zip(ar, x, y, |a, p, q| a.mul(p, q)),
            B::Div => {
                if !y.is_scalar() {
                    None
                } else {
                    values::zip(ar, x, y, |a, p, q| a.div(p, q))
                }
            }
            B::ElemDiv => values::zip(ar, x, y, |a, p, q| a.div(p, q)),
            B::Pow => {
                if x.is_scalar() && y.is_scalar() {
                    values::zip(ar, x, y, |a, p, q| a.pow(p, q))
                } else {
                    return self.matrix_power(x, y, span);
                }
            }
            B::ElemPow => values::zip(ar, x, y, |a, p, q| a.pow(p, q)),
            B::Lt | B::Le | B::Gt | B::Ge | B::Eq | B::Ne => {
                if !(x.is_scalar() && y.is_scalar()) {
                    None
                } else {
                    let c = match op {
                        B::Lt => CmpOp::Lt,
                        B::Le => CmpOp::Le,
                        B::Gt => CmpOp::Gt,
                        B::Ge => CmpOp::Ge,
                        B::Eq => CmpOp::Eq,
                        _ => CmpOp::Ne,
                    };
                    values::zip(ar, x, y, |a, p, q| a.cmp(c, p, q))
                }
            }
            B::And => values::zip_same(ar, x, y, |a, p, q| a.and(p, q)),
            B::Or => values::zip_same(ar, x, y, |a, p, q| a.or(p, q)),
        };
        r.ok_or_else(|| {
            Box::new(
                Diagnostic::error(
                    "size",
                    format!(
                        "operator `{}` cannot combine sizes {} and {}",
                        op.symbol(),
                        dims_text(&x.dims),
                        dims_text(&y.dims)
                    ),
                )
                .at(span, "here"),
            )
        })
    }

    /// Runs `body` for every combination of the loop indices, innermost last.
    pub(super) fn iterate<T>(
        &mut self,
        iters: &'a [ast::ForIndex],
        env: Env,
        body: &mut dyn FnMut(&mut Self) -> DResult<T>,
    ) -> DResult<Vec<T>> {
        let Some((first, rest)) = iters.split_first() else {
            return Ok(vec![body(self)?]);
        };
        let Some(range) = &first.range else {
            return Err(self.unsupported(first.name.span, "for-loops without an explicit range"));
        };
        let r = match self.enum_type_expr(range, env)? {
            Some(en) => self.enum_values(en),
            None => self.eval_arr(range, env)?,
        };
        if r.dims.len() != 1 {
            return Err(Box::new(
                Diagnostic::error("size", "a loop range must be a vector").at(range.span, "here"),
            ));
        }
        let loop_ty = r.ty;
        let mut values = Vec::with_capacity(r.data.len());
        for &x in &r.data {
            match self.fold(x) {
                Some(v) => values.push(v),
                None => {
                    return Err(Box::new(
                        Diagnostic::error(
                            "not-constant",
                            "a loop range must be known at compile time",
                        )
                        .at(range.span, "depends on a variable"),
                    ))
                }
            }
        }
        let mut out = Vec::new();
        for v in values {
            self.ctx.iterations += 1;
            if self.ctx.iterations > MAX_ITERATIONS {
                return Err(Box::new(
                    Diagnostic::error(
                        "too-large",
                        format!("the model's for-loops run more than {MAX_ITERATIONS} iterations, rtc's limit"),
                    )
                    .at(first.name.span, "this loop reached it")
                    .help("a real-time step function cannot compute a model of this size in a frame; check the ranges"),
                ));
            }
            self.ctx
                .loop_vars
                .push((first.name.name.clone(), v, loop_ty));
            let r = self.iterate(rest, env, body);
            self.ctx.loop_vars.pop();
            out.extend(r?);
        }
        Ok(out)
    }
}

impl<'t, 'a> Flattener<'t, 'a> {
    /// `a ^ s` of a square matrix and an Integer exponent s >= 0 known at compile time
    /// (specification 10.6.8): the identity for s = 0, else s − 1 products; a ^ b of any other
    /// array is an error (10.6.7).
    fn matrix_power(&mut self, x: &Arr, y: &Arr, span: Span) -> DResult<Arr> {
        if x.dims.len() != 2 || !y.is_scalar() {
            let msg = format!(
                "`a ^ b` of {} and {}: not scalars, nor a matrix and a scalar",
                dims_text(&x.dims),
                dims_text(&y.dims)
            );
            return Err(Box::new(typed::POWER_OPERANDS.broken(span, msg, "here")));
        }
        let n = x.dims[0];
        if x.dims[1] != n {
            let msg = format!(
                "a matrix power of a {} matrix: it is not square",
                dims_text(&x.dims)
            );
            return Err(Box::new(typed::MATRIX_POWER.broken(span, msg, "here")));
        }
        if y.ty != ScalarType::Integer {
            let msg = "a matrix power with a Real exponent".to_string();
            return Err(Box::new(typed::MATRIX_POWER.broken(span, msg, "here")));
        }
        let Some(s) = y.as_scalar().and_then(|e| self.flat.arena.as_const(e)) else {
            return Err(self.unsupported(
                span,
                "matrix powers whose exponent is not known at compile time",
            ));
        };
        if s < 0.0 {
            let msg = format!("a matrix power with the exponent {s}");
            return Err(Box::new(typed::MATRIX_POWER.broken(span, msg, "here")));
        }
        let work = s * (n as f64).powi(3);
        if work > MAX_ITERATIONS as f64 {
            return Err(Box::new(
                Diagnostic::error(
                    "too-large",
                    format!("this matrix power takes {work} multiplications, more than rtc's limit of {MAX_ITERATIONS}"),
                )
                .at(span, "too large"),
            ));
        }
        let ar = &mut self.flat.arena;
        let (one, zero) = (ar.constant(1.0), ar.constant(0.0));
        let mut acc = Arr {
            dims: vec![n, n],
            data: (0..n * n)
                .map(|k| if k / n == k % n { one } else { zero })
                .collect(),
            ty: x.ty,
        };
        for _ in 0..s as usize {
            acc = values::multiply(ar, &acc, x).expect("square matrices of one size");
        }
        Ok(acc)
    }
}

/// Real for any Real among a range's start, step and stop, else Integer.
pub(super) fn promote3(a: ScalarType, b: ScalarType, c: ScalarType) -> ScalarType {
    types::promote(types::promote(a, b), c)
}

/// The exceptional cases of `a ^ b` (10.6.7) where both operands are constants: 0.0 ^ 0.0
/// with a Real exponent, 0 ^ negative, negative ^ a value that is not an integer.
fn check_power(ar: &crate::symbolic::Arena<FlatVar>, x: &Arr, y: &Arr, span: Span) -> DResult<()> {
    // Element by element, a scalar operand against each element of the other (an empty
    // operand has no element to judge; its size is checked where the power is evaluated).
    let at = |d: &[ExprId], k: usize| d[if d.len() == 1 { 0 } else { k }];
    let (m, n) = (x.data.len(), y.data.len());
    let pairs = if m == 0 || n == 0 {
        0
    } else if m == 1 || n == 1 {
        m.max(n)
    } else {
        m.min(n)
    };
    for k in 0..pairs {
        let (p, q) = (at(&x.data, k), at(&y.data, k));
        let (Some(a), Some(b)) = (ar.as_const(p), ar.as_const(q)) else {
            continue;
        };
        let why = if a == 0.0 && b == 0.0 && y.ty == ScalarType::Real {
            "0.0 ^ 0.0 with a Real exponent"
        } else if a == 0.0 && b < 0.0 {
            "0 raised to a negative power"
        } else if a < 0.0 && b.fract() != 0.0 {
            "a negative number raised to a power that is not an integer"
        } else {
            continue;
        };
        let msg = format!("`a ^ b` with a = {a} and b = {b}: {why} is illegal");
        return Err(Box::new(typed::POWER_EXCEPTIONAL.broken(span, msg, "here")));
    }
    Ok(())
}
