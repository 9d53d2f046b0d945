//! Band ordering of torn loops: the residuals and tearing variables of a block are reordered
//! so that the Jacobian's nonzeros lie in a narrow band around the diagonal, and the LU with
//! partial pivoting then works inside the band only.
//!
//! A loop torn from a chain of components (the segments of a transmission line, a ladder
//! network, a drive train) keeps about one tearing variable per component, and each residual
//! couples only neighbouring ones. Dense LU costs O(k³) per Newton iteration for k tearing
//! variables; in a band of `kl` sub- and `ku` super-diagonals, LU with partial pivoting costs
//! O(k·kl·(kl + ku)): row interchanges keep L within `kl` sub-diagonals and let U grow to
//! `kl + ku` super-diagonals, so every entry outside that band stays zero and is never read
//! (LAPACK's `gbtrf` rests on the same fact). Within the band the operations are those of the
//! dense LU, in the same order: the pivots are chosen among the same candidates (the rows
//! outside the band hold zeros in the pivot column).
//!
//! The ordering: rows are first matched to columns so that the diagonal is structurally
//! nonzero (augmenting paths), then the symmetric pattern is numbered by reverse
//! Cuthill–McKee (breadth-first from a pseudo-peripheral vertex, neighbours by increasing
//! degree, reversed), and the same numbering is applied to rows and columns. The new order is
//! kept only if it reduces the LU's work to at most half of the dense work.

use super::Slot;
use super::TornBlock;

type Node = crate::symbolic::Node<Slot>;

type Arena = crate::symbolic::Arena<Slot>;
use std::collections::VecDeque;

/// Reorders `b` for a narrow band when that pays and records the band in `b.band`; returns
/// the new order of the residuals (new row p is old row `rows[p]`) if it reordered.
pub fn order(ar: &Arena, b: &mut TornBlock) -> Option<Vec<usize>> {
    let k = b.tearing.len();
    b.band = (k.saturating_sub(1), (2 * k).saturating_sub(2));
    if k < 4 {
        return None;
    }
    let nz = |e| !matches!(ar.node(e), Node::Const(bits) if f64::from_bits(bits) == 0.0);
    let pattern: Vec<Vec<usize>> = (0..k)
        .map(|i| (0..k).filter(|&j| nz(b.jacobian[i * k + j])).collect())
        .collect();
    let row_of_col = matching(&pattern, k)?;
    // B = rows permuted so that B[j][j] = J[row_of_col[j]][j] is nonzero.
    let brows: Vec<&Vec<usize>> = (0..k).map(|j| &pattern[row_of_col[j]]).collect();
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); k];
    for (i, cols) in brows.iter().enumerate() {
        for &j in cols.iter() {
            if i != j {
                adj[i].push(j);
                adj[j].push(i);
            }
        }
    }
    for a in &mut adj {
        a.sort_unstable();
        a.dedup();
    }
    let perm = rcm(&adj);
    // position of each B index in the new order
    let mut pos = vec![0; k];
    for (p, &v) in perm.iter().enumerate() {
        pos[v] = p;
    }
    let (mut kl, mut ku) = (0usize, 0usize);
    for (i, cols) in brows.iter().enumerate() {
        for &j in cols.iter() {
            let (r, c) = (pos[i], pos[j]);
            if r > c {
                kl = kl.max(r - c);
            } else {
                ku = ku.max(c - r);
            }
        }
    }
    let w = kl + ku;
    if 2 * lu_flops(k, kl, w) > lu_flops(k, k - 1, 2 * k - 2) {
        return None;
    }
    // New row p is B's row perm[p] = J's row row_of_col[perm[p]]; new column p is J's
    // column perm[p].
    let rows: Vec<usize> = perm.iter().map(|&v| row_of_col[v]).collect();
    let cols = perm;
    b.tearing = cols.iter().map(|&j| b.tearing[j]).collect();
    b.residuals = rows.iter().map(|&i| b.residuals[i]).collect();
    b.residual_scales = rows.iter().map(|&i| b.residual_scales[i]).collect();
    b.residual_spans = rows.iter().map(|&i| b.residual_spans[i]).collect();
    let old = std::mem::take(&mut b.jacobian);
    b.jacobian = rows
        .iter()
        .flat_map(|&i| cols.iter().map(move |&j| (i, j)))
        .map(|(i, j)| old[i * k + j])
        .collect();
    b.band = (kl, w);
    Some(rows)
}

/// Floating-point operations of the LU solve of a k×k system whose L has `kl`
/// sub-diagonals and whose U (after row interchanges) has `w` super-diagonals: per column,
/// one quotient and `2·c + 2` operations for each row below within the band (c columns to the
/// right within the band), then the back substitution. With `kl = k − 1` it is the dense
/// count used before band ordering existed.
pub fn lu_flops(k: usize, kl: usize, w: usize) -> usize {
    if kl + 1 >= k {
        return (2 * k * k * k).div_ceil(3) + 2 * k * k + 5 * k;
    }
    (0..k)
        .map(|col| {
            let rest = k - 1 - col;
            let (r, c) = (kl.min(rest), w.min(rest));
            r * (2 * c + 3) + 2 * c + 1
        })
        .sum()
}

/// A column-to-row assignment with nonzero entries (augmenting paths), if one exists.
fn matching(pattern: &[Vec<usize>], k: usize) -> Option<Vec<usize>> {
    let mut row_of_col: Vec<Option<usize>> = vec![None; k];
    fn augment(
        i: usize,
        pattern: &[Vec<usize>],
        seen: &mut [bool],
        row_of_col: &mut [Option<usize>],
    ) -> bool {
        for &j in &pattern[i] {
            if !seen[j] {
                seen[j] = true;
                if row_of_col[j].is_none_or(|r| augment(r, pattern, seen, row_of_col)) {
                    row_of_col[j] = Some(i);
                    return true;
                }
            }
        }
        false
    }
    // Prefer the diagonal where it is already nonzero.
    for (i, cols) in pattern.iter().enumerate() {
        if cols.contains(&i) {
            row_of_col[i] = Some(i);
        }
    }
    for i in 0..k {
        if row_of_col.contains(&Some(i)) {
            continue;
        }
        let mut seen = vec![false; k];
        if !augment(i, pattern, &mut seen, &mut row_of_col) {
            return None;
        }
    }
    row_of_col.into_iter().collect()
}

/// Reverse Cuthill–McKee numbering of a symmetric graph (every component in turn).
fn rcm(adj: &[Vec<usize>]) -> Vec<usize> {
    let k = adj.len();
    let mut placed = vec![false; k];
    let mut order = Vec::with_capacity(k);
    while order.len() < k {
        // Start: a pseudo-peripheral vertex of the lowest-degree unplaced vertex's component.
        let Some(mut start) = (0..k).filter(|&v| !placed[v]).min_by_key(|&v| adj[v].len()) else {
            break;
        };
        for _ in 0..2 {
            let levels = bfs(adj, start, &placed);
            let last = levels.last().cloned().unwrap_or_default();
            match last.into_iter().min_by_key(|&v| adj[v].len()) {
                Some(v) if v != start => start = v,
                _ => break,
            }
        }
        let mut queue = VecDeque::from([start]);
        placed[start] = true;
        while let Some(v) = queue.pop_front() {
            order.push(v);
            let mut next: Vec<usize> = adj[v].iter().copied().filter(|&u| !placed[u]).collect();
            next.sort_by_key(|&u| (adj[u].len(), u));
            for u in next {
                placed[u] = true;
                queue.push_back(u);
            }
        }
    }
    order.reverse();
    order
}

/// Breadth-first levels from `start` over the vertices not yet placed.
fn bfs(adj: &[Vec<usize>], start: usize, placed: &[bool]) -> Vec<Vec<usize>> {
    let mut seen = placed.to_vec();
    seen[start] = true;
    let mut levels = vec![vec![start]];
    loop {
        let mut next = Vec::new();
        for &v in levels.last().into_iter().flatten() {
            for &u in &adj[v] {
                if !seen[u] {
                    seen[u] = true;
                    next.push(u);
                }
            }
        }
        if next.is_empty() {
            return levels;
        }
        levels.push(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_count_is_kept_for_full_bands() {
        assert_eq!(lu_flops(5, 4, 8), (2 * 125usize).div_ceil(3) + 50 + 25);
    }

    #[test]
    fn band_count_grows_linearly() {
        let a = lu_flops(100, 2, 4);
        let b = lu_flops(1000, 2, 4);
        assert!(b > 9 * a && b < 11 * a, "{a} {b}");
    }

    #[test]
    fn rcm_numbers_a_shuffled_path_as_a_path() {
        // Path 0-1-2-…-9 with its vertices relabelled.
        let label = [3, 7, 0, 9, 5, 1, 8, 2, 6, 4];
        let mut adj = vec![Vec::new(); 10];
        for i in 0..9 {
            adj[label[i]].push(label[i + 1]);
            adj[label[i + 1]].push(label[i]);
        }
        let order = rcm(&adj);
        let mut pos = [0; 10];
        for (p, &v) in order.iter().enumerate() {
            pos[v] = p;
        }
        for i in 0..9 {
            assert_eq!(pos[label[i]].abs_diff(pos[label[i + 1]]), 1);
        }
    }
}
