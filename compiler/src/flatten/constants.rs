//! Structural values: expressions of constants and parameters folded to numbers (array sizes, for
//! ranges, conditions that select equations or components).

use super::*;

impl<'t, 'a> Flattener<'t, 'a> {
    /// Folds an expression of constants and parameters to a number, if it is one.
    pub(super) fn fold(&mut self, e: ExprId) -> Option<f64> {
        if let Some(c) = self.flat.arena.as_const(e) {
            return Some(c);
        }
        // Most expressions evaluated are not structural: one leaf that is no parameter or
        // constant ends the search.
        let (vars, flag) = (&self.flat.vars, self.flat.initial_flag);
        let other = |n: Node<FlatVar>| match n {
            Node::Var(v) => {
                Some(v) == flag
                    || !matches!(vars[v].kind, VarKind::Parameter | VarKind::Constant)
                    || vars[v].binding.is_none()
            }
            _ => true,
        };
        if self.flat.arena.find_leaf(e, other).is_some() {
            return None;
        }
        let mut leaves = Vec::new();
        self.flat.arena.leaves(e, &mut leaves);
        let mut values = FxHashMap::default();
        for l in leaves {
            match l {
                Node::Var(v) => {
                    let val = self.param_value(v)?;
                    values.insert(v, val);
                }
                _ => return None,
            }
        }
        let mut cache = FxHashMap::default();
        let r = self
            .flat
            .arena
            .substitute(e, &mut cache, &mut |ar, n| match n {
                Node::Var(v) => values.get(&v).map(|&x| ar.constant(x)),
                _ => None,
            });
        self.flat.arena.as_const(r)
    }

    pub(super) fn param_value(&mut self, v: FlatVar) -> Option<f64> {
        if Some(v) == self.flat.initial_flag {
            // `initial()`: known only once the system it is read in is known.
            return None;
        }
        match self.const_cache.get(&v) {
            Some(Some(x)) => return *x,
            Some(None) => return None, // cycle
            None => {}
        }
        let var = &self.flat.vars[v];
        if !matches!(var.kind, VarKind::Parameter | VarKind::Constant) {
            return None;
        }
        let b = var.binding?;
        self.const_cache.insert(v, None);
        let r = self.fold(b);
        self.const_cache.insert(v, Some(r));
        r
    }

    pub(super) fn eval_const(&mut self, e: &'a ast::Expr, env: Env, what: &str) -> DResult<f64> {
        self.eval_const_typed(e, env, what).map(|(x, _)| x)
    }

    /// [`Self::eval_const`] with the value's type.
    pub(super) fn eval_const_typed(
        &mut self,
        e: &'a ast::Expr,
        env: Env,
        what: &str,
    ) -> DResult<(f64, ScalarType)> {
        let a = self.eval_arr(e, env)?;
        let ty = a.ty;
        let Some(x) = a.as_scalar() else {
            return Err(Box::new(
                Diagnostic::error("size", format!("{what} must be a scalar"))
                    .at(e.span, format!("has size {}", dims_text(&a.dims))),
            ));
        };
        let x = self.fold(x).ok_or_else(|| {
            Box::new(
                Diagnostic::error(
                    "not-constant",
                    format!(
                        "{what} must be known before simulation (constants and parameters only)"
                    ),
                )
                .at(e.span, "depends on a variable")
                .help("structural values are computed at compile time"),
            )
        })?;
        Ok((x, ty))
    }

    pub(super) fn eval_dim(&mut self, e: &'a ast::Expr, env: Env) -> DResult<usize> {
        // `Real x[E]`: one element per literal of enumeration E.
        if let Some(en) = self.enum_type_expr(e, env)? {
            return Ok(self.flat.enums[en.0 as usize].literals.len());
        }
        let (v, ty) = self.eval_const_typed(e, env, "an array size")?;
        if ty != ScalarType::Integer {
            return Err(Box::new(
                Diagnostic::error(
                    "type",
                    format!(
                        "an array size must be an Integer, but this is {}",
                        ty.name()
                    ),
                )
                .at(e.span, ty.name())
                .help("declare the parameter that sizes the array Integer, or use integer(…)"),
            ));
        }
        if v < 0.0 || v.fract() != 0.0 || v > 1e9 {
            return Err(Box::new(
                Diagnostic::error(
                    "size",
                    format!("array size {v} is not a non-negative integer"),
                )
                .at(e.span, "here"),
            ));
        }
        Ok(v as usize)
    }
}
