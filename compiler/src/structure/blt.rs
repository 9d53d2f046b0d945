//! Block<V> lower triangular form: matching, then Tarjan's strongly connected components.
//!
//! Each equation is matched to the unknown it determines; equation i depends on equation j
//! when i contains the unknown matched to j. The strongly connected components of that graph,
//! in dependency order, are the blocks: a block of one equation is solved on its own, a larger
//! block is an algebraic loop (torn in `tearing`).

use super::matching::{maximum_matching, UNMATCHED};
use crate::diag::Diagnostic;
use crate::symbolic::{Arena, EntityVec, Node, Var};

use crate::system::{SEquation, SysEq, System};
use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::FxHashMap;

/// One block: equations of the system and the unknowns they determine, paired by the matching
/// (`equations[i]` is matched to `unknowns[i]`).
#[derive(Clone, Debug)]
pub struct Block<V: Var> {
    pub equations: Vec<SysEq>,
    pub unknowns: Vec<V>,
}

/// The unknowns of `system` each equation contains.
pub fn incidence<V: Var>(arena: &Arena<V>, system: &System<V>) -> EntityVec<SysEq, Vec<V>> {
    let unknown: rustc_hash::FxHashSet<V> = system.unknowns.iter().copied().collect();
    let mut out = EntityVec::from(Vec::with_capacity(system.equations.len()));
    let mut leaves = Vec::new();
    for eq in &system.equations {
        leaves.clear();
        arena.leaves(eq.lhs, &mut leaves);
        arena.leaves(eq.rhs, &mut leaves);
        let mut row: Vec<V> = Vec::new();
        for l in &leaves {
            if let Node::Var(v) = *l {
                if unknown.contains(&v) && !row.contains(&v) {
                    row.push(v);
                }
            }
        }
        out.push(row);
    }
    out
}

/// Sorts `system` into blocks. `names` names variables for diagnostics.
pub fn blt<V: Var>(
    arena: &Arena<V>,
    system: &System<V>,
    names: &dyn Fn(V) -> String,
    eq_text: &dyn Fn(&SEquation) -> String,
) -> Result<Vec<Block<V>>, Box<Diagnostic>> {
    let inc = incidence(arena, system);
    let index: FxHashMap<V, usize> = system
        .unknowns
        .iter()
        .enumerate()
        .map(|(i, &v)| (v, i))
        .collect();
    let adj: Vec<Vec<usize>> = inc
        .iter()
        .map(|row| row.iter().filter_map(|v| index.get(v).copied()).collect())
        .collect();
    let m = maximum_matching(&adj, system.unknowns.len());
    let neq = system.equations.len();
    let nunk = system.unknowns.len();
    if m.size != neq || neq != nunk {
        let unmatched_vars: Vec<String> = (0..nunk)
            .filter(|&c| m.col_to_row[c] == UNMATCHED)
            .map(|c| names(system.unknowns[c]))
            .collect();
        // The matching's rows are the system's equations, in order.
        let unmatched_eqs: Vec<SysEq> = (0..neq)
            .filter(|&r| m.row_to_col[r] == UNMATCHED)
            .map(SysEq::new)
            .collect();
        let mut d = Diagnostic::error(
            "singular",
            format!(
                "the step system is structurally singular: {} equations, {} unknowns, {} matched",
                neq, nunk, m.size
            ),
        );
        if let Some(&r) = unmatched_eqs.first() {
            d = d.at(
                system.equations[r].span,
                "this equation has no unknown left to determine",
            );
        }
        let mut help = Vec::new();
        if !unmatched_vars.is_empty() {
            help.push(format!(
                "no equation determines {}",
                unmatched_vars
                    .iter()
                    .take(10)
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if !unmatched_eqs.is_empty() {
            help.push(format!(
                "equations left over: {}",
                unmatched_eqs
                    .iter()
                    .take(6)
                    .map(|&r| format!("`{}`", eq_text(&system.equations[r])))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        help.push("a state constrained by an algebraic equation that index reduction left in the model (see its note in `rtc check`)".into());
        return Err(Box::new(d.help(help.join("\n"))));
    }
    // Dependency graph: i → j when equation i uses the unknown matched to equation j.
    let mut g: DiGraph<usize, ()> = DiGraph::with_capacity(neq, neq * 3);
    let nodes: Vec<NodeIndex> = (0..neq).map(|i| g.add_node(i)).collect();
    for (i, row) in adj.iter().enumerate() {
        for &c in row {
            let j = m.col_to_row[c];
            if j != i {
                g.add_edge(nodes[i], nodes[j], ());
            }
        }
    }
    // Tarjan emits a component after every component it reaches: dependencies first.
    let sccs = petgraph::algo::tarjan_scc(&g);
    let mut blocks = Vec::with_capacity(sccs.len());
    for scc in sccs {
        let mut rows: Vec<usize> = scc.iter().map(|&n| g[n]).collect();
        rows.sort_unstable();
        let unknowns = rows
            .iter()
            .map(|&r| system.unknowns[m.row_to_col[r]])
            .collect();
        blocks.push(Block {
            equations: rows.into_iter().map(SysEq::new).collect(),
            unknowns,
        });
    }
    Ok(blocks)
}
