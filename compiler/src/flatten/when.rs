//! When-equations (specification 8.3.5): conditions, `sample`, `initial()`, and bodies of
//! assignments, `reinit` and `terminate`, collected as flat `When`s.

use super::*;

/// A when-condition: its expression, `sample(start, interval)`, whether it is `initial()`,
/// whether it is `terminal()`.
pub(super) type WhenCondition = (ExprId, Option<(f64, f64)>, bool, bool);

impl<'t, 'a> Flattener<'t, 'a> {
    /// `when c then … elsewhen c2 then … end when;` (Cellier & Kofman §10.8): a condition is
    /// `sample(start, interval)`, `initial()`, a relation, or a Boolean expression of
    /// discrete variables (with `pre`, `edge`, `change`); a body holds `v = expr` for discrete
    /// variables, `reinit(x, expr)` for states and `terminate("message")`. Everything else in a
    /// when-equation gets the located "not yet supported" diagnostic.
    pub(super) fn when_equation(
        &mut self,
        eq: &'a ast::Equation,
        branches: &'a [(ast::Expr, Vec<ast::Equation>)],
        env: Env,
        initial: bool,
    ) -> DResult<()> {
        if initial {
            return Err(self.unsupported(eq.span, "when-equations in an initial equation section"));
        }
        let chain = self.flat.whens.len();
        let mut branch = 0;
        for (k, (cond, body)) in branches.iter().enumerate() {
            let span = if k == 0 { eq.span } else { cond.span };
            // `when {a, b}` fires when any element becomes true, once: its elements are
            // consecutive branches of the chain with the same body (the first that fires
            // runs it).
            for c in self.when_conditions(cond, env)? {
                self.when_branch_with(c, body, env, (chain, branch), span)?;
                branch += 1;
            }
        }
        self.single_definitions(chain, eq.span)
    }

    /// The variables a when-equation defines: the same in all its branches (8.3.5.3), and
    /// defined by no other when-equation (8.3.5.4).
    fn single_definitions(&mut self, chain: usize, span: Span) -> DResult<()> {
        // Other when-clauses made meanwhile (the counter of a `sample` in an expression) are
        // not this when-equation's branches.
        let sets: Vec<(Vec<FlatVar>, Span)> = self.flat.whens[chain..]
            .iter()
            .filter(|w| w.chain.0 == chain)
            .map(|w| {
                let mut vs: Vec<FlatVar> = w.assigns.iter().map(|a| a.0).collect();
                vs.sort();
                vs.dedup();
                (vs, w.span)
            })
            .collect();
        let Some((first, _)) = sets.first() else {
            return Ok(());
        };
        if let Some((other, at)) = sets.iter().find(|(s, _)| s != first) {
            let differs = first
                .iter()
                .chain(other)
                .find(|v| !(first.contains(v) && other.contains(v)))
                .map(|&v| self.flat.vars[v].name.clone())
                .unwrap_or_default();
            let msg = format!("`{differs}` is defined in one branch of this when-equation only");
            return Err(Box::new(
                typed::WHEN_BRANCHES
                    .broken(*at, msg, "this branch")
                    .also(span, "when-equation"),
            ));
        }
        let mut reinit_vars: Vec<FlatVar> = Vec::new();
        for w in self.flat.whens[chain..]
            .iter()
            .filter(|w| w.chain.0 == chain)
        {
            let mut vs: Vec<FlatVar> = w.reinits.iter().map(|r| r.0).collect();
            vs.sort();
            if let Some(v) = vs.windows(2).find(|p| p[0] == p[1]).map(|p| p[0]) {
                let msg = format!(
                    "`{}` is reinitialised twice at once",
                    self.flat.vars[v].name
                );
                return Err(Box::new(typed::REINIT_ONCE.broken(
                    w.span,
                    msg,
                    "this branch",
                )));
            }
            reinit_vars.extend(vs);
        }
        reinit_vars.sort();
        reinit_vars.dedup();
        let names = |v: FlatVar| self.flat.vars[v].name.clone();
        let twice = once_per_when(&mut self.reinit_defined, &reinit_vars, span, &names)
            .map(|(name, prev)| (typed::REINIT_ONCE, "reinitialised", name, prev))
            .or_else(|| {
                once_per_when(&mut self.when_defined, first, span, &names)
                    .map(|(name, prev)| (typed::WHEN_TWICE, "defined", name, prev))
            });
        match twice {
            Some((rule, what, name, prev)) => {
                let msg = format!("`{name}` is {what} by two when-equations");
                Err(Box::new(
                    rule.broken(span, msg, "second").also(prev, "first"),
                ))
            }
            None => Ok(()),
        }
    }

    /// The start and interval of `sample(start, interval)`: constants, the interval positive.
    pub(super) fn sample_times(
        &mut self,
        args: &'a [ast::Expr],
        env: Env,
        span: Span,
    ) -> DResult<(f64, f64)> {
        if args.len() != 2 {
            return Err(Box::new(
                Diagnostic::error(
                    "arguments",
                    "sample takes two arguments: sample(start, interval)",
                )
                .at(span, "here"),
            ));
        }
        let mut vals = [0.0; 2];
        for (k, a) in args.iter().enumerate() {
            let typed_arg = self.eval_arr(a, env)?;
            if !types::is_numeric(typed_arg.ty) {
                let msg = format!("sample() with an argument of type {}", typed_arg.ty.name());
                let what = typed_arg.ty.name();
                return Err(Box::new(typed::SAMPLE_ARGUMENTS.broken(a.span, msg, what)));
            }
            let e = self.eval_scalar(a, env)?;
            let Some(v) = self.fold(e) else {
                return Err(Box::new(
                    Diagnostic::error("sample", "sample(start, interval) needs constant arguments")
                        .at(a.span, "not a constant or parameter expression"),
                ));
            };
            vals[k] = v;
        }
        if !(vals[1] > 0.0 && vals[1].is_finite() && vals[0].is_finite()) {
            return Err(Box::new(
                Diagnostic::error(
                    "sample",
                    format!("sample interval {} must be positive", vals[1]),
                )
                .at(span, "here"),
            ));
        }
        Ok((vals[0], vals[1]))
    }

    /// A when-condition: the relation or Boolean expression, or `sample(start, interval)`, or
    /// `initial()`.
    pub(super) fn when_condition(
        &mut self,
        cond: &'a ast::Expr,
        env: Env,
    ) -> DResult<WhenCondition> {
        let mut sample = None;
        let mut at_initial = false;
        let mut at_end = false;
        let mut c = self.flat.arena.constant(0.0);
        let call = match &cond.kind {
            ast::ExprKind::Call(ast::CallTarget::Ref(f), args) => {
                Some((f.to_source_string(), args))
            }
            ast::ExprKind::Call(ast::CallTarget::Initial, args) => {
                Some(("initial".to_string(), args))
            }
            _ => None,
        };
        match call {
            Some((f, args)) if f == "sample" => {
                if !args.named.is_empty() {
                    return Err(Box::new(
                        Diagnostic::error(
                            "arguments",
                            "sample takes two arguments: sample(start, interval)",
                        )
                        .at(cond.span, "here"),
                    ));
                }
                sample = Some(self.sample_times(&args.positional, env, cond.span)?);
            }
            Some((f, args)) if f == "initial" => {
                if !args.positional.is_empty() || !args.named.is_empty() {
                    return Err(Box::new(
                        Diagnostic::error("arguments", "initial() takes no arguments")
                            .at(cond.span, "here"),
                    ));
                }
                at_initial = true;
            }
            // `terminal()` (3.7.4.2): true at the end of a successful run; a branch on it
            // acts once then, after the last step.
            Some((f, args)) if f == "terminal" => {
                if !args.positional.is_empty() || !args.named.is_empty() {
                    return Err(Box::new(
                        Diagnostic::error("arguments", "terminal() takes no arguments")
                            .at(cond.span, "here"),
                    ));
                }
                at_end = true;
            }
            _ => {
                self.ctx.in_when = true;
                let r = self.eval_condition(cond, env, "a when-condition");
                self.ctx.in_when = false;
                c = r?;
                if !self.when_condition_shape(c) {
                    // Under noEvent a relation is continuous-time: not a when-condition (8.3.5).
                    let ar = &self.flat.arena;
                    if ar
                        .post_order(c, |_| false)
                        .iter()
                        .any(|&x| matches!(ar.node(x), Node::NoEvent(_)))
                    {
                        return Err(Box::new(typed::WHEN_CONDITION_DISCRETE.broken(
                            cond.span,
                            "a when-condition under noEvent: a continuous-time expression",
                            "here",
                        )));
                    }
                    return Err(self.unsupported(
                        cond.span,
                        "when-conditions other than sample(start, interval), initial(), one relation (<, <=, >, >=), or a Boolean expression of discrete variables",
                    ));
                }
            }
        }
        Ok((c, sample, at_initial, at_end))
    }

    /// The conditions of a when-branch: one, or one per element of a vector condition
    /// (`when {a, b}`, or `when trigger` with `Boolean trigger[n]`): the branch fires when any
    /// of them becomes true, once (they become consecutive branches of the chain with one body).
    pub(super) fn when_conditions(
        &mut self,
        cond: &'a ast::Expr,
        env: Env,
    ) -> DResult<Vec<WhenCondition>> {
        if let ast::ExprKind::Array(items) = &cond.kind {
            if !items.is_empty() {
                let mut out = Vec::with_capacity(items.len());
                for c in items {
                    out.extend(self.when_conditions(c, env)?);
                }
                return Ok(out);
            }
        }
        if let ast::ExprKind::Ref(_) = cond.kind {
            self.ctx.in_when = true;
            let v = self.eval_arr(cond, env);
            self.ctx.in_when = false;
            let v = v?;
            if v.dims.len() == 1 {
                types::boolean(&v, cond.span, "a when-condition")?;
                let mut out = Vec::with_capacity(v.data.len());
                for &c in &v.data {
                    if !self.when_condition_shape(c) {
                        return Err(self.unsupported(cond.span, "this vector when-condition"));
                    }
                    out.push((c, None, false, false));
                }
                return Ok(out);
            }
        }
        Ok(vec![self.when_condition(cond, env)?])
    }

    /// A when-branch whose condition is evaluated already.
    fn when_branch_with(
        &mut self,
        (c, sample, at_initial, at_end): WhenCondition,
        body: &'a [ast::Equation],
        env: Env,
        chain: (usize, usize),
        span: Span,
    ) -> DResult<()> {
        let mut reinits = Vec::new();
        let mut assigns = Vec::new();
        let mut terminate = None;
        self.ctx.in_when = true;
        self.ctx.initial_const = Some(at_initial);
        let r = self.when_body(
            body,
            env,
            &mut reinits,
            &mut assigns,
            &mut terminate,
            at_initial,
        );
        self.ctx.in_when = false;
        self.ctx.initial_const = None;
        r?;
        self.flat.whens.push(crate::flat::When {
            condition: c,
            sample,
            initial: at_initial,
            terminal: at_end,
            reinits,
            assigns,
            terminate,
            chain,
            span,
        });
        Ok(())
    }

    /// Whether `c` is a condition rtc can watch: one relation (an event function), or a
    /// Boolean combination (not, and, or, =, <>) of discrete variables, relations between them,
    /// `pre`, `edge` and `change` (checked at event instants; the discretiser rejects
    /// continuous variables in it).
    pub(super) fn when_condition_shape(&self, c: ExprId) -> bool {
        let ar = &self.flat.arena;
        match ar.node(c) {
            Node::Cmp(CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge, ..) => true,
            _ => {
                let mut stack = vec![c];
                while let Some(x) = stack.pop() {
                    match ar.node(x) {
                        Node::Var(_) | Node::Pre(_) | Node::Const(_) => {}
                        Node::Not(a) => stack.push(a),
                        Node::And(a, b) | Node::Or(a, b) => stack.extend([a, b]),
                        Node::Cmp(..) => {}
                        _ => return false,
                    }
                }
                true
            }
        }
    }

    /// The left-hand side of `v = expr` in a when-equation: a component reference (a tuple
    /// is not supported yet), its subscripts parameter expressions (8.3.5.3).
    fn when_left_side(&mut self, l: &'a ast::Expr, env: Env) -> DResult<()> {
        let r = match &l.kind {
            ast::ExprKind::Ref(r) => r,
            ast::ExprKind::Tuple(_) => return Ok(()),
            _ => return Err(Box::new(typed::WHEN_EQUATION_FORM.broken(
                l.span,
                "the left-hand side of an equation in a when-equation is not a component reference",
                "here",
            ))),
        };
        if let Some(at) = self.varying_subscript(r, env)? {
            return Err(Box::new(typed::WHEN_EQUATION_FORM.broken(
                at,
                "a subscript of the left-hand side of an equation in a when-equation that is not a parameter expression",
                "here",
            )));
        }
        Ok(())
    }

    /// The first subscript of `r` that reads a variable that is not a parameter or a
    /// constant (a discrete-time or continuous-time value): where it is.
    pub(super) fn varying_subscript(
        &mut self,
        r: &'a ast::ComponentRef,
        env: Env,
    ) -> DResult<Option<Span>> {
        for part in &r.parts {
            for sub in &part.subscripts {
                let ast::Subscript::Expr(e) = sub else {
                    continue;
                };
                // Only the variables the subscript reads matter here, not its value: an `end`
                // in it (`pre(bSav[1:end-1])`) stands for a constant, whichever.
                self.ctx.end_stack.push(1);
                let v = self.eval_arr(e, env);
                self.ctx.end_stack.pop();
                let v = v?;
                let ar = &self.flat.arena;
                let varying = v.data.iter().any(|&d| {
                    ar.post_order(d, |_| false)
                        .iter()
                        .any(|&x| match ar.node(x) {
                            Node::Var(fv) => !matches!(
                                self.flat.vars[fv].kind,
                                VarKind::Parameter | VarKind::Constant
                            ),
                            _ => false,
                        })
                });
                if varying {
                    return Ok(Some(e.span));
                }
            }
        }
        Ok(None)
    }

    /// `v = value` in a when-equation, element by element: each element of `v` becomes a
    /// discrete variable changed only here.
    fn when_assign(
        &mut self,
        l: &'a ast::Expr,
        value: Arr,
        at: Span,
        rspan: Span,
        env: Env,
        assigns: &mut Vec<(FlatVar, ExprId)>,
    ) -> DResult<()> {
        let target = self.eval_arr(l, env)?;
        if target.dims != value.dims {
            return Err(self.size_mismatch(rspan, "a when-assignment", &target.dims, &value.dims));
        }
        for (&x, &e) in target.data.iter().zip(&value.data) {
            let Node::Var(xv) = self.flat.arena.node(x) else {
                return Err(self.unsupported(
                    at,
                    "equations in a when-equation other than `variable = expression`",
                ));
            };
            if let Some(sub) = self.in_submodel(l, env) {
                let msg = format!(
                    "the when-equation defines `{}`, a variable of the model or block \
                     component `{sub}`",
                    self.flat.vars[xv].name
                );
                return Err(Box::new(typed::WHEN_SUBCOMPONENT.broken(at, msg, "here")));
            }
            let kind = self.flat.vars[xv].kind;
            if !matches!(
                kind,
                VarKind::Algebraic | VarKind::Discrete | VarKind::Sampled
            ) {
                return Err(Box::new(
                    Diagnostic::error(
                        "when",
                        format!(
                            "`{}` is {} and cannot be assigned in a when-equation",
                            self.flat.vars[xv].name,
                            kind.name()
                        ),
                    )
                    .at(at, "here"),
                ));
            }
            self.assigned_once(xv, assigns, at, "second assignment")?;
            self.flat.vars[xv].kind = VarKind::Sampled;
            let var = &self.flat.vars[xv];
            types::assign(
                var.ty,
                &var.name,
                &Arr::scalar(e, value.ty),
                rspan,
                "is assigned {a}",
            )?;
            assigns.push((xv, e));
        }
        Ok(())
    }

    pub(super) fn when_body(
        &mut self,
        body: &'a [ast::Equation],
        env: Env,
        reinits: &mut Vec<(FlatVar, ExprId)>,
        assigns: &mut Vec<(FlatVar, ExprId)>,
        terminate: &mut Option<String>,
        at_initial: bool,
    ) -> DResult<()> {
        for b in body {
            if let ast::EquationKind::Equality(l, r) = &b.kind {
                self.when_left_side(l, env)?;
                if let ast::ExprKind::Tuple(targets) = &l.kind {
                    // `(a, b) = f(x)`: each output given to its target.
                    for (t, v) in self.tuple_outputs(targets, l, r, env)? {
                        self.when_left_side(t, env)?;
                        let Val::Arr(value) = v else {
                            return Err(Box::new(
                                Diagnostic::error("type", "a String output in an equation")
                                    .at(t.span, "here"),
                            ));
                        };
                        self.when_assign(t, value, b.span, r.span, env, assigns)?;
                    }
                    continue;
                }
                let value = self.eval_arr(r, env)?;
                self.when_assign(l, value, b.span, r.span, env, assigns)?;
                continue;
            }
            if let ast::EquationKind::If {
                branches,
                otherwise,
            } = &b.kind
            {
                let arms = IfArms {
                    branches,
                    otherwise,
                    span: b.span,
                };
                self.when_if(arms, env, (reinits, assigns, terminate), at_initial)?;
                continue;
            }
            let ast::EquationKind::Call(f, args) = &b.kind else {
                return Err(self.unsupported(
                    b.span,
                    "equations other than `v = expr`, if-equations of them, reinit(…), terminate(…) and calls in a when-equation",
                ));
            };
            match f.to_source_string().as_str() {
                "reinit" => {}
                "terminate" => {
                    let message = match (args.positional.as_slice(), args.named.is_empty()) {
                        ([m], true) => match &m.kind {
                            ast::ExprKind::Str(s) => s.clone(),
                            // A String known when the model is compiled (the MSL's
                            // `TerminateSimulation`: `terminate(terminationText)`, a parameter).
                            _ => match self.eval(m, env) {
                                Ok(Val::Str(s)) => s,
                                _ => {
                                    return Err(Box::new(
                                        Diagnostic::error(
                                            "arguments",
                                            "terminate takes a String known when the model is compiled: terminate(\"why\")",
                                        )
                                        .at(m.span, "not a String known when compiling"),
                                    ))
                                }
                            },
                        },
                        _ => {
                            return Err(Box::new(
                                Diagnostic::error(
                                    "arguments",
                                    "terminate takes one argument: terminate(\"why\")",
                                )
                                .at(b.span, "here"),
                            ))
                        }
                    };
                    *terminate = Some(message);
                    continue;
                }
                // `when initial() then assert(…)`: checked once, after initialisation.
                "assert" if at_initial => {
                    let before = self.flat.assertions.len();
                    self.call_equation(b, f, args, env)?;
                    let added: Vec<Assertion> = self.flat.assertions.drain(before..).collect();
                    if added.iter().any(|a| a.warning) {
                        return Err(self.unsupported(
                            b.span,
                            "an assert of level `AssertionLevel.warning` in `when initial()`",
                        ));
                    }
                    self.flat.initial_assertions.extend(added);
                    continue;
                }
                "assert" => {
                    return Err(self.unsupported(
                        b.span,
                        "calls other than reinit(…) and terminate(…) in a when-equation (and assert in `when initial()`)",
                    ))
                }
                _ => {
                    return Err(Box::new(typed::WHEN_EQUATION_FORM.broken(
                        b.span,
                        format!("the call `{}(…)` as an equation of a when-equation", f.to_source_string()),
                        "here",
                    )))
                }
            }
            if args.positional.len() != 2 || !args.named.is_empty() {
                return Err(Box::new(
                    Diagnostic::error("arguments", "reinit takes two arguments: reinit(x, expr)")
                        .at(b.span, "here"),
                ));
            }
            let x = self.eval_scalar(&args.positional[0], env)?;
            let Node::Var(xv) = self.flat.arena.node(x) else {
                return Err(Box::new(
                    Diagnostic::error("arguments", "reinit needs a variable as its first argument")
                        .at(args.positional[0].span, "not a variable"),
                ));
            };
            let ty = self.flat.vars[xv].ty;
            if ty != ScalarType::Real {
                let msg = format!(
                    "reinit of `{}`, of type {}",
                    self.flat.vars[xv].name,
                    ty.name()
                );
                let d = typed::REINIT_REAL.broken(args.positional[0].span, msg, "not Real");
                return Err(Box::new(d));
            }
            let value = self.eval_arr(&args.positional[1], env)?;
            types::numeric_arg(&value, args.positional[1].span, "reinit")?;
            let e = value.as_scalar().ok_or_else(|| {
                self.size_mismatch(args.positional[1].span, "reinit", &[], &value.dims)
            })?;
            reinits.push((xv, e));
        }
        Ok(())
    }
}

/// Records that the when-equation at `span` acts on `vars`; the first of them another
/// when-equation acted on already, with that one's span.
/// Where a when-equation's body puts what it does: re-initialisations, assignments, the
/// `terminate` message.
type WhenOut<'o> = (
    &'o mut Vec<(FlatVar, ExprId)>,
    &'o mut Vec<(FlatVar, ExprId)>,
    &'o mut Option<String>,
);

/// An if-equation in a when-equation's body.
struct IfArms<'a> {
    branches: &'a [(ast::Expr, Vec<ast::Equation>)],
    otherwise: &'a [ast::Equation],
    span: Span,
}

/// What one branch of an if-equation in a when-equation does: its condition (`None`: the
/// `else`), assignments and re-initialisations.
type Arm = (
    Option<ExprId>,
    Vec<(FlatVar, ExprId)>,
    Vec<(FlatVar, ExprId)>,
);

impl<'a> Flattener<'_, 'a> {
    /// An if-equation in a when-equation (8.3.5.3): each branch's equations evaluated on their
    /// own, then one assignment per variable, `if c1 then v1 elseif … else vn`. A condition
    /// known when the model is compiled selects its branch then (a parameter's); otherwise
    /// every branch must assign the same variables (refused, located, when not), and a
    /// branch without a `reinit` of a state leaves it as it is (`reinit(x, if c then e else
    /// x)`), except in `when initial()`, where a `reinit` counts as an equation (8.6) and the
    /// branches must agree on them too. `terminate` and `assert` stand only in a branch its
    /// condition selects when compiling.
    fn when_if(
        &mut self,
        arms: IfArms<'a>,
        env: Env,
        (reinits, assigns, terminate): WhenOut<'_>,
        at_initial: bool,
    ) -> DResult<()> {
        let mut taken: Vec<Arm> = Vec::new();
        let mut settled = false;
        for (c, body) in arms.branches {
            let cond = self.eval_condition(c, env, "the condition of an if-equation")?;
            let known = self.fold(cond);
            if known == Some(0.0) {
                continue;
            }
            let (mut a, mut r, mut t) = (Vec::new(), Vec::new(), None);
            let before = self.flat.assertions.len();
            self.when_body(body, env, &mut r, &mut a, &mut t, at_initial)?;
            if known.is_some() {
                // Selected when compiling: the branch is the when-equation's own.
                *terminate = t.or(terminate.take());
                taken.push((None, a, r));
                settled = true;
                break;
            }
            if t.is_some() || self.flat.assertions.len() > before {
                return Err(self.unsupported(
                    c.span,
                    "terminate or assert in a branch of an if-equation in a when-equation whose condition is known only while the model runs",
                ));
            }
            taken.push((Some(cond), a, r));
        }
        if !settled {
            let (mut a, mut r, mut t) = (Vec::new(), Vec::new(), None);
            let before = self.flat.assertions.len();
            self.when_body(arms.otherwise, env, &mut r, &mut a, &mut t, at_initial)?;
            if !taken.is_empty() && (t.is_some() || self.flat.assertions.len() > before) {
                return Err(self.unsupported(
                    arms.span,
                    "terminate or assert in a branch of an if-equation in a when-equation whose condition is known only while the model runs",
                ));
            }
            if taken.is_empty() {
                *terminate = t.or(terminate.take());
            }
            taken.push((None, a, r));
        }
        let (merged, reinit) = self.merge_arms(&taken, arms.span, at_initial)?;
        for (x, e) in merged {
            self.assigned_once(x, assigns, arms.span, "again in this if-equation")?;
            assigns.push((x, e));
        }
        reinits.extend(reinit);
        Ok(())
    }

    /// `x` is not assigned yet in this when-equation (`assigns`); else a located error.
    fn assigned_once(
        &self,
        x: FlatVar,
        assigns: &[(FlatVar, ExprId)],
        at: Span,
        label: &str,
    ) -> DResult<()> {
        if !assigns.iter().any(|&(y, _)| y == x) {
            return Ok(());
        }
        Err(Box::new(
            Diagnostic::error(
                "when",
                format!(
                    "`{}` is assigned twice in one when-equation",
                    self.flat.vars[x].name
                ),
            )
            .at(at, label.to_string()),
        ))
    }

    /// The branches' assignments and re-initialisations as one each (see [`Self::when_if`]).
    #[allow(clippy::type_complexity)]
    fn merge_arms(
        &mut self,
        taken: &[Arm],
        span: Span,
        at_initial: bool,
    ) -> DResult<(Vec<(FlatVar, ExprId)>, Vec<(FlatVar, ExprId)>)> {
        let targets = |xs: &[(FlatVar, ExprId)]| -> Vec<FlatVar> {
            let mut v: Vec<FlatVar> = xs.iter().map(|p| p.0).collect();
            v.sort_unstable();
            v
        };
        let first = targets(&taken[0].1);
        if let Some(other) = taken.iter().find(|arm| targets(&arm.1) != first) {
            let names = |vs: Vec<FlatVar>| {
                let v: Vec<String> = vs
                    .iter()
                    .map(|&x| format!("`{}`", self.flat.vars[x].name))
                    .collect();
                if v.is_empty() {
                    "nothing".to_string()
                } else {
                    v.join(", ")
                }
            };
            return Err(Box::new(typed::WHEN_EQUATION_FORM.broken(
                span,
                format!(
                    "the branches of an if-equation in a when-equation assign different variables ({} and {}) under a condition known only while the model runs",
                    names(first.clone()),
                    names(targets(&other.1))
                ),
                "this if-equation",
            )));
        }
        if at_initial {
            let r0 = targets(&taken[0].2);
            if taken.iter().any(|arm| targets(&arm.2) != r0) {
                return Err(Box::new(typed::WHEN_EQUATION_FORM.broken(
                    span,
                    "in `when initial()` a reinit counts as an equation (8.6): the branches of this if-equation, whose condition is known only while the model runs, re-initialise different states".to_string(),
                    "this if-equation",
                )));
            }
        }
        // One value per target: folded from the last branch up.
        let pick = |ar: &mut crate::symbolic::Arena<FlatVar>,
                    x: FlatVar,
                    list: &dyn Fn(&Arm) -> &[(FlatVar, ExprId)],
                    fallback: ExprId| {
            let mut acc = fallback;
            for arm in taken.iter().rev() {
                let v = list(arm)
                    .iter()
                    .find(|p| p.0 == x)
                    .map_or(fallback, |p| p.1);
                acc = match arm.0 {
                    Some(c) => ar.if_(c, v, acc),
                    None => v,
                };
            }
            acc
        };
        let mut assigns = Vec::new();
        for &(x, _) in &taken[0].1 {
            let own = self.flat.arena.var(x);
            let v = pick(&mut self.flat.arena, x, &|arm: &Arm| &arm.1, own);
            assigns.push((x, v));
        }
        let mut states: Vec<FlatVar> = Vec::new();
        for arm in taken {
            for &(x, _) in &arm.2 {
                if !states.contains(&x) {
                    states.push(x);
                }
            }
        }
        let mut reinits = Vec::new();
        for x in states {
            let own = self.flat.arena.var(x);
            let v = pick(&mut self.flat.arena, x, &|arm: &Arm| &arm.2, own);
            reinits.push((x, v));
        }
        Ok((assigns, reinits))
    }
}

fn once_per_when(
    seen: &mut FxHashMap<FlatVar, Span>,
    vars: &[FlatVar],
    span: Span,
    name: &dyn Fn(FlatVar) -> String,
) -> Option<(String, Span)> {
    for &v in vars {
        if let Some(prev) = seen.insert(v, span) {
            return Some((name(v), prev));
        }
    }
    None
}

impl<'a> Flattener<'_, 'a> {
    /// The model or block component (not a connector or record) that the left side of a
    /// when-equation reaches into (`s.u` of a `Sub s`), if it does (4.4.4).
    fn in_submodel(&mut self, l: &'a ast::Expr, env: Env) -> Option<String> {
        let ast::ExprKind::Ref(r) = &l.kind else {
            return None;
        };
        if r.parts.len() < 2 {
            return None;
        }
        let node = env.node?;
        let first = &*r.parts[0].ident.name;
        let sid = *self.inst.nodes[node.0 as usize].slots.get(first)?;
        let Ok(Entry::Nodes { nodes, .. }) = self.instantiate(sid) else {
            return None;
        };
        let n = *nodes.first()?;
        let class = *self.inst.nodes[n.0 as usize].classes.first()?;
        let end = self.tree.short_chain_end(class);
        matches!(
            self.tree.info(end).restriction(),
            Some(ast::Restriction::Model | ast::Restriction::Block)
        )
        .then(|| first.to_string())
    }
}
