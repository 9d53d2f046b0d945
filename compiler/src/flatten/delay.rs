//! `delay(expr, delayTime[, delayMax])` (specification 3.7.4.1): `expr` at `time − delayTime`,
//! and `expr` at the start time while `time − delayTime` is before it.
//!
//! Each element of the call becomes a variable `d` with the equation `d = time` of origin
//! [`EquationOrigin::Delay`] and an entry of [`FlatModel::delays`]: the structural passes
//! see `d` determined by an equation of its own that reads nothing else (the delayed value
//! depends on the past only, so a delay breaks an algebraic loop, as in a lossless
//! transmission line), and inline integration replaces the equation by the read of a buffer
//! of `expr` sampled at the step size (`discretize::delays`), whose work per step is fixed.
//! The delay time must be known when compiling: a parameter expression, whose parameters
//! become constants there (a buffer sized at compile time cannot follow a tuned delay).

use super::*;
use crate::flat::{Delay, Equation, EquationOrigin};

impl<'t, 'a> Flattener<'t, 'a> {
    /// The delayed values of `x` (element-wise), as variables.
    pub(super) fn delay_call(
        &mut self,
        call: &'a ast::Expr,
        x: &'a ast::Expr,
        t: &'a ast::Expr,
        max: Option<&'a ast::Expr>,
        env: Env,
    ) -> DResult<Val> {
        // A model's algorithm section runs as a frame too, and may delay; a function may not.
        if self.fns.frames.iter().any(|f| !f.is_model) {
            return Err(Box::new(
                Diagnostic::error("delay", "`delay` in a function")
                    .at(call.span, "here")
                    .help("a function has no past: call `delay` in the model's equations"),
            ));
        }
        let xs = self.eval_arr(x, env)?;
        types::numeric_arg(&xs, x.span, "delay")?;
        let ta = self.eval_arr(t, env)?;
        types::numeric_arg(&ta, t.span, "delay")?;
        let Some(time_expr) = ta.as_scalar() else {
            return Err(Box::new(
                Diagnostic::error("size", "the delay time must be a scalar")
                    .at(t.span, format!("has size {}", dims_text(&ta.dims))),
            ));
        };
        let real = crate::symbolic::fmt_real_pub;
        let Some(time) = self.fold(time_expr) else {
            return Err(self.unsupported(
                t.span,
                "a delay time that changes during the run (rtc sizes the delay's buffer when compiling: the delay time must be a parameter expression)",
            ));
        };
        if let Some(m) = max {
            let tmax = self.eval_const(m, env, "the maximum delay")?;
            if time > tmax {
                return Err(Box::new(
                    Diagnostic::error(
                        "delay",
                        format!(
                            "the delay time {} is larger than the maximum delay {}",
                            real(time),
                            real(tmax)
                        ),
                    )
                    .at(t.span, "delay time")
                    .also(m.span, "maximum"),
                ));
            }
        }
        if time.is_nan() || time < 0.0 || time.is_infinite() {
            return Err(Box::new(
                Diagnostic::error(
                    "delay",
                    format!("the delay time must be ≥ 0, not {}", real(time)),
                )
                .at(t.span, "delay time"),
            ));
        }
        if time == 0.0 {
            return Ok(Val::Arr(xs.with_ty(ScalarType::Real)));
        }
        let mut out = xs.clone();
        for (k, d) in out.data.iter_mut().enumerate() {
            let expr = xs.data[k];
            let n = self.flat.delays.len();
            let text = self.flat.expr_string(expr);
            // A name without commas: CSV headers and `--vars` lists are comma-separated.
            let name = if text.len() <= 48 && !text.contains(',') {
                format!("delay({text} by {})", real(time))
            } else {
                format!("delay#{}", n + 1)
            };
            let var = FlatVar::new(self.flat.vars.len());
            self.flat.vars.push(Variable {
                description: Some(format!("the value of `{text}` {} s before", real(time))),
                ..Variable::new(name, VarKind::Algebraic, ScalarType::Real, call.span)
            });
            self.meta.push(VarMeta {
                is_flow: false,
                is_stream: false,
                is_causal: None,
                added: false,
            });
            let lhs = self.flat.arena.var(var);
            let rhs = self.flat.arena.time();
            self.flat.equations.push(Equation {
                lhs,
                rhs,
                span: call.span,
                origin: EquationOrigin::Delay(n),
            });
            self.flat.delays.push(Delay {
                var,
                expr,
                time,
                time_expr,
                span: call.span,
            });
            *d = lhs;
        }
        Ok(Val::Arr(out.with_ty(ScalarType::Real)))
    }
}
