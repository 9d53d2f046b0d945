//! Automatic fast/slow partition for mixed mode (Schiela's approach, Cellier & Kofman §10.7):
//! linearise the model at the initial point, compute the eigenvalues of the Jacobian of the
//! state derivatives, and give an implicit formula to the states that carry the modes forward
//! Euler cannot integrate stably at the chosen step.
//!
//! * **Linearisation.** The model at the start time (the initial system of a plan, states
//!   known) is differentiated in forward mode: every assignment's symbolic partial derivatives
//!   ([`crate::symbolic::diff`]) are evaluated at the initial point and chained, so
//!   J = ∂der(x)/∂x is exact up to rounding. An initial system with an algebraic loop is
//!   linearised by central differences of one zero-length step instead (reported).
//! * **Modes.** Eigenvalues by `nalgebra` (real Schur form); right and left eigenvectors by
//!   back substitution on the real Schur form ([`super::eigen`]; inverse iteration with a
//!   complex LU where the Schur form does not converge); the participation of state i in mode k is
//!   |w_i v_i| / Σ_j |w_j v_j|.
//! * **Partition.** A mode is *fast* at step h when it is stable (Re λ < 0) but forward Euler
//!   is not (|1 + hλ| > 1). The states that participate most in each fast mode (at least half
//!   of the largest participation) are integrated by backward Euler; the rest by forward
//!   Euler. Modes with Re λ > 0 are the model's own instability (the Van der Pol oscillator's
//!   negative resistance), not a reason to go implicit.

use crate::diag::Diagnostic;
use crate::plan::interp::Interp;
use crate::plan::Status;
use crate::plan::{Plan, Stmt};
use crate::symbolic::ExprId;

type Node = crate::symbolic::Node<Slot>;
use crate::plan::Slot;
use nalgebra::{Complex, DMatrix, DVector};
use rustc_hash::FxHashMap;
use std::fmt::Write as _;

/// The model linearised at the initial point: x' = A·x + B·u, y = C·x + D·u over the states,
/// the top-level inputs and the top-level outputs.
pub struct Linearization {
    pub states: Vec<String>,
    /// A: row i is ∂der(x_i)/∂x.
    pub jacobian: DMatrix<f64>,
    pub inputs: Vec<String>,
    pub outputs: Vec<String>,
    /// B = ∂der(x)/∂u, C = ∂y/∂x, D = ∂y/∂u.
    pub b: DMatrix<f64>,
    pub c: DMatrix<f64>,
    pub d: DMatrix<f64>,
    /// Forward-mode symbolic (true) or central differences (false).
    pub symbolic: bool,
    /// The states and their derivatives at the initial point.
    pub values: Vec<f64>,
    pub derivatives: Vec<f64>,
}

/// One eigenvalue with the participation of every state.
pub struct Mode {
    pub lambda: Complex<f64>,
    /// Per state (empty from [`eigenvalue_modes`]).
    pub participation: Vec<f64>,
}

/// The chosen implicit states and why.
pub struct Partition {
    pub implicit: Vec<String>,
    pub reasons: Vec<String>,
}

fn eval(arena: &crate::symbolic::Arena<Slot>, mem: &[f64], time: f64, e: ExprId) -> f64 {
    crate::symbolic::eval::eval(arena, e, &mut |x| mem[x.index()], time)
}

/// The slot of `der(x)` for each state of `p`.
fn derivative_slots(p: &Plan, states: &[Slot]) -> Result<Vec<Slot>, Box<Diagnostic>> {
    states
        .iter()
        .map(|&x| {
            let want = format!("der({})", p.name_of(x));
            p.vars
                .iter()
                .position(|v| v.name == want)
                .map(Slot::new)
                .ok_or_else(|| {
                    Box::new(Diagnostic::error(
                        "internal",
                        format!("no slot for {want} in the plan"),
                    ))
                })
        })
        .collect()
}

/// Forward mode over the initial system's assignments: the tangent of every assigned slot
/// with respect to the seeds (states, then inputs), then the rows of the derivatives and of
/// the outputs.
fn forward_mode(
    p: &Plan,
    mem: &[f64],
    seeds: &[Slot],
    ders: &[Slot],
    outputs: &[ExprId],
) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let n = seeds.len();
    let mut tangent: FxHashMap<Slot, Vec<f64>> = FxHashMap::default();
    for (k, &x) in seeds.iter().enumerate() {
        let mut e = vec![0.0; n];
        e[k] = 1.0;
        tangent.insert(x, e);
    }
    let mut arena = p.arena.clone();
    let time = mem[p.time.index()];
    let row_of = |arena: &mut crate::symbolic::Arena<Slot>,
                  tangent: &FxHashMap<Slot, Vec<f64>>,
                  expr: ExprId| {
        let mut leaves = Vec::new();
        arena.leaves(expr, &mut leaves);
        let mut vars: Vec<Slot> = leaves
            .into_iter()
            .filter_map(|l| match l {
                Node::Var(v) if tangent.contains_key(&v) => Some(v),
                _ => None,
            })
            .collect();
        vars.sort_unstable();
        vars.dedup();
        let mut row = vec![0.0; n];
        for v in vars {
            let d = crate::symbolic::diff::diff(arena, expr, v);
            let dv = eval(arena, mem, time, d);
            if dv != 0.0 {
                for (r, t) in row.iter_mut().zip(&tangent[&v]) {
                    *r += dv * t;
                }
            }
        }
        row
    };
    for s in &p.init {
        let Stmt::Assign(a) = s else { continue };
        let row = row_of(&mut arena, &tangent, a.expr);
        tangent.insert(a.var, row);
    }
    let der_rows = ders
        .iter()
        .map(|d| tangent.get(d).cloned().unwrap_or_else(|| vec![0.0; n]))
        .collect();
    let out_rows = outputs
        .iter()
        .map(|&e| row_of(&mut arena, &tangent, e))
        .collect();
    (der_rows, out_rows)
}

/// Central differences of a zero-length step for every seed (pre-copies take the perturbed
/// values, the model is re-solved at them): the rows of the derivatives and of the outputs.
fn central_differences(
    p: &Plan,
    it: &mut Interp,
    mem: &[f64],
    t0: f64,
    seeds: &[Slot],
    ders: &[Slot],
    outputs: &[ExprId],
) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let n = seeds.len();
    let mut der_rows = vec![vec![0.0; n]; ders.len()];
    let mut out_rows = vec![vec![0.0; n]; outputs.len()];
    for (k, &x) in seeds.iter().enumerate() {
        let x0 = mem[x.index()];
        let delta = 1e-6 * x0.abs().max(1e-3);
        let mut f = |sign: f64| -> (Vec<f64>, Vec<f64>) {
            let mut m = mem.to_vec();
            m[x.index()] = x0 + sign * delta;
            let _ = it.step(&mut m, t0, 0.0);
            let time = m[p.time.index()];
            (
                ders.iter().map(|d| m[d.index()]).collect(),
                outputs
                    .iter()
                    .map(|&e| eval(&p.arena, &m, time, e))
                    .collect(),
            )
        };
        let (dp, op) = f(1.0);
        let (dm, om) = f(-1.0);
        for i in 0..ders.len() {
            der_rows[i][k] = (dp[i] - dm[i]) / (2.0 * delta);
        }
        for i in 0..outputs.len() {
            out_rows[i][k] = (op[i] - om[i]) / (2.0 * delta);
        }
    }
    (der_rows, out_rows)
}

/// Linearises the model of the forward Euler plan `p` at its initial point (start values,
/// parameters, start time `t0`; [`crate::pipeline::linearize`] builds the plan).
pub fn linearize(p: &Plan, t0: f64) -> Result<Linearization, Box<Diagnostic>> {
    let p = p.clone();
    let mut it = Interp::new(&p);
    let mut mem = it.memory();
    let st = it.init(&mut mem, t0);
    if st != Status::Ok {
        return Err(Box::new(Diagnostic::error(
            "linearize",
            format!(
                "cannot linearise: the model at the start time fails ({})",
                crate::plan::describe(&p, st)
            ),
        )));
    }
    let states: Vec<Slot> = p.formulas.iter().map(|(v, _)| *v).collect();
    let inputs = p.input_slots();
    let ders = derivative_slots(&p, &states)?;
    let outs: Vec<&crate::plan::Output> = p.outputs.iter().filter(|o| o.is_output).collect();
    let out_exprs: Vec<ExprId> = outs.iter().map(|o| o.expr).collect();
    let seeds: Vec<Slot> = states.iter().chain(&inputs).copied().collect();
    let symbolic = p.init.iter().all(|s| matches!(s, Stmt::Assign(_)));
    let (der_rows, out_rows) = if symbolic {
        forward_mode(&p, &mem, &seeds, &ders, &out_exprs)
    } else {
        central_differences(&p, &mut it, &mem, t0, &seeds, &ders, &out_exprs)
    };
    let (n, m, q) = (states.len(), inputs.len(), outs.len());
    let split = |rows: &[Vec<f64>], first: bool| {
        let (cols, off) = if first { (n, 0) } else { (m, n) };
        DMatrix::from_fn(rows.len(), cols, |i, j| rows[i][off + j])
    };
    Ok(Linearization {
        states: states.iter().map(|&v| p.name_of(v).to_string()).collect(),
        jacobian: split(&der_rows, true),
        inputs: inputs.iter().map(|&v| p.name_of(v).to_string()).collect(),
        outputs: outs.iter().map(|o| o.name.clone()).collect(),
        b: split(&der_rows, false),
        c: if q == 0 {
            DMatrix::zeros(0, n)
        } else {
            split(&out_rows, true)
        },
        d: if q == 0 {
            DMatrix::zeros(0, m)
        } else {
            split(&out_rows, false)
        },
        symbolic,
        values: states.iter().map(|v| mem[v.index()]).collect(),
        derivatives: ders.iter().map(|v| mem[v.index()]).collect(),
    })
}

/// Inverse iteration for the eigenvector of `a` nearest `lambda`.
pub fn eigenvector(a: &DMatrix<Complex<f64>>, lambda: Complex<f64>) -> DVector<Complex<f64>> {
    let n = a.nrows();
    let shift = lambda + Complex::new(1e-9 * (1.0 + lambda.norm()), 0.0);
    let m = a - DMatrix::<Complex<f64>>::identity(n, n) * shift;
    let lu = m.lu();
    let mut v = DVector::<Complex<f64>>::from_element(n, Complex::new(1.0, 0.0));
    for _ in 0..4 {
        match lu.solve(&v) {
            Some(w) => {
                let norm = w.norm();
                if norm == 0.0 || !norm.is_finite() {
                    break;
                }
                v = w / Complex::new(norm, 0.0);
            }
            None => break,
        }
    }
    v
}

/// Iterations of the Schur decomposition at most (per eigenvalue, nalgebra's count): its QR
/// iteration does not always converge, and unbounded it would not return.
const SCHUR_ITERATIONS: usize = 1000;

/// The eigenvalues of a square matrix, or why not (non-finite entries, no convergence). The
/// matrix is split into the blocks of its strongly connected components first (a Jacobian's
/// states are often decoupled in groups: block-triangular after a permutation, its eigenvalues
/// are those of the diagonal blocks), and each block of more than one state is scaled to entries
/// of at most 1 before its Schur decomposition; a zero block has zero eigenvalues (nalgebra's
/// QR iteration does not converge on one).
pub fn eigenvalues(m: &DMatrix<f64>) -> Result<Vec<Complex<f64>>, String> {
    if m.iter().any(|x| !x.is_finite()) {
        return Err("the Jacobian at the initial point has non-finite entries".into());
    }
    let n = m.nrows();
    let mut g = petgraph::graph::DiGraph::<(), ()>::new();
    let nodes: Vec<_> = (0..n).map(|_| g.add_node(())).collect();
    for i in 0..n {
        for j in 0..n {
            if i != j && m[(i, j)] != 0.0 {
                g.add_edge(nodes[j], nodes[i], ());
            }
        }
    }
    let mut out = Vec::with_capacity(n);
    for comp in petgraph::algo::tarjan_scc(&g) {
        let idx: Vec<usize> = comp.iter().map(|x| x.index()).collect();
        if idx.len() == 1 {
            out.push(Complex::new(m[(idx[0], idx[0])], 0.0));
            continue;
        }
        let k = idx.len();
        let block = DMatrix::from_fn(k, k, |a, b| m[(idx[a], idx[b])]);
        let scale = block.iter().fold(0.0f64, |acc, x| acc.max(x.abs()));
        if scale == 0.0 {
            out.extend(std::iter::repeat_n(Complex::new(0.0, 0.0), k));
            continue;
        }
        let s = nalgebra::linalg::Schur::try_new(block / scale, f64::EPSILON, SCHUR_ITERATIONS * k)
            .ok_or("the eigenvalues of the Jacobian at the initial point did not converge")?;
        out.extend(s.complex_eigenvalues().iter().map(|&l| l * scale));
    }
    Ok(out)
}

type CMatrix = DMatrix<Complex<f64>>;

/// Eigenvalues alone (every participation left empty), sorted as [`modes`] sorts them: what
/// the method check of a run needs, without the eigenvectors' second Schur decomposition.
pub fn eigenvalue_modes(lin: &Linearization) -> Result<Vec<Mode>, String> {
    let mut out: Vec<Mode> = eigenvalues(&lin.jacobian)?
        .into_iter()
        .map(|lambda| Mode {
            lambda,
            participation: Vec::new(),
        })
        .collect();
    out.sort_by(|a, b| a.lambda.re.total_cmp(&b.lambda.re));
    Ok(out)
}

/// The participation of every state in the mode of eigenvalue `lambda` (inverse iteration:
/// one complex LU, for a single mode).
pub fn participation_of(lin: &Linearization, lambda: Complex<f64>) -> Vec<f64> {
    let a = lin.jacobian.map(|x| Complex::new(x, 0.0));
    let v = eigenvector(&a, lambda);
    let w = eigenvector(&a.transpose(), lambda);
    participation(&v, &w)
}

fn participation(v: &DVector<Complex<f64>>, w: &DVector<Complex<f64>>) -> Vec<f64> {
    let mut p: Vec<f64> = v
        .iter()
        .zip(w.iter())
        .map(|(a, b)| (a * b).norm())
        .collect();
    let total: f64 = p.iter().sum();
    if total > 0.0 && total.is_finite() {
        for x in p.iter_mut() {
            *x /= total;
        }
    }
    p
}

/// Eigenvalues with state participation factors.
pub fn modes(lin: &Linearization) -> Result<Vec<Mode>, String> {
    let n = lin.states.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    let eig = eigenvalues(&lin.jacobian)?;
    let schur = super::eigen::SchurVectors::new(&lin.jacobian, SCHUR_ITERATIONS * n);
    let finite = |v: &DVector<Complex<f64>>| v.iter().all(|x| x.re.is_finite() && x.im.is_finite());
    let mut inverse: Option<(CMatrix, CMatrix)> = None;
    let mut out: Vec<Mode> = eig
        .iter()
        .map(|&lambda| {
            let from_schur = schur
                .as_ref()
                .map(|s| (s.right(lambda), s.left(lambda)))
                .filter(|(v, w)| finite(v) && finite(w));
            // Where the Schur form did not converge: inverse iteration, O(n³) per mode.
            let (v, w) = from_schur.unwrap_or_else(|| {
                let (a, at) = inverse.get_or_insert_with(|| {
                    let a = lin.jacobian.map(|x| Complex::new(x, 0.0));
                    let at = a.transpose();
                    (a, at)
                });
                (eigenvector(a, lambda), eigenvector(at, lambda))
            });
            Mode {
                lambda,
                participation: participation(&v, &w),
            }
        })
        .collect();
    out.sort_by(|a, b| a.lambda.re.total_cmp(&b.lambda.re));
    Ok(out)
}

/// Amplification factor of a method for hλ.
fn amplification(method: &str, z: Complex<f64>) -> f64 {
    let one = Complex::new(1.0, 0.0);
    match method {
        "fe" => (one + z).norm(),
        "be" => (one / (one - z)).norm(),
        "trapezoid" => ((one + z / 2.0) / (one - z / 2.0)).norm(),
        _ => ((one + z / 3.0) / (one - z * (2.0 / 3.0) + z * z / 6.0)).norm(),
    }
}

/// The states to integrate implicitly at step `h`, with reasons.
pub fn partition(lin: &Linearization, modes: &[Mode], h: f64) -> Partition {
    let mut implicit: Vec<usize> = Vec::new();
    let mut reasons = Vec::new();
    for m in modes {
        let z = m.lambda * h;
        if m.lambda.re >= 0.0 || amplification("fe", z) <= 1.0 {
            continue;
        }
        let max = m.participation.iter().cloned().fold(0.0, f64::max);
        for (i, &p) in m.participation.iter().enumerate() {
            if p >= 0.5 * max && p > 0.0 {
                if !implicit.contains(&i) {
                    implicit.push(i);
                }
                reasons.push(format!(
                    "{}: mode λ = {} has |1 + hλ| = {:.3} > 1 (forward Euler unstable), participation {:.2}",
                    lin.states[i],
                    fmt_lambda(m.lambda),
                    amplification("fe", z),
                    p
                ));
            }
        }
    }
    implicit.sort_unstable();
    Partition {
        implicit: implicit.iter().map(|&i| lin.states[i].clone()).collect(),
        reasons,
    }
}

/// The largest step for which forward Euler is stable on mode λ (Re λ < 0).
fn fe_limit(l: Complex<f64>) -> f64 {
    -2.0 * l.re / l.norm_sqr()
}

fn fmt_lambda(l: Complex<f64>) -> String {
    if l.im.abs() <= 1e-12 * l.norm().max(1e-300) {
        format!("{:.6e}", l.re)
    } else {
        format!(
            "{:.6e} {} {:.6e}j",
            l.re,
            if l.im < 0.0 { '-' } else { '+' },
            l.im.abs()
        )
    }
}

/// The linearisation section of `rtc analyze`: eigenvalues, each method's verdict at `h`,
/// and the automatic partition.
pub fn report(lin: &Linearization, modes: &[Mode], h: Option<f64>) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "linearisation at the initial point ({}): {} eigenvalues",
        if lin.symbolic {
            "symbolic Jacobian"
        } else {
            "central differences: the initial system has an algebraic loop"
        },
        modes.len()
    );
    for m in modes {
        let (imax, pmax) =
            m.participation.iter().enumerate().fold(
                (0, 0.0),
                |acc, (i, &p)| if p > acc.1 { (i, p) } else { acc },
            );
        let mut line = format!("  λ = {}", fmt_lambda(m.lambda));
        if let Some(h) = h {
            let _ = write!(line, "  (hλ = {})", fmt_lambda(m.lambda * h));
        }
        if !lin.states.is_empty() {
            let _ = write!(line, "  mostly {} ({:.2})", lin.states[imax], pmax);
        }
        if m.lambda.re > 0.0 {
            line.push_str("  unstable mode of the model");
        }
        let _ = writeln!(s, "{line}");
    }
    // Forward Euler's stability limit: |1 + hλ| ≤ 1 ⇔ h ≤ −2·Re λ / |λ|², over stable modes.
    if let Some(m) = modes
        .iter()
        .filter(|m| m.lambda.re < 0.0)
        .min_by(|a, b| fe_limit(a.lambda).total_cmp(&fe_limit(b.lambda)))
    {
        let _ = writeln!(
            s,
            "forward Euler is stable for h <= {:.4e} s (set by λ = {})",
            fe_limit(m.lambda),
            fmt_lambda(m.lambda)
        );
    }
    if let Some(h) = h {
        let _ = writeln!(s, "stability at h = {h} (stable modes of the model):");
        for (method, name) in [
            ("fe", "forward Euler"),
            ("be", "backward Euler"),
            ("trapezoid", "trapezoid"),
            ("radau", "Radau IIA"),
        ] {
            let worst = modes
                .iter()
                .filter(|m| m.lambda.re < 0.0)
                .map(|m| amplification(method, m.lambda * h))
                .fold(0.0, f64::max);
            let _ = writeln!(
                s,
                "  {name:<15} largest |R(hλ)| = {worst:.4}  {}",
                if worst <= 1.0 + 1e-12 {
                    "stable"
                } else {
                    "UNSTABLE"
                }
            );
        }
        let part = partition(lin, modes, h);
        if part.implicit.is_empty() {
            let _ = writeln!(
                s,
                "partition for mixed mode: none needed (forward Euler is stable for every stable mode)"
            );
        } else {
            let _ = writeln!(
                s,
                "partition for mixed mode: implicit {}",
                part.implicit.join(", ")
            );
            for r in &part.reasons {
                let _ = writeln!(s, "  {r}");
            }
        }
    }
    s
}
