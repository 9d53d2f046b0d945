//! Arrays of Strings (specification 10.1: an array's elements may be of any type, String
//! included; 10.4 the constructor `{…}`, 10.5 subscripts).
//!
//! Strings are not values of the step: an array of them is known when the model is compiled
//! ([`StrArr`], the elements in row-major order), as the MSL's `Strings.scanDelimiter(line, i,
//! {"=", ";"})` needs when a parameter is read from a file. Built by `{…}` and `fill`,
//! subscripted and assigned element by element with indices known when compiling; an index
//! known only while the model runs is refused, never guessed.

use super::algorithms::{positions, Choice};
use super::*;

impl<'a> Flattener<'_, 'a> {
    /// `{s1, s2, …}` of Strings, or of String arrays of one size (evaluated in `vals`).
    pub(super) fn stack_strings(
        &mut self,
        vals: Vec<Val>,
        items: &'a [ast::Expr],
        span: Span,
    ) -> DResult<Val> {
        let mut inner: Option<Vec<usize>> = None;
        let mut out = Vec::new();
        for (v, it) in vals.into_iter().zip(items) {
            let (dims, strs) = match v {
                Val::Str(s) => (Vec::new(), vec![s]),
                Val::Strs(a) => (a.dims.clone(), a.items.clone()),
                Val::Text(_) => return Err(self.changing_text(it.span)),
                _ => return Err(Box::new(
                    Diagnostic::error(
                        "type",
                        "an array constructor mixes Strings with other values",
                    )
                    .at(it.span, "not a String")
                    .help(
                        "Modelica 3.6 §10.4: the elements of an array constructor are of one type",
                    ),
                )),
            };
            match &inner {
                None => inner = Some(dims),
                Some(d) if *d != dims => {
                    return Err(Box::new(
                        Diagnostic::error(
                            "size",
                            "elements of an array constructor have different sizes",
                        )
                        .at(it.span, format!("size {}", dims_text(&dims)))
                        .also(span, format!("the first is of size {}", dims_text(d))),
                    ))
                }
                Some(_) => {}
            }
            out.extend(strs);
        }
        let mut dims = vec![items.len()];
        dims.extend(inner.unwrap_or_default());
        Ok(Val::Strs(Rc::new(StrArr { dims, items: out })))
    }

    /// `fill(s, n1, n2, …)` of a String (or of an array of Strings).
    pub(super) fn fill_strings(&mut self, v: Val, dims: Vec<usize>) -> Val {
        let (inner, block) = match v {
            Val::Strs(a) => (a.dims.clone(), a.items.clone()),
            Val::Str(s) => (Vec::new(), vec![s]),
            _ => unreachable!("fill_strings of a String value"),
        };
        let n: usize = dims.iter().product();
        let mut items = Vec::with_capacity(n * block.len());
        for _ in 0..n {
            items.extend(block.iter().cloned());
        }
        let mut all = dims;
        all.extend(inner);
        Val::Strs(Rc::new(StrArr { dims: all, items }))
    }

    /// The static selection of `subs` on an array of `dims`; an index known only while the
    /// model runs is refused.
    fn string_positions(
        &mut self,
        dims: &[usize],
        subs: &'a [ast::Subscript],
        env: Env,
        span: Span,
    ) -> DResult<(Vec<usize>, Vec<algorithms::Pos>)> {
        let choices = self.choices(dims, subs, env, span)?;
        if choices.iter().any(|c| matches!(c, Choice::Dynamic(_))) {
            return Err(self.unsupported(
                span,
                "an array of Strings subscripted by an index known only while the model runs",
            ));
        }
        Ok(positions(dims, &choices))
    }

    /// `s[subs]`: one String, or an array of them.
    pub(super) fn string_subscripts(
        &mut self,
        s: &StrArr,
        subs: &'a [ast::Subscript],
        env: Env,
        span: Span,
    ) -> DResult<Val> {
        let (dims, pos) = self.string_positions(&s.dims, subs, env, span)?;
        let total: usize = dims.iter().product();
        let mut items = vec![String::new(); total];
        for p in pos {
            items[p.out] = s.items[p.src].clone();
        }
        if dims.is_empty() {
            return Ok(Val::Str(items.pop().unwrap_or_default()));
        }
        Ok(Val::Strs(Rc::new(StrArr { dims, items })))
    }

    /// The array after `cur[subs] := value` under guard `g`.
    pub(super) fn assign_strings(
        &mut self,
        cur: &Rc<StrArr>,
        subs: &'a [ast::Subscript],
        value: Val,
        g: ExprId,
        env: Env,
        span: Span,
    ) -> DResult<Val> {
        let (dims, pos) = self.string_positions(&cur.dims, subs, env, span)?;
        let new = match value {
            Val::Str(v) if dims.is_empty() => vec![v],
            Val::Strs(v) if v.dims == dims => v.items.clone(),
            Val::Text(_) => return Err(self.changing_text(span)),
            other => {
                let given = match &other {
                    Val::Str(_) => "one String".to_string(),
                    Val::Strs(v) => format!("Strings of size {}", dims_text(&v.dims)),
                    _ => "a value that is not a String".to_string(),
                };
                return Err(Box::new(
                    Diagnostic::error(
                        "type",
                        format!(
                            "elements of size {} of an array of Strings are assigned {given}",
                            dims_text(&dims)
                        ),
                    )
                    .at(span, given),
                ));
            }
        };
        let mut items = cur.items.clone();
        for p in &pos {
            items[p.src] = new[p.out].clone();
        }
        let next = Val::Strs(Rc::new(StrArr {
            dims: cur.dims.clone(),
            items,
        }));
        self.merged(g, next, &Val::Strs(cur.clone()), span)
    }
}
