//! Connections (specification ch. 9): `connect` statements collected per instance, connection
//! sets, equal potentials and flow sums (inside +, outside -), unconnected flows zero.

use super::*;

impl<'t, 'a> Flattener<'t, 'a> {
    pub(super) fn connect(
        &mut self,
        a: &'a ast::ComponentRef,
        b: &'a ast::ComponentRef,
        env: Env,
        span: Span,
    ) -> DResult<()> {
        // Both ends in outer elements: the connection would be the inner elements' own,
        // made in a scope that does not hold them (9.3).
        if let Some(node) = env.node {
            let outer = |f: &Self, r: &ast::ComponentRef| {
                f.inst.nodes[node.0 as usize]
                    .slots
                    .get(&r.parts[0].ident.name)
                    .is_some_and(|&s| f.inst.slots[s.0 as usize].outer)
            };
            if outer(self, a) && outer(self, b) {
                let msg = format!(
                    "`{}` and `{}` are both connectors of outer elements",
                    a.to_source_string(),
                    b.to_source_string()
                );
                return Err(Box::new(typed::CONNECT_TWO_OUTER.broken(span, msg, "here")));
            }
        }
        let ea = self.connector_ends(a, env)?;
        let eb = self.connector_ends(b, env)?;
        let (Some(ea), Some(eb)) = (ea, eb) else {
            // A disabled conditional connector: its connections are removed.
            return Ok(());
        };
        if ea.len() != eb.len() {
            return Err(Box::new(
                Diagnostic::error(
                    "connect",
                    format!(
                        "cannot connect `{}` ({} connector{}) to `{}` ({})",
                        a.to_source_string(),
                        ea.len(),
                        if ea.len() == 1 { "" } else { "s" },
                        b.to_source_string(),
                        eb.len()
                    ),
                )
                .at(span, "sizes differ"),
            ));
        }
        for (ca, cb) in ea.iter().zip(&eb) {
            let names_a: Vec<&str> = ca.leaves.iter().map(|l| l.0.as_str()).collect();
            let names_b: Vec<&str> = cb.leaves.iter().map(|l| l.0.as_str()).collect();
            if names_a != names_b {
                return Err(Box::new(
                    Diagnostic::error(
                        "connect",
                        format!(
                            "connectors `{}` and `{}` are not compatible: ({}) vs ({})",
                            a.to_source_string(),
                            b.to_source_string(),
                            names_a.join(", "),
                            names_b.join(", ")
                        ),
                    )
                    .at(span, "incompatible connectors"),
                ));
            }
            // Connected overdetermined records are of one type (9.4.1).
            for (pa, na) in &ca.overdetermined {
                self.conn_graph.overdetermined_connect.get_or_insert(span);
                let Some((_, nb)) = cb.overdetermined.iter().find(|(p, _)| p == pa) else {
                    continue;
                };
                let class =
                    |f: &Self, n: NodeId| f.inst.nodes[n.0 as usize].classes.first().copied();
                let (ka, kb) = (class(self, *na), class(self, *nb));
                if let (Some(ka), Some(kb)) = (ka, kb) {
                    if ka != kb {
                        let msg = format!(
                            "the overdetermined `{pa}` is `{}` in `{}` but `{}` in `{}`",
                            self.tree.info(ka).full_name,
                            a.to_source_string(),
                            self.tree.info(kb).full_name,
                            b.to_source_string()
                        );
                        let d = typed::CONNECT_OVERDETERMINED.broken(span, msg, "here");
                        return Err(Box::new(d));
                    }
                }
            }
            // Parameters and constants are not connected, but one may only stand against
            // one of the same variability (9.3).
            for (la, va) in &ca.fixed {
                let Some((_, vb)) = cb.fixed.iter().find(|(n, _)| n == la) else {
                    continue;
                };
                let (ka, kb) = (self.flat.vars[*va].kind, self.flat.vars[*vb].kind);
                if ka != kb {
                    let msg = format!(
                        "`{la}` is {} in `{}` but {} in `{}`",
                        ka.name(),
                        a.to_source_string(),
                        kb.name(),
                        b.to_source_string()
                    );
                    return Err(Box::new(
                        typed::CONNECT_PRIMITIVES.broken(span, msg, "here"),
                    ));
                }
            }
            for (la, lb) in ca.leaves.iter().zip(&cb.leaves) {
                let (sa, sb) = (
                    self.meta[la.1.index()].is_stream,
                    self.meta[lb.1.index()].is_stream,
                );
                if sa || sb {
                    // Stream variables are not equated; `inStream` mixes them over the
                    // connection set of the flow (stream.rs).
                    if sa != sb {
                        return Err(Box::new(
                            Diagnostic::error(
                                "connect",
                                format!(
                                    "`{}` is a stream variable but `{}` is not",
                                    if sa { &la.0 } else { &lb.0 },
                                    if sa { &lb.0 } else { &la.0 }
                                ),
                            )
                            .at(span, "stream mismatch"),
                        ));
                    }
                    continue;
                }
                let (va, vb) = (&self.flat.vars[la.1], &self.flat.vars[lb.1]);
                let variability = |k: VarKind| match k {
                    VarKind::Parameter => 1,
                    VarKind::Constant => 2,
                    _ => 0,
                };
                if va.ty != vb.ty || variability(va.kind) != variability(vb.kind) {
                    let what = |v: &crate::flat::Variable| match variability(v.kind) {
                        1 => format!("parameter {}", v.ty.name()),
                        2 => format!("constant {}", v.ty.name()),
                        _ => v.ty.name().to_string(),
                    };
                    let msg = format!(
                        "`{}` ({}) is connected to `{}` ({})",
                        la.0,
                        what(va),
                        lb.0,
                        what(vb)
                    );
                    let d = typed::CONNECT_PRIMITIVES.broken(span, msg, "here");
                    return Err(Box::new(d));
                }
                let (ma, mb) = (&self.meta[la.1.index()], &self.meta[lb.1.index()]);
                let declared = |c: Option<Option<ast::Causality>>| c.map(|c| c.is_some());
                if let Some(ka) = causal_mismatch(declared(ma.is_causal), declared(mb.is_causal)) {
                    let (causal, plain) = if ka { (&la.0, &lb.0) } else { (&lb.0, &la.0) };
                    let msg =
                        format!("`{causal}` is declared input or output but `{plain}` is neither");
                    return Err(Box::new(typed::CONNECT_CAUSAL.broken(span, msg, "here")));
                }
                let fa = self.meta[la.1.index()].is_flow;
                let fb = self.meta[lb.1.index()].is_flow;
                if fa != fb {
                    return Err(Box::new(
                        Diagnostic::error(
                            "connect",
                            format!(
                                "`{}` is a flow variable but `{}` is not",
                                if fa { &la.0 } else { &lb.0 },
                                if fa { &lb.0 } else { &la.0 }
                            ),
                        )
                        .at(span, "flow mismatch"),
                    ));
                }
                self.connections.push(Connection {
                    a: ConnEnd {
                        var: la.1,
                        outside: ca.outside,
                    },
                    b: ConnEnd {
                        var: lb.1,
                        outside: cb.outside,
                    },
                    is_flow: fa,
                    span,
                    level: env.node,
                    hidden: [ca.hidden, cb.hidden],
                });
            }
        }
        Ok(())
    }

    /// The connector instances a connect argument names, each with its leaf variables.
    pub(super) fn connector_ends(
        &mut self,
        r: &'a ast::ComponentRef,
        env: Env,
    ) -> DResult<Option<Vec<ConnectorEnd>>> {
        let node = env.node.ok_or_else(|| {
            Box::new(Diagnostic::error("connect", "connect outside of a model").at(r.span, "here"))
        })?;
        let first = &r.parts[0].ident.name;
        let Some(&sid) = self.inst.nodes[node.0 as usize].slots.get(first) else {
            return Err(self.unknown_component(r, 0, env));
        };
        self.instantiate(sid)?;
        // `connect(p, sub.p)`: p is the model's own connector (outside), sub.p an inside one;
        // `p.q`, a connector inside the model's own connector p, is outside too (9.1.2).
        let outside = self.inst.slots[sid.0 as usize].is_connector;
        let hidden = outside
            && self.inst.slots[sid.0 as usize]
                .prefix
                .is_some_and(|p| p.protected);
        if !outside && r.parts.len() >= 3 {
            self.check_connect_path(sid, r)?;
        }
        let resolved = match self.resolve(r, env) {
            Ok(x) => x,
            Err(d) if d.code == "disabled" => return Ok(None),
            Err(d) => return Err(d),
        };
        let mut ends = Vec::new();
        match resolved {
            Resolved::Nodes { nodes, .. } => {
                for n in nodes {
                    if !self.inst.nodes[n.0 as usize].is_connector {
                        return Err(Box::new(
                            Diagnostic::error(
                                "connect",
                                format!("`{}` is not a connector", r.to_source_string()),
                            )
                            .at(r.span, "not a connector")
                            .help("connect() joins connectors such as `resistor.p`"),
                        ));
                    }
                    let (mut leaves, mut fixed) = (Vec::new(), Vec::new());
                    self.connector_leaves(n, String::new(), &mut leaves, &mut fixed)?;
                    let overdetermined = self.overdetermined_records(n);
                    ends.push(ConnectorEnd {
                        outside,
                        hidden,
                        leaves,
                        fixed,
                        overdetermined,
                    });
                }
            }
            Resolved::Value(Val::Arr(a)) => {
                // A connector of a built-in type (`RealInput u`): each element is its own connector.
                // Of a one-part reference the slot is its own (`q[axisUsed]`: resolving the
                // subscript's parameter made `axisUsed` the last slot resolved).
                let last = if r.parts.len() == 1 {
                    Some(sid)
                } else {
                    self.inst.last_slot
                };
                let is_conn = match last {
                    Some(last) => {
                        let s = &self.inst.slots[last.0 as usize];
                        s.is_connector || self.inst.nodes[s.node.0 as usize].is_connector
                    }
                    None => false,
                };
                if !is_conn {
                    return Err(Box::new(
                        Diagnostic::error(
                            "connect",
                            format!("`{}` is not a connector", r.to_source_string()),
                        )
                        .at(r.span, "not a connector")
                        .help("connect() joins connectors; to set values equal write an equation"),
                    ));
                }
                for &e in &a.data {
                    match self.flat.arena.node(e) {
                        Node::Var(v) => ends.push(ConnectorEnd {
                            outside,
                            hidden,
                            leaves: vec![(String::new(), v)],
                            fixed: Vec::new(),
                            overdetermined: Vec::new(),
                        }),
                        _ => {
                            return Err(Box::new(
                                Diagnostic::error("connect", "connect() needs connector variables")
                                    .at(r.span, "not a variable"),
                            ))
                        }
                    }
                }
            }
            Resolved::Value(Val::Str(_) | Val::Text(_) | Val::Strs(_) | Val::Record(_)) => {
                return Err(Box::new(
                    Diagnostic::error("connect", "connect() of a String or record value")
                        .at(r.span, "here"),
                ))
            }
        }
        Ok(Some(ends))
    }

    /// `connect(m.c, …)` names a connector `c` of a component `m` of the class, not one
    /// deeper inside (`m1.m2.c`, 9.1).
    fn check_connect_path(&mut self, sid: SlotId, r: &ast::ComponentRef) -> DResult<()> {
        let Entry::Nodes { nodes, .. } = self.instantiate(sid)? else {
            return Ok(());
        };
        let Some(&n) = nodes.first() else {
            return Ok(());
        };
        let Some(&second) = self.inst.nodes[n.0 as usize]
            .slots
            .get(&r.parts[1].ident.name)
        else {
            return Ok(());
        };
        self.instantiate(second)?;
        if self.inst.slots[second.0 as usize].is_connector {
            return Ok(());
        }
        let msg = format!(
            "`{}` is not a connector of a component of this class",
            r.to_source_string()
        );
        Err(Box::new(
            typed::CONNECT_PATH.broken(r.span, msg, "too deep"),
        ))
    }

    pub(super) fn connector_leaves(
        &mut self,
        n: NodeId,
        prefix: String,
        out: &mut Vec<(String, FlatVar)>,
        fixed: &mut Vec<(String, FlatVar)>,
    ) -> DResult<()> {
        let mut order = self.inst.nodes[n.0 as usize].order.clone();
        if self.inst.nodes[n.0 as usize].is_expandable {
            // The elements present (made by connections), in name order: two connected
            // expandable connectors hold the same set, perhaps made in another order.
            order
                .retain(|&sid| matches!(self.inst.slots[sid.0 as usize].state, SlotState::Done(_)));
            order.sort_by(|a, b| {
                self.inst.slots[a.0 as usize]
                    .name
                    .cmp(&self.inst.slots[b.0 as usize].name)
            });
        }
        for sid in order {
            let entry = self.instantiate(sid)?;
            let name = format!("{prefix}{}", self.inst.slots[sid.0 as usize].name);
            match entry {
                Entry::Vars { dims, vars } => {
                    for (k, v) in vars.iter().enumerate() {
                        let leaf = (format!("{name}{}", subscript_text(&dims, k)), *v);
                        if matches!(
                            self.flat.vars[*v].kind,
                            VarKind::Parameter | VarKind::Constant
                        ) {
                            fixed.push(leaf);
                            continue;
                        }
                        out.push(leaf);
                    }
                }
                Entry::Nodes { dims, nodes } => {
                    for (k, c) in nodes.iter().enumerate() {
                        self.connector_leaves(
                            *c,
                            format!("{name}{}.", subscript_text(&dims, k)),
                            out,
                            fixed,
                        )?;
                    }
                }
                Entry::Disabled | Entry::Str(_) | Entry::Object(_) => {}
            }
        }
        Ok(())
    }

    /// The overdetermined records of a connector instance (itself, or its elements, nested
    /// connectors' included), by path; only instances already made are looked at.
    fn overdetermined_records(&mut self, n: NodeId) -> Vec<(String, NodeId)> {
        let mut out = Vec::new();
        let mut stack = vec![(String::new(), n, 0u32)];
        while let Some((path, node, depth)) = stack.pop() {
            if self.is_overdetermined(node) {
                out.push((path, node));
                continue;
            }
            if depth > 8 {
                continue;
            }
            for &sid in &self.inst.nodes[node.0 as usize].order {
                let slot = &self.inst.slots[sid.0 as usize];
                if let SlotState::Done(Entry::Nodes { nodes, .. }) = &slot.state {
                    let name = if path.is_empty() {
                        slot.name.to_string()
                    } else {
                        format!("{path}.{}", slot.name)
                    };
                    for &c in nodes.iter() {
                        stack.push((name.clone(), c, depth + 1));
                    }
                }
            }
        }
        out
    }

    /// Every instantiated non-partial, non-expandable connector is balanced (9.3.1): as many
    /// flow variables as potential ones (neither parameter, constant, input, output, stream
    /// nor flow), an overdetermined record counting as its `equalityConstraint` residue's
    /// size (a connector holding one whose residue's size is not an Integer literal is left
    /// out). Each connector class is reported once.
    pub(super) fn check_connector_balance(&mut self) -> DResult<()> {
        let mut seen = FxHashSet::default();
        for n in 0..self.inst.nodes.len() {
            let node = NodeId::new(n);
            let nd = &self.inst.nodes[n];
            if !nd.is_connector || nd.is_expandable {
                continue;
            }
            let Some(&class) = nd.classes.first() else {
                continue;
            };
            if self.tree.info(class).def.is_some_and(|d| d.partial) || !seen.insert(class) {
                continue;
            }
            let Some((flows, potentials)) = self.balance(node)? else {
                continue;
            };
            if flows != potentials {
                let path = self.inst.nodes[n].path.clone();
                let msg = format!(
                    "connector `{}` (of `{path}`) has {flows} flow and {potentials} potential variables",
                    self.tree.info(class).full_name
                );
                let d = typed::CONNECTOR_BALANCE.broken(
                    self.tree.info(class).span(),
                    msg,
                    "connector declared here",
                );
                return Err(Box::new(d));
            }
        }
        Ok(())
    }

    /// `(flow, potential)` scalar counts of a connector instance, an overdetermined record
    /// counted as its residue's size; `None` if it holds one whose size is not known.
    fn balance(&mut self, n: NodeId) -> DResult<Option<(usize, usize)>> {
        if self.is_overdetermined(n) {
            return Ok(self.residue_size(n).map(|r| (0, r)));
        }
        let (mut flows, mut potentials) = (0, 0);
        for sid in self.inst.nodes[n.0 as usize].order.clone() {
            match self.instantiate(sid)? {
                Entry::Vars { vars, .. } => {
                    for &v in vars.iter() {
                        let m = &self.meta[v.index()];
                        if m.is_flow {
                            flows += 1;
                        } else if !m.is_stream
                            && !matches!(m.is_causal, Some(Some(_)))
                            && !matches!(
                                self.flat.vars[v].kind,
                                VarKind::Parameter | VarKind::Constant
                            )
                        {
                            potentials += 1;
                        }
                    }
                }
                Entry::Nodes { nodes, .. } => {
                    for &c in nodes.iter() {
                        let Some((f, p)) = self.balance(c)? else {
                            return Ok(None);
                        };
                        flows += f;
                        potentials += p;
                    }
                }
                Entry::Disabled | Entry::Str(_) | Entry::Object(_) => {}
            }
        }
        Ok(Some((flows, potentials)))
    }

    /// Connection sets → equations. Potentials: all equal. Flows: the sum over inside ends
    /// minus the sum over outside ends is zero; a flow never connected as an inside end is zero.
    /// 9.3: the variables of a connection set whose `quantity` is not empty have the same
    /// quantity (a voltage is not connected to a pressure).
    fn check_quantities(&mut self, sets: &[Vec<usize>], keys: &[ConnEnd], spans: &[Span]) {
        for (root, members) in sets.iter().enumerate() {
            let mut first: Option<(FlatVar, &str)> = None;
            for &m in members {
                let v = keys[m].var;
                let Some(q) = self.flat.vars[v.index()].quantity.as_deref() else {
                    continue;
                };
                if q.is_empty() {
                    continue;
                }
                match first {
                    None => first = Some((v, q)),
                    Some((w, p)) if p != q => {
                        let msg = format!(
                            "this connection set joins `{}` (quantity \"{p}\") and `{}` (quantity \"{q}\")",
                            self.flat.vars[w.index()].name,
                            self.flat.vars[v.index()].name
                        );
                        let d = typed::CONNECT_QUANTITY.broken(spans[root], msg, "connected here");
                        self.diags.push(d);
                        break;
                    }
                    Some(_) => {}
                }
            }
        }
    }

    /// 18.5.2: a connector declared with `annotation(mustBeConnected = "message")` — each
    /// element of an array of them, a conditional one where enabled — appears as an inside
    /// end of a connect (one written in the class that holds its component); the model's own
    /// connectors are connected from nowhere and are not judged.
    fn check_must_be_connected(&mut self) {
        let inside: FxHashSet<FlatVar> = self
            .connections
            .iter()
            .flat_map(|c| [c.a, c.b])
            .filter(|e| !e.outside)
            .map(|e| e.var)
            .collect();
        for i in 0..self.inst.slots.len() {
            let slot = &self.inst.slots[i];
            if !slot.is_connector
                || slot.outer
                || self.inst.nodes[slot.node.index()].parent.is_none()
            {
                continue;
            }
            let Some(message) = connection_annotation(slot.decl, "mustBeConnected") else {
                continue;
            };
            let (name, span) = (slot.decl.name.name.clone(), slot.decl.name.span);
            let path = &self.inst.nodes[slot.node.index()].path;
            let full = if path.is_empty() {
                name.to_string()
            } else {
                format!("{path}.{name}")
            };
            let Some(elements) = self.connector_elements(i) else {
                continue;
            };
            let many = elements.len() > 1;
            for (k, leaves) in elements.iter().enumerate() {
                if leaves.is_empty() || leaves.iter().any(|v| inside.contains(v)) {
                    continue;
                }
                let msg = format!(
                    "{} is not connected from the outside{}",
                    element_name(&full, k, many),
                    colon(&message)
                );
                self.diags
                    .push(typed::MUST_BE_CONNECTED.broken(span, msg, "mustBeConnected"));
                break;
            }
        }
    }

    /// The leaf variables of each element of connector slot `i` (a conditional one disabled,
    /// or one not made: `None`).
    fn connector_elements(&mut self, i: usize) -> Option<Vec<Vec<FlatVar>>> {
        match &self.inst.slots[i].state {
            SlotState::Done(Entry::Nodes { nodes, .. }) => {
                let nodes = nodes.clone();
                Some(
                    nodes
                        .iter()
                        .map(|&n| {
                            let (mut leaves, mut fixed) = (Vec::new(), Vec::new());
                            let _ =
                                self.connector_leaves(n, String::new(), &mut leaves, &mut fixed);
                            leaves.into_iter().map(|(_, v)| v).collect()
                        })
                        .collect(),
                )
            }
            SlotState::Done(Entry::Vars { vars, .. }) => {
                Some(vars.iter().map(|&v| vec![v]).collect())
            }
            _ => None,
        }
    }

    /// 18.5.2: a connector declared with `annotation(mayOnlyConnectOnce = "message")` — each
    /// element of an array of them — is, where it is connected from the outside, in a
    /// connection set of at most two elements: the set the connect-equations of the class
    /// holding its component make (the sets of other levels are not counted; a connector's
    /// elements are counted by its first variable). Of a stream connector's set only the
    /// members whose flow may be negative count: no `min`, or one evaluating below zero (a
    /// `min` rtc cannot evaluate is not counted).
    fn check_may_only_connect_once(&mut self) {
        for i in 0..self.inst.slots.len() {
            let slot = &self.inst.slots[i];
            let node = slot.node;
            if !slot.is_connector || slot.outer {
                continue;
            }
            let Some(level) = self.inst.nodes[node.index()].parent else {
                continue;
            };
            let Some(message) = connection_annotation(slot.decl, "mayOnlyConnectOnce") else {
                continue;
            };
            let (name, span) = (slot.decl.name.name.clone(), slot.decl.name.span);
            let path = self.inst.nodes[node.index()].path.clone();
            let Some(elements) = self.connector_elements(i) else {
                continue;
            };
            // The connections of that level, between variables (potential and flow alike:
            // each pairs one variable of either connector).
            let pairs: Vec<(FlatVar, FlatVar)> = self
                .connections
                .iter()
                .filter(|c| c.level == Some(level))
                .map(|c| (c.a.var, c.b.var))
                .collect();
            let many = elements.len() > 1;
            for (k, leaves) in elements.iter().enumerate() {
                // A stream connector counts the members of its flow's set whose flow may be
                // negative (by their `min`); another connector every member (by its first
                // variable).
                let stream = leaves.iter().any(|v| self.meta[v.index()].is_stream);
                let start = if stream {
                    leaves.iter().find(|v| self.meta[v.index()].is_flow)
                } else {
                    leaves.first()
                };
                let Some(&v) = start else {
                    continue;
                };
                // The variables joined to v at this level (a breadth-first walk of its pairs).
                let mut set = vec![v];
                let mut at = 0;
                while at < set.len() {
                    let x = set[at];
                    at += 1;
                    for &(a, b) in &pairs {
                        let y = if a == x {
                            b
                        } else if b == x {
                            a
                        } else {
                            continue;
                        };
                        if !set.contains(&y) {
                            set.push(y);
                        }
                    }
                }
                let counted = if stream {
                    set.iter()
                        .filter(|&&f| match self.flat.vars[f].min {
                            None => true,
                            Some(m) => self.fold(m).is_some_and(|x| x < 0.0),
                        })
                        .count()
                } else {
                    set.len()
                };
                if counted <= 2 {
                    continue;
                }
                let full = if path.is_empty() {
                    name.to_string()
                } else {
                    format!("{path}.{name}")
                };
                let msg = format!(
                    "{} is in a connection set of {counted} connectors{}{}",
                    element_name(&full, k, many),
                    if stream {
                        " whose flow may be negative"
                    } else {
                        ""
                    },
                    colon(&message)
                );
                self.diags.push(typed::MAY_ONLY_CONNECT_ONCE.broken(
                    span,
                    msg,
                    "mayOnlyConnectOnce",
                ));
                break;
            }
        }
    }

    /// 9.3: the connection sets of input and output variables each level's connect-equations
    /// make (the sets of one class, not merged across levels) hold one source of their signal:
    /// at most one — an output of a component or a public input of the class itself —, and in
    /// a non-partial class at least one, unless the set holds a protected connector of the
    /// class (its value given by an equation) or an element of an expandable connector (whose
    /// causality follows from the set).
    fn check_causal_sets(&mut self) {
        let mut levels: Vec<NodeId> = Vec::new();
        for c in &self.connections {
            if let Some(l) = c.level {
                if !levels.contains(&l) {
                    levels.push(l);
                }
            }
        }
        for level in levels {
            // The set of each causal variable at this level: (variable, outside, protected);
            // an element of an expandable connector (causality unknown) is a member too.
            let mut members: Vec<(FlatVar, bool, bool)> = Vec::new();
            let mut parent: Vec<usize> = Vec::new();
            let mut first_span: Vec<Span> = Vec::new();
            let mut position: FxHashMap<FlatVar, usize> = FxHashMap::default();
            for c in self.connections.iter().filter(|c| c.level == Some(level)) {
                let declared =
                    |e: &ConnEnd| matches!(self.meta[e.var.index()].is_causal, Some(None));
                if c.is_flow || declared(&c.a) || declared(&c.b) {
                    continue;
                }
                let mut index = |e: ConnEnd, hidden: bool| {
                    *position.entry(e.var).or_insert_with(|| {
                        members.push((e.var, e.outside, hidden));
                        parent.push(parent.len());
                        first_span.push(c.span);
                        members.len() - 1
                    })
                };
                let (ia, ib) = (index(c.a, c.hidden[0]), index(c.b, c.hidden[1]));
                let (ra, rb) = (root(&mut parent, ia), root(&mut parent, ib));
                if ra != rb {
                    parent[ra.max(rb)] = ra.min(rb);
                }
            }
            let class = self.inst.nodes[level.index()].classes.first().copied();
            let partial = class.is_some_and(|c| self.tree.info(c).def.is_some_and(|d| d.partial));
            let mut sets: Vec<Vec<usize>> = vec![Vec::new(); members.len()];
            for i in 0..members.len() {
                let r = root(&mut parent, i);
                sets[r].push(i);
            }
            for (r, set) in sets.iter().enumerate() {
                self.check_protected_outside(set, &members, first_span[r]);
                // The causality of an expandable connector's elements follows from their set.
                if set.len() < 2
                    || set
                        .iter()
                        .any(|&i| self.meta[members[i].0.index()].is_causal.is_none())
                {
                    continue;
                }
                let source = |&i: &usize| {
                    let (v, outside, hidden) = members[i];
                    match self.meta[v.index()].is_causal {
                        Some(Some(ast::Causality::Output)) => !outside,
                        Some(Some(ast::Causality::Input)) => outside && !hidden,
                        _ => false,
                    }
                };
                let sources: Vec<usize> = set.iter().copied().filter(|i| source(i)).collect();
                let name = |i: usize| self.flat.vars[members[i].0].name.clone();
                let names: Vec<String> = set.iter().map(|&i| format!("`{}`", name(i))).collect();
                let role = |i: usize| {
                    if members[i].1 {
                        "a public input of the class"
                    } else {
                        "an output of a component"
                    }
                };
                if sources.len() > 1 {
                    let (a, b) = (sources[0], sources[1]);
                    let msg = format!(
                        "the connection set of {} has two sources of its signal: `{}` ({}) and `{}` ({})",
                        names.join(", "),
                        name(a),
                        role(a),
                        name(b),
                        role(b)
                    );
                    self.diags
                        .push(typed::CAUSAL_SET_SOURCES.broken(first_span[r], msg, "here"));
                } else if sources.is_empty()
                    && !partial
                    && !set.iter().any(|&i| members[i].1 && members[i].2)
                {
                    let msg = format!(
                        "the connection set of {} has no source of its signal: none is an output of a component or a public input of the class",
                        names.join(", ")
                    );
                    self.diags
                        .push(typed::CAUSAL_SET_SOURCE.broken(first_span[r], msg, "here"));
                }
            }
        }
    }

    /// 9.3: a set with a protected outside connector of the class (`members[i]`: variable,
    /// outside, protected) holds an inside connector or a declared public outside one — not
    /// only elements connections added to an expandable connector, whose causality would then
    /// follow from nothing declared.
    fn check_protected_outside(
        &mut self,
        set: &[usize],
        members: &[(FlatVar, bool, bool)],
        at: Span,
    ) {
        let Some(&p) = set.iter().find(|&&i| members[i].1 && members[i].2) else {
            return;
        };
        let anchored = set.iter().any(|&i| {
            let (v, outside, hidden) = members[i];
            !outside || (!hidden && !self.meta[v.index()].added)
        });
        if anchored {
            return;
        }
        let name = |i: usize| self.flat.vars[members[i].0].name.clone();
        let others: Vec<String> = set
            .iter()
            .filter(|&&i| i != p)
            .map(|&i| format!("`{}`", name(i)))
            .collect();
        let msg = format!(
            "the protected connector `{}` is connected only to {}, which a connection added to an expandable connector: no inside or declared public connector is in its set",
            name(p),
            others.join(", ")
        );
        self.diags
            .push(typed::PROTECTED_OUTSIDE_SET.broken(at, msg, "here"));
    }

    pub(super) fn connection_equations(&mut self) {
        self.check_must_be_connected();
        self.check_may_only_connect_once();
        self.check_causal_sets();
        let conns = std::mem::take(&mut self.connections);
        // Union-find over potentials (by variable) and flows (by variable and side).
        let mut key_index: FxHashMap<ConnEnd, usize> = FxHashMap::default();
        let mut keys: Vec<ConnEnd> = Vec::new();
        let mut parent: Vec<usize> = Vec::new();
        let mut spans: Vec<Span> = Vec::new();
        let mut get = |e: ConnEnd,
                       span: Span,
                       keys: &mut Vec<ConnEnd>,
                       parent: &mut Vec<usize>,
                       spans: &mut Vec<Span>|
         -> usize {
            *key_index.entry(e).or_insert_with(|| {
                keys.push(e);
                parent.push(keys.len() - 1);
                spans.push(span);
                keys.len() - 1
            })
        };
        for c in &conns {
            let (ka, kb) = if c.is_flow {
                (c.a, c.b)
            } else {
                // Potentials are equal whatever the side.
                (
                    ConnEnd {
                        var: c.a.var,
                        outside: false,
                    },
                    ConnEnd {
                        var: c.b.var,
                        outside: false,
                    },
                )
            };
            let ia = get(ka, c.span, &mut keys, &mut parent, &mut spans);
            let ib = get(kb, c.span, &mut keys, &mut parent, &mut spans);
            let (ra, rb) = (root(&mut parent, ia), root(&mut parent, ib));
            if ra != rb {
                let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
                parent[hi] = lo;
            }
        }
        // Flows never connected from the inside are zero (specification 9.2).
        for v in 0..self.flat.vars.len() {
            let var = FlatVar::new(v);
            if self.meta[v].is_flow
                && !matches!(
                    self.flat.vars[v].kind,
                    VarKind::Parameter | VarKind::Constant
                )
            {
                let e = ConnEnd {
                    var,
                    outside: false,
                };
                if !keys.contains(&e) {
                    let span = self.flat.vars[v].span;
                    get(e, span, &mut keys, &mut parent, &mut spans);
                }
            }
        }
        let mut sets: Vec<Vec<usize>> = vec![Vec::new(); keys.len()];
        for i in 0..keys.len() {
            let r = root(&mut parent, i);
            sets[r].push(i);
        }
        self.check_quantities(&sets, &keys, &spans);
        // The flow sets are the connection points of stream connectors.
        let (flow_sets, flow_spans): (Vec<Vec<ConnEnd>>, Vec<Span>) = sets
            .iter()
            .enumerate()
            .filter(|(_, m)| !m.is_empty() && self.meta[keys[m[0]].var.index()].is_flow)
            .map(|(root, m)| (m.iter().map(|&i| keys[i]).collect(), spans[root]))
            .unzip();
        self.stream_equations(&flow_sets, &flow_spans);
        for (root, members) in sets.iter().enumerate() {
            if members.is_empty() {
                continue;
            }
            let span = spans[root];
            let is_flow = self.meta[keys[members[0]].var.index()].is_flow;
            let ar = &mut self.flat.arena;
            if is_flow {
                let mut sum: Option<ExprId> = None;
                for &m in members {
                    let k = keys[m];
                    let v = ar.var(k.var);
                    sum = Some(match (sum, k.outside) {
                        (None, false) => v,
                        (None, true) => ar.neg(v),
                        (Some(s), false) => ar.add(s, v),
                        (Some(s), true) => ar.sub(s, v),
                    });
                }
                let zero = ar.constant(0.0);
                if let Some(s) = sum {
                    self.flat.equations.push(Equation {
                        lhs: s,
                        rhs: zero,
                        span,
                        origin: EquationOrigin::ConnectFlow,
                    });
                }
            } else {
                let first = ar.var(keys[members[0]].var);
                for &m in &members[1..] {
                    let v = ar.var(keys[m].var);
                    self.flat.equations.push(Equation {
                        lhs: first,
                        rhs: v,
                        span,
                        origin: EquationOrigin::ConnectPotential,
                    });
                }
            }
        }
    }
}

/// The representative of `x`'s set (path halving).
fn root(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// `Some(a)` when two ends' input/output declarations differ (`a`: the first end's), both
/// known.
fn causal_mismatch(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(x), Some(y)) if x != y => Some(x),
        _ => None,
    }
}

/// The message of a declaration's `annotation(<name> = "message")` (`mustBeConnected`,
/// `mayOnlyConnectOnce`).
fn connection_annotation(decl: &ast::ComponentDecl, name: &str) -> Option<String> {
    let ann = decl.description.annotation.as_ref()?;
    string_annotation(ann.args.iter(), name)
}

/// "`l.p`", or "element 2 of `l.p`" for an array of connectors.
fn element_name(full: &str, k: usize, many: bool) -> String {
    if many {
        format!("element {} of `{full}`", k + 1)
    } else {
        format!("`{full}`")
    }
}

/// ": message", or nothing for an annotation without one.
fn colon(message: &str) -> String {
    if message.is_empty() {
        String::new()
    } else {
        format!(": {message}")
    }
}
