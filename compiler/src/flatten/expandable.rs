//! Expandable connectors (specification 9.1.3): buses whose content is made by the
//! connections to them.
//!
//! An expandable connector's declared elements are only *potentially present*: the instance
//! makes none of them until a connection needs it (`complete_node` skips them). Before the
//! equations are generated, [`Flattener::augment_expandable`] reads every `connect` of the
//! model:
//!
//! - `connect(sine.y, bus.speed)` where `bus` has no element `speed` adds one, declared as
//!   `sine.y` is (its type and sizes, not its modification or causality);
//! - a connected declared element (`connect(x, bus.declared)`) becomes present;
//! - `connect(bus1, bus2)` of two expandable connectors puts them in one set; every member
//!   of a set gets every element present in any member (again, until nothing changes: a
//!   sub-bus present in one member makes the others' sub-buses members of a set too).
//!
//! Then the connections are generated as usual; two connected expandable connectors match
//! their present elements by name. Input and output prefixes do not apply inside an
//! expandable connector (the connections decide them), so a top-level bus adds no inputs.
//! Connections inside `for` and `if` equations, and subscripted references into buses, are not
//! read by the augmentation (their elements must be declared and are made when connected).

use super::*;

/// What one side of a `connect` names, as far as expandable connectors are concerned (an array
/// of components gives one entry per element, in order).
enum BusEnd<'a> {
    /// Component instances (connector nodes, perhaps expandable ones).
    Nodes(Vec<NodeId>),
    /// Variable slots (connectors of a predefined type).
    Slots(Vec<SlotId>),
    /// `bus.name` with no element `name` in the expandable connectors `bus`.
    Missing(Vec<NodeId>, &'a ast::Ident),
    /// Anything else (subscripts, values): left to the connection itself.
    Other,
}

/// Rounds of augmentation before rtc gives up (each round adds at least one element).
const MAX_ROUNDS: usize = 10_000;

impl<'t, 'a> Flattener<'t, 'a> {
    /// Makes the elements of expandable connectors that the model's connections need.
    pub(super) fn augment_expandable(&mut self) -> DResult<()> {
        if !self.inst.nodes.iter().any(|n| n.is_expandable) {
            return Ok(());
        }
        let connects = self.all_connects();
        for _ in 0..MAX_ROUNDS {
            let mut changed = false;
            // Sets of connected expandable connectors (union-find over nodes).
            let mut parent: FxHashMap<NodeId, NodeId> = FxHashMap::default();
            for &(a, b, env) in &connects {
                let ea = self.bus_end(a, env)?;
                let eb = self.bus_end(b, env)?;
                match (ea, eb) {
                    (BusEnd::Missing(buses, name), other)
                    | (other, BusEnd::Missing(buses, name)) => {
                        // The new element is declared as the other side is.
                        let sources: Vec<SlotId> = match other {
                            BusEnd::Slots(s) => s,
                            BusEnd::Nodes(ns) => {
                                ns.iter().filter_map(|&n| self.slot_of_node(n)).collect()
                            }
                            _ => Vec::new(),
                        };
                        if let Some(&src) = sources.first() {
                            for bus in buses {
                                self.add_bus_element(bus, name, src)?;
                            }
                            changed = true;
                        }
                    }
                    (BusEnd::Nodes(xs), BusEnd::Nodes(ys)) if xs.len() == ys.len() => {
                        for (x, y) in xs.into_iter().zip(ys) {
                            if self.inst.nodes[x.0 as usize].is_expandable
                                && self.inst.nodes[y.0 as usize].is_expandable
                            {
                                union(&mut parent, x, y);
                            }
                        }
                    }
                    _ => {}
                }
            }
            // Every member of a set gets the elements present in any member.
            let mut sets: FxHashMap<NodeId, Vec<NodeId>> = FxHashMap::default();
            let members: Vec<NodeId> = parent.keys().copied().collect();
            for n in members {
                let r = find(&mut parent, n);
                sets.entry(r).or_default().push(n);
            }
            let mut sets: Vec<Vec<NodeId>> = sets.into_values().collect();
            sets.sort();
            for set in sets {
                changed |= self.unify_bus_set(&set)?;
            }
            if !changed {
                return Ok(());
            }
        }
        Err(Box::new(Diagnostic::error(
            "too-large",
            "expandable connectors keep growing: rtc gave up after 10000 rounds",
        )))
    }

    /// Every `connect` written directly in an equation section of an instance, with its scope.
    fn all_connects(&mut self) -> Vec<(&'a ast::ComponentRef, &'a ast::ComponentRef, Env)> {
        let mut out = Vec::new();
        for (comp, env) in self.instance_sections() {
            for eq in &comp.equations {
                if let ast::EquationKind::Connect(a, b) = &eq.kind {
                    out.push((a, b, env));
                }
            }
        }
        out
    }

    /// The composition of every class of every instance, with the scope its equations are
    /// read in.
    pub(super) fn instance_sections(&self) -> Vec<(&'a ast::Composition, Env)> {
        let mut out = Vec::new();
        for (k, node) in self.inst.nodes.iter().enumerate() {
            for &class in &node.classes {
                if let Some(comp) = self.tree.info(class).composition() {
                    let env = Env {
                        node: Some(NodeId::new(k)),
                        class,
                    };
                    out.push((comp, env));
                }
            }
        }
        out
    }

    /// What a connect argument names, walking the instances (through arrays of components,
    /// element by element) without making an element an expandable connector does not have.
    fn bus_end(&mut self, r: &'a ast::ComponentRef, env: Env) -> DResult<BusEnd<'a>> {
        let Some(node) = env.node else {
            return Ok(BusEnd::Other);
        };
        if r.global {
            return Ok(BusEnd::Other);
        }
        let last = r.parts.len() - 1;
        let mut nodes = vec![node];
        for (k, part) in r.parts.iter().enumerate() {
            if !part.subscripts.is_empty() {
                return Ok(BusEnd::Other);
            }
            let mut next = Vec::new();
            let mut slots = Vec::new();
            for &n in &nodes {
                let Some(&sid) = self.inst.nodes[n.0 as usize].slots.get(&part.ident.name) else {
                    if k == last
                        && nodes
                            .iter()
                            .all(|&m| self.inst.nodes[m.0 as usize].is_expandable)
                    {
                        return Ok(BusEnd::Missing(nodes, &part.ident));
                    }
                    return Ok(BusEnd::Other);
                };
                match self.instantiate_referenced(sid)? {
                    Entry::Nodes { nodes: ns, .. } => next.extend(ns.iter().copied()),
                    Entry::Vars { .. } if k == last => slots.push(sid),
                    _ => return Ok(BusEnd::Other),
                }
            }
            if !slots.is_empty() {
                return Ok(if next.is_empty() {
                    BusEnd::Slots(slots)
                } else {
                    BusEnd::Other
                });
            }
            nodes = next;
        }
        Ok(BusEnd::Nodes(nodes))
    }

    /// The slot a component node was made from.
    fn slot_of_node(&self, n: NodeId) -> Option<SlotId> {
        let parent = self.inst.nodes[n.0 as usize].parent?;
        self.inst.nodes[parent.0 as usize]
            .order
            .iter()
            .copied()
            .find(|&sid| {
                matches!(&self.inst.slots[sid.0 as usize].state,
                    SlotState::Done(Entry::Nodes { nodes, .. }) if nodes.contains(&n))
            })
    }

    /// Adds element `name` to expandable connector `bus`, declared as slot `src` is, and
    /// makes it.
    fn add_bus_element(&mut self, bus: NodeId, name: &ast::Ident, src: SlotId) -> DResult<()> {
        if self.inst.nodes[bus.0 as usize]
            .slots
            .contains_key(&name.name)
        {
            return Ok(());
        }
        let (clause, decl, lexical, outer_flow) = {
            let s = &self.inst.slots[src.0 as usize];
            (s.clause, s.decl, s.lexical, s.outer_flow)
        };
        let id = SlotId::new(self.inst.slots.len());
        self.inst.slots.push(Slot {
            name: name.name.clone(),
            clause,
            decl,
            lexical,
            node: bus,
            modif: Mod::default(),
            state: SlotState::Pending,
            outer_variability: None,
            outer_causality: None,
            outer_flow,
            is_connector: false,
            inner: false,
            outer: false,
            inner_part: None,
            building_inner: false,
            prefix: None,
        });
        self.added_bus_slots.insert(id);
        let n = &mut self.inst.nodes[bus.0 as usize];
        n.slots.insert(name.name.clone(), id);
        n.order.push(id);
        self.instantiate_referenced(id)?;
        Ok(())
    }

    /// Gives every expandable connector of a set the elements present in any of them.
    /// Whether anything was added.
    fn unify_bus_set(&mut self, set: &[NodeId]) -> DResult<bool> {
        let mut present: Vec<(Box<str>, SlotId)> = Vec::new();
        for &n in set {
            for &sid in &self.inst.nodes[n.0 as usize].order {
                let s = &self.inst.slots[sid.0 as usize];
                if matches!(s.state, SlotState::Done(_))
                    && !present.iter().any(|(k, _)| *k == s.name)
                {
                    present.push((s.name.clone(), sid));
                }
            }
        }
        let mut changed = false;
        for &n in set {
            for (name, src) in &present {
                match self.inst.nodes[n.0 as usize].slots.get(name).copied() {
                    Some(sid) => {
                        // Declared here but not made yet: it is present now.
                        if matches!(self.inst.slots[sid.0 as usize].state, SlotState::Pending) {
                            self.instantiate_referenced(sid)?;
                            changed = true;
                        }
                    }
                    None => {
                        let ident = ast::Ident {
                            name: name.clone(),
                            span: self.inst.slots[src.0 as usize].decl.name.span,
                        };
                        self.add_bus_element(n, &ident, *src)?;
                        changed = true;
                    }
                }
            }
        }
        // Sub-buses present in several members are connected too.
        if set.len() > 1 {
            for (name, _) in &present {
                let mut subs = Vec::new();
                for &n in set {
                    if let Some(&sid) = self.inst.nodes[n.0 as usize].slots.get(name) {
                        if let SlotState::Done(Entry::Nodes { dims, nodes }) =
                            &self.inst.slots[sid.0 as usize].state
                        {
                            if dims.is_empty()
                                && nodes.len() == 1
                                && self.inst.nodes[nodes[0].0 as usize].is_expandable
                            {
                                subs.push(nodes[0]);
                            }
                        }
                    }
                }
                if subs.len() > 1 {
                    changed |= self.unify_bus_set(&subs)?;
                }
            }
        }
        Ok(changed)
    }
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

fn union(parent: &mut FxHashMap<NodeId, NodeId>, a: NodeId, b: NodeId) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent.insert(ra.max(rb), ra.min(rb));
    }
}
