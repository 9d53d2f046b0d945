//! Equations per instance (specification ch. 8): `lhs = rhs` with the types of both sides, for-
//! equations, if-equations (selected at compile time or as residuals), assert, and the dispatch to
//! when and connect.

use super::*;

impl<'t, 'a> Flattener<'t, 'a> {
    /// `assert(condition, message)`; `terminate` and `reinit` belong in when-equations.
    pub(super) fn call_equation(
        &mut self,
        eq: &'a ast::Equation,
        f: &'a ast::ComponentRef,
        args: &'a ast::CallArgs,
        env: Env,
    ) -> DResult<()> {
        let name = f.to_source_string();
        match name.as_str() {
            "assert" => {
                if args.positional.is_empty() {
                    return Err(Box::new(
                        Diagnostic::error("arguments", "`assert` needs a condition and a message")
                            .at(args.span, "here"),
                    ));
                }
                let warning = self.assert_is_warning(args, env)?;
                let c =
                    self.eval_condition(&args.positional[0], env, "the condition of an assert")?;
                let message = match args.positional.get(1) {
                    Some(m) => {
                        self.ctx.in_message = true;
                        let v = self.eval(m, env);
                        self.ctx.in_message = false;
                        match v? {
                            Val::Str(s) => s,
                            _ => {
                                return Err(Box::new(typed::ASSERT_ARGUMENTS.broken(
                                    m.span,
                                    "the message of an assert is not a String",
                                    "not a String",
                                )))
                            }
                        }
                    }
                    None => String::new(),
                };
                if self.fold(c) == Some(0.0) && !warning {
                    return Err(Box::new(
                        Diagnostic::error("assert", format!("assertion fails: {message}"))
                            .at(args.positional[0].span, "is false"),
                    ));
                }
                self.flat.assertions.push(Assertion {
                    condition: c,
                    message,
                    span: eq.span,
                    warning,
                });
                Ok(())
            }
            "terminate" | "reinit" => {
                Err(self.unsupported(eq.span, &format!("`{name}` equations")))
            }
            n if n.starts_with("Connections.") => self.connections_equation(n, args, env, eq.span),
            _ => Err(Box::new(
                Diagnostic::error("equation", format!("`{name}(…)` is not an equation"))
                    .at(eq.span, "here")
                    .help("an equation is `lhs = rhs`, connect, for, if, when or assert"),
            )),
        }
    }

    /// Whether an `assert` has `level = AssertionLevel.warning` (specification 8.3.7: the
    /// run reports it when it fails and goes on).
    pub(super) fn assert_is_warning(&mut self, args: &'a ast::CallArgs, env: Env) -> DResult<bool> {
        let level = args.positional.get(2).or_else(|| {
            args.named
                .iter()
                .find(|(n, _)| &*n.name == "level")
                .map(|(_, e)| e)
        });
        let Some(l) = level else {
            return Ok(false);
        };
        let typed_level = self.eval_arr(l, env)?;
        let is_level = match typed_level.ty {
            ScalarType::Enum(en) => self.flat.enums[en.index()].name.ends_with("AssertionLevel"),
            _ => false,
        };
        if !is_level {
            let msg = format!(
                "the level of an assert is of type {}",
                typed_level.ty.name()
            );
            let d = typed::ASSERT_ARGUMENTS.broken(l.span, msg, "not an AssertionLevel");
            return Err(Box::new(d));
        }
        // AssertionLevel is enumeration(error, warning): warning is 2.
        Ok(self.eval_const(l, env, "the level of an assert")? == 2.0)
    }

    /// An if-equation: a branch chosen at compile time when the conditions are structural, else
    /// residuals `0 = if c then r1 else r2` (every branch with as many equations).
    #[allow(clippy::too_many_arguments)]
    fn if_equation(
        &mut self,
        eq: &'a ast::Equation,
        branches: &'a [(ast::Expr, Vec<ast::Equation>)],
        otherwise: &'a [ast::Equation],
        env: Env,
        out: &mut Vec<Equation>,
        initial: bool,
    ) -> DResult<()> {
        let bodies = branches
            .iter()
            .map(|(_, b)| b.as_slice())
            .chain([otherwise]);
        if let Some(c) = bodies.filter_map(first_connection).next() {
            for (cond, _) in branches {
                graph_query(cond, c, eq.span)?;
            }
        }
        // Structural conditions select a branch at compile time.
        let mut conds = Vec::new();
        let mut all_const = true;
        for (c, _) in branches {
            let ce = self.eval_condition(c, env, "the condition of an if-equation")?;
            let folded = self.fold(ce);
            if folded.is_none() {
                all_const = false;
            }
            conds.push((ce, folded));
            if folded == Some(1.0) || folded.is_some_and(|v| v != 0.0) && all_const {
                break;
            }
        }
        if all_const {
            for (k, (_, v)) in conds.iter().enumerate() {
                if v.is_some_and(|x| x != 0.0) {
                    for b in &branches[k].1 {
                        self.equation(b, env, out, initial)?;
                    }
                    return Ok(());
                }
            }
            for b in otherwise {
                self.equation(b, env, out, initial)?;
            }
            return Ok(());
        }
        // A connection cannot depend on a value known only while running (9.3).
        let bodies = branches
            .iter()
            .map(|(_, b)| b.as_slice())
            .chain([otherwise]);
        if let Some(c) = bodies.filter_map(first_connection).next() {
            let d = typed::CONNECT_IN_IF
                .broken(
                    c.span,
                    "a connection under a condition that is no parameter expression",
                    "connection",
                )
                .also(eq.span, "the if-equation");
            return Err(Box::new(d));
        }
        // Otherwise every branch must give the same number of scalar equations;
        // they pair up into residuals `0 = if c then r1 else r2`.
        let mut branch_eqs = Vec::new();
        for (_, body) in branches {
            let mut v = Vec::new();
            for b in body {
                self.equation(b, env, &mut v, initial)?;
            }
            branch_eqs.push(v);
        }
        let mut else_eqs = Vec::new();
        for b in otherwise {
            self.equation(b, env, &mut else_eqs, initial)?;
        }
        for (k, v) in branch_eqs.iter().enumerate() {
            if v.len() != else_eqs.len() {
                return Err(Box::new(
                    Diagnostic::error(
                        "if-equation",
                        format!(
                            "the branches of this if-equation have {} and {} equations",
                            v.len(),
                            else_eqs.len()
                        ),
                    )
                    .at(branches[k].0.span, "condition depends on variables")
                    .help("with a condition that changes during simulation, every branch needs the same number of equations"),
                ));
            }
        }
        // 3.8.4: under a condition that is not discrete-time (a `noEvent` written over
        // continuous-time values), no branch has an equation of a discrete-valued variable.
        if let Some(k) = conds
            .iter()
            .position(|&(c, _)| self.continuous_no_event(c).is_some())
        {
            let guarded = branch_eqs[k..].iter().flatten().chain(&else_eqs);
            if let Some((e, v)) = guarded
                .filter_map(|e| self.discrete_target(e).map(|v| (e, v)))
                .next()
            {
                let msg = format!(
                    "`{}` is {}, so discrete-time, but its equation is under a condition computed under `noEvent` from continuous-time values",
                    self.flat.vars[v].name,
                    self.discrete_kind(v),
                );
                let d = typed::DISCRETE_UNDER_CONTINUOUS_IF
                    .broken(e.span, msg, "discrete-time equation")
                    .also(branches[k].0.span, "continuous-time condition");
                return Err(Box::new(d));
            }
        }
        let ar = &mut self.flat.arena;
        for i in 0..else_eqs.len() {
            let mut res = ar.sub(else_eqs[i].lhs, else_eqs[i].rhs);
            for (k, v) in branch_eqs.iter().enumerate().rev() {
                let r = ar.sub(v[i].lhs, v[i].rhs);
                res = ar.if_(conds[k].0, r, res);
            }
            let zero = ar.constant(0.0);
            out.push(Equation {
                lhs: zero,
                rhs: res,
                span: eq.span,
                origin: EquationOrigin::Source,
            });
        }
        Ok(())
    }

    /// Initial equations and initial algorithms that give a state or a discrete variable a
    /// value computed from parameters and the start time (`count := integer((time −
    /// startTime)/period)`, `x = x0`) set its start value (`fixed` for a state); those among
    /// the discrete variables and their `pre` values are solved as [`Self::discrete_initial`]
    /// says; the others stay, for the initial system ([`crate::initialization`]).
    pub(super) fn initial_values_from_initial_equations(&mut self) {
        let eqs = std::mem::take(&mut self.flat.initial_equations);
        let eqs = self.discrete_initial(eqs);
        let mut rest = Vec::new();
        for eq in eqs {
            // `pre(v) = e` for a discrete variable: the value before the start, which is
            // what its start value is (specification 8.6).
            let target = self
                .given_by(&eq, |_| true)
                .or_else(|| self.pre_given_by(&eq));
            let Some((x, e)) = target else {
                rest.push(eq);
                continue;
            };
            let var = &mut self.flat.vars[x];
            match var.kind {
                VarKind::State => {
                    var.start = Some(e);
                    var.fixed = Some(true);
                    var.start_span = Some(eq.span);
                }
                VarKind::Discrete | VarKind::Sampled => {
                    var.start = Some(e);
                    var.start_span = Some(eq.span);
                }
                _ => rest.push(eq),
            }
        }
        self.flat.initial_equations = self.discrete_chains(rest);
    }

    /// Initial equations `v = e` or `pre(v) = e` of a when-assigned variable `v` whose `e`
    /// reads other when-assigned variables settled before it (the noise blocks' `pre(state) =
    /// initialState(seed)`, then `r_raw = random(pre(state))`, then `r = f(r_raw)`): before its
    /// first event such a variable equals its `pre` value, its start value, so `e` with each
    /// of them replaced by its start value is `v`'s start value. Settled: no remaining initial
    /// equation gives that variable. Solved in order until none is left that can be; the
    /// others are returned.
    fn discrete_chains(&mut self, mut rest: Vec<Equation>) -> Vec<Equation> {
        let sampled = |vars: &[Variable], x: FlatVar| vars[x.index()].kind == VarKind::Sampled;
        loop {
            let mut progress = false;
            let mut k = 0;
            while k < rest.len() {
                let eq = &rest[k];
                let found = [(eq.lhs, eq.rhs), (eq.rhs, eq.lhs)]
                    .iter()
                    .find_map(|&(v, e)| match self.flat.arena.node(v) {
                        Node::Var(x) | Node::Pre(x) if sampled(&self.flat.vars, x) => Some((x, e)),
                        _ => None,
                    });
                let Some((x, e)) = found else {
                    k += 1;
                    continue;
                };
                // The targets of the other remaining equations are not settled.
                let targets: Vec<FlatVar> = rest
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != k)
                    .flat_map(|(_, q)| [q.lhs, q.rhs])
                    .filter_map(|side| match self.flat.arena.node(side) {
                        Node::Var(y) | Node::Pre(y) => Some(y),
                        _ => None,
                    })
                    .collect();
                let ar = &self.flat.arena;
                let mut seen = vec![false; ar.len()];
                let mut ok = true;
                ar.visit_postorder(e, &mut seen, &mut |n| match ar.node(n) {
                    Node::Var(v) | Node::Pre(v)
                        if sampled(&self.flat.vars, v) && v != x && !targets.contains(&v) => {}
                    Node::Var(v)
                        if matches!(
                            self.flat.vars[v].kind,
                            VarKind::Parameter | VarKind::Constant
                        ) => {}
                    Node::Var(_) | Node::Pre(_) | Node::Der(_) => ok = false,
                    _ => {}
                });
                if !ok {
                    k += 1;
                    continue;
                }
                let starts: Vec<(bool, Option<ExprId>)> = self
                    .flat
                    .vars
                    .iter()
                    .map(|v| (v.kind == VarKind::Sampled, v.start))
                    .collect();
                let mut cache = FxHashMap::default();
                let value = self
                    .flat
                    .arena
                    .substitute(e, &mut cache, &mut |ar, n| match n {
                        Node::Var(v) | Node::Pre(v) if starts[v.index()].0 => {
                            Some(starts[v.index()].1.unwrap_or_else(|| ar.constant(0.0)))
                        }
                        _ => None,
                    });
                let eq = rest.remove(k);
                let var = &mut self.flat.vars[x];
                var.start = Some(value);
                var.start_span = Some(eq.span);
                progress = true;
            }
            if !progress {
                return rest;
            }
        }
    }

    /// The initial equations among discrete variables and their `pre` values (specification
    /// 8.6: in the initial system `pre(v)` of a discrete variable is an unknown, its start
    /// value unless an equation says otherwise). Each discrete variable has two values at the
    /// start, v and pre(v); the model's equations `a = pre(b)` and `a = b` (the step graphs'
    /// `localActive = pre(newActive)`, `active = localActive`), a when-assigned variable's
    /// v = pre(v) before its first event, and the initial equations `pre(a) = pre(b)` make
    /// them equal in sets; an initial equation `v = e` or `pre(v) = e` (e of parameters) gives
    /// a set its value, the start value of every variable whose `pre` is in it (an
    /// `InitialStep`'s `active = true` starts its `newActive`, `localActive` and `oldActive`
    /// true). Those initial equations are solved so; the others are returned.
    fn discrete_initial(&mut self, eqs: Vec<Equation>) -> Vec<Equation> {
        let n = self.flat.vars.len();
        let discrete = |k: &VarKind| matches!(k, VarKind::Discrete | VarKind::Sampled);
        // Node 2v: v at the start; node 2v + 1: pre(v).
        let mut parent: Vec<usize> = (0..2 * n).collect();
        fn find(p: &mut [usize], mut x: usize) -> usize {
            while p[x] != x {
                p[x] = p[p[x]];
                x = p[x];
            }
            x
        }
        let node =
            |ar: &crate::symbolic::Arena<FlatVar>, vars: &[Variable], e: ExprId| match ar.node(e) {
                Node::Var(v) if discrete(&vars[v.index()].kind) => Some(2 * v.index()),
                Node::Pre(v) if discrete(&vars[v.index()].kind) => Some(2 * v.index() + 1),
                _ => None,
            };
        for (i, v) in self.flat.vars.iter().enumerate() {
            if v.kind == VarKind::Sampled {
                let (a, b) = (find(&mut parent, 2 * i), find(&mut parent, 2 * i + 1));
                parent[a] = b;
            }
        }
        for eq in &self.flat.equations {
            if let (Some(a), Some(b)) = (
                node(&self.flat.arena, &self.flat.vars, eq.lhs),
                node(&self.flat.arena, &self.flat.vars, eq.rhs),
            ) {
                let (a, b) = (find(&mut parent, a), find(&mut parent, b));
                parent[a] = b;
            }
        }
        let mut rest = Vec::new();
        let mut valued: Vec<(usize, ExprId, Span)> = Vec::new();
        for eq in eqs {
            let l = node(&self.flat.arena, &self.flat.vars, eq.lhs);
            let r = node(&self.flat.arena, &self.flat.vars, eq.rhs);
            match (l, r) {
                (Some(a), Some(b)) if a % 2 == 1 || b % 2 == 1 => {
                    let (a, b) = (find(&mut parent, a), find(&mut parent, b));
                    parent[a] = b;
                }
                (Some(a), None) if self.depends_on_parameters_only(eq.rhs) => {
                    valued.push((a, eq.rhs, eq.span));
                    rest.push(eq);
                }
                (None, Some(b)) if self.depends_on_parameters_only(eq.lhs) => {
                    valued.push((b, eq.lhs, eq.span));
                    rest.push(eq);
                }
                _ => rest.push(eq),
            }
        }
        // A value given to a set starts every variable whose pre value is in it.
        for (a, e, span) in valued {
            let root = find(&mut parent, a);
            for v in 0..n {
                if find(&mut parent, 2 * v + 1) == root {
                    let var = &mut self.flat.vars[v];
                    var.start = Some(e);
                    var.start_span = Some(span);
                }
            }
        }
        rest
    }

    /// The variable an equation gives (one side is the variable, chosen by `want`; the other
    /// refers only to constants, parameters and `time`) and the expression.
    fn given_by(
        &self,
        eq: &Equation,
        want: impl Fn(&Variable) -> bool,
    ) -> Option<(FlatVar, ExprId)> {
        [(eq.lhs, eq.rhs), (eq.rhs, eq.lhs)]
            .iter()
            .find_map(|&(v, e)| match self.flat.arena.node(v) {
                Node::Var(x) if want(&self.flat.vars[x]) && self.depends_on_parameters_only(e) => {
                    Some((x, e))
                }
                _ => None,
            })
    }

    /// `pre(v) = e` (either way round) with `v` discrete and `e` of parameters and `time`.
    fn pre_given_by(&self, eq: &Equation) -> Option<(FlatVar, ExprId)> {
        [(eq.lhs, eq.rhs), (eq.rhs, eq.lhs)]
            .iter()
            .find_map(|&(v, e)| match self.flat.arena.node(v) {
                Node::Pre(x)
                    if matches!(self.flat.vars[x].kind, VarKind::Discrete | VarKind::Sampled)
                        && self.depends_on_parameters_only(e) =>
                {
                    Some((x, e))
                }
                _ => None,
            })
    }

    /// Whether `e` refers only to constants, parameters and `time`.
    fn depends_on_parameters_only(&self, e: ExprId) -> bool {
        let ar = &self.flat.arena;
        let mut seen = vec![false; ar.len()];
        let mut ok = true;
        ar.visit_postorder(e, &mut seen, &mut |x| match ar.node(x) {
            Node::Var(v)
                if !matches!(
                    self.flat.vars[v].kind,
                    VarKind::Parameter | VarKind::Constant
                ) =>
            {
                ok = false
            }
            Node::Der(_) | Node::Pre(_) => ok = false,
            _ => {}
        });
        ok
    }

    /// The outputs of `f(x)` in `(a, b) = f(x)` paired with the targets that are given.
    pub(super) fn tuple_outputs(
        &mut self,
        targets: &'a [Option<ast::Expr>],
        l: &'a ast::Expr,
        r: &'a ast::Expr,
        env: Env,
    ) -> DResult<Vec<(&'a ast::Expr, Val)>> {
        let ast::ExprKind::Call(ast::CallTarget::Ref(f), args) = &r.kind else {
            return Err(Box::new(
                Diagnostic::error(
                    "equation",
                    "a parenthesised list on the left needs a function call on the right",
                )
                .at(r.span, "not a function call"),
            ));
        };
        let outs = self.call_for_targets(f, args, targets.len(), env, l.span)?;
        Ok(targets
            .iter()
            .zip(outs)
            .filter_map(|(t, v)| t.as_ref().map(|t| (t, v)))
            .collect())
    }

    /// `(a, b) = f(x)`: one equation per output that has a target.
    fn tuple_equation(
        &mut self,
        eq: &'a ast::Equation,
        l: &'a ast::Expr,
        r: &'a ast::Expr,
        env: Env,
        out: &mut Vec<Equation>,
    ) -> DResult<()> {
        let ast::ExprKind::Tuple(targets) = &l.kind else {
            return Ok(());
        };
        for (t, v) in self.tuple_outputs(targets, l, r, env)? {
            let a = self.eval_arr(t, env)?;
            let Val::Arr(b) = v else {
                return Err(Box::new(
                    Diagnostic::error("type", "a String output in an equation").at(t.span, "here"),
                ));
            };
            types::equation(&a, t.span, &b, r.span)?;
            if a.dims != b.dims {
                return Err(Box::new(
                    Diagnostic::error(
                        "size",
                        format!(
                            "the sides of this equation have different sizes: {} and {}",
                            dims_text(&a.dims),
                            dims_text(&b.dims)
                        ),
                    )
                    .at(t.span, dims_text(&a.dims)),
                ));
            }
            for (&x, &y) in a.data.iter().zip(&b.data) {
                out.push(Equation {
                    lhs: x,
                    rhs: y,
                    span: eq.span,
                    origin: EquationOrigin::Source,
                });
            }
        }
        Ok(())
    }

    /// Every node's equations and algorithms. Initial equations and initial algorithms come
    /// first, so that the parameters they compute (`parameter Real t0(fixed = false); initial
    /// equation t0 = time;`, the MSL's filter coefficients) have their values before the
    /// equations that fold them (`sample(t0 + 1/f, 1/f)`) are made.
    pub(super) fn generate_equations(&mut self) -> DResult<()> {
        let mut k = 0;
        while k < self.inst.nodes.len() {
            self.node_equations(NodeId::new(k), true, false);
            if self.too_many_errors() {
                return Ok(());
            }
            k += 1;
        }
        let done_initial = self.inst.nodes.len();
        self.parameters_from_initial_equations();
        let mut k = 0;
        while k < self.inst.nodes.len() {
            self.node_equations(NodeId::new(k), k >= done_initial, true);
            if self.too_many_errors() {
                return Ok(());
            }
            k += 1;
        }
        Ok(())
    }

    fn too_many_errors(&self) -> bool {
        self.diags.iter().filter(|d| d.is_error()).count() >= MAX_ERRORS
    }

    /// The initial equations and algorithms of a node's classes (`initial`), its equations
    /// and algorithms (`normal`).
    fn node_equations(&mut self, node: NodeId, initial: bool, normal: bool) {
        let classes = self.inst.nodes[node.0 as usize].classes.clone();
        for class in classes {
            let Some(comp) = self.tree.info(class).composition() else {
                continue;
            };
            let env = Env {
                node: Some(node),
                class,
            };
            for alg in comp
                .algorithms
                .iter()
                .filter(|a| if a.initial { initial } else { normal })
            {
                let mut out = Vec::new();
                if let Err(d) = self.model_algorithm(alg, env, &mut out) {
                    self.push_error(*d);
                }
                if alg.initial {
                    self.flat.initial_equations.extend(out);
                } else {
                    self.flat.equations.extend(out);
                }
            }
            if normal {
                for eq in &comp.equations {
                    let mut out = Vec::new();
                    if let Err(d) = self.equation(eq, env, &mut out, false) {
                        self.push_error(*d);
                    }
                    self.flat.equations.extend(out);
                }
            }
            if initial {
                for eq in &comp.initial_equations {
                    let mut out = Vec::new();
                    if let Err(d) = self.equation(eq, env, &mut out, true) {
                        self.push_error(*d);
                    }
                    self.flat.initial_equations.extend(out);
                }
            }
            if self.too_many_errors() {
                return;
            }
        }
    }

    /// Parameters with `fixed = false` and no binding that an initial equation gives as an
    /// expression of parameters and the start time (specification 8.6: computed during
    /// initialisation) take that expression as their binding, `time` being the experiment's
    /// start time; the equation is used up.
    fn parameters_from_initial_equations(&mut self) {
        let t0 = self.flat.experiment.start_time.unwrap_or(0.0);
        let eqs = std::mem::take(&mut self.flat.initial_equations);
        let mut rest = Vec::new();
        for eq in eqs {
            let target = self.given_by(&eq, |var| {
                var.kind == VarKind::Parameter && var.fixed == Some(false) && var.binding.is_none()
            });
            let Some((p, e)) = target else {
                rest.push(eq);
                continue;
            };
            let start = self.flat.arena.constant(t0);
            let mut cache = FxHashMap::default();
            let b = self
                .flat
                .arena
                .substitute(e, &mut cache, &mut |_, n| match n {
                    Node::Time => Some(start),
                    _ => None,
                });
            self.flat.vars[p].binding = Some(b);
        }
        self.flat.initial_equations = rest;
        // The others: an initial equation rtc cannot use gives them (discretisation refuses
        // it), or none does — then the start value, said in a warning, or an error.
        let used: rustc_hash::FxHashSet<FlatVar> = self
            .flat
            .initial_equations
            .iter()
            .flat_map(|eq| {
                let mut leaves = Vec::new();
                self.flat.arena.leaves(eq.lhs, &mut leaves);
                self.flat.arena.leaves(eq.rhs, &mut leaves);
                leaves.into_iter().filter_map(|l| match l {
                    Node::Var(v) => Some(v),
                    _ => None,
                })
            })
            .collect();
        for i in 0..self.flat.vars.len() {
            let v = &self.flat.vars[i];
            if v.kind != VarKind::Parameter || v.fixed != Some(false) || v.binding.is_some() {
                continue;
            }
            if used.contains(&FlatVar::new(i)) {
                continue;
            }
            let (name, span, start) = (v.name.clone(), v.span, v.start);
            match start {
                // The initial system may still determine it through the model
                // (InitSpringConstant's spring constant from `rev.a = 0`, an initial equation
                // that `a(fixed = true)` makes later): its start value is then the guess, and
                // the initialisation reports what it becomes.
                Some(s) => {
                    self.flat.vars[i].binding = Some(s);
                    self.diags.push(
                        Diagnostic::warning(
                            "parameter-default",
                            format!(
                                "parameter `{name}` has `fixed = false` but no initial equation names it; its start value {} is used unless the initial system determines it",
                                self.flat.expr_string(s)
                            ),
                        )
                        .at(span, "declared here"),
                    );
                }
                None => self.push_error(
                    Diagnostic::error(
                        "no-value",
                        format!(
                            "parameter `{name}` has `fixed = false` but neither an initial equation nor a start value gives it a value"
                        ),
                    )
                    .at(span, "declared here"),
                ),
            }
        }
    }

    pub(super) fn equation(
        &mut self,
        eq: &'a ast::Equation,
        env: Env,
        out: &mut Vec<Equation>,
        initial: bool,
    ) -> DResult<()> {
        match &eq.kind {
            ast::EquationKind::Equality(l, r) if matches!(l.kind, ast::ExprKind::Tuple(_)) => {
                self.tuple_equation(eq, l, r, env, out)
            }
            ast::EquationKind::Equality(l, r) => {
                let (a, b) = match (self.eval(l, env)?, self.eval(r, env)?) {
                    (x @ Val::Record(_), y) | (x, y @ Val::Record(_)) => {
                        return self.record_equation(&x, &y, eq.span, out);
                    }
                    (Val::Arr(a), Val::Arr(b)) => (a, b),
                    (Val::Str(_) | Val::Text(_) | Val::Strs(_), _) => {
                        return Err(Box::new(
                            Diagnostic::error("type", "an equation between Strings")
                                .at(l.span, "String")
                                .help("Strings are for parameters and messages"),
                        ))
                    }
                    (_, Val::Str(_) | Val::Text(_) | Val::Strs(_)) => {
                        return Err(Box::new(
                            Diagnostic::error("type", "a string where a number is expected")
                                .at(r.span, "here"),
                        ))
                    }
                };
                types::equation(&a, l.span, &b, r.span)?;
                // A side that is one Integer or Boolean variable is defined by the other.
                for (side, this, other, other_span) in [(l, &a, &b, r.span), (r, &b, &a, l.span)] {
                    let ast::ExprKind::Ref(rf) = &side.kind else {
                        continue;
                    };
                    let is_variable =
                        this.as_scalar()
                            .is_some_and(|x| match self.flat.arena.node(x) {
                                Node::Var(v) => !matches!(
                                    self.flat.vars[v].kind,
                                    VarKind::Parameter | VarKind::Constant
                                ),
                                _ => false,
                            });
                    if is_variable && this.ty != ScalarType::Real {
                        let name = rf.to_source_string();
                        types::assign(
                            this.ty,
                            &name,
                            other,
                            other_span,
                            "is defined by {a} expression",
                        )?;
                    }
                }
                if a.dims != b.dims {
                    return Err(Box::new(
                        Diagnostic::error(
                            "size",
                            format!(
                                "the sides of this equation have different sizes: {} and {}",
                                dims_text(&a.dims),
                                dims_text(&b.dims)
                            ),
                        )
                        .at(l.span, dims_text(&a.dims))
                        .also(r.span, dims_text(&b.dims)),
                    ));
                }
                for (&x, &y) in a.data.iter().zip(&b.data) {
                    out.push(Equation {
                        lhs: x,
                        rhs: y,
                        span: eq.span,
                        origin: EquationOrigin::Source,
                    });
                }
                Ok(())
            }
            ast::EquationKind::For { indices, body } => {
                if let Some(c) = first_connection(body) {
                    for r in indices.iter().filter_map(|i| i.range.as_ref()) {
                        graph_query(r, c, eq.span)?;
                    }
                }
                self.iterate(indices, env, &mut |s| {
                    for b in body {
                        s.equation(b, env, out, initial)?;
                    }
                    Ok(())
                })?;
                Ok(())
            }
            ast::EquationKind::If {
                branches,
                otherwise,
            } => self.if_equation(eq, branches, otherwise, env, out, initial),
            ast::EquationKind::Connect(a, b) => {
                if initial {
                    return Err(Box::new(
                        Diagnostic::error("connect", "connect in an initial equation section")
                            .at(eq.span, "here"),
                    ));
                }
                self.connect(a, b, env, eq.span)
            }
            ast::EquationKind::When { branches } => self.when_equation(eq, branches, env, initial),
            ast::EquationKind::Call(f, args) => self.call_equation(eq, f, args, env),
        }
    }
}

/// A condition (or range) of an if- (for-) equation holding the connection `c` that asks
/// the connection graph (8.3.3): `cardinality`, `rooted`, `Connections.rooted`/`isRoot`.
fn graph_query(cond: &ast::Expr, c: &ast::Equation, whole: Span) -> DResult<()> {
    let mut found = None;
    super::legality::each_expr(cond, &mut |x| {
        if let ast::ExprKind::Call(ast::CallTarget::Ref(r), _) = &x.kind {
            let name = r.to_source_string();
            if found.is_none()
                && matches!(
                    name.as_str(),
                    "cardinality" | "rooted" | "Connections.rooted" | "Connections.isRoot"
                )
            {
                found = Some((x.span, name));
            }
        }
    });
    let Some((at, name)) = found else {
        return Ok(());
    };
    let d = typed::CONNECT_CONDITION
        .broken(
            at,
            format!("`{name}` decides whether a connection is made"),
            "asks the connections",
        )
        .also(c.span, "connection")
        .also(whole, "here");
    Err(Box::new(d))
}

/// The first `connect` or `Connections.…` call among equations (through if- and
/// for-equations).
fn first_connection(eqs: &[ast::Equation]) -> Option<&ast::Equation> {
    eqs.iter().find_map(|e| match &e.kind {
        ast::EquationKind::Connect(..) => Some(e),
        ast::EquationKind::Call(f, _)
            if f.parts
                .first()
                .is_some_and(|p| &*p.ident.name == "Connections") =>
        {
            Some(e)
        }
        ast::EquationKind::If {
            branches,
            otherwise,
        } => branches
            .iter()
            .map(|(_, b)| b.as_slice())
            .chain([otherwise.as_slice()])
            .find_map(first_connection),
        ast::EquationKind::For { body, .. } => first_connection(body),
        _ => None,
    })
}
