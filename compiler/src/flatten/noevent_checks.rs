//! The checks of what `noEvent` written in the model does to variability (specification
//! 3.8, 3.8.4, 4.4.4): a Boolean, Integer or enumeration variable given a value computed under
//! it from continuous-time values, an if-equation under such a condition with equations of
//! discrete-valued variables in its branches, event-generating relations in the branches of
//! an if whose condition is such a `noEvent`.

use super::*;

impl Flattener<'_, '_> {
    /// The first `noEvent(e)` written in the model under `root` whose `e` reads a
    /// continuous-time value (`time`, a Real state, algebraic variable or input).
    pub(super) fn continuous_no_event(&self, root: ExprId) -> Option<ExprId> {
        let ar = &self.flat.arena;
        ar.post_order(root, |_| false).into_iter().find(|&id| {
            let Node::NoEvent(e) = ar.node(id) else {
                return false;
            };
            self.written_no_event.contains(&id) && self.reads_continuous(e)
        })
    }

    /// Whether `e` reads `time` or a Real state, algebraic variable or input.
    fn reads_continuous(&self, e: ExprId) -> bool {
        let (ar, vars) = (&self.flat.arena, &self.flat.vars);
        ar.post_order(e, |_| false)
            .into_iter()
            .any(|k| match ar.node(k) {
                Node::Time => true,
                Node::Var(v) => {
                    vars[v].ty == ScalarType::Real
                        && matches!(
                            vars[v].kind,
                            VarKind::State | VarKind::Algebraic | VarKind::Input
                        )
                }
                _ => false,
            })
    }

    /// 3.8.4: the branches of an if (an if-expression, or an if-equation's residuals) whose
    /// condition is a `noEvent` written over continuous-time values hold no event-generating
    /// relation (one of continuous-time values, outside `noEvent`).
    pub(super) fn event_relations_under_continuous_if(&self) -> DResult<()> {
        let ar = &self.flat.arena;
        let no_event = |k: ExprId| matches!(ar.node(k), Node::NoEvent(_));
        for eq in &self.flat.equations {
            for root in [eq.lhs, eq.rhs] {
                for id in ar.post_order(root, no_event) {
                    let Node::If(c, a, b) = ar.node(id) else {
                        continue;
                    };
                    if self.continuous_no_event(c).is_none() {
                        continue;
                    }
                    let relation = [a, b].into_iter().find_map(|br| {
                        ar.post_order(br, no_event).into_iter().find(|&k| {
                            matches!(ar.node(k), Node::Cmp(..)) && self.reads_continuous(k)
                        })
                    });
                    if relation.is_some() {
                        let msg = "a relation of continuous-time values, which generates events, in a branch of an if whose condition is computed under `noEvent` from continuous-time values";
                        return Err(Box::new(
                            typed::EVENT_UNDER_CONTINUOUS_IF.broken(eq.span, msg, "here"),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// "a Boolean variable", "an Integer variable": what a discrete-valued variable is.
    pub(super) fn discrete_kind(&self, v: FlatVar) -> String {
        let ty = self.flat.vars[v].ty.name();
        let article = if ty.starts_with(['I', 'E']) {
            "an"
        } else {
            "a"
        };
        format!("{article} {ty} variable")
    }

    /// The discrete-valued variable (Boolean, Integer, enumeration; no parameter or
    /// constant) a side of `eq` names, if one does.
    pub(super) fn discrete_target(&self, eq: &Equation) -> Option<FlatVar> {
        let (ar, vars) = (&self.flat.arena, &self.flat.vars);
        [eq.lhs, eq.rhs]
            .into_iter()
            .find_map(|side| match ar.node(side) {
                Node::Var(v)
                    if vars[v].ty != ScalarType::Real
                        && vars[v].kind != VarKind::Parameter
                        && vars[v].kind != VarKind::Constant =>
                {
                    Some(v)
                }
                _ => None,
            })
    }

    /// The first `noEvent` wrapper of an inlined function's body relations (no argument's:
    /// `function_events.rs`) under `root`, reached without passing through a relation (whose
    /// value generates events), that reads a continuous-time value: the value of a function
    /// of continuous-time arguments, a continuous-time expression (3.8.3).
    fn continuous_call_value(&self, root: ExprId) -> Option<ExprId> {
        let ar = &self.flat.arena;
        let mut stack = vec![root];
        let mut seen = FxHashSet::default();
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            match ar.node(id) {
                Node::Cmp(..) => {}
                Node::NoEvent(e) if self.body_no_event.contains(&id) => {
                    if self.reads_continuous(e) {
                        return Some(id);
                    }
                }
                _ => stack.extend(ar.children(id)),
            }
        }
        None
    }

    /// A Boolean, Integer or enumeration variable is discrete-time (3.8.4, 4.4.4): an equation
    /// outside when-clauses (a binding, an algorithm's assignment, `(b1, b2) := f(x)`) that
    /// gives it a value computed under a `noEvent` written in the model from continuous-time
    /// variables or `time`, or computed by relations of an inlined function's body from
    /// continuous-time arguments (3.8.3: such a call is continuous-time), makes it
    /// continuous. A function whose body's relations read an argument's relations
    /// (`oneTrue({time >= t1, …})`) is not judged: its wrapper holds both.
    pub(super) fn discrete_valued_equations(&mut self) -> DResult<()> {
        let vars = &self.flat.vars;
        let hidden = |root: ExprId| self.continuous_no_event(root);
        let called = |root: ExprId| self.continuous_call_value(root);
        for eq in &self.flat.equations {
            let Some(v) = self.discrete_target(eq) else {
                continue;
            };
            let how = if hidden(eq.lhs).or_else(|| hidden(eq.rhs)).is_some() {
                "computed under `noEvent` from continuous-time values"
            } else if called(eq.lhs).or_else(|| called(eq.rhs)).is_some() {
                "computed by a function from continuous-time arguments (a continuous-time expression, 3.8.3)"
            } else {
                continue;
            };
            let msg = format!(
                "`{}` is {}, so discrete-time, but here it is given a value {how}",
                vars[v].name,
                self.discrete_kind(v),
            );
            return Err(Box::new(typed::DISCRETE_VALUED_EQUATION.broken(
                eq.span,
                msg,
                "continuous-time here",
            )));
        }
        Ok(())
    }
}
