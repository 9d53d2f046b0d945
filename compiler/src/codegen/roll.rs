//! Loops over repeated assignments: a run of consecutive assignments (or f64x2 pairs of them)
//! that compute the same operations over variables moving by a fixed number of slots from one
//! to the next — the segments of a line, the states of an array updated by an integration
//! formula — is generated once, as the body of a counted loop, instead of once per
//! assignment. Straight-line code for the n = 500 line is about 48 KB per step, more than the
//! level-one instruction cache, so every step streamed its code from the next cache level;
//! the loop is a few hundred bytes, as the hand-written step's is.
//!
//! The loop computes what the straight-line code computes, operation for operation and in
//! the same order, so the results stay bitwise equal to the interpreter's: each iteration
//! lowers the run's first assignment (the template) with its *varying* variables (those that
//! move by the stride from one assignment to the next) loaded relative to the iteration's base
//! address, and its *invariant* subexpressions (the step size, parameters, a shared node)
//! computed once before the loop. A run is only rolled where this is exact:
//!
//! - every assignment of the run is the template with each varying variable moved by k
//!   strides, node for node (same operations, same constants, the invariant subexpressions
//!   the very same nodes), checked for every k;
//! - no assignment reads the target of an earlier one in the run, and no invariant
//!   subexpression reads any target of the run (so every value the run reads is the same
//!   from its first assignment to its last, and hoisting the invariants changes nothing);
//! - only arithmetic, comparisons, selections and the C math library: no compiled function
//!   (whose calls the lowering shares per region) and no external function.
//!
//! The trip count is the run's length, fixed when the code is generated, so the step's work
//! stays bounded (the work bound counts every assignment, as before). The loop body holds
//! [`UNROLL`] assignments, each with its own finiteness sum (so that the additions do not form
//! one dependency chain across iterations); the run's last `len % UNROLL` assignments follow
//! the loop as straight-line code.

use super::*;

/// Assignments per loop iteration.
pub(super) const UNROLL: usize = 4;

/// Runs shorter than this stay straight-line (a loop of one or two iterations saves no code).
const ROLL_MIN: usize = 4 * UNROLL;

/// The longest group of different assignments repeated (a component's equations, in the
/// order the plan interleaves them).
const MAX_PERIOD: usize = 32;

/// Templates larger than this (expression nodes of the first assignment) are not rolled: the
/// body is copied [`UNROLL`] times.
const TEMPLATE_NODES: usize = 400;

/// A run of assignments generated as a loop.
pub(super) struct Roll<'p> {
    /// The run, in order: assignments and pairs, a group of `period` of them repeated.
    pub(super) pieces: Vec<Piece<'p>>,
    /// Pieces per group; the first group is the template.
    pub(super) period: usize,
    /// Slots from one group's targets to the next one's.
    pub(super) stride: usize,
    /// The template's nodes that change from one assignment to the next: the variables moved
    /// by the stride, and every operation above one.
    pub(super) varying: FxHashSet<ExprId>,
}

/// Where a loop iteration's varying variables are: `base` (the memory block's address plus
/// the iteration's offset) plus `extra` bytes (the assignment's place in the unrolled body).
pub(super) struct RollCtx {
    pub(super) base: Value,
    pub(super) extra: i32,
    pub(super) varying: FxHashSet<ExprId>,
}

/// The first target slot and the expressions (one per lane) of an assignment or pair.
fn lanes(p: &Piece) -> Option<(usize, Vec<ExprId>)> {
    match p {
        Piece::Assign(a) => Some((a.var.index(), vec![a.expr])),
        Piece::Pair(a, c) => Some((a.var.index(), vec![a.expr, c.expr])),
        _ => None,
    }
}

/// Whether two nodes apply the same operation (children aside), of the kinds a loop body may
/// hold.
fn same_op(x: Node, y: Node) -> bool {
    match (x, y) {
        (Node::Neg(_), Node::Neg(_))
        | (Node::Add(..), Node::Add(..))
        | (Node::Sub(..), Node::Sub(..))
        | (Node::Mul(..), Node::Mul(..))
        | (Node::Div(..), Node::Div(..))
        | (Node::Pow(..), Node::Pow(..))
        | (Node::And(..), Node::And(..))
        | (Node::Or(..), Node::Or(..))
        | (Node::Not(_), Node::Not(_))
        | (Node::If(..), Node::If(..))
        | (Node::NoEvent(_), Node::NoEvent(_)) => true,
        (Node::Call1(f, _), Node::Call1(g, _)) => f == g && !matches!(f, Func1::Ext(_)),
        (Node::Call2(f, ..), Node::Call2(g, ..)) => f == g && !matches!(f, Func2::Ext(_)),
        (Node::Cmp(o, ..), Node::Cmp(p, ..)) => o == p,
        _ => false,
    }
}

/// Matches the expressions `ys` of one group against the template's `ts`, with the varying
/// variables moved by `shift` slots. With `varying` unknown (the run's second group), learns
/// it: a node equal to its counterpart is invariant, a variable moved by `shift` is varying,
/// and so is an operation whose operands differ. Returns the map from the template's nodes to
/// the group's, or `None` where the two do not match.
fn follows(
    ar: &crate::symbolic::Arena<Slot>,
    ts: &[ExprId],
    ys: &[ExprId],
    shift: usize,
    varying: Option<&FxHashSet<ExprId>>,
) -> Option<FxHashMap<ExprId, ExprId>> {
    let mut map: FxHashMap<ExprId, ExprId> = FxHashMap::default();
    let mut stack: Vec<(ExprId, ExprId)> = ts.iter().copied().zip(ys.iter().copied()).collect();
    while let Some((t, y)) = stack.pop() {
        if let Some(&m) = map.get(&t) {
            if m != y {
                return None;
            }
            continue;
        }
        map.insert(t, y);
        if map.len() > TEMPLATE_NODES {
            return None;
        }
        let moves = match varying {
            Some(v) => v.contains(&t),
            None => t != y,
        };
        if !moves {
            if t != y {
                return None;
            }
            continue;
        }
        match (ar.node(t), ar.node(y)) {
            (Node::Var(p), Node::Var(q)) if q.index() == p.index() + shift => {}
            (nt, ny) if same_op(nt, ny) => {
                let ct: Vec<ExprId> = ar.children(t).collect();
                let cy: Vec<ExprId> = ar.children(y).collect();
                if ct.len() != cy.len() {
                    return None;
                }
                stack.extend(ct.into_iter().zip(cy));
            }
            _ => return None,
        }
    }
    Some(map)
}

/// Whether the assignment or pair `p` is checked where it is computed (both lanes alike), or
/// `None` where its lanes differ.
fn checked(p: &Piece, inline: &FxHashSet<Slot>) -> Option<bool> {
    match p {
        Piece::Assign(a) => Some(inline.contains(&a.var)),
        Piece::Pair(a, c) => {
            let (x, y) = (inline.contains(&a.var), inline.contains(&c.var));
            (x == y).then_some(x)
        }
        _ => None,
    }
}

/// Copies of the group per loop iteration: four assignments at least.
fn unroll(period: usize) -> usize {
    (UNROLL / period).max(1)
}

/// One group of a run: its targets (slot of each piece's first lane), the pieces' kinds and
/// checks, and their expressions in order.
struct Group {
    targets: Vec<usize>,
    kinds: Vec<(usize, Option<bool>)>,
    roots: Vec<ExprId>,
}

fn group(pieces: &[Piece], inline: &FxHashSet<Slot>) -> Option<Group> {
    let mut g = Group {
        targets: Vec::new(),
        kinds: Vec::new(),
        roots: Vec::new(),
    };
    group_into(pieces, inline, &mut g).then_some(g)
}

/// [`group`] into `g`'s vectors (cleared first); false where a piece is not an assignment or
/// pair checked alike in both lanes.
fn group_into(pieces: &[Piece], inline: &FxHashSet<Slot>, g: &mut Group) -> bool {
    g.targets.clear();
    g.kinds.clear();
    g.roots.clear();
    for p in pieces {
        let c = checked(p, inline);
        match p {
            Piece::Assign(a) if c.is_some() => {
                g.targets.push(a.var.index());
                g.kinds.push((1, c));
                g.roots.push(a.expr);
            }
            Piece::Pair(a, d) if c.is_some() => {
                g.targets.push(a.var.index());
                g.kinds.push((2, c));
                g.roots.extend([a.expr, d.expr]);
            }
            _ => return false,
        }
    }
    true
}

/// The run of `period` pieces repeated that starts at `pieces[0]`: the number of groups and
/// the stride, and the template's varying nodes.
fn run_of(
    ar: &crate::symbolic::Arena<Slot>,
    pieces: &[Piece],
    inline: &FxHashSet<Slot>,
    period: usize,
) -> Option<(usize, usize, FxHashSet<ExprId>)> {
    // Cheap test first: the second group's targets are the first's moved by one stride.
    let target = |p: &Piece| match p {
        Piece::Assign(a) => Some((a.var.index(), 1, std::mem::discriminant(&ar.node(a.expr)))),
        Piece::Pair(a, _) => Some((a.var.index(), 2, std::mem::discriminant(&ar.node(a.expr)))),
        _ => None,
    };
    let (t0, ..) = target(pieces.first()?)?;
    let (t1, ..) = target(pieces.get(period)?)?;
    let step = t1.checked_sub(t0).filter(|&s| s > 0)?;
    for q in 0..period {
        let (a, n, x) = target(&pieces[q])?;
        let (b, m, y) = target(pieces.get(period + q)?)?;
        if n != m || x != y || b.checked_sub(a) != Some(step) {
            return None;
        }
    }
    let first = group(pieces.get(..period)?, inline)?;
    let second = group(pieces.get(period..2 * period)?, inline)?;
    if second.kinds != first.kinds || second.targets[0] <= first.targets[0] {
        return None;
    }
    let stride = second.targets[0] - first.targets[0];
    if first
        .targets
        .iter()
        .zip(&second.targets)
        .any(|(a, b)| b.checked_sub(*a) != Some(stride))
    {
        return None;
    }
    let map = follows(ar, &first.roots, &second.roots, stride, None)?;
    // (None: the same values stored to moving targets, a run of start values.)
    let varying: FxHashSet<ExprId> = map
        .iter()
        .filter(|(t, y)| t != y)
        .map(|(t, _)| *t)
        .collect();
    // A pair's vector load takes both lanes from the same base: neighbouring variables move
    // together.
    let mut at = 0;
    for &(n, _) in &first.kinds {
        if n == 2 && !pair_lanes_agree(ar, first.roots[at], first.roots[at + 1], &varying) {
            return None;
        }
        at += n;
    }
    // The varying operations of each group, to find one shared by two groups (the
    // straight-line code computes it once, the loop in each iteration).
    let mut owner: FxHashMap<ExprId, usize> = FxHashMap::default();
    let mut shared = false;
    let mut note = |map: &FxHashMap<ExprId, ExprId>, k: usize, shared: &mut bool| {
        for (t, y) in map {
            if varying.contains(t) && !matches!(ar.node(*t), Node::Var(_)) {
                if let Some(&o) = owner.get(y) {
                    *shared |= o != k;
                } else {
                    owner.insert(*y, k);
                }
            }
        }
    };
    let identity: FxHashMap<ExprId, ExprId> = varying.iter().map(|&t| (t, t)).collect();
    note(&identity, 0, &mut shared);
    note(&map, 1, &mut shared);
    // Targets (every lane) of the template's pieces.
    let mut lanes_at: Vec<usize> = Vec::new();
    for (&t, &(n, _)) in first.targets.iter().zip(&first.kinds) {
        lanes_at.extend((0..n).map(|l| t + l));
    }
    // Two pieces must never write one slot: piece a of group k and piece b of group k + m.
    let mut cap = usize::MAX;
    for &a in &lanes_at {
        for &b in &lanes_at {
            let d = a as i64 - b as i64;
            if d != 0 && d % stride as i64 == 0 {
                cap = cap.min(d.unsigned_abs() as usize / stride);
            }
        }
    }
    // What the template reads: varying variables move with the group, invariant ones are the
    // same slot in every group.
    let mut reads: Vec<(usize, bool)> = Vec::new();
    let mut seen = FxHashSet::default();
    let mut stack: Vec<ExprId> = first.roots.clone();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        if varying.contains(&t) {
            match ar.node(t) {
                Node::Var(p) => reads.push((p.index(), true)),
                _ => stack.extend(ar.children(t)),
            }
        } else {
            let mut leaves = Vec::new();
            ar.leaves(t, &mut leaves);
            reads.extend(leaves.into_iter().filter_map(|l| match l {
                Node::Var(p) => Some((p.index(), false)),
                _ => None,
            }));
        }
    }
    let mut cap_shared = usize::MAX;
    for (p, moves) in reads {
        for &a in &lanes_at {
            let d = p as i64 - a as i64;
            if d % stride as i64 != 0 {
                continue;
            }
            let m = d / stride as i64;
            if moves && m < 0 {
                // Group k reads what group k + m wrote: exact in a loop unless the
                // straight-line code reused an operation computed before that write (an
                // operation shared by two groups): then cut before the first such k.
                cap_shared = cap_shared.min((-m) as usize);
            }
            if !moves && m >= 0 {
                // Group m writes it; the pieces after would read the new value, the hoisted
                // computation the old one.
                cap = cap.min(m as usize);
            }
        }
    }
    let limit = |shared: bool| if shared { cap.min(cap_shared) } else { cap };
    let mut groups = 2;
    let mut g = Group {
        targets: Vec::new(),
        kinds: Vec::new(),
        roots: Vec::new(),
    };
    while groups < limit(shared) {
        let Some(next) = pieces.get(groups * period..(groups + 1) * period) else {
            break;
        };
        if !group_into(next, inline, &mut g)
            || g.kinds != first.kinds
            || first
                .targets
                .iter()
                .zip(&g.targets)
                .any(|(a, b)| *b != a + groups * stride)
        {
            break;
        }
        let Some(m) = follows(ar, &first.roots, &g.roots, groups * stride, Some(&varying)) else {
            break;
        };
        note(&m, groups, &mut shared);
        groups += 1;
    }
    groups = groups.min(limit(shared));
    let enough = groups * period >= ROLL_MIN && groups >= 2 * unroll(period);
    enough.then_some((groups, stride, varying))
}

/// The run that starts at `pieces[0]`, with the shortest period that gives one.
fn run_at(
    ar: &crate::symbolic::Arena<Slot>,
    pieces: &[Piece],
    inline: &FxHashSet<Slot>,
) -> Option<(usize, usize, usize, FxHashSet<ExprId>)> {
    (1..=MAX_PERIOD).find_map(|period| {
        run_of(ar, pieces, inline, period)
            .map(|(groups, stride, varying)| (period, groups, stride, varying))
    })
}

/// In a pair's template, every two variables loaded as one vector either both move or both
/// stay.
fn pair_lanes_agree(
    ar: &crate::symbolic::Arena<Slot>,
    x: ExprId,
    y: ExprId,
    varying: &FxHashSet<ExprId>,
) -> bool {
    let mut stack = vec![(x, y)];
    let mut seen = FxHashSet::default();
    while let Some((x, y)) = stack.pop() {
        if x == y || !seen.insert((x, y)) {
            continue;
        }
        match (ar.node(x), ar.node(y)) {
            (Node::Var(_), Node::Var(_)) => {
                if varying.contains(&x) != varying.contains(&y) {
                    return false;
                }
            }
            _ => stack.extend(ar.children(x).zip(ar.children(y))),
        }
    }
    true
}

/// Replaces the runs of `pieces` that can be rolled by [`Piece::Roll`].
pub(super) fn roll_up<'p>(
    ar: &crate::symbolic::Arena<Slot>,
    pieces: Vec<Piece<'p>>,
    inline: &FxHashSet<Slot>,
) -> Vec<Piece<'p>> {
    let mut out = Vec::with_capacity(pieces.len());
    let mut rest = pieces;
    let mut k = 0;
    while k < rest.len() {
        match run_at(ar, &rest[k..], inline) {
            Some((period, groups, stride, varying)) => {
                let tail = rest.split_off(k + groups * period);
                let run = rest.split_off(k);
                out.append(&mut rest);
                out.push(Piece::Roll(Roll {
                    pieces: run,
                    period,
                    stride,
                    varying,
                }));
                rest = tail;
                k = 0;
            }
            None => k += 1,
        }
    }
    out.append(&mut rest);
    out
}

impl Lower<'_> {
    /// Loads variable `v` (node `id`): relative to the loop iteration where it moves.
    pub(super) fn load_var(&mut self, b: &mut FunctionBuilder, id: ExprId, v: Slot) -> Value {
        match &self.roll {
            Some(r) if r.varying.contains(&id) => b.ins().load(
                types::F64,
                MemFlagsData::trusted(),
                r.base,
                (v.index() * 8) as i32 + r.extra,
            ),
            _ => self.load(b, v),
        }
    }

    /// The address and offset of the f64x2 at variable `v` (node `id`, the first lane).
    pub(super) fn vector_at(&self, id: ExprId, v: Slot) -> (Value, i32) {
        match &self.roll {
            Some(r) if r.varying.contains(&id) => (r.base, (v.index() * 8) as i32 + r.extra),
            _ => (self.mem, (v.index() * 8) as i32),
        }
    }

    /// Stores an assignment's value to its target (relative to the loop iteration in a loop
    /// body: targets always move).
    pub(super) fn store_target(&mut self, b: &mut FunctionBuilder, v: Slot, x: Value) {
        match &self.roll {
            Some(r) => {
                let flags = if b.func.dfg.value_type(x) == types::F64 {
                    MemFlagsData::trusted()
                } else {
                    MemFlagsData::new().with_notrap()
                };
                b.ins()
                    .store(flags, x, r.base, (v.index() * 8) as i32 + r.extra);
                // Later pieces of the same group read the value just stored.
                if let Some(id) = self.arena.index_of(Node::Var(v)) {
                    if b.func.dfg.value_type(x) == types::F64 {
                        self.memo.insert(id, x);
                    } else {
                        self.memo.remove(&id);
                    }
                }
            }
            None if b.func.dfg.value_type(x) == types::F64 => self.store(b, v, x),
            None => {
                b.ins().store(
                    MemFlagsData::new().with_notrap(),
                    x,
                    self.mem,
                    (v.index() * 8) as i32,
                );
            }
        }
    }

    /// Computes the invariant subexpressions of a run's template before its loop: scalar
    /// ones into the memo, vector ones (a pair's operands that do not move, splats of scalars
    /// that do not) into `vpre`.
    fn hoist(
        &mut self,
        b: &mut FunctionBuilder,
        roots: &[ExprId],
        varying: &FxHashSet<ExprId>,
        vpre: &mut FxHashMap<(ExprId, ExprId), Value>,
    ) {
        let ar = self.arena;
        let mut scalar = Vec::new();
        if let [x, y] = *roots {
            let mut stack = vec![(x, y)];
            let mut seen = FxHashSet::default();
            while let Some((x, y)) = stack.pop() {
                if !seen.insert((x, y)) {
                    continue;
                }
                let (mx, my) = (varying.contains(&x), varying.contains(&y));
                if !mx && !my {
                    self.vexpr(b, vpre, x, y);
                } else if x == y {
                    scalar.push(x);
                } else {
                    stack.extend(ar.children(x).zip(ar.children(y)));
                }
            }
        } else {
            scalar.extend_from_slice(roots);
        }
        let mut seen = FxHashSet::default();
        while let Some(t) = scalar.pop() {
            if !seen.insert(t) {
                continue;
            }
            if varying.contains(&t) {
                scalar.extend(ar.children(t));
            } else {
                self.expr(b, t);
            }
        }
    }

    /// One assignment or pair of the run at `extra` bytes from the iteration's base: its
    /// value (scalar or f64x2), stored.
    fn lower_one(
        &mut self,
        b: &mut FunctionBuilder,
        p: &Piece,
        vpre: &FxHashMap<(ExprId, ExprId), Value>,
    ) -> Value {
        match p {
            Piece::Assign(a) => {
                let v = self.expr(b, a.expr);
                self.store_target(b, a.var, v);
                v
            }
            Piece::Pair(a, c) => {
                let mut vmemo = vpre.clone();
                let v = self.vexpr(b, &mut vmemo, a.expr, c.expr);
                self.store_target(b, a.var, v);
                if let Some(id) = self.arena.index_of(Node::Var(c.var)) {
                    self.memo.remove(&id);
                }
                v
            }
            _ => unreachable!("runs hold assignments and pairs"),
        }
    }

    /// The run as a loop over its groups ([`unroll`] groups per iteration), then its last
    /// groups straight-line. Returns the loop's finiteness sums (scalar or f64x2, of the
    /// pieces checked where they are computed), for the caller to add to its sums, and the
    /// pieces left for straight-line code.
    pub(super) fn rolled<'r, 'p>(
        &mut self,
        b: &mut FunctionBuilder,
        roll: &'r Roll<'p>,
        inline: &FxHashSet<Slot>,
        ptr: types::Type,
    ) -> (Vec<Value>, &'r [Piece<'p>]) {
        let template = &roll.pieces[..roll.period];
        let mut vpre = FxHashMap::default();
        for p in template {
            let (_, roots) = lanes(p).expect("a run of assignments");
            self.hoist(b, &roots, &roll.varying, &mut vpre);
        }
        let copies = unroll(roll.period);
        let iterations = roll.pieces.len() / roll.period / copies;
        let step_bytes = (copies * roll.stride * 8) as i64;
        let head = b.create_block();
        let exit = b.create_block();
        b.append_block_param(head, ptr);
        let mut args = vec![b.ins().iconst(ptr, 0).into()];
        // One sum per checked piece and copy, carried from iteration to iteration.
        let mut sum_types = Vec::new();
        for _ in 0..copies {
            for p in template {
                if checked(p, inline) == Some(true) {
                    let vector = matches!(p, Piece::Pair(..));
                    let zero = b.ins().f64const(0.0);
                    let (ty, zero) = if vector {
                        (types::F64X2, b.ins().splat(types::F64X2, zero))
                    } else {
                        (types::F64, zero)
                    };
                    b.append_block_param(head, ty);
                    args.push(zero.into());
                    sum_types.push(ty);
                }
            }
        }
        b.ins().jump(head, &args);
        b.switch_to_block(head);
        let params = b.block_params(head).to_vec();
        let base = b.ins().iadd(self.mem, params[0]);
        let outer = self.memo.clone();
        let splats = self.splats.clone();
        let mut body: FxHashMap<ExprId, Value> = outer.clone();
        body.retain(|id, _| !roll.varying.contains(id));
        let mut sums = Vec::new();
        let mut ctx = RollCtx {
            base,
            extra: 0,
            varying: roll.varying.clone(),
        };
        for u in 0..copies {
            self.memo = body.clone();
            ctx.extra = (u * roll.stride * 8) as i32;
            self.roll = Some(ctx);
            for p in template {
                let v = self.lower_one(b, p, &vpre);
                if checked(p, inline) == Some(true) {
                    let acc = params[1 + sums.len()];
                    sums.push(b.ins().fadd(acc, v));
                }
            }
            ctx = self.roll.take().expect("set above");
        }
        let next = b.ins().iadd_imm_u(params[0], step_bytes);
        let more = b.ins().icmp_imm_u(
            IntCC::UnsignedLessThan,
            next,
            step_bytes * iterations as i64,
        );
        let mut back = vec![next.into()];
        back.extend(
            sums.iter()
                .map(|&s| cranelift_codegen::ir::BlockArg::from(s)),
        );
        b.ins().brif(more, head, &back, exit, &[]);
        b.seal_block(head);
        b.switch_to_block(exit);
        b.seal_block(exit);
        // After the loop: the outer values, the run's targets reloaded where read again.
        self.memo = outer;
        self.splats = splats;
        let done = iterations * copies * roll.period;
        for p in &roll.pieces[..done] {
            let (t, lanes) = lanes(p).expect("a run of assignments");
            for k in 0..lanes.len() {
                if let Some(id) = self.arena.index_of(Node::Var(Slot::new(t + k))) {
                    self.memo.remove(&id);
                }
            }
        }
        (sums, &roll.pieces[done..])
    }
}
