//! Transforms of the step system that some methods are: they start from the forward Euler
//! system and a first plan of it (which gives the model's derivatives in explicit form) and
//! return a new step system for the plan builder.
//!
//! - [`libe`]: linearly implicit Euler (Cellier & Kofman §10.4), for every state or for the
//!   implicit states of mixed mode;
//! - [`multirate`]: fast sub-steps of a partition of the states (§10.5, Howe ch. 8).
//!
//! [`crate::pipeline`] runs them; each result is checked by [`crate::system::verify`].

pub mod libe;
pub mod multirate;

use crate::plan::Slot;
use crate::symbolic::{Arena, ExprId, Node};
use crate::system::SysVar;
use rustc_hash::FxHashMap;

/// The step-system variable a slot of a plan built from a system of `n` variables stands for
/// (the plan's first slots are the system's variables; the others, tangents and hoisted
/// values, stand for none).
pub(crate) fn sys_of(slot: Slot, n: usize) -> Option<SysVar> {
    (slot.index() < n).then_some(SysVar::new(slot.index()))
}

/// Copies `e` from a plan's arena into the step system's (of `n` variables): a slot in `map`
/// becomes that expression, any other slot its system variable; `Err` names a slot that has
/// none (the expression reads a value only the plan has).
pub(crate) fn transfer(
    src: &Arena<Slot>,
    dst: &mut Arena<SysVar>,
    n: usize,
    e: ExprId,
    map: &FxHashMap<Slot, ExprId>,
    memo: &mut FxHashMap<ExprId, ExprId>,
) -> Result<ExprId, Slot> {
    dst.import(src, e, memo, &mut |ar, node| match node {
        Node::Var(s) => match map.get(&s) {
            Some(&x) => Some(x),
            None => sys_of(s, n).map(|v| ar.var(v)),
        },
        _ => None,
    })
    .map_err(|node| match node {
        Node::Var(s) | Node::Der(s) | Node::Pre(s) => s,
        _ => Slot::new(u32::MAX as usize),
    })
}
