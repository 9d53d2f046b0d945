//! Which relations of an inlined function call generate events: none of the function's body
//! (specification 8.5, 12.8: its relations are wrapped in `noEvent`), those of its arguments
//! as they would outside the call (an argument is evaluated where the call is written).

use super::*;

/// An inlined function's output `root` with the relations of the function's body under
/// `noEvent` (relations in a function generate no events, 8.5 and 12.8) and those of its arguments
/// (`inputs`, evaluated outside the function) left as they were: `oneTrue({time >= t1, …})`
/// keeps its time events. A subexpression that holds no argument relation is wrapped whole;
/// a relation of the body over an argument relation hides it (as the whole output's wrapper
/// did before).
pub(super) fn body_relations_without_events(
    ar: &mut crate::symbolic::Arena<FlatVar>,
    root: ExprId,
    inputs: &FxHashSet<ExprId>,
) -> ExprId {
    let order = ar.post_order(root, |_| false);
    // Whether a node's subtree holds a relation, and one of an argument.
    let mut rel: FxHashMap<ExprId, bool> = FxHashMap::default();
    let mut arg_rel: FxHashMap<ExprId, bool> = FxHashMap::default();
    for &id in &order {
        let r = matches!(ar.node(id), Node::Cmp(..)) || ar.children(id).any(|c| rel[&c]);
        rel.insert(id, r);
        let a = (inputs.contains(&id) && r) || ar.children(id).any(|c| arg_rel[&c]);
        arg_rel.insert(id, a);
    }
    if !arg_rel[&root] {
        return ar.no_event(root);
    }
    let mut new: FxHashMap<ExprId, ExprId> = FxHashMap::default();
    for &id in &order {
        let n = ar.node(id);
        let v = if !arg_rel[&id] {
            if rel[&id] {
                ar.no_event(id)
            } else {
                id
            }
        } else if inputs.contains(&id) || matches!(n, Node::NoEvent(_)) {
            id
        } else if matches!(n, Node::Cmp(..)) {
            ar.no_event(id)
        } else {
            let ch: Vec<ExprId> = ar.children(id).map(|c| new[&c]).collect();
            if ch.iter().zip(ar.children(id)).all(|(a, b)| *a == b) {
                id
            } else {
                crate::symbolic::rebuild(ar, n, &ch)
            }
        };
        new.insert(id, v);
    }
    new[&root]
}

pub(super) fn has_relation(ar: &crate::symbolic::Arena<FlatVar>, root: ExprId) -> bool {
    let mut seen = vec![false; ar.len()];
    let mut found = false;
    ar.visit_postorder(root, &mut seen, &mut |x| {
        if matches!(ar.node(x), Node::Cmp(..)) {
            found = true;
        }
    });
    found
}
