//! What a chunk is made of: its pieces (assignments, torn blocks, checks, outputs), the
//! pairing of neighbouring assignments into f64x2 lanes, the finiteness sums and which
//! checked values they must see, and the lowering of one straight-line piece.

use super::*;

/// One unit of generated work.
pub(super) enum Piece<'p> {
    Copy(Slot, Slot),
    Assign(&'p Assign),
    Block(&'p TornBlock),
    Check(Slot),
    /// `out[i] = expr`, in the outputs function.
    Output(usize, ExprId),
    /// Two assignments to neighbouring slots with the same expression shape over neighbouring
    /// (or shared) operands, computed in the two lanes of an f64x2 ([`pair_up`]).
    Pair(&'p Assign, &'p Assign),
    /// A run of assignments or pairs generated as one loop ([`roll`]).
    Roll(roll::Roll<'p>),
}

/// Pieces with fewer assignments are not paired into vector lanes.
pub(super) const PAIR_MIN_ASSIGNMENTS: usize = 64;

/// Whether `a` and `b` (b's target the slot after a's) compute lane-wise the same operations:
/// equal operands are shared, variables differ by one slot, and the operations are
/// additions, subtractions, products, quotients, negations, square roots, absolute values,
/// comparisons, `min`/`max`, `and`/`or`/`not` and selections (exact per lane, so the vector
/// code gives the scalar code's bits). `b` must not read `a`'s target (scalar order would
/// give it the new value). Comparisons pair only where `cmp` says vector compares are safe
/// ([`vector_compares`]).
pub(super) fn pairable(
    ar: &crate::symbolic::Arena<Slot>,
    a: &Assign,
    b: &Assign,
    cmp: bool,
) -> bool {
    if b.var.index() != a.var.index() + 1 {
        return false;
    }
    // Shallow trees only: the vector lowering recurses over them. (Checked before the
    // leaves are listed: an expression that is no pair, an FFT's output read from a call of
    // thousands of arguments, is told at its root.)
    let mut stack = vec![(a.expr, b.expr, 0)];
    let mut seen = FxHashSet::default();
    let mut ops = 0;
    while let Some((x, y, depth)) = stack.pop() {
        if x == y || !seen.insert((x, y)) {
            continue;
        }
        if depth > 48 {
            return false;
        }
        match (ar.node(x), ar.node(y)) {
            (Node::Var(p), Node::Var(q)) if q.index() == p.index() + 1 => {}
            (Node::Add(a1, a2), Node::Add(b1, b2))
            | (Node::Sub(a1, a2), Node::Sub(b1, b2))
            | (Node::Mul(a1, a2), Node::Mul(b1, b2))
            | (Node::Div(a1, a2), Node::Div(b1, b2)) => {
                ops += 1;
                stack.push((a1, b1, depth + 1));
                stack.push((a2, b2, depth + 1));
            }
            (Node::Neg(a1), Node::Neg(b1))
            | (Node::Not(a1), Node::Not(b1))
            | (Node::NoEvent(a1), Node::NoEvent(b1)) => {
                ops += 1;
                stack.push((a1, b1, depth + 1));
            }
            // Square root and absolute value are exact per lane (sqrtpd rounds correctly).
            (Node::Call1(f, a1), Node::Call1(g, b1))
                if f == g && matches!(f, Func1::Sqrt | Func1::Abs) =>
            {
                ops += 1;
                stack.push((a1, b1, depth + 1));
            }
            // Comparisons, min/max, and/or and selections: lane masks and a bit select,
            // the scalar code's comparisons lane by lane.
            (Node::Call2(f, a1, a2), Node::Call2(g, b1, b2))
                if f == g && matches!(f, Func2::Min | Func2::Max) =>
            {
                ops += 1;
                stack.push((a1, b1, depth + 1));
                stack.push((a2, b2, depth + 1));
            }
            (Node::Cmp(o, a1, a2), Node::Cmp(q, b1, b2)) if o == q && cmp => {
                ops += 1;
                stack.push((a1, b1, depth + 1));
                stack.push((a2, b2, depth + 1));
            }
            (Node::And(a1, a2), Node::And(b1, b2)) | (Node::Or(a1, a2), Node::Or(b1, b2)) => {
                ops += 1;
                stack.push((a1, b1, depth + 1));
                stack.push((a2, b2, depth + 1));
            }
            (Node::If(c1, a1, a2), Node::If(c2, b1, b2)) => {
                ops += 1;
                stack.push((c1, c2, depth + 1));
                stack.push((a1, b1, depth + 1));
                stack.push((a2, b2, depth + 1));
            }
            _ => return false,
        }
    }
    // `b` must not read what `a` writes (they are computed together).
    let mut leaves = Vec::new();
    ar.leaves(b.expr, &mut leaves);
    if leaves.contains(&Node::Var(a.var)) {
        return false;
    }
    // A copy of a neighbour pair is a vector load and store; anything is worth pairing.
    ops > 0 || a.expr != b.expr
}

/// The checked variables whose finiteness is seen where they are assigned (summed there, or
/// through a later value, [`summed_checks`]): assigned by exactly one assignment before the
/// first check, and written by nothing else (their value then is the value the check sees).
pub(super) fn inline_checks(pieces: &[Piece]) -> FxHashSet<Slot> {
    let mut once: FxHashMap<Slot, u32> = FxHashMap::default();
    let mut other = FxHashSet::default();
    let mut checked = FxHashSet::default();
    let mut checking = false;
    for p in pieces {
        match p {
            Piece::Assign(a) if !checking => *once.entry(a.var).or_default() += 1,
            Piece::Assign(a) => {
                other.insert(a.var);
            }
            Piece::Pair(a, c) => {
                other.insert(a.var);
                other.insert(c.var);
            }
            Piece::Copy(dst, _) => {
                other.insert(*dst);
            }
            Piece::Block(b) => {
                other.extend(b.tearing.iter().copied());
                other.extend(b.inner.iter().chain(&b.tangents).map(|a| a.var));
            }
            Piece::Check(v) => {
                checking = true;
                checked.insert(*v);
            }
            Piece::Output(..) => {}
            Piece::Roll(r) => {
                for p in &r.pieces {
                    if let Piece::Assign(a) | Piece::Pair(a, _) = p {
                        other.insert(a.var);
                    }
                    if let Piece::Pair(_, c) = p {
                        other.insert(c.var);
                    }
                }
            }
        }
    }
    once.into_iter()
        .filter(|&(v, k)| k == 1 && checked.contains(&v) && !other.contains(&v))
        .map(|(v, _)| v)
        .collect()
}

/// Of the variables checked where they are assigned (`inline`), those whose value must be
/// added to the finiteness sums. A variable read by a later one of them through additions,
/// subtractions, products, negations and numerators only need not be: a NaN or infinity there
/// makes that later value non-finite too (inf·0 and inf − inf are NaN), so the sums see it,
/// and the verify scan, which looks at every checked slot in order, still names the first
/// non-finite variable. On the line by forward Euler the states are read so by the
/// derivatives: half the additions. (A denominator, a comparison or a selection can hide a
/// non-finite operand: they do not count.)
pub(super) fn summed_checks(
    ar: &crate::symbolic::Arena<Slot>,
    pieces: &[Piece],
    inline: &FxHashSet<Slot>,
) -> FxHashSet<Slot> {
    let end = pieces
        .iter()
        .position(|p| matches!(p, Piece::Check(_)))
        .unwrap_or(pieces.len());
    let mut covered: FxHashSet<Slot> = FxHashSet::default();
    let mut summed = FxHashSet::default();
    let mut seen = FxHashSet::default();
    for p in pieces[..end].iter().rev() {
        let Piece::Assign(a) = p else { continue };
        if !inline.contains(&a.var) {
            continue;
        }
        if !covered.contains(&a.var) {
            summed.insert(a.var);
        }
        // This value is seen by the sums either way: what it propagates is covered.
        seen.clear();
        let mut stack = vec![a.expr];
        while let Some(e) = stack.pop() {
            if !seen.insert(e) {
                continue;
            }
            match ar.node(e) {
                Node::Var(v) => {
                    covered.insert(v);
                }
                Node::Add(x, y) | Node::Sub(x, y) | Node::Mul(x, y) => stack.extend([x, y]),
                Node::Neg(x) | Node::NoEvent(x) | Node::Div(x, _) => stack.push(x),
                _ => {}
            }
        }
    }
    summed
}

/// Running finiteness sums of one chunk.
pub(super) struct Sums {
    pub(super) s: [Value; 4],
    pub(super) v: Option<[Value; 4]>,
    pub(super) k: usize,
    pub(super) kv: usize,
    pub(super) any: bool,
}

impl Sums {
    pub(super) fn add(&mut self, b: &mut FunctionBuilder, x: Value) {
        let i = self.k % 4;
        self.s[i] = b.ins().fadd(self.s[i], x);
        self.k += 1;
        self.any = true;
    }

    pub(super) fn add_pair(&mut self, b: &mut FunctionBuilder, x: Value) {
        let v = match &mut self.v {
            Some(v) => v,
            None => {
                let z = b.ins().f64const(0.0);
                let vz = b.ins().splat(types::F64X2, z);
                self.v.insert([vz; 4])
            }
        };
        let i = self.kv % 4;
        v[i] = b.ins().fadd(v[i], x);
        self.kv += 1;
        self.any = true;
    }

    pub(super) fn total(&mut self, b: &mut FunctionBuilder) -> Value {
        if let Some([v0, v1, v2, v3]) = self.v {
            let v01 = b.ins().fadd(v0, v1);
            let v23 = b.ins().fadd(v2, v3);
            let v = b.ins().fadd(v01, v23);
            let lo = b.ins().extractlane(v, 0);
            let hi = b.ins().extractlane(v, 1);
            self.s[0] = b.ins().fadd(self.s[0], lo);
            self.s[1] = b.ins().fadd(self.s[1], hi);
        }
        let a01 = b.ins().fadd(self.s[0], self.s[1]);
        let a23 = b.ins().fadd(self.s[2], self.s[3]);
        b.ins().fadd(a01, a23)
    }
}

/// Whether a comparison of two f64x2 values is safe to generate for `isa`: on AArch64, and
/// on x86-64 with AVX. Without AVX, Cranelift 0.135 folds a single-use vector load into the
/// memory operand of `cmppd`, whose legacy SSE encoding faults on the unaligned address
/// (its other SSE instructions load unaligned operands into a register first); the pairs of
/// an object for the x86-64 baseline then keep their comparisons scalar.
pub(super) fn vector_compares(isa: &dyn cranelift_codegen::isa::TargetIsa) -> bool {
    match isa.triple().architecture {
        target_lexicon::Architecture::Aarch64(_) => true,
        target_lexicon::Architecture::X86_64 => isa
            .isa_flags()
            .iter()
            .any(|f| f.name == "has_avx" && f.as_bool() == Some(true)),
        _ => false,
    }
}

/// How far ahead [`pair_up`] looks for an assignment's partner.
pub(super) const PAIR_WINDOW: usize = 8;

/// Pairs assignments that [`pairable`] accepts (first come, first paired): an assignment's
/// partner is the next piece or, within [`PAIR_WINDOW`] assignments, one that can move up to
/// it (it reads nothing the assignments in between write, they neither read nor write its
/// target), so that a component's interleaved equations pair across their neighbours.
pub(super) fn pair_up<'p>(
    ar: &crate::symbolic::Arena<Slot>,
    pieces: Vec<Piece<'p>>,
    cmp: bool,
) -> Vec<Piece<'p>> {
    let mut rest: std::collections::VecDeque<Piece<'p>> = pieces.into();
    let mut out = Vec::with_capacity(rest.len());
    while let Some(p) = rest.pop_front() {
        if let Piece::Assign(a) = p {
            if let Some(j) = partner(ar, a, &rest, cmp) {
                if let Some(Piece::Assign(b)) = rest.remove(j) {
                    out.push(Piece::Pair(a, b));
                    continue;
                }
            }
        }
        out.push(p);
    }
    out
}

/// Where in `rest` the partner of `a` is: the first assignment within the window that
/// [`pairable`] accepts and that may be computed before the assignments ahead of it.
pub(super) fn partner(
    ar: &crate::symbolic::Arena<Slot>,
    a: &Assign,
    rest: &std::collections::VecDeque<Piece>,
    cmp: bool,
) -> Option<usize> {
    let mut between: Vec<&Assign> = Vec::new();
    for (j, p) in rest.iter().enumerate().take(PAIR_WINDOW) {
        let Piece::Assign(b) = p else { return None };
        if b.var.index() == a.var.index() + 1 && pairable(ar, a, b, cmp) {
            if between.is_empty() {
                return Some(j);
            }
            let mut reads = Vec::new();
            ar.leaves(b.expr, &mut reads);
            let moves = between.iter().all(|m| {
                let mut theirs = Vec::new();
                ar.leaves(m.expr, &mut theirs);
                m.var != b.var
                    && !reads.contains(&Node::Var(m.var))
                    && !theirs.contains(&Node::Var(b.var))
            });
            if moves {
                return Some(j);
            }
        }
        between.push(b);
    }
    None
}

/// One piece of a chunk, straight-line: computed, stored, its value added to the finiteness
/// sums where it is checked as it is computed.
pub(super) fn lower_piece(
    l: &mut Lower,
    b: &mut FunctionBuilder,
    p: &Piece,
    sums: &mut Sums,
    summed: &FxHashSet<Slot>,
    out: Value,
) {
    match p {
        Piece::Copy(dst, src) => {
            let v = l.load(b, *src);
            l.store(b, *dst, v);
        }
        Piece::Assign(a) => {
            let v = l.expr(b, a.expr);
            l.store(b, a.var, v);
            if summed.contains(&a.var) {
                sums.add(b, v);
            }
        }
        Piece::Pair(a, c) => {
            let mut vmemo = FxHashMap::default();
            let v = l.vexpr(b, &mut vmemo, a.expr, c.expr);
            b.ins().store(
                MemFlagsData::new().with_notrap(),
                v,
                l.mem,
                (a.var.index() * 8) as i32,
            );
            match (summed.contains(&a.var), summed.contains(&c.var)) {
                (true, true) => sums.add_pair(b, v),
                (true, false) => {
                    let x = b.ins().extractlane(v, 0);
                    sums.add(b, x);
                }
                (false, true) => {
                    let x = b.ins().extractlane(v, 1);
                    sums.add(b, x);
                }
                (false, false) => {}
            }
            // Later reads of the targets load the new values.
            for t in [a.var, c.var] {
                if let Some(id) = l.arena.index_of(Node::Var(t)) {
                    l.memo.remove(&id);
                }
            }
        }
        Piece::Output(i, e) => {
            let v = l.expr(b, *e);
            b.ins()
                .store(MemFlagsData::trusted(), v, out, (*i * 8) as i32);
        }
        Piece::Block(blk) => l.block(b, blk),
        Piece::Check(_) => {}
        Piece::Roll(_) => unreachable!("runs are lowered by Lower::rolled"),
    }
}

/// Chunks end between these many expression nodes ([`chunk_ends`]).
const CHUNK_MIN: usize = CHUNK_NODES * 7 / 10;
const CHUNK_MAX: usize = CHUNK_NODES * 13 / 10;

/// Where the chunk functions end (exclusive piece indices, the last one `pieces.len()`):
/// each chunk holds between [`CHUNK_MIN`] and [`CHUNK_MAX`] expression nodes (`sizes`, per
/// piece) where it can, and ends where the fewest values are live across the cut
/// ([`live_across`]; ties: nearest to [`CHUNK_NODES`]). A value live across a cut is one
/// the register allocator would have kept or spilled; past the cut it is loaded or computed
/// again. The bound keeps register allocation near linear in the model's size.
/// `sizes` with each wide call (more than [`super::lower::WIDE_CALL`] arguments, within a
/// few levels of an assignment's root) counted once: the assignments of its outputs (an
/// FFT's hundreds of amplitudes, each `if c then call(…)[k] else pre(…)`) then fit in few
/// chunks, each of which makes the call once, rather than one chunk each making it again.
pub(super) fn share_wide_calls(
    ar: &crate::symbolic::Arena<Slot>,
    pieces: &[Piece],
    mut sizes: Vec<usize>,
    memo: &mut crate::plan::WideWork,
) -> Vec<usize> {
    let mut seen = FxHashSet::default();
    for (k, p) in pieces.iter().enumerate() {
        let Piece::Assign(a) = p else { continue };
        let mut stack = vec![(a.expr, 0)];
        while let Some((id, depth)) = stack.pop() {
            if let Node::Call(c) = ar.node(id) {
                let site = ar.call_site(c);
                if site.args.len() > super::lower::WIDE_CALL {
                    let key = (site.f, site.args.as_ptr() as usize, site.args.len());
                    if !seen.insert(key) {
                        let call =
                            crate::plan::expr_work_shared(ar, &[id], super::lower::WIDE_CALL, memo)
                                .flops as usize;
                        sizes[k] = sizes[k].saturating_sub(call).max(2);
                    }
                    continue;
                }
            }
            if depth < 4 {
                stack.extend(ar.children(id).map(|c| (c, depth + 1)));
            }
        }
    }
    sizes
}

pub(super) fn chunk_ends(
    ar: &crate::symbolic::Arena<Slot>,
    pieces: &[Piece],
    sizes: &[usize],
) -> Vec<usize> {
    let n = pieces.len();
    let total: usize = sizes.iter().sum();
    if total <= CHUNK_MAX {
        return vec![n];
    }
    let live = live_across(ar, pieces);
    let mut ends = Vec::new();
    let mut start = 0;
    while start < n {
        let rest: usize = sizes[start..].iter().sum();
        if rest <= CHUNK_MAX {
            ends.push(n);
            break;
        }
        let mut acc = 0;
        let mut best: Option<(i64, usize, usize)> = None; // (live, distance, end)
        let mut j = start;
        while j < n {
            acc += sizes[j];
            j += 1;
            if j == n {
                break;
            }
            if acc >= CHUNK_MIN || best.is_none() && acc + sizes[j] > CHUNK_MAX {
                let key = (live[j], acc.abs_diff(CHUNK_NODES), j);
                if best.is_none_or(|b| (key.0, key.1) < (b.0, b.1)) {
                    best = Some(key);
                }
            }
            if acc + sizes[j] > CHUNK_MAX {
                break;
            }
        }
        let end = best.map_or(j, |b| b.2);
        ends.push(end);
        start = end;
    }
    ends
}

/// For each cut position i (before piece i), how many values the pieces before it (since the
/// last torn block, after which the lowering forgets its values) compute or load that the
/// pieces from i on use again: expression nodes other than constants, and the variables
/// assignments store (a later read takes the stored value). A node's uses are counted where
/// the walk from a piece's roots first meets it, as the lowering's memo does.
fn live_across(ar: &crate::symbolic::Arena<Slot>, pieces: &[Piece]) -> Vec<i64> {
    let n = pieces.len();
    let mut diff = vec![0i64; n + 2];
    let mut last: FxHashMap<ExprId, usize> = FxHashMap::default();
    let mut segment = 0;
    let mut stack = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        let mut targets = Vec::new();
        match p {
            Piece::Assign(a) => {
                stack.push(a.expr);
                targets.push(a.var);
            }
            Piece::Pair(a, c) => stack.extend([a.expr, c.expr]),
            Piece::Output(_, e) => stack.push(*e),
            Piece::Copy(dst, _) => targets.push(*dst),
            Piece::Roll(r) => {
                for q in &r.pieces[..r.period] {
                    match q {
                        Piece::Assign(a) => stack.push(a.expr),
                        Piece::Pair(a, c) => stack.extend([a.expr, c.expr]),
                        _ => {}
                    }
                }
            }
            Piece::Block(_) => {
                segment = i + 1;
                continue;
            }
            Piece::Check(_) => continue,
        }
        let mut use_at = |id: ExprId, descend: &mut Vec<ExprId>| match last.insert(id, i) {
            Some(prev) if prev == i => {}
            Some(prev) => {
                if prev >= segment {
                    diff[prev + 1] += 1;
                    diff[i + 1] -= 1;
                }
            }
            None => descend.push(id),
        };
        while let Some(id) = stack.pop() {
            if matches!(ar.node(id), Node::Const(_)) {
                continue;
            }
            let mut fresh = Vec::new();
            use_at(id, &mut fresh);
            for f in fresh {
                stack.extend(ar.children(f));
            }
        }
        for t in targets {
            if let Some(id) = ar.index_of(Node::Var(t)) {
                use_at(id, &mut Vec::new());
            }
        }
    }
    let mut live = vec![0i64; n + 1];
    let mut run = 0;
    for (i, l) in live.iter_mut().enumerate() {
        run += diff[i];
        *l = run;
    }
    live
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Assign;
    use crate::symbolic::Arena;

    /// Two components, each a run of assignments that read its own parameter: the chunk
    /// ends at the seam between them (no value live across it), not where a fixed budget of
    /// 1000 nodes would cut (in the middle of the first, splitting its parameter's reads).
    #[test]
    fn chunks_end_where_fewest_values_are_live() {
        let mut ar: Arena<Slot> = Arena::new();
        let (p, q) = (ar.var(Slot::new(0)), ar.var(Slot::new(1)));
        let mut assigns = Vec::new();
        for k in 0..20 {
            let (par, x) = if k < 12 { (p, 2 + k) } else { (q, 2 + k) };
            let v = ar.var(Slot::new(x + 100));
            let e = ar.mul(par, v);
            assigns.push(Assign {
                var: Slot::new(x),
                expr: e,
                span: crate::diag::Span::default(),
            });
        }
        let pieces: Vec<Piece> = assigns.iter().map(Piece::Assign).collect();
        // 100 nodes each: a fixed budget cuts after piece 10; the seam is after piece 12.
        let sizes = vec![100; pieces.len()];
        let ends = chunk_ends(&ar, &pieces, &sizes);
        assert_eq!(ends, vec![12, 20]);
        let live = live_across(&ar, &pieces);
        assert_eq!(live[12], 0);
        assert_eq!(live[10], 1);
    }
}
