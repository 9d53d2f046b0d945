//! Which relations of an inlined function call generate events: none of the function's body
//! (specification 8.5, 12.8: its relations are wrapped in `noEvent`), those of its arguments
//! as they would outside the call (an argument is evaluated where the call is written).

use super::*;

/// Makes an inlined function's outputs with the relations of the function's body under
/// `noEvent` (relations in a function generate no events, 8.5 and 12.8) and those of its arguments
/// (`inputs`, evaluated outside the function) left as they were: `oneTrue({time >= t1, …})`
/// keeps its time events. A subexpression that holds no argument relation is wrapped whole;
/// a relation of the body over an argument relation hides it (as the whole output's wrapper
/// did before).
#[derive(Default)]
pub(super) struct NoEvents {
    /// Whether a node's subtree holds a relation, and one of an argument.
    rel: FxHashMap<ExprId, bool>,
    arg_rel: FxHashMap<ExprId, bool>,
    /// Each node rewritten.
    new: FxHashMap<ExprId, ExprId>,
    /// `rel` and `arg_rel` of a call's node by its argument list (the outputs of one call
    /// share it): the next output's node is not walked down its thousands of arguments.
    calls: FxHashMap<(usize, usize), (bool, bool)>,
    /// The wrappers made around parts holding relations of the body only (no argument's):
    /// their values are what the function computes from its arguments, continuous-time
    /// where an argument is (3.8.3; `noevent_checks.rs`).
    pub(super) body_wrappers: Vec<ExprId>,
}

impl NoEvents {
    /// `root` with the relations of the body wrapped ([module docs](self)); unchanged where it
    /// holds no relation. The maps are shared across the outputs of one call, so each node
    /// is looked at once however many outputs share it (an FFT's hundreds of elements).
    pub(super) fn apply(
        &mut self,
        ar: &mut crate::symbolic::Arena<FlatVar>,
        root: ExprId,
        inputs: &FxHashSet<ExprId>,
    ) -> ExprId {
        let call_key = match ar.node(root) {
            Node::Call(c) if !inputs.contains(&root) => {
                let args = &ar.call_site(c).args;
                Some((args.as_ptr() as usize, args.len()))
            }
            _ => None,
        };
        if let Some(&(r, a)) = call_key.and_then(|k| self.calls.get(&k)) {
            self.rel.insert(root, r);
            self.arg_rel.insert(root, a);
        }
        let order = ar.post_order(root, |id| self.rel.contains_key(&id));
        for &id in &order {
            let r = matches!(ar.node(id), Node::Cmp(..)) || ar.children(id).any(|c| self.rel[&c]);
            self.rel.insert(id, r);
            let a = (inputs.contains(&id) && r) || ar.children(id).any(|c| self.arg_rel[&c]);
            self.arg_rel.insert(id, a);
        }
        if let Some(k) = call_key {
            self.calls.insert(k, (self.rel[&root], self.arg_rel[&root]));
        }
        if !self.rel[&root] {
            return root;
        }
        let order = ar.post_order(root, |id| self.new.contains_key(&id));
        for &id in &order {
            let n = ar.node(id);
            let v = if !self.arg_rel[&id] {
                if self.rel[&id] {
                    let w = ar.no_event(id);
                    self.body_wrappers.push(w);
                    w
                } else {
                    id
                }
            } else if inputs.contains(&id) || matches!(n, Node::NoEvent(_)) {
                id
            } else if matches!(n, Node::Cmp(..)) {
                ar.no_event(id)
            } else {
                let ch: Vec<ExprId> = ar.children(id).map(|c| self.new[&c]).collect();
                if ch.iter().zip(ar.children(id)).all(|(a, b)| *a == b) {
                    id
                } else {
                    crate::symbolic::rebuild(ar, n, &ch)
                }
            };
            self.new.insert(id, v);
        }
        self.new[&root]
    }
}
