//! Stream connectors (specification ch. 15): `stream` variables, `inStream` and
//! `actualStream`.
//!
//! A stream variable (`stream Real h_outflow`) is the value a carried quantity has when matter
//! flows out of its component; it is never equated by a connection. `inStream(c.h_outflow)` is
//! the value that flows *into* the component at connector `c`: the mixing of the other
//! connectors of the connection point, weighted by the flows that leave them. The connection
//! point is the connection set of the connector's flow variable (the one flow variable of a
//! stream connector; flows are positive into the component). For a set with inside connectors
//! `m_i` (flow `f_i`, stream `s_i`) and outside connectors `c_k` (the enclosing model's own
//! connectors, seen from inside it; flow `g_k`), specification 15.2:
//!
//! ```text
//! inStream(s_j) = (Σ_{i≠j} max(-f_i, ε)·s_i + Σ_k max(g_k, ε)·inStream(c_k.s))
//!                 / (Σ_{i≠j} max(-f_i, ε) + Σ_k max(g_k, ε))
//! c_k.s         = (Σ_i max(-f_i, ε)·s_i + Σ_{l≠k} max(g_l, ε)·inStream(c_l.s))
//!                 / (Σ_i max(-f_i, ε) + Σ_{l≠k} max(g_l, ε))
//! ```
//!
//! with the special cases the specification requires exactly: an unconnected connector
//! (`inStream(s) = s`), two inside connectors (`inStream(s_1) = s_2` and back), and one inside
//! and one outside connector (`inStream(s_in) = inStream(c.s)`, `c.s = s_in`). The regularised
//! `max(x, ε)` (ε = 1e-7 times the flow's nominal value, 1 without one) keeps the quotient
//! defined when every flow vanishes (it is then the mean of the streams) and agrees with the
//! exact mixing to within ε relative once a flow is above it; the mixing generates no events.
//! `actualStream(c.s) = noEvent(if c.f > 0 then inStream(c.s) else c.s)`.
//!
//! `inStream(v)` reads an auxiliary variable named `inStream(v)` whose equation is made once
//! the connection sets are known.

use super::*;

/// A connector's flow variables, and its stream variables by name.
type ConnectorParts = (Vec<FlatVar>, Vec<(String, FlatVar)>);

/// ε of the regularised max, relative to the flow's nominal value.
const EPS_RELATIVE: f64 = 1e-7;

impl<'t, 'a> Flattener<'t, 'a> {
    /// `inStream(v)` (`actual = false`) or `actualStream(v)` of a stream variable reference.
    pub(super) fn stream_call(
        &mut self,
        arg: &'a ast::Expr,
        env: Env,
        actual: bool,
    ) -> DResult<Val> {
        let what = if actual { "actualStream" } else { "inStream" };
        let a = self.eval_arr(arg, env)?;
        let mut data = Vec::with_capacity(a.data.len());
        for &e in &a.data {
            let v = match self.flat.arena.node(e) {
                Node::Var(v) if self.meta[v.index()].is_stream => v,
                _ => {
                    return Err(Box::new(
                        Diagnostic::error(
                            "stream",
                            format!("`{what}` takes a stream variable of a connector"),
                        )
                        .at(arg.span, "not a stream variable"),
                    ))
                }
            };
            let aux = self.in_stream_var(v);
            let x = self.flat.arena.var(aux);
            data.push(if actual {
                let Some(f) = self.stream_flow(v, arg.span)? else {
                    return Err(Box::new(
                        Diagnostic::error(
                            "stream",
                            "a stream connector needs exactly one scalar flow variable",
                        )
                        .at(arg.span, "its connector"),
                    ));
                };
                let ar = &mut self.flat.arena;
                let fv = ar.var(f);
                let zero = ar.constant(0.0);
                let c = ar.cmp(CmpOp::Gt, fv, zero);
                let s = ar.var(v);
                let sel = ar.if_(c, x, s);
                ar.no_event(sel)
            } else {
                x
            });
        }
        Ok(Val::Arr(Arr {
            dims: a.dims,
            data,
            ty: ScalarType::Real,
        }))
    }

    /// The variable `inStream(v)` reads (made on first use; its equation comes with the
    /// connection sets).
    fn in_stream_var(&mut self, v: FlatVar) -> FlatVar {
        if let Some(&x) = self.in_streams.get(&v) {
            return x;
        }
        let id = FlatVar::new(self.flat.vars.len());
        let (name, span) = {
            let var = &self.flat.vars[v];
            (format!("inStream({})", var.name), var.span)
        };
        self.flat.vars.push(Variable {
            description: Some("the stream flowing into the component (specification 15.2)".into()),
            ..Variable::new(name, VarKind::Algebraic, ScalarType::Real, span)
        });
        self.meta.push(VarMeta {
            is_flow: false,
            is_stream: false,
            is_causal: None,
            added: false,
        });
        self.in_streams.insert(v, id);
        id
    }

    /// The flow variable of the connector that holds stream variable `v`.
    fn stream_flow(&mut self, v: FlatVar, span: Span) -> DResult<Option<FlatVar>> {
        let Some(&node) = self.inst.var_owner.get(&v) else {
            return Ok(None);
        };
        let (flows, _) = self.connector_parts(node, span)?;
        Ok(match flows.as_slice() {
            [f] => Some(*f),
            _ => None,
        })
    }

    /// The flow variables and the stream variables (by name) of a connector instance.
    fn connector_parts(&mut self, node: NodeId, _span: Span) -> DResult<ConnectorParts> {
        let order = self.inst.nodes[node.0 as usize].order.clone();
        let (mut flows, mut streams) = (Vec::new(), Vec::new());
        for sid in order {
            if let Entry::Vars { dims, vars } = self.instantiate(sid)? {
                let name = self.inst.slots[sid.0 as usize].name.to_string();
                for (k, &v) in vars.iter().enumerate() {
                    if self.meta[v.index()].is_flow {
                        flows.push(v);
                    } else if self.meta[v.index()].is_stream {
                        streams.push((format!("{name}{}", subscript_text(&dims, k)), v));
                    }
                }
            }
        }
        Ok((flows, streams))
    }

    /// The equations of the stream variables for the flow connection sets (`sets`: the
    /// members of each, a flow variable and whether its connector is outside there).
    pub(super) fn stream_equations(&mut self, sets: &[Vec<ConnEnd>], spans: &[Span]) {
        if !self.meta.iter().any(|m| m.is_stream) {
            return;
        }
        // The stream connectors of each set, with their streams by name.
        let mut plans = Vec::new();
        for (set, &span) in sets.iter().zip(spans) {
            let mut members = Vec::new();
            for e in set {
                let Some(&node) = self.inst.var_owner.get(&e.var) else {
                    continue;
                };
                let Ok((flows, streams)) = self.connector_parts(node, span) else {
                    continue;
                };
                if streams.is_empty() || flows.len() != 1 {
                    continue;
                }
                members.push((*e, streams));
            }
            if !members.is_empty() {
                plans.push((members, span));
            }
        }
        // Every variable the equations read: the inStream of each outside member's streams,
        // and of each inside member's where the model asks for it.
        for (members, _) in &plans {
            for (e, streams) in members {
                if e.outside {
                    for &(_, s) in streams {
                        self.in_stream_var(s);
                    }
                }
            }
        }
        for (members, span) in plans {
            let names: Vec<String> = members[0].1.iter().map(|(n, _)| n.clone()).collect();
            for name in names {
                let mut ends = Vec::new();
                for (e, streams) in &members {
                    if let Some(&(_, s)) = streams.iter().find(|(n, _)| *n == name) {
                        ends.push((*e, s));
                    }
                }
                self.stream_set_equations(&ends, span);
            }
        }
    }

    /// The equations of one stream variable's connection point: `inStream` of each inside
    /// member that has one, and the stream of each outside member.
    fn stream_set_equations(&mut self, ends: &[(ConnEnd, FlatVar)], span: Span) {
        let inside: Vec<(FlatVar, FlatVar)> = ends
            .iter()
            .filter(|(e, _)| !e.outside)
            .map(|(e, s)| (e.var, *s))
            .collect();
        let outside: Vec<(FlatVar, FlatVar)> = ends
            .iter()
            .filter(|(e, _)| e.outside)
            .map(|(e, s)| (e.var, *s))
            .collect();
        let mut eqs: Vec<(ExprId, ExprId)> = Vec::new();
        for (j, &(_, sj)) in inside.iter().enumerate() {
            let Some(&aux) = self.in_streams.get(&sj) else {
                continue;
            };
            let rhs = match (inside.len(), outside.len()) {
                (1, 0) => self.flat.arena.var(sj),
                (2, 0) => self.flat.arena.var(inside[1 - j].1),
                (1, 1) => {
                    let x = self.in_streams[&outside[0].1];
                    self.flat.arena.var(x)
                }
                _ => self.mixing(&inside, &outside, Some(j), None),
            };
            let lhs = self.flat.arena.var(aux);
            eqs.push((lhs, rhs));
        }
        for (k, &(_, sk)) in outside.iter().enumerate() {
            let rhs = match (inside.len(), outside.len()) {
                (1, 1) => self.flat.arena.var(inside[0].1),
                // An outside connector alone: what comes in flows out again.
                (0, 1) => {
                    let x = self.in_streams[&sk];
                    self.flat.arena.var(x)
                }
                _ => self.mixing(&inside, &outside, None, Some(k)),
            };
            let lhs = self.flat.arena.var(sk);
            eqs.push((lhs, rhs));
        }
        for (lhs, rhs) in eqs {
            self.flat.equations.push(Equation {
                lhs,
                rhs,
                span,
                origin: EquationOrigin::ConnectPotential,
            });
        }
    }

    /// The regularised mixing of 15.2 over the members, leaving out inside member `skip_in`
    /// or outside member `skip_out`.
    fn mixing(
        &mut self,
        inside: &[(FlatVar, FlatVar)],
        outside: &[(FlatVar, FlatVar)],
        skip_in: Option<usize>,
        skip_out: Option<usize>,
    ) -> ExprId {
        let mut num: Option<ExprId> = None;
        let mut den: Option<ExprId> = None;
        let terms: Vec<(FlatVar, bool, ExprId)> = inside
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != skip_in)
            .map(|(_, &(f, s))| (f, true, self.flat.arena.var(s)))
            .collect::<Vec<_>>()
            .into_iter()
            .chain(
                outside
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| Some(*k) != skip_out)
                    .map(|(_, &(g, s))| {
                        let x = self.in_streams[&s];
                        (g, false, self.flat.arena.var(x))
                    })
                    .collect::<Vec<_>>(),
            )
            .collect();
        for (f, inside, s) in terms {
            let eps = self.flow_eps(f);
            let ar = &mut self.flat.arena;
            let fv = ar.var(f);
            // Leaving the inside component (-f > 0), or entering through the outside connector.
            let out = if inside { ar.neg(fv) } else { fv };
            let e = ar.constant(eps);
            let w = ar.call2(Func2::Max, out, e);
            let w = ar.no_event(w);
            let ws = ar.mul(w, s);
            num = Some(match num {
                None => ws,
                Some(n) => ar.add(n, ws),
            });
            den = Some(match den {
                None => w,
                Some(d) => ar.add(d, w),
            });
        }
        let ar = &mut self.flat.arena;
        match (num, den) {
            (Some(n), Some(d)) => ar.div(n, d),
            _ => ar.constant(0.0),
        }
    }

    /// ε for a flow variable: EPS_RELATIVE times its nominal value (1 without one).
    fn flow_eps(&mut self, f: FlatVar) -> f64 {
        let nominal = self.flat.vars[f]
            .nominal
            .and_then(|n| self.fold(n))
            .filter(|n| n.is_finite() && *n > 0.0)
            .unwrap_or(1.0);
        EPS_RELATIVE * nominal
    }
}
