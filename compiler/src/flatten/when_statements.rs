//! When-statements in a model's algorithm section (specification 11.2.7): each branch an event
//! clause whose assignments are what its statements compute, its calls made for their effect
//! assigned to hidden tokens, `reinit`/`terminate` its actions, its assertions checked on what
//! it assigned (for `when terminal()`, once, after its event). Split from `algorithms.rs`,
//! which executes the statements themselves.

use super::functions::LocalValue;
use super::*;
use crate::symbolic::CmpOp;

impl<'t, 'a> Flattener<'t, 'a> {
    /// `when c then … elsewhen … end when` in a model's algorithm (specification 11.2.7): each
    /// branch is an event clause whose assignments are the values its statements compute from
    /// the variables as they are before it; after the statement the assigned variables hold
    /// their (event-held) values.
    pub(super) fn when_statement(
        &mut self,
        st: &'a ast::Statement,
        branches: &'a [(ast::Expr, Vec<ast::Statement>)],
        g: ExprId,
        env: Env,
    ) -> DResult<()> {
        let top = self.fns.frames.len() - 1;
        if !self.fns.frames[top].is_model {
            return Err(Box::new(
                Diagnostic::error("when", "a when-statement in a function")
                    .at(st.span, "not allowed in functions (specification 12.2)"),
            ));
        }
        if self.flat.arena.as_const(g) != Some(1.0) {
            return Err(Box::new(
                Diagnostic::error("when", "a when-statement inside if, for or while").at(
                    st.span,
                    "only at the top of an algorithm (specification 11.2.7)",
                ),
            ));
        }
        let chain = self.flat.whens.len();
        let mut assigned: Vec<Box<str>> = Vec::new();
        let mut branch = 0;
        for (k, (cond, body)) in branches.iter().enumerate() {
            let conditions = self.when_conditions(cond, env)?;
            // The body once for the conditions `initial()` makes fire (where `initial()` is
            // true) and once for the others.
            for at_start in [true, false] {
                let group: Vec<super::when::WhenCondition> = conditions
                    .iter()
                    .filter(|c| c.2 == at_start)
                    .cloned()
                    .collect();
                if group.is_empty() {
                    continue;
                }
                self.when_statement_branch(
                    st,
                    cond,
                    body,
                    group,
                    (k, chain, &mut branch),
                    env,
                    &mut assigned,
                )?;
            }
        }
        // From here on the variables hold what their events set.
        for name in assigned {
            let vars = self.algorithm_vars(&name, env, st.span)?;
            let l = self.fns.frames[top].locals.get_mut(&name).expect("local");
            if let LocalValue::Set(Val::Arr(a)) = &mut l.value {
                a.data = vars.iter().map(|&v| self.flat.arena.var(v)).collect();
            }
            if !self.fns.frames[top].when_assigned.contains(&name) {
                self.fns.frames[top].when_assigned.push(name);
            }
        }
        Ok(())
    }

    /// One branch of a when-statement for a group of its conditions (all fired by `initial()`
    /// or none): the body's assignments become the when-clauses of those conditions.
    #[allow(clippy::too_many_arguments)]
    fn when_statement_branch(
        &mut self,
        st: &'a ast::Statement,
        cond: &'a ast::Expr,
        body: &'a [ast::Statement],
        conditions: Vec<super::when::WhenCondition>,
        (k, chain, branch): (usize, usize, &mut usize),
        env: Env,
        assigned: &mut Vec<Box<str>>,
    ) -> DResult<()> {
        let top = self.fns.frames.len() - 1;
        let yes = self.flat.arena.boolean(true);
        self.ctx.initial_const = Some(conditions[0].2);
        let before = self.fns.frames[top].locals.clone();
        self.fns.frames[top].reinits = Some(Vec::new());
        self.fns.frames[top].terminate = None;
        self.ctx.in_when = true;
        // `when terminal()`: its assertions hold once its event has set the flag (else they
        // would be checked after every step, on what the body would compute there).
        let flag = conditions.iter().all(|c| c.3).then(|| {
            let name = format!("terminal()#{}", self.flat.vars.len());
            self.hidden_discrete(
                name,
                "1 once the `when terminal()` event has acted",
                st.span,
            )
        });
        self.ctx.terminal_flag = flag.map(|v| self.flat.arena.var(v));
        let asserted = self.flat.assertions.len();
        let r = self.exec_block(body, yes, env);
        self.ctx.terminal_flag = None;
        self.ctx.in_when = false;
        self.ctx.initial_const = None;
        let reinits = self.fns.frames[top].reinits.take().unwrap_or_default();
        let terminate = self.fns.frames[top].terminate.take();
        r?;
        let after = std::mem::replace(&mut self.fns.frames[top].locals, before);
        let mut assigns = Vec::new();
        if let Some(v) = flag {
            let one = self.flat.arena.constant(1.0);
            assigns.push((v, one));
        }
        // External calls made for their effect in the body (`print(…)`): each token is
        // assigned to a hidden discrete variable, so the event's actions make the call.
        let (effects, keep): (Vec<_>, Vec<_>) = std::mem::take(&mut self.fns.effects)
            .into_iter()
            .partition(|e| e.0 == top);
        self.fns.effects = keep;
        for (token, span, name) in effects.into_iter().map(|(_, t, s, n)| (t, s, n)) {
            let v = self.hidden_discrete(
                format!("{name}#{}", self.flat.vars.len()),
                "the token of an external call made for its effect",
                span,
            );
            assigns.push((v, token));
        }
        let mut names: Vec<&Box<str>> = after.keys().collect();
        names.sort();
        // Names the body assigns whole (`a := {0, t}`, `(info, abs, arg) := f(…)`): each of
        // their elements is assigned, also one given the value it held (a start value).
        let mut whole = Vec::new();
        whole_assignments(body, &mut whole);
        for name in names {
            let (LocalValue::Set(Val::Arr(new)), LocalValue::Set(Val::Arr(old))) =
                (&after[name].value, &self.fns.frames[top].locals[name].value)
            else {
                continue;
            };
            let (new, old) = (new.clone(), old.clone());
            let is_whole = whole.iter().any(|w| **w == **name);
            if new.data == old.data && !is_whole {
                continue;
            }
            let vars = self.algorithm_vars(name, env, st.span)?;
            for ((&v, &n), &o) in vars.iter().zip(&new.data).zip(&old.data) {
                let own = self.flat.arena.var(v);
                if n != o || (is_whole && n != own) {
                    self.flat.vars[v].kind = VarKind::Sampled;
                    assigns.push((v, n));
                }
            }
            if !assigned.contains(name) {
                assigned.push(name.clone());
            }
        }
        if conditions.iter().all(|c| !c.2 && !c.3) {
            self.assertions_at_event(asserted, &mut assigns, st.span);
        }
        self.assert_on_assigned(asserted, &assigns, flag.is_some());
        for (c, sample, at_initial, at_end) in conditions {
            self.flat.whens.push(crate::flat::When {
                condition: c,
                sample,
                initial: at_initial,
                terminal: at_end,
                reinits: reinits.clone(),
                assigns: assigns.clone(),
                terminate: terminate.clone(),
                chain: (chain, *branch),
                span: if k == 0 { st.span } else { cond.span },
            });
            *branch += 1;
        }
        Ok(())
    }

    /// The body's assertions (from index `from`) read what the body assigns through the
    /// assigned variables: `(info, abs, arg) := realFFT(buf, nf); assert(info == 0, …)` checks
    /// the variable `info`, which holds the event's value, not the call again after every
    /// step (an FFT of thousands of points in each step's assertion check). Where the body
    /// computed a value and assigned it, the two are equal whenever the assertion is checked
    /// after the event; constants and single variables are left as they are. In `when
    /// terminal()` (`at_end`: its assertions are checked once, right after its event, under
    /// the guards the body had there) a value assigned in a branch, `if g then new else old`,
    /// also gives `new`: an assertion in that branch holds `g`, under which the variable is
    /// `new`.
    fn assert_on_assigned(&mut self, from: usize, assigns: &[(FlatVar, ExprId)], at_end: bool) {
        if from == self.flat.assertions.len() {
            return;
        }
        let mut cache: FxHashMap<ExprId, ExprId> = FxHashMap::default();
        for &(v, x) in assigns {
            let compound = !matches!(
                self.flat.arena.node(x),
                Node::Const(_)
                    | Node::Var(_)
                    | Node::Pre(_)
                    | Node::Der(_)
                    | Node::Time
                    | Node::Arg(_)
            );
            if !compound {
                continue;
            }
            let var = self.flat.arena.var(v);
            cache.entry(x).or_insert(var);
            let mut branch = x;
            while let (true, Node::If(_, new, _)) = (at_end, self.flat.arena.node(branch)) {
                if !matches!(
                    self.flat.arena.node(new),
                    Node::Const(_) | Node::Var(_) | Node::Pre(_)
                ) {
                    cache.entry(new).or_insert(var);
                }
                branch = new;
            }
        }
        if cache.is_empty() {
            return;
        }
        for k in from..self.flat.assertions.len() {
            let c = self.flat.assertions[k].condition;
            let c = self.flat.arena.substitute(c, &mut cache, &mut |_, _| None);
            self.flat.assertions[k].condition = c;
        }
    }

    /// The assertions of a when-statement's body (from index `from`; not of `initial()` or
    /// `terminal()`) hold at its events only (11.2.7: an `assert` is checked where the
    /// statement is executed): each condition becomes a hidden discrete variable the event
    /// sets (1 where it held, start 1), and the assertion reads that variable after every
    /// step. Before, the condition was checked after every step on the values there, so an
    /// assertion true at its events could stop the run between them, and one false at an
    /// event went unseen where the values changed back before the step's end.
    fn assertions_at_event(
        &mut self,
        from: usize,
        assigns: &mut Vec<(FlatVar, ExprId)>,
        span: Span,
    ) {
        let (one, zero) = (self.flat.arena.constant(1.0), self.flat.arena.constant(0.0));
        for k in from..self.flat.assertions.len() {
            let c = self.flat.assertions[k].condition;
            if self.flat.arena.as_const(c).is_some() {
                continue;
            }
            let v = self.hidden_discrete(
                format!("assert#{}", self.flat.vars.len()),
                "1 where the assertion of a when-statement held at its last event",
                span,
            );
            self.flat.vars[v].start = Some(one);
            let quiet = self.flat.arena.no_event(c);
            let held = self.flat.arena.if_(quiet, one, zero);
            assigns.push((v, held));
            let ok = self.flat.arena.var(v);
            self.flat.assertions[k].condition = self.flat.arena.cmp(CmpOp::Ne, ok, zero);
        }
    }

    /// A discrete Real the model's equations do not name (start 0, fixed), assigned in a
    /// when-clause rtc makes.
    pub(super) fn hidden_discrete(&mut self, name: String, what: &str, span: Span) -> FlatVar {
        let id = FlatVar::new(self.flat.vars.len());
        let zero = self.flat.arena.constant(0.0);
        self.flat.vars.push(Variable {
            start: Some(zero),
            fixed: Some(true),
            description: Some(what.into()),
            ..Variable::new(name, VarKind::Sampled, ScalarType::Real, span)
        });
        self.meta.push(VarMeta {
            is_flow: false,
            is_stream: false,
            is_causal: None,
            added: false,
        });
        id
    }

    /// `reinit(x, v)` and `terminate("why")` in a when-statement of a model's algorithm.
    pub(super) fn when_action(
        &mut self,
        name: &str,
        args: &'a ast::CallArgs,
        g: ExprId,
        env: Env,
        span: Span,
    ) -> DResult<()> {
        let top = self.fns.frames.len() - 1;
        if name == "terminate" && !self.fns.frames[top].is_model {
            return Err(Box::new(typed::TERMINATE_IN_FUNCTION.broken(
                span,
                "`terminate` in a function",
                "here",
            )));
        }
        if self.fns.frames[top].reinits.is_none() {
            return Err(Box::new(
                Diagnostic::error("when", format!("`{name}` outside a when-statement"))
                    .at(span, "only inside when (specification 8.3.6, 8.3.8)"),
            ));
        }
        if self.flat.arena.as_const(g) != Some(1.0) {
            return Err(self.unsupported(
                span,
                &format!("`{name}` under a condition inside a when-statement"),
            ));
        }
        if name == "terminate" {
            let message = match args.positional.first().map(|m| self.eval(m, env)) {
                Some(Ok(Val::Str(s))) => s,
                _ => {
                    return Err(Box::new(
                        Diagnostic::error(
                            "arguments",
                            "terminate takes a String: terminate(\"why\")",
                        )
                        .at(span, "here"),
                    ))
                }
            };
            self.fns.frames[top].terminate = Some(message);
            return Ok(());
        }
        let [x, v] = args.positional.as_slice() else {
            return Err(Box::new(
                Diagnostic::error("arguments", "reinit takes two arguments: reinit(x, expr)")
                    .at(span, "here"),
            ));
        };
        // The state itself, not what the algorithm computed for it.
        let frames = std::mem::take(&mut self.fns.frames);
        let xs = self.eval_scalar(x, env);
        self.fns.frames = frames;
        let xs = xs?;
        let Node::Var(xv) = self.flat.arena.node(xs) else {
            return Err(Box::new(
                Diagnostic::error("arguments", "reinit needs a variable as its first argument")
                    .at(x.span, "not a variable"),
            ));
        };
        let value = self.eval_arr(v, env)?;
        types::numeric_arg(&value, v.span, "reinit")?;
        let e = value
            .as_scalar()
            .ok_or_else(|| self.size_mismatch(v.span, "reinit", &[], &value.dims))?;
        if let Some(r) = self.fns.frames[top].reinits.as_mut() {
            r.push((xv, e));
        }
        Ok(())
    }
}

/// The names a block of statements assigns whole (no subscripts), in assignments and the
/// outputs of multiple assignments, through `if`, `for` and `while` bodies.
fn whole_assignments<'a>(body: &'a [ast::Statement], out: &mut Vec<&'a str>) {
    fn push<'a>(r: &'a ast::ComponentRef, out: &mut Vec<&'a str>) {
        if r.parts.len() == 1 && r.parts[0].subscripts.is_empty() {
            out.push(&r.parts[0].ident.name);
        }
    }
    for st in body {
        match &st.kind {
            ast::StatementKind::Assign(r, _) => push(r, out),
            ast::StatementKind::MultiAssign(targets, _, _) => {
                for t in targets.iter().flatten() {
                    if let ast::ExprKind::Ref(r) = &t.kind {
                        push(r, out);
                    }
                }
            }
            ast::StatementKind::If {
                branches,
                otherwise,
            } => {
                for (_, b) in branches {
                    whole_assignments(b, out);
                }
                whole_assignments(otherwise, out);
            }
            ast::StatementKind::For { body, .. } | ast::StatementKind::While(_, body) => {
                whole_assignments(body, out)
            }
            _ => {}
        }
    }
}
