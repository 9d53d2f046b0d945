//! The connection graph (specification 9.4, 3.7.4.5): `cardinality(c)`, and the operators
//! of overdetermined connectors `Connections.root`, `potentialRoot` and `isRoot`.
//!
//! An overdetermined connector carries a record (or type) with an `equalityConstraint`
//! function, such as a reference angle: connected components must agree on it, but it has more
//! equations than unknowns once connections close loops. The connection graph joins the
//! instances of such records along the connections; each connected part selects one root (the
//! definite root, else the potential root with the lowest priority number), and
//! `Connections.isRoot(x)` is true for it, so a component can give the root its own equation.
//!
//! rtc supports graphs whose connected parts are trees: connections (optional edges) and
//! `Connections.branch(a, b)` (required edges, no equation of their own) join the instances;
//! every connection is then an ordinary one, and what the graph decides is the root of each
//! part and each instance's distance from it: `Connections.rooted(a)` (and the deprecated
//! `rooted`) is true when `a` is closer to the root than the other side of its one branch (a
//! MultiBody joint takes its orientation from the side nearer the world). The unique-root
//! operators are refused with a diagnostic, and so is a loop of edges between overdetermined
//! instances (a kinematic loop: it needs `equalityConstraint` in place of the equations of one
//! connection), and a part without a root.
//!
//! `cardinality(c)` counts the connect equations that name connector `c` (for-loops included,
//! if-branches whose condition is known at compile time).

use super::*;
use rustc_hash::FxHashSet;

/// A question to the connection graph.
#[derive(Clone, Copy, Debug)]
pub(super) enum GraphQuery {
    Cardinality(ConnId),
    IsRoot(NodeId),
    Rooted(NodeId),
}

/// What one side of a connection names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum ConnId {
    Node(NodeId),
    Var(FlatVar),
}

/// The connection graph of the model, made once on first use.
#[derive(Default)]
pub(super) struct ConnectionGraph {
    /// Connections naming each connector (`cardinality`).
    counts: FxHashMap<ConnId, usize>,
    /// Overdetermined record instances joined by connections (union-find).
    parent: FxHashMap<NodeId, NodeId>,
    /// `Connections.root` (priority `None`) and `potentialRoot` calls.
    roots: Vec<(NodeId, Option<i64>, Span)>,
    /// The first call of an operator rtc does not support yet (`uniqueRoot`), refused where
    /// the graph is used.
    branch: Option<Span>,
    /// The edges between overdetermined instances: connections (optional) and
    /// `Connections.branch` (required), each once.
    edges: Vec<(NodeId, NodeId)>,
    /// The `Connections.branch(a, b)` calls.
    branches: Vec<(NodeId, NodeId)>,
    /// The instances joined by branches alone (union-find).
    required: FxHashMap<NodeId, NodeId>,
    /// Each instance's distance from its part's root along the edges (the graph is a forest).
    depth: FxHashMap<NodeId, usize>,
    /// The first connection that closes a loop of overdetermined connectors.
    cycle: Option<Span>,
    /// The roots selected, one per connected part.
    selected: FxHashSet<NodeId>,
    /// Parts without a root: one of their instances, for the diagnostic.
    rootless: Vec<NodeId>,
}

fn find(parent: &mut FxHashMap<NodeId, NodeId>, n: NodeId) -> NodeId {
    let p = *parent.entry(n).or_insert(n);
    if p == n {
        return n;
    }
    let r = find(parent, p);
    parent.insert(n, r);
    r
}

impl<'t, 'a> Flattener<'t, 'a> {
    /// `cardinality(c)`: the number of connect equations that name connector `c`.
    pub(super) fn cardinality_call(&mut self, arg: &'a ast::Expr, env: Env) -> DResult<Val> {
        let ast::ExprKind::Ref(r) = &arg.kind else {
            return Err(Box::new(
                Diagnostic::error("arguments", "`cardinality` takes a connector")
                    .at(arg.span, "not a connector reference"),
            ));
        };
        let ids = self.conn_ids(r, env)?;
        let [id] = ids.as_slice() else {
            return Err(Box::new(
                Diagnostic::error("arguments", "`cardinality` takes one scalar connector")
                    .at(arg.span, "here"),
            ));
        };
        if let ConnId::Node(n) = id {
            if self.inst.nodes[n.0 as usize].is_expandable {
                return Err(Box::new(
                    Diagnostic::error(
                        "arguments",
                        format!("`cardinality` of the expandable connector `{}`", r.to_source_string()),
                    )
                    .at(arg.span, "expandable")
                    .help("Modelica 3.6 §3.7.4.3: cardinality shall not be applied to expandable connectors or their elements"),
                ));
            }
        }
        let e = self.graph_query(GraphQuery::Cardinality(*id), arg.span, ScalarType::Integer)?;
        Ok(Val::Arr(Arr::scalar(e, ScalarType::Integer)))
    }

    /// `Connections.isRoot(x)`: whether the overdetermined instance `x` is the selected root
    /// of its part of the connection graph (known at compile time).
    pub(super) fn is_root_call(
        &mut self,
        name: &str,
        arg: &'a ast::Expr,
        env: Env,
    ) -> DResult<Val> {
        let node = self.overdetermined_arg(arg, env, name)?;
        let q = if name == "Connections.isRoot" {
            GraphQuery::IsRoot(node)
        } else {
            GraphQuery::Rooted(node)
        };
        let e = self.graph_query(q, arg.span, ScalarType::Boolean)?;
        Ok(Val::Arr(Arr::scalar(e, ScalarType::Boolean)))
    }

    /// The value of a question to the connection graph: a constant once the graph is made
    /// (after the instances, before the equations), else (a binding read while the instances
    /// are made) a parameter whose value is set when the graph is made.
    fn graph_query(&mut self, q: GraphQuery, span: Span, ty: ScalarType) -> DResult<ExprId> {
        if self.conn_graph.building_graph {
            // A condition read while the graph is made (its branches are all read then).
            return Err(Box::new(
                Diagnostic::error("connections", "the connection graph is being made")
                    .at(span, "here"),
            ));
        }
        if self.inst.instances_done {
            self.build_graph()?;
            let v = self.answer(q, span)?;
            return Ok(self.flat.arena.constant(v));
        }
        let name = match q {
            GraphQuery::Cardinality(ConnId::Node(n)) => {
                format!("cardinality({})", self.inst.nodes[n.0 as usize].path)
            }
            GraphQuery::Cardinality(ConnId::Var(v)) => {
                format!("cardinality({})", self.flat.vars[v].name)
            }
            GraphQuery::IsRoot(n) => {
                format!("Connections.isRoot({})", self.inst.nodes[n.0 as usize].path)
            }
            GraphQuery::Rooted(n) => {
                format!("Connections.rooted({})", self.inst.nodes[n.0 as usize].path)
            }
        };
        let id = FlatVar::new(self.flat.vars.len());
        self.flat.vars.push(Variable {
            description: Some("the connection graph's answer (specification 9.4)".into()),
            ..Variable::new(name, VarKind::Parameter, ty, span)
        });
        self.meta.push(VarMeta {
            is_flow: false,
            is_stream: false,
            is_causal: None,
            added: false,
        });
        self.conn_graph.graph_queries.push((id, q, span));
        Ok(self.flat.arena.var(id))
    }

    /// Makes the connection graph and answers the questions asked while the instances were
    /// made.
    pub(super) fn connection_graph(&mut self) -> DResult<()> {
        self.inst.instances_done = true;
        let queries = std::mem::take(&mut self.conn_graph.graph_queries);
        if queries.is_empty() {
            return Ok(());
        }
        self.build_graph()?;
        for (var, q, span) in queries {
            let v = self.answer(q, span)?;
            self.flat.vars[var].binding = Some(self.flat.arena.constant(v));
        }
        Ok(())
    }

    /// Once the connections are made: every connected part of overdetermined records has a
    /// root or potential root (9.4.2).
    pub(super) fn rooted_parts(&mut self) -> DResult<()> {
        let Some(span) = self.conn_graph.overdetermined_connect else {
            return Ok(());
        };
        self.build_graph()?;
        let g = self.conn_graph.graph.as_ref().expect("built");
        if g.branch.is_some() {
            return Ok(());
        }
        let Some(&n) = g.rootless.first() else {
            return Ok(());
        };
        let path = self.inst.nodes[n.0 as usize].path.clone();
        let d = typed::ROOTLESS_GRAPH.broken(
            span,
            format!(
                "the connected overdetermined records of `{path}` have no root nor potential root"
            ),
            "a connection or branch of them",
        );
        Err(Box::new(d))
    }

    /// The graph's answer to a question (1/0 for isRoot).
    fn answer(&mut self, q: GraphQuery, span: Span) -> DResult<f64> {
        let g = self.conn_graph.graph.as_ref().expect("built");
        match q {
            GraphQuery::Cardinality(id) => Ok(g.counts.get(&id).copied().unwrap_or(0) as f64),
            GraphQuery::IsRoot(node) | GraphQuery::Rooted(node) => {
                if let Some(s) = g.branch {
                    return Err(self.unsupported(
                        s,
                        "`Connections.uniqueRoot` and `uniqueRootIndices` (rtc supports connections, branches and roots)",
                    ));
                }
                if let Some(s) = g.cycle {
                    return Err(self.unsupported(
                        s,
                        "overdetermined connectors connected in a loop (the loop needs equalityConstraint in place of one connection's equations)",
                    ));
                }
                let g = self.conn_graph.graph.as_mut().expect("built");
                let r = find(&mut g.parent, node);
                let rootless = g.rootless.clone();
                if rootless.into_iter().any(|x| find(&mut g.parent, x) == r) {
                    let path = self.inst.nodes[node.0 as usize].path.clone();
                    return Err(Box::new(
                        Diagnostic::error(
                            "connections",
                            format!("the connected overdetermined connectors of `{path}` have no root (Connections.root or potentialRoot)"),
                        )
                        .at(span, "here"),
                    ));
                }
                let g = self.conn_graph.graph.as_ref().expect("built");
                let yes = match q {
                    GraphQuery::Rooted(_) => {
                        // 9.4.2: with exactly one `Connections.branch(A, B)` naming A, whether A
                        // is closer to the root than B.
                        let named: Vec<NodeId> = g
                            .branches
                            .iter()
                            .filter_map(|&(a, b)| (a == node).then_some(b))
                            .collect();
                        let [other] = named.as_slice() else {
                            let path = self.inst.nodes[node.0 as usize].path.clone();
                            return Err(Box::new(
                                Diagnostic::error(
                                    "connections",
                                    format!(
                                        "`Connections.rooted({path})` needs exactly one `Connections.branch` with `{path}` as its first argument, not {}",
                                        named.len()
                                    ),
                                )
                                .at(span, "here")
                                .help("Modelica 3.6 §9.4.1: rooted(A.R) is defined by the one Connections.branch(A.R, B.R) whose first argument is A.R"),
                            ));
                        };
                        g.depth.get(&node) < g.depth.get(other)
                    }
                    _ => g.selected.contains(&node),
                };
                Ok(if yes { 1.0 } else { 0.0 })
            }
        }
    }

    /// `Connections.root(x)`, `potentialRoot(x, priority)` and `branch(a, b)` as equations: no
    /// equation (they shape the graph); the rest are refused.
    pub(super) fn connections_equation(
        &mut self,
        name: &str,
        args: &'a ast::CallArgs,
        env: Env,
        span: Span,
    ) -> DResult<()> {
        match name {
            "Connections.root" | "Connections.potentialRoot" => {
                let Some(a) = args.positional.first() else {
                    return Err(Box::new(
                        Diagnostic::error(
                            "arguments",
                            format!("`{name}` takes an overdetermined connector element"),
                        )
                        .at(span, "here"),
                    ));
                };
                self.overdetermined_arg(a, env, name)?;
                if name == "Connections.potentialRoot" {
                    if let Some(p) = priority_arg(args) {
                        self.root_priority(p, env)?;
                    }
                }
                Ok(())
            }
            "Connections.branch" => {
                // A required edge of the graph, no equation of its own (9.4.1).
                let [a, b] = args.positional.as_slice() else {
                    return Err(Box::new(
                        Diagnostic::error(
                            "arguments",
                            "`Connections.branch` takes two overdetermined connector elements",
                        )
                        .at(span, "here"),
                    ));
                };
                self.overdetermined_arg(a, env, name)?;
                self.overdetermined_arg(b, env, name)?;
                // Its part of the graph needs a root too (9.4.2).
                self.conn_graph.overdetermined_connect.get_or_insert(span);
                Ok(())
            }
            _ => Err(self.unsupported(
                span,
                &format!("`{name}` (rtc supports connections, branches and roots)"),
            )),
        }
    }

    /// A `potentialRoot`'s priority: a parameter expression of type Integer, at least 0
    /// (9.4.1).
    fn root_priority(&mut self, e: &'a ast::Expr, env: Env) -> DResult<i64> {
        let (v, ty) =
            self.eval_const_typed(e, env, "the priority of `Connections.potentialRoot`")?;
        let help = "Modelica 3.6 §9.4.1: the priority of Connections.potentialRoot is a \
                    parameter expression of type Integer, >= 0";
        if ty != ScalarType::Integer {
            return Err(Box::new(
                Diagnostic::error(
                    "type",
                    format!(
                        "the priority of `Connections.potentialRoot` is {}, not Integer",
                        ty.name()
                    ),
                )
                .at(e.span, ty.name())
                .help(help),
            ));
        }
        if v < 0.0 {
            return Err(Box::new(
                Diagnostic::error(
                    "connections",
                    format!("the priority of `Connections.potentialRoot` is {v}, below 0"),
                )
                .at(e.span, "negative")
                .help(help),
            ));
        }
        Ok(v as i64)
    }

    /// The overdetermined record instance an argument of `Connections.*` names.
    fn overdetermined_arg(&mut self, arg: &'a ast::Expr, env: Env, what: &str) -> DResult<NodeId> {
        let bad = || {
            Box::new(
                Diagnostic::error(
                    "arguments",
                    format!("`{what}` takes a record of an overdetermined connector (one with an `equalityConstraint` function)"),
                )
                .at(arg.span, "not one"),
            ) as Box<Diagnostic>
        };
        let ast::ExprKind::Ref(r) = &arg.kind else {
            return Err(bad());
        };
        match self.conn_ids(r, env)?.as_slice() {
            [ConnId::Node(n)] if self.is_overdetermined(*n) => Ok(*n),
            _ => Err(bad()),
        }
    }

    /// Whether an instance is of a class with an `equalityConstraint` function.
    pub(super) fn is_overdetermined(&mut self, n: NodeId) -> bool {
        let classes = self.inst.nodes[n.0 as usize].classes.clone();
        classes.into_iter().any(|c| {
            if let Some(&known) = self.conn_graph.overdetermined_classes.get(&c) {
                return known;
            }
            let known = matches!(
                self.tree.member(c, "equalityConstraint", 0),
                Some(Found::Class(f)) if matches!(self.tree.info(f).restriction(), Some(ast::Restriction::Function))
            );
            self.conn_graph.overdetermined_classes.insert(c, known);
            known
        })
    }

    /// The size of the `equalityConstraint` residue of an overdetermined instance's class: its
    /// output's one dimension where written as an Integer literal (`output Real
    /// residue[3]`), as the MSL writes it; `None` otherwise.
    pub(super) fn residue_size(&mut self, n: NodeId) -> Option<usize> {
        let classes = self.inst.nodes[n.0 as usize].classes.clone();
        for c in classes {
            let Some(Found::Class(f)) = self.tree.member(c, "equalityConstraint", 0) else {
                continue;
            };
            let comp = self.tree.info(f).composition()?;
            for e in &comp.elements {
                let ast::Element::Component(clause, _) = e else {
                    continue;
                };
                if clause.prefix.causality != Some(ast::Causality::Output) {
                    continue;
                }
                let d = clause.components.first()?;
                let subs: Vec<&ast::Subscript> =
                    clause.subscripts.iter().chain(&d.subscripts).collect();
                return match subs.as_slice() {
                    [ast::Subscript::Expr(x)] => match x.kind {
                        ast::ExprKind::Integer(k) if k >= 0 => Some(k as usize),
                        _ => None,
                    },
                    _ => None,
                };
            }
        }
        None
    }

    /// The connector instances or variables a reference names.
    fn conn_ids(&mut self, r: &'a ast::ComponentRef, env: Env) -> DResult<Vec<ConnId>> {
        Ok(match self.resolve(r, env)? {
            Resolved::Nodes { nodes, .. } => nodes.into_iter().map(ConnId::Node).collect(),
            Resolved::Value(Val::Arr(a)) => a
                .data
                .iter()
                .filter_map(|&e| match self.flat.arena.node(e) {
                    Node::Var(v) => Some(ConnId::Var(v)),
                    _ => None,
                })
                .collect(),
            Resolved::Value(_) => Vec::new(),
        })
    }

    /// Reads every connect and `Connections.*` equation of the model into the graph (once,
    /// after the instances are made).
    fn build_graph(&mut self) -> DResult<()> {
        if self.conn_graph.graph.is_some() {
            return Ok(());
        }
        let mut g = ConnectionGraph::default();
        self.conn_graph.building_graph = true;
        let r = self.scan_model(&mut g);
        self.conn_graph.building_graph = false;
        r?;
        // One root per connected part: the definite root, else the potential root with the
        // lowest priority number (the first one written among equals).
        let mut best: FxHashMap<NodeId, (i64, NodeId)> = FxHashMap::default();
        for &(n, prio, _) in &g.roots {
            let rank = prio.unwrap_or(i64::MIN);
            let root = find(&mut g.parent, n);
            match best.get(&root) {
                Some(&(r, _)) if r <= rank => {}
                _ => {
                    best.insert(root, (rank, n));
                }
            }
        }
        g.selected = best.values().map(|&(_, n)| n).collect();
        let members: Vec<NodeId> = g.parent.keys().copied().collect();
        for n in members {
            let r = find(&mut g.parent, n);
            if !best.contains_key(&r) && !g.rootless.contains(&r) {
                g.rootless.push(r);
            }
        }
        g.depth = depths(&g.edges, &g.selected);
        self.conn_graph.graph = Some(g);
        Ok(())
    }

    /// Every instance's equation sections.
    fn scan_model(&mut self, g: &mut ConnectionGraph) -> DResult<()> {
        for (comp, env) in self.instance_sections() {
            self.scan_equations(&comp.equations, env, g)?;
        }
        Ok(())
    }

    fn scan_equations(
        &mut self,
        eqs: &'a [ast::Equation],
        env: Env,
        g: &mut ConnectionGraph,
    ) -> DResult<()> {
        for eq in eqs {
            match &eq.kind {
                ast::EquationKind::Connect(a, b) => {
                    // A side that does not resolve (a disabled conditional connector) adds
                    // nothing; the equation itself reports real errors.
                    let (Ok(ia), Ok(ib)) = (self.conn_ids(a, env), self.conn_ids(b, env)) else {
                        continue;
                    };
                    for id in ia.iter().chain(&ib) {
                        *g.counts.entry(*id).or_default() += 1;
                    }
                    for (x, y) in ia.into_iter().zip(ib) {
                        if let (ConnId::Node(x), ConnId::Node(y)) = (x, y) {
                            self.join_overdetermined(x, y, eq.span, g, 0)?;
                        }
                    }
                }
                ast::EquationKind::For { indices, body } => {
                    self.iterate(indices, env, &mut |s| s.scan_equations(body, env, g))?;
                }
                ast::EquationKind::If {
                    branches,
                    otherwise,
                } => {
                    // The branch a condition known at compile time selects; every branch where
                    // it is not known.
                    let mut taken = None;
                    let mut known = true;
                    for (k, (c, _)) in branches.iter().enumerate() {
                        let v = self
                            .eval_condition(c, env, "a condition")
                            .ok()
                            .and_then(|x| self.fold(x));
                        match v {
                            Some(x) if x != 0.0 => {
                                taken = Some(k);
                                break;
                            }
                            Some(_) => {}
                            None => {
                                known = false;
                                break;
                            }
                        }
                    }
                    match (known, taken) {
                        (true, Some(k)) => self.scan_equations(&branches[k].1, env, g)?,
                        (true, None) => self.scan_equations(otherwise, env, g)?,
                        (false, _) => {
                            for (_, b) in branches {
                                self.scan_equations(b, env, g)?;
                            }
                            self.scan_equations(otherwise, env, g)?;
                        }
                    }
                }
                ast::EquationKind::Call(f, args) => {
                    let name = f.to_source_string();
                    match name.as_str() {
                        "Connections.root" | "Connections.potentialRoot" => {
                            let Some(a) = args.positional.first() else {
                                continue;
                            };
                            let Ok(n) = self.overdetermined_arg(a, env, &name) else {
                                continue;
                            };
                            let prio = if name == "Connections.root" {
                                None
                            } else {
                                // A wrong priority is reported by the equation itself.
                                Some(match priority_arg(args) {
                                    Some(e) => self.root_priority(e, env).unwrap_or(0),
                                    None => 0,
                                })
                            };
                            find(&mut g.parent, n);
                            g.roots.push((n, prio, eq.span));
                        }
                        "Connections.branch" => {
                            let [a, b] = args.positional.as_slice() else {
                                continue;
                            };
                            let (Ok(x), Ok(y)) = (
                                self.overdetermined_arg(a, env, &name),
                                self.overdetermined_arg(b, env, &name),
                            ) else {
                                continue;
                            };
                            // Required edges must leave a spanning tree (9.4.2): none may
                            // close a loop of required edges.
                            let (rx, ry) = (find(&mut g.required, x), find(&mut g.required, y));
                            if rx == ry {
                                let (a, b) = (
                                    self.inst.nodes[x.0 as usize].path.clone(),
                                    self.inst.nodes[y.0 as usize].path.clone(),
                                );
                                let d = Diagnostic::error(
                                    "connections",
                                    format!(
                                        "`Connections.branch({a}, {b})` closes a loop of branches: no spanning tree holds them all"
                                    ),
                                )
                                .at(eq.span, "closes the loop")
                                .help("Modelica 3.6 §9.4.2: the required edges (Connections.branch) of a connection graph form no loop");
                                return Err(Box::new(d));
                            }
                            g.required.insert(rx.max(ry), rx.min(ry));
                            g.branches.push((x, y));
                            self.join_overdetermined(x, y, eq.span, g, 0)?;
                        }
                        "Connections.uniqueRoot" | "Connections.uniqueRootIndices" => {
                            g.branch.get_or_insert(eq.span);
                        }
                        _ => {}
                    }
                }
                ast::EquationKind::Equality(..) | ast::EquationKind::When { .. } => {}
            }
        }
        Ok(())
    }

    /// Joins the overdetermined records of two connected connectors (by element name, through
    /// nested connectors); a join of two already joined instances closes a loop.
    fn join_overdetermined(
        &mut self,
        x: NodeId,
        y: NodeId,
        span: Span,
        g: &mut ConnectionGraph,
        depth: u32,
    ) -> DResult<()> {
        if depth > 16 {
            return Ok(());
        }
        if self.is_overdetermined(x) && self.is_overdetermined(y) {
            let (rx, ry) = (find(&mut g.parent, x), find(&mut g.parent, y));
            if rx == ry {
                g.cycle.get_or_insert(span);
            } else {
                g.parent.insert(rx.max(ry), rx.min(ry));
                g.edges.push((x, y));
            }
            return Ok(());
        }
        let order = self.inst.nodes[x.0 as usize].order.clone();
        for sid in order {
            let name = self.inst.slots[sid.0 as usize].name.clone();
            let Some(&other) = self.inst.nodes[y.0 as usize].slots.get(&name) else {
                continue;
            };
            let (Entry::Nodes { nodes: a, .. }, Entry::Nodes { nodes: b, .. }) =
                (self.instantiate(sid)?, self.instantiate(other)?)
            else {
                continue;
            };
            for (&p, &q) in a.iter().zip(b.iter()) {
                self.join_overdetermined(p, q, span, g, depth + 1)?;
            }
        }
        Ok(())
    }
}

/// Each instance's distance from the selected root of its part along `edges` (a forest:
/// breadth first from the roots).
fn depths(edges: &[(NodeId, NodeId)], roots: &FxHashSet<NodeId>) -> FxHashMap<NodeId, usize> {
    let mut next: FxHashMap<NodeId, Vec<NodeId>> = FxHashMap::default();
    for &(a, b) in edges {
        next.entry(a).or_default().push(b);
        next.entry(b).or_default().push(a);
    }
    let mut depth: FxHashMap<NodeId, usize> = FxHashMap::default();
    let mut queue: std::collections::VecDeque<NodeId> = roots.iter().copied().collect();
    for &r in roots {
        depth.insert(r, 0);
    }
    while let Some(n) = queue.pop_front() {
        let d = depth[&n];
        for &m in next.get(&n).map(Vec::as_slice).unwrap_or_default() {
            if let std::collections::hash_map::Entry::Vacant(e) = depth.entry(m) {
                e.insert(d + 1);
                queue.push_back(m);
            }
        }
    }
    depth
}

/// The priority argument of `Connections.potentialRoot(x, priority)`, positional or named.
fn priority_arg(args: &ast::CallArgs) -> Option<&ast::Expr> {
    args.positional.get(1).or_else(|| {
        args.named
            .iter()
            .find(|(n, _)| &*n.name == "priority")
            .map(|(_, e)| e)
    })
}
