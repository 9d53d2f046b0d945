//! Maximum bipartite matching of equations to unknowns (Hopcroft–Karp).
//!
//! Rows are equations, columns unknowns; `adj[row]` lists the unknowns a row contains. The
//! result assigns each row at most one column and each column at most one row, with as many
//! pairs as possible: a perfect matching exists exactly when the system is structurally
//! nonsingular. Iterative throughout, so large models cannot overflow the stack.

pub const UNMATCHED: usize = usize::MAX;

pub struct Matching {
    pub row_to_col: Vec<usize>,
    pub col_to_row: Vec<usize>,
    pub size: usize,
}

pub fn maximum_matching(adj: &[Vec<usize>], ncols: usize) -> Matching {
    let nrows = adj.len();
    let mut row_to_col = vec![UNMATCHED; nrows];
    let mut col_to_row = vec![UNMATCHED; ncols];
    let mut size = 0;
    // Greedy start: most rows match at once in sparse systems.
    for r in 0..nrows {
        for &c in &adj[r] {
            if col_to_row[c] == UNMATCHED {
                row_to_col[r] = c;
                col_to_row[c] = r;
                size += 1;
                break;
            }
        }
    }
    let mut dist = vec![0usize; nrows];
    let mut queue = Vec::with_capacity(nrows);
    let mut it = vec![0usize; nrows];
    let mut stack: Vec<usize> = Vec::new();
    loop {
        // BFS layers from free rows.
        queue.clear();
        for r in 0..nrows {
            if row_to_col[r] == UNMATCHED {
                dist[r] = 0;
                queue.push(r);
            } else {
                dist[r] = usize::MAX;
            }
        }
        let mut found = false;
        let mut head = 0;
        while head < queue.len() {
            let r = queue[head];
            head += 1;
            for &c in &adj[r] {
                let r2 = col_to_row[c];
                if r2 == UNMATCHED {
                    found = true;
                } else if dist[r2] == usize::MAX {
                    dist[r2] = dist[r] + 1;
                    queue.push(r2);
                }
            }
        }
        if !found {
            break;
        }
        // DFS along layers from each free row, iteratively.
        it.iter_mut().for_each(|x| *x = 0);
        for start in 0..nrows {
            if row_to_col[start] != UNMATCHED {
                continue;
            }
            stack.clear();
            stack.push(start);
            let mut augmented = false;
            while let Some(&r) = stack.last() {
                if it[r] >= adj[r].len() {
                    dist[r] = usize::MAX; // dead end
                    stack.pop();
                    continue;
                }
                let c = adj[r][it[r]];
                it[r] += 1;
                let r2 = col_to_row[c];
                if r2 == UNMATCHED {
                    // Augment along the stack: each row takes the column it stepped through.
                    let mut col = c;
                    while let Some(row) = stack.pop() {
                        let prev = row_to_col[row];
                        row_to_col[row] = col;
                        col_to_row[col] = row;
                        col = prev;
                    }
                    augmented = true;
                    break;
                } else if dist[r2] == dist[r] + 1 {
                    stack.push(r2);
                }
            }
            if augmented {
                size += 1;
            }
        }
    }
    Matching {
        row_to_col,
        col_to_row,
        size,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_matching_needs_augmenting_path() {
        // r0: {c0, c1}, r1: {c0}: greedy puts r0 on c0; augmentation moves it to c1.
        let m = maximum_matching(&[vec![0, 1], vec![0]], 2);
        assert_eq!(m.size, 2);
        assert_eq!(m.row_to_col, vec![1, 0]);
    }

    #[test]
    fn singular_structure_is_detected() {
        // Two rows that only contain c0.
        let m = maximum_matching(&[vec![0], vec![0], vec![1, 2]], 3);
        assert_eq!(m.size, 2);
    }

    #[test]
    fn long_chain_matches_fully() {
        // r_i: {c_i, c_{i+1}}, last row {c_0}: forces a long augmenting path.
        let n = 2000;
        let mut adj: Vec<Vec<usize>> = (0..n - 1).map(|i| vec![i, i + 1]).collect();
        adj.push(vec![0]);
        let m = maximum_matching(&adj, n);
        assert_eq!(m.size, n);
    }
}
