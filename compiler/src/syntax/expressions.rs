//! pest parse tree → typed AST: expressions (specification 3, B.2.7), component references,
//! subscripts and function-call arguments. One small function per precedence level, so the
//! recursion through nested brackets uses little stack per level.

use super::ast::*;
use super::build::{internal, unquote, Ctx, P, R};
use super::Rule;
use crate::diag::{Diagnostic, Span};

impl Ctx {
    /// Dispatches on the precedence level. Each level is its own small function so that the
    /// recursion through nested brackets uses little stack per level.
    pub(super) fn expression(&self, p: P) -> R<Expr> {
        let span = self.span(&p);
        match p.as_rule() {
            Rule::expression => {
                let inner = p
                    .into_inner()
                    .next()
                    .ok_or_else(|| internal(span, "empty expression"))?;
                self.expression(inner)
            }
            Rule::if_expression => self.expr_if_expression(p, span),
            Rule::simple_expression => self.expr_simple_expression(p, span),
            Rule::logical_expression | Rule::logical_term => self.expr_logical(p, span),
            Rule::logical_factor => self.expr_logical_factor(p, span),
            Rule::relation => self.expr_relation(p, span),
            Rule::arithmetic_expression => self.expr_arithmetic(p, span),
            Rule::term => self.expr_term(p, span),
            Rule::factor => self.expr_factor(p, span),
            Rule::primary => self.expr_primary_rule(p, span),
            _ => self.primary(p),
        }
    }

    #[inline(never)]
    pub(super) fn expr_if_expression(&self, p: P, span: Span) -> R<Expr> {
        let mut exprs = Vec::new();
        for q in p.into_inner() {
            if q.as_rule() == Rule::expression {
                exprs.push(self.expression(q)?);
            }
        }
        let otherwise = exprs
            .pop()
            .ok_or_else(|| internal(span, "if without else"))?;
        let mut branches = Vec::new();
        let mut it = exprs.into_iter();
        while let (Some(c), Some(v)) = (it.next(), it.next()) {
            branches.push((c, v));
        }
        Ok(Expr {
            kind: ExprKind::If {
                branches,
                otherwise: Box::new(otherwise),
            },
            span,
        })
    }
    #[inline(never)]
    pub(super) fn expr_simple_expression(&self, p: P, span: Span) -> R<Expr> {
        let mut parts = Vec::new();
        for q in p.into_inner() {
            parts.push(self.expression(q)?);
        }
        match parts.len() {
            1 => parts
                .pop()
                .ok_or_else(|| internal(span, "empty simple expression")),
            2 => {
                let stop = parts.pop();
                let start = parts.pop();
                match (start, stop) {
                    (Some(a), Some(b)) => Ok(Expr {
                        kind: ExprKind::Range {
                            start: Box::new(a),
                            step: None,
                            stop: Box::new(b),
                        },
                        span,
                    }),
                    _ => Err(internal(span, "malformed range")),
                }
            }
            _ => {
                let stop = parts.pop();
                let step = parts.pop();
                let start = parts.pop();
                match (start, step, stop) {
                    (Some(a), Some(s), Some(b)) => Ok(Expr {
                        kind: ExprKind::Range {
                            start: Box::new(a),
                            step: Some(Box::new(s)),
                            stop: Box::new(b),
                        },
                        span,
                    }),
                    _ => Err(internal(span, "malformed range")),
                }
            }
        }
    }
    #[inline(never)]
    pub(super) fn expr_logical(&self, p: P, span: Span) -> R<Expr> {
        let op = if p.as_rule() == Rule::logical_expression {
            BinaryOp::Or
        } else {
            BinaryOp::And
        };
        let mut acc: Option<Expr> = None;
        for q in p.into_inner() {
            if matches!(q.as_rule(), Rule::kw_or | Rule::kw_and) {
                continue;
            }
            let e = self.expression(q)?;
            acc = Some(match acc {
                None => e,
                Some(a) => binary(op, a, e),
            });
        }
        acc.ok_or_else(|| internal(span, "empty logical expression"))
    }
    #[inline(never)]
    pub(super) fn expr_logical_factor(&self, p: P, span: Span) -> R<Expr> {
        let mut negate = false;
        let mut e = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::not_ => negate = true,
                _ => e = Some(self.expression(q)?),
            }
        }
        let e = e.ok_or_else(|| internal(span, "empty logical factor"))?;
        Ok(if negate {
            Expr {
                kind: ExprKind::Unary(UnaryOp::Not, Box::new(e)),
                span,
            }
        } else {
            e
        })
    }
    #[inline(never)]
    pub(super) fn expr_relation(&self, p: P, span: Span) -> R<Expr> {
        let mut it = p.into_inner();
        let lhs = it.next().ok_or_else(|| internal(span, "empty relation"))?;
        let lhs = self.expression(lhs)?;
        match (it.next(), it.next()) {
            (Some(op), Some(rhs)) => {
                let op = match op.as_str() {
                    "<" => BinaryOp::Lt,
                    "<=" => BinaryOp::Le,
                    ">" => BinaryOp::Gt,
                    ">=" => BinaryOp::Ge,
                    "==" => BinaryOp::Eq,
                    _ => BinaryOp::Ne,
                };
                Ok(binary(op, lhs, self.expression(rhs)?))
            }
            _ => Ok(lhs),
        }
    }
    #[inline(never)]
    pub(super) fn expr_arithmetic(&self, p: P, span: Span) -> R<Expr> {
        let mut acc: Option<Expr> = None;
        let mut unary: Option<UnaryOp> = None;
        let mut op = BinaryOp::Add;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::unary_add_operator => {
                    unary = Some(match q.as_str() {
                        "-" | ".-" => UnaryOp::Neg,
                        _ => UnaryOp::Plus,
                    })
                }
                Rule::add_operator => {
                    op = match q.as_str() {
                        "+" => BinaryOp::Add,
                        "-" => BinaryOp::Sub,
                        ".+" => BinaryOp::ElemAdd,
                        _ => BinaryOp::ElemSub,
                    }
                }
                _ => {
                    let mut e = self.expression(q)?;
                    if let Some(u) = unary.take() {
                        let sp = span.to(e.span);
                        e = Expr {
                            kind: ExprKind::Unary(u, Box::new(e)),
                            span: Span {
                                end: e_end(sp),
                                ..sp
                            },
                        };
                    }
                    acc = Some(match acc {
                        None => e,
                        Some(a) => binary(op, a, e),
                    });
                }
            }
        }
        acc.ok_or_else(|| internal(span, "empty arithmetic expression"))
    }
    #[inline(never)]
    pub(super) fn expr_term(&self, p: P, span: Span) -> R<Expr> {
        let mut acc: Option<Expr> = None;
        let mut op = BinaryOp::Mul;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::mul_operator => {
                    op = match q.as_str() {
                        "*" => BinaryOp::Mul,
                        "/" => BinaryOp::Div,
                        ".*" => BinaryOp::ElemMul,
                        _ => BinaryOp::ElemDiv,
                    }
                }
                _ => {
                    let e = self.expression(q)?;
                    acc = Some(match acc {
                        None => e,
                        Some(a) => binary(op, a, e),
                    });
                }
            }
        }
        acc.ok_or_else(|| internal(span, "empty term"))
    }
    #[inline(never)]
    pub(super) fn expr_factor(&self, p: P, span: Span) -> R<Expr> {
        let mut it = p.into_inner();
        let base = it.next().ok_or_else(|| internal(span, "empty factor"))?;
        let base = self.expression(base)?;
        match (it.next(), it.next()) {
            (Some(op), Some(exp)) => {
                let op = if op.as_str() == ".^" {
                    BinaryOp::ElemPow
                } else {
                    BinaryOp::Pow
                };
                Ok(binary(op, base, self.expression(exp)?))
            }
            _ => Ok(base),
        }
    }
    #[inline(never)]
    pub(super) fn expr_primary_rule(&self, p: P, span: Span) -> R<Expr> {
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(span, "empty primary"))?;
        self.primary(inner)
    }

    pub(super) fn primary(&self, p: P) -> R<Expr> {
        let span = self.span(&p);
        let kind = match p.as_rule() {
            Rule::number_literal => {
                let inner = p
                    .into_inner()
                    .next()
                    .ok_or_else(|| internal(span, "empty number"))?;
                let text = inner.as_str();
                match inner.as_rule() {
                    Rule::UNSIGNED_INTEGER => match text.parse::<i64>() {
                        Ok(v) => ExprKind::Integer(v),
                        // Integers too large for 64 bits are read as reals, as tools do.
                        Err(_) => ExprKind::Real(text.parse::<f64>().unwrap_or(f64::INFINITY)),
                    },
                    _ => ExprKind::Real(text.parse::<f64>().map_err(|_| {
                        Box::new(
                            Diagnostic::error("syntax", format!("malformed number `{text}`"))
                                .at(span, "here"),
                        )
                    })?),
                }
            }
            Rule::string_literal => {
                let mut s = String::new();
                for q in p.into_inner() {
                    s.push_str(&unquote(q.as_str()));
                }
                ExprKind::Str(s)
            }
            Rule::bool_literal => ExprKind::Bool(p.as_str() == "true"),
            Rule::end_primary => ExprKind::End,
            Rule::component_reference => ExprKind::Ref(self.component_reference(p)?),
            Rule::call_primary => {
                let mut target = None;
                let mut args = None;
                for q in p.into_inner() {
                    match q.as_rule() {
                        Rule::der_name => target = Some(CallTarget::Der),
                        Rule::initial_name => target = Some(CallTarget::Initial),
                        Rule::pure_name => target = Some(CallTarget::Pure),
                        Rule::component_reference => {
                            target = Some(CallTarget::Ref(self.component_reference(q)?))
                        }
                        Rule::function_call_args => args = Some(self.function_call_args(q)?),
                        _ => {}
                    }
                }
                let (Some(t), Some(a)) = (target, args) else {
                    return Err(internal(span, "malformed call"));
                };
                ExprKind::Call(t, a)
            }
            Rule::paren_primary => {
                let mut outs = Vec::new();
                let mut subs = Vec::new();
                for q in p.into_inner() {
                    match q.as_rule() {
                        Rule::output_expression_list => outs = self.output_expression_list(q)?,
                        Rule::array_subscripts => subs = self.array_subscripts(q)?,
                        _ => {}
                    }
                }
                let base = if outs.len() == 1 && outs[0].is_some() {
                    let mut e = outs
                        .pop()
                        .flatten()
                        .ok_or_else(|| internal(span, "paren"))?;
                    e.span = span;
                    e
                } else {
                    Expr {
                        kind: ExprKind::Tuple(outs),
                        span,
                    }
                };
                if subs.is_empty() {
                    return Ok(base);
                }
                ExprKind::Subscripted(Box::new(base), subs)
            }
            Rule::matrix_primary => {
                let mut rows = Vec::new();
                for q in p.into_inner() {
                    if q.as_rule() == Rule::expression_list {
                        rows.push(self.expression_list(q)?);
                    }
                }
                ExprKind::Matrix(rows)
            }
            Rule::array_primary => {
                let args = p
                    .into_inner()
                    .next()
                    .ok_or_else(|| internal(span, "empty array"))?;
                let mut exprs = Vec::new();
                let mut iters = None;
                for q in args.into_inner() {
                    match q.as_rule() {
                        Rule::expression => exprs.push(self.expression(q)?),
                        Rule::for_indices => iters = Some(self.for_indices(q)?),
                        _ => {}
                    }
                }
                match iters {
                    Some(it) => {
                        let e = exprs
                            .pop()
                            .ok_or_else(|| internal(span, "comprehension without body"))?;
                        ExprKind::Comprehension(Box::new(e), it)
                    }
                    None => ExprKind::Array(exprs),
                }
            }
            Rule::expression
            | Rule::simple_expression
            | Rule::if_expression
            | Rule::logical_expression
            | Rule::logical_term
            | Rule::logical_factor
            | Rule::relation
            | Rule::arithmetic_expression
            | Rule::term
            | Rule::factor
            | Rule::primary => return self.expression(p),
            _ => return Err(internal(span, "unknown expression")),
        };
        Ok(Expr { kind, span })
    }

    pub(super) fn expression_list(&self, p: P) -> R<Vec<Expr>> {
        p.into_inner()
            .filter(|q| q.as_rule() == Rule::expression)
            .map(|q| self.expression(q))
            .collect()
    }

    pub(super) fn output_expression_list(&self, p: P) -> R<Vec<Option<Expr>>> {
        let mut out = Vec::new();
        for q in p.into_inner() {
            if q.as_rule() == Rule::output_slot {
                out.push(match q.into_inner().next() {
                    Some(e) => Some(self.expression(e)?),
                    None => None,
                });
            }
        }
        Ok(out)
    }

    pub(super) fn component_reference(&self, p: P) -> R<ComponentRef> {
        let span = self.span(&p);
        let mut global = false;
        let mut parts = Vec::new();
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::global_dot => global = true,
                Rule::ref_part => {
                    let mut ident = None;
                    let mut subscripts = Vec::new();
                    for r in q.into_inner() {
                        match r.as_rule() {
                            Rule::IDENT => ident = Some(self.ident(r)),
                            Rule::array_subscripts => subscripts = self.array_subscripts(r)?,
                            _ => {}
                        }
                    }
                    if let Some(ident) = ident {
                        parts.push(RefPart { ident, subscripts });
                    }
                }
                _ => {}
            }
        }
        Ok(ComponentRef {
            global,
            parts,
            span,
        })
    }

    pub(super) fn array_subscripts(&self, p: P) -> R<Vec<Subscript>> {
        let mut out = Vec::new();
        for q in p.into_inner() {
            if q.as_rule() == Rule::subscript {
                let span = self.span(&q);
                let inner = q
                    .into_inner()
                    .next()
                    .ok_or_else(|| internal(span, "empty subscript"))?;
                out.push(match inner.as_rule() {
                    Rule::colon_subscript => Subscript::Colon(span),
                    _ => Subscript::Expr(self.expression(inner)?),
                });
            }
        }
        Ok(out)
    }

    pub(super) fn function_call_args(&self, p: P) -> R<CallArgs> {
        let span = self.span(&p);
        let mut args = CallArgs {
            span,
            ..CallArgs::default()
        };
        let Some(fa) = p.into_inner().next() else {
            return Ok(args);
        };
        for q in fa.into_inner() {
            match q.as_rule() {
                Rule::function_argument => args.positional.push(self.function_argument(q)?),
                Rule::named_arguments => {
                    for na in q.into_inner() {
                        let mut it = na.into_inner();
                        let (Some(id), Some(val)) = (it.next(), it.next()) else {
                            return Err(internal(span, "malformed named argument"));
                        };
                        args.named
                            .push((self.ident(id), self.function_argument(val)?));
                    }
                }
                Rule::for_indices => args.iterators = self.for_indices(q)?,
                _ => {}
            }
        }
        Ok(args)
    }

    pub(super) fn function_argument(&self, p: P) -> R<Expr> {
        let span = self.span(&p);
        let inner = p
            .into_inner()
            .next()
            .ok_or_else(|| internal(span, "empty argument"))?;
        match inner.as_rule() {
            Rule::function_partial_application => {
                let name = inner
                    .into_inner()
                    .find(|q| q.as_rule() == Rule::type_specifier)
                    .map(|q| self.type_specifier(q))
                    .ok_or_else(|| internal(span, "partial application without name"))?;
                Ok(Expr {
                    kind: ExprKind::PartialApplication(name),
                    span,
                })
            }
            _ => self.expression(inner),
        }
    }
}

fn e_end(s: Span) -> u32 {
    s.end
}

fn binary(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    let span = a.span.to(b.span);
    Expr {
        kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
        span,
    }
}
