//! Howe's dynamic error measures (seed 001, §1.3): what an inlined formula does to the
//! dynamics of the linearised model, root by root and at the frequencies that matter.
//!
//! * **Characteristic roots.** For a linear model x' = A·x + B·u, every method rtc inlines is a
//!   linear discrete system. For a method applied alike to every state, each eigenvalue λ of
//!   A maps to the roots of the method's own stability function at q = hλ: one root
//!   R(q) = 1 + q·bᵀ(I − q·A_rk)⁻¹·1 for a Runge-Kutta tableau (forward and backward Euler,
//!   the trapezoid, Radau IIA, the real-time explicit formulas; linearly implicit Euler is
//!   backward Euler's 1/(1 − q) on a linear model), k roots of
//!   ζ^k − ζ^(k−1) − q·Σβ_j·ζ^(k−1−j) for Adams-Bashforth of order k (the principal root,
//!   nearest e^q, and k − 1 extraneous ones). Mixed mode integrates some states by another
//!   formula than others, so the roots are the eigenvalues of its step matrix Φ, each paired
//!   with the eigenvalue it approximates. The equivalent continuous root is λ* = ln(z)/h (the
//!   branch of the logarithm nearest λ), and Howe's measures follow: the fractional root error
//!   e_λ = (λ* − λ)/λ and its magnitude e_|λ| (eq. 1.45, 1.50); for complex roots the damping
//!   ratio error e_ζ = ζ* − ζ and the damped-frequency error e_ω = (ω_d* − ω_d)/ω_d (eq.
//!   1.47); the fractional error of the real part (damping); and the amplitude error over one
//!   period 2π/ω_d (one time constant 1/|λ| for a real root): e^((Re λ* − Re λ)·T) − 1.
//! * **Transfer functions.** For a sinusoidal input of frequency ω the digital system's
//!   transfer function is H*(e^(jωh)) (§1.3, eq. 1.51): from the one-step form
//!   x_{n+1} = Φ·x_n + Γ(ω)·u_n, H* = C·(e^(jωh)·I − Φ)⁻¹·Γ(ω) + D, where Γ carries where the
//!   formula samples the input — at the stage times t + c_i·h of a Runge-Kutta formula (the
//!   end of the step for backward Euler, both ends for the trapezoid), at the start for
//!   forward and linearly implicit Euler — as the factor e^(jω·c_i·h). The gain error is
//!   |H*|/|H| − 1 and the phase error arg(H*/H) (eq. 1.53, 1.54), against the continuous
//!   H(jω) = C·(jω·I − A)⁻¹·B + D.

use crate::analysis::partition::{Linearization, Mode};
use crate::system::Method;
use nalgebra::{Complex, DMatrix};
use std::f64::consts::PI;
use std::fmt::Write as _;

type C64 = Complex<f64>;

fn c(re: f64) -> C64 {
    Complex::new(re, 0.0)
}

/// A method rtc inlines, as a linear discrete system.
#[derive(Clone, Debug)]
pub enum Scheme {
    /// A Runge-Kutta tableau: stage times, coefficients (s × s), weights.
    Rk {
        c: Vec<f64>,
        a: Vec<Vec<f64>>,
        b: Vec<f64>,
    },
    /// Adams-Bashforth: x_{n+1} = x_n + h·Σ_j β_j·f_{n−j}.
    Ab(Vec<f64>),
    /// Per state: forward Euler, or for the implicit states backward Euler (or linearly
    /// implicit Euler on their Jacobian block, `libe`).
    Partitioned { implicit: Vec<bool>, libe: bool },
}

/// Why an error measure could not be computed: the door between the accuracy analysis and
/// its callers (`rtc analyze --errors`, the run's method check, the default's choice).
#[derive(Debug, thiserror::Error)]
pub enum AccuracyError {
    /// Mixed mode names as implicit a variable that is not a state of the model.
    #[error("`{0}` is not a state of the model")]
    NotAState(String),
    /// Multi-rate integration: its step is not one linear map per step of the slow states.
    #[error("not yet: the error measures of multi-rate integration (its step is not one linear map per step of the slow states)")]
    MultiRate,
    /// The implicit part of the one-step map cannot be inverted at this step.
    #[error("the step matrix is singular at this step")]
    SingularStep,
    /// The Schur decomposition of the one-step map did not converge.
    #[error("the eigenvalues of the step matrix did not converge")]
    NoEigenvalues,
    /// The continuous transfer function is asked for at one of the model's poles (Hz).
    #[error("the model has a pole at {0} Hz")]
    Pole(f64),
    /// The discrete transfer function has a pole on the unit circle at the frequency asked.
    #[error("the digital system has a pole on the unit circle at this frequency")]
    DigitalPole,
}

impl Scheme {
    /// The scheme of `method` over the model's `states` (mixed mode names its implicit ones).
    pub fn of(method: &Method, states: &[String]) -> Result<Scheme, AccuracyError> {
        let rk = |c: &[f64], a: &[&[f64]], b: &[f64]| Scheme::Rk {
            c: c.to_vec(),
            a: a.iter().map(|r| r.to_vec()).collect(),
            b: b.to_vec(),
        };
        let flags = |names: &[String]| -> Result<Vec<bool>, AccuracyError> {
            if let Some(n) = names.iter().find(|n| !states.contains(n)) {
                return Err(AccuracyError::NotAState(n.clone()));
            }
            Ok(states.iter().map(|s| names.contains(s)).collect())
        };
        Ok(match method {
            Method::ForwardEuler => rk(&[0.0], &[&[0.0]], &[1.0]),
            Method::BackwardEuler => rk(&[1.0], &[&[1.0]], &[1.0]),
            // Lobatto IIIA with two stages: the trapezoidal rule.
            Method::Trapezoid => rk(&[0.0, 1.0], &[&[0.0, 0.0], &[0.5, 0.5]], &[0.5, 0.5]),
            Method::Radau => rk(
                &[1.0 / 3.0, 1.0],
                &[&[5.0 / 12.0, -1.0 / 12.0], &[0.75, 0.25]],
                &[0.75, 0.25],
            ),
            Method::Rk(r) => {
                let (c, rows, b) = r.tableau();
                let s = c.len();
                let mut a = vec![vec![0.0; s]; s];
                for (k, row) in rows.iter().enumerate() {
                    a[k + 1][..row.len()].copy_from_slice(row);
                }
                Scheme::Rk {
                    c: c.to_vec(),
                    a,
                    b: b.to_vec(),
                }
            }
            Method::Ab(2) => Scheme::Ab(vec![1.5, -0.5]),
            Method::Ab(_) => Scheme::Ab(vec![23.0 / 12.0, -16.0 / 12.0, 5.0 / 12.0]),
            Method::Libe => Scheme::Partitioned {
                implicit: vec![true; states.len()],
                libe: true,
            },
            Method::Mixed { implicit } => Scheme::Partitioned {
                implicit: flags(implicit)?,
                libe: false,
            },
            Method::MixedLibe { implicit } => Scheme::Partitioned {
                implicit: flags(implicit)?,
                libe: true,
            },
            Method::MultiRate { .. } => return Err(AccuracyError::MultiRate),
        })
    }

    /// The roots of the scheme for one mode at q = hλ, each as w = z − 1 (computed without
    /// the cancellation of forming z first, so that ln(z) = ln(1 + w) keeps its precision at
    /// small steps), the principal root first; `None` when the states are integrated by
    /// different formulas (the roots are then the step matrix's eigenvalues).
    pub fn roots(&self, q: C64) -> Option<Vec<C64>> {
        match self {
            Scheme::Rk { a, b, .. } => {
                let s = b.len();
                let m =
                    DMatrix::from_fn(s, s, |i, j| c(if i == j { 1.0 } else { 0.0 }) - q * a[i][j]);
                let ones = DMatrix::from_element(s, 1, c(1.0));
                let k = m.lu().solve(&ones)?;
                let sum: C64 = (0..s).map(|i| k[(i, 0)] * b[i]).sum();
                Some(vec![q * sum])
            }
            Scheme::Ab(beta) => {
                // ζ^k − ζ^(k−1) − q·Σ β_j ζ^(k−1−j) with ζ = 1 + w:
                // w·(1 + w)^(k−1) − q·Σ β_j (1 + w)^(k−1−j), coefficients from w^k down
                // (built term by term, so the constant −q·Σβ_j carries no cancellation).
                let k = beta.len();
                let binom = |n: usize, r: usize| -> f64 {
                    (0..r).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
                };
                let mut coef = vec![c(0.0); k + 1];
                // w·(1 + w)^(k−1): the coefficient of w^(r+1) is C(k−1, r).
                for r in 0..k {
                    coef[k - (r + 1)] += binom(k - 1, r);
                }
                for (j, &bj) in beta.iter().enumerate() {
                    let n = k - 1 - j;
                    for r in 0..=n {
                        coef[k - r] -= q * (bj * binom(n, r));
                    }
                }
                let mut roots = polynomial_roots(&coef);
                let e = q.exp() - c(1.0);
                roots.sort_by(|x, y| (x - e).norm().total_cmp(&(y - e).norm()));
                Some(roots)
            }
            Scheme::Partitioned { implicit, libe: _ } => {
                if implicit.iter().all(|&i| i) {
                    // Backward Euler, and linearly implicit Euler on a linear model.
                    Some(vec![q / (c(1.0) - q)])
                } else if implicit.iter().all(|&i| !i) {
                    Some(vec![q])
                } else {
                    None
                }
            }
        }
    }

    /// The one-step form x_{n+1} = Φ·x_n + Γ·u_n for a sinusoidal input of angular frequency
    /// `w` (Γ carries the phase of each sampling time; `w` = 0 for the step matrix alone).
    /// `None` for multistep formulas.
    fn one_step(
        &self,
        lin: &Linearization,
        h: f64,
        w: f64,
    ) -> Option<(DMatrix<C64>, DMatrix<C64>)> {
        let a = lin.jacobian.map(c);
        let bm = lin.b.map(c);
        let n = a.nrows();
        let m = bm.ncols();
        let eye = DMatrix::<C64>::identity(n, n);
        let phase = |t: f64| Complex::new(0.0, w * t * h).exp();
        match self {
            Scheme::Rk {
                c: times,
                a: ark,
                b,
            } => {
                let s = b.len();
                // Stages K = (I − h·A_rk⊗A)⁻¹·[(1⊗A)·x + (e⊗B)·u].
                let mut sys = DMatrix::<C64>::identity(s * n, s * n);
                let mut rhs = DMatrix::<C64>::zeros(s * n, n + m);
                for i in 0..s {
                    for (j, &aij) in ark[i].iter().enumerate() {
                        if aij != 0.0 {
                            let blk = &a * c(h * aij);
                            let mut view = sys.view_mut((i * n, j * n), (n, n));
                            view -= blk;
                        }
                    }
                    rhs.view_mut((i * n, 0), (n, n)).copy_from(&a);
                    rhs.view_mut((i * n, n), (n, m))
                        .copy_from(&(&bm * phase(times[i])));
                }
                let k = sys.lu().solve(&rhs)?;
                let mut phi = eye.clone();
                let mut gamma = DMatrix::<C64>::zeros(n, m);
                for (i, &bi) in b.iter().enumerate() {
                    if bi != 0.0 {
                        phi += k.view((i * n, 0), (n, n)) * c(h * bi);
                        gamma += k.view((i * n, n), (n, m)) * c(h * bi);
                    }
                }
                Some((phi, gamma))
            }
            Scheme::Ab(_) => None,
            Scheme::Partitioned { implicit, libe } => {
                let p = DMatrix::<C64>::from_fn(n, n, |i, j| {
                    c(f64::from(u8::from(i == j && implicit[i])))
                });
                let q = &eye - &p;
                let (m1, m0, n0, n1) = if *libe {
                    let pap = &p * &a * &p;
                    (
                        &eye - &pap * c(h),
                        &eye + (&a - &pap) * c(h),
                        &bm * c(h),
                        DMatrix::<C64>::zeros(n, m),
                    )
                } else {
                    (
                        &eye - &p * &a * c(h),
                        &eye + &q * &a * c(h),
                        &q * &bm * c(h),
                        &p * &bm * c(h),
                    )
                };
                let lu = m1.lu();
                let phi = lu.solve(&m0)?;
                let gamma = lu.solve(&(n0 + n1 * phase(1.0)))?;
                Some((phi, gamma))
            }
        }
    }
}

/// ln(1 + w), accurate for small w.
fn ln1p(w: C64) -> C64 {
    Complex::new(
        0.5 * (2.0 * w.re + w.norm_sqr()).ln_1p(),
        w.im.atan2(1.0 + w.re),
    )
}

/// The roots of the polynomial with coefficients `coef` (highest power first, leading 1) by
/// the Durand–Kerner iteration (degree ≤ 3 here), polished by Newton steps.
fn polynomial_roots(coef: &[C64]) -> Vec<C64> {
    let deg = coef.len() - 1;
    let p = |x: C64| coef.iter().fold(c(0.0), |acc, &k| acc * x + k);
    let dp = |x: C64| {
        let mut acc = c(0.0);
        for (i, &k) in coef[..deg].iter().enumerate() {
            acc = acc * x + k * (deg - i) as f64;
        }
        acc
    };
    let seed = Complex::new(0.4, 0.9);
    let mut z: Vec<C64> = (0..deg).map(|i| seed.powu(i as u32)).collect();
    for _ in 0..500 {
        let mut moved = 0.0f64;
        for i in 0..deg {
            let mut den = c(1.0);
            for j in 0..deg {
                if j != i {
                    den *= z[i] - z[j];
                }
            }
            let step = p(z[i]) / den;
            if step.is_finite() {
                z[i] -= step;
                moved = moved.max(step.norm());
            }
        }
        if moved < 1e-15 {
            break;
        }
    }
    for r in z.iter_mut() {
        for _ in 0..3 {
            let d = dp(*r);
            if d.norm() > 0.0 {
                let step = p(*r) / d;
                if step.is_finite() {
                    *r -= step;
                }
            }
        }
    }
    z
}

/// The equivalent continuous root of the discrete root z = 1 + `w` at step `h`: ln(z)/h on
/// the branch nearest `lambda`.
pub fn equivalent_root(w: C64, h: f64, lambda: C64) -> C64 {
    let ln = ln1p(w);
    let k = ((lambda.im * h - ln.im) / (2.0 * PI)).round();
    Complex::new(ln.re, ln.im + 2.0 * PI * k) / h
}

/// Howe's measures for one characteristic root.
#[derive(Clone, Debug)]
pub struct RootError {
    pub lambda: C64,
    /// The principal discrete root and the extraneous ones (multistep formulas).
    pub z: C64,
    pub extraneous: Vec<C64>,
    /// λ* = ln(z)/h.
    pub star: C64,
    /// e_|λ| = |λ* − λ|/|λ| (eq. 1.50).
    pub e_abs: f64,
    /// (Re λ* − Re λ)/Re λ: the fractional error of the damping (NaN for Re λ = 0).
    pub e_re: f64,
    /// Complex roots: e_ω = (ω_d* − ω_d)/ω_d and e_ζ = ζ* − ζ (eq. 1.47).
    pub e_omega: Option<f64>,
    pub e_zeta: Option<f64>,
    /// e^((Re λ* − Re λ)·T) − 1 over one period T = 2π/ω_d (a time constant 1/|λ| for a real
    /// root).
    pub amplitude: f64,
}

impl RootError {
    /// From w = z − 1 of the principal root and the extraneous roots (also as z − 1).
    fn new(lambda: C64, w: C64, extraneous: Vec<C64>, h: f64) -> RootError {
        let z = w + c(1.0);
        let extraneous = extraneous.into_iter().map(|e| e + c(1.0)).collect();
        let star = if z.norm() == 0.0 {
            Complex::new(f64::NEG_INFINITY, 0.0)
        } else {
            equivalent_root(w, h, lambda)
        };
        let e_abs = (star - lambda).norm() / lambda.norm();
        let e_re = (star.re - lambda.re) / lambda.re;
        let complex = lambda.im.abs() > 1e-12 * lambda.norm();
        let (e_omega, e_zeta, period) = if complex {
            let zeta = |l: C64| -l.re / l.norm();
            (
                Some((star.im.abs() - lambda.im.abs()) / lambda.im.abs()),
                Some(zeta(star) - zeta(lambda)),
                2.0 * PI / lambda.im.abs(),
            )
        } else {
            (None, None, 1.0 / lambda.norm())
        };
        RootError {
            lambda,
            z,
            extraneous,
            star,
            e_abs,
            e_re,
            e_omega,
            e_zeta,
            amplitude: ((star.re - lambda.re) * period).exp() - 1.0,
        }
    }
}

/// Howe's root measures of `scheme` at step `h` for every mode (λ = 0 has none and is left
/// out; of a conjugate pair only the root with Im λ > 0 is kept).
pub fn root_errors(
    lin: &Linearization,
    modes: &[Mode],
    scheme: &Scheme,
    h: f64,
) -> Result<Vec<RootError>, AccuracyError> {
    let lambdas: Vec<C64> = modes.iter().map(|m| m.lambda).collect();
    let discrete: Vec<(C64, Vec<C64>)> = match lambdas
        .iter()
        .map(|&l| scheme.roots(l * h))
        .collect::<Option<Vec<_>>>()
    {
        Some(all) => all.into_iter().map(|r| (r[0], r[1..].to_vec())).collect(),
        None => {
            let (phi, _) = scheme
                .one_step(lin, h, 0.0)
                .ok_or(AccuracyError::SingularStep)?;
            let zs: Vec<C64> = nalgebra::linalg::Schur::try_new(
                phi.clone(),
                f64::EPSILON,
                1000 * phi.nrows().max(1),
            )
            .ok_or(AccuracyError::NoEigenvalues)?
            .eigenvalues()
            .unwrap_or_default()
            .iter()
            .copied()
            .collect();
            pair_roots(&lin.jacobian.map(c), &lambdas, &phi, &zs)
                .into_iter()
                .map(|w| (w, Vec::new()))
                .collect()
        }
    };
    Ok(lambdas
        .iter()
        .zip(discrete)
        .filter(|(l, _)| l.norm() > 0.0 && l.im >= 0.0)
        .map(|(&l, (z, ex))| RootError::new(l, z, ex, h))
        .collect())
}

/// Pairs each continuous root λ_i (eigenvalue of `a`) with the discrete root z_k (eigenvalue
/// of the step matrix `phi`) whose eigenvector is most nearly parallel to λ_i's — the step
/// matrix of a consistent method is I + h·A + O(h²), so each mode keeps its direction —
/// greedily from the best-aligned pair down. Returned as w = z − 1 per continuous root.
fn pair_roots(a: &DMatrix<C64>, lambdas: &[C64], phi: &DMatrix<C64>, zs: &[C64]) -> Vec<C64> {
    let unit = |v: nalgebra::DVector<C64>| {
        let n = v.norm();
        if n > 0.0 {
            v / c(n)
        } else {
            v
        }
    };
    let vectors = |m: &DMatrix<C64>, ls: &[C64]| -> Vec<_> {
        super::eigen::right_eigenvectors(m, ls, 1000 * m.nrows().max(1))
            .into_iter()
            .map(unit)
            .collect()
    };
    let va = vectors(a, lambdas);
    let vp = vectors(phi, zs);
    let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
    for (i, x) in va.iter().enumerate() {
        for (k, y) in vp.iter().enumerate() {
            pairs.push((x.dotc(y).norm(), i, k));
        }
    }
    pairs.sort_by(|p, q| q.0.total_cmp(&p.0));
    let (mut done_i, mut done_k) = (vec![false; lambdas.len()], vec![false; zs.len()]);
    let mut out = vec![c(-1.0); lambdas.len()];
    for (_, i, k) in pairs {
        if !done_i[i] && !done_k[k] {
            done_i[i] = true;
            done_k[k] = true;
            out[i] = zs[k] - c(1.0);
        }
    }
    out
}

/// The transfer function's error for one input–output pair at one frequency.
#[derive(Clone, Debug)]
pub struct FreqError {
    pub input: usize,
    pub output: usize,
    /// Hz.
    pub freq: f64,
    pub continuous: C64,
    pub digital: C64,
    /// |H*|/|H| − 1 (eq. 1.53).
    pub gain: f64,
    /// arg(H*/H) in radians (eq. 1.54).
    pub phase: f64,
}

/// H(jω) = C·(jω·I − A)⁻¹·B + D and H*(e^(jωh)) for every input–output pair at `freq` (Hz).
pub fn freq_errors(
    lin: &Linearization,
    scheme: &Scheme,
    h: f64,
    freq: f64,
) -> Result<Vec<FreqError>, AccuracyError> {
    let w = 2.0 * PI * freq;
    let n = lin.states.len();
    let a = lin.jacobian.map(c);
    let bm = lin.b.map(c);
    let cm = lin.c.map(c);
    let dm = lin.d.map(c);
    let eye = DMatrix::<C64>::identity(n, n);
    let jw = Complex::new(0.0, w);
    let cont = &cm
        * (&eye * jw - &a)
            .lu()
            .solve(&bm)
            .ok_or(AccuracyError::Pole(freq))?
        + &dm;
    let z = Complex::new(0.0, w * h).exp();
    let digital = match scheme {
        Scheme::Ab(beta) => {
            // (z − 1)·X = h·β(1/z)·(A·X + B·U).
            let bz: C64 = beta
                .iter()
                .enumerate()
                .map(|(j, &bj)| z.powi(-(j as i32)) * bj)
                .sum();
            let m = &eye * (z - c(1.0)) - &a * (bz * h);
            &cm * m
                .lu()
                .solve(&(&bm * (bz * h)))
                .ok_or(AccuracyError::DigitalPole)?
                + &dm
        }
        _ => {
            let (phi, gamma) = scheme
                .one_step(lin, h, w)
                .ok_or(AccuracyError::SingularStep)?;
            &cm * (&eye * z - phi)
                .lu()
                .solve(&gamma)
                .ok_or(AccuracyError::DigitalPole)?
                + &dm
        }
    };
    let mut out = Vec::new();
    for o in 0..lin.outputs.len() {
        for i in 0..lin.inputs.len() {
            let (hc, hd) = (cont[(o, i)], digital[(o, i)]);
            if hc.norm() == 0.0 {
                continue;
            }
            let ratio = hd / hc;
            out.push(FreqError {
                input: i,
                output: o,
                freq,
                continuous: hc,
                digital: hd,
                gain: ratio.norm() - 1.0,
                phase: ratio.arg(),
            });
        }
    }
    Ok(out)
}

/// The largest of the measures a tolerance bounds: e_|λ| of every root, and the gain and
/// phase (radians) errors at the given frequencies. Infinite where the discrete system is
/// singular.
pub fn worst_error(
    lin: &Linearization,
    modes: &[Mode],
    scheme: &Scheme,
    h: f64,
    freqs: &[f64],
) -> f64 {
    let mut worst = 0.0f64;
    match root_errors(lin, modes, scheme, h) {
        Ok(roots) => {
            for r in roots {
                worst = worst.max(if r.e_abs.is_nan() {
                    f64::INFINITY
                } else {
                    r.e_abs
                });
            }
        }
        Err(_) => return f64::INFINITY,
    }
    for &f in freqs {
        match freq_errors(lin, scheme, h, f) {
            Ok(es) => {
                for e in es {
                    worst = worst.max(e.gain.abs()).max(e.phase.abs());
                }
            }
            Err(_) => return f64::INFINITY,
        }
    }
    worst
}

/// The largest step whose errors stay below `tol` (and at every smaller step scanned, so
/// that a lucky window of a larger step is not taken): a geometric scan down from 4/|λ|max
/// (or 4/(2π·f) for the highest frequency) in ratios of 2^(1/8), then bisection. `None`
/// when no step down to 10^-12 of the start satisfies it.
pub fn largest_step(
    lin: &Linearization,
    modes: &[Mode],
    scheme: &Scheme,
    tol: f64,
    freqs: &[f64],
) -> Option<f64> {
    let fastest = modes
        .iter()
        .map(|m| m.lambda.norm())
        .chain(freqs.iter().map(|f| 2.0 * PI * f))
        .fold(0.0f64, f64::max);
    if fastest == 0.0 {
        return Some(f64::INFINITY);
    }
    let h0 = 4.0 / fastest;
    let ratio = 2f64.powf(-1.0 / 8.0);
    let steps = 320usize;
    let ok: Vec<bool> = (0..steps)
        .map(|k| worst_error(lin, modes, scheme, h0 * ratio.powi(k as i32), freqs) <= tol)
        .collect();
    let first = (0..steps).find(|&k| ok[k..].iter().all(|&b| b))?;
    let mut good = h0 * ratio.powi(first as i32);
    if first == 0 {
        return Some(good);
    }
    let mut bad = good / ratio;
    for _ in 0..40 {
        let mid = (good * bad).sqrt();
        if worst_error(lin, modes, scheme, mid, freqs) <= tol {
            good = mid;
        } else {
            bad = mid;
        }
    }
    Some(good)
}

fn fmt_c(z: C64) -> String {
    if z.im.abs() <= 1e-12 * z.norm().max(1e-300) {
        format!("{:.6e}", z.re)
    } else {
        format!(
            "{:.6e} {} {:.6e}j",
            z.re,
            if z.im < 0.0 { '-' } else { '+' },
            z.im.abs()
        )
    }
}

fn pct(x: f64) -> String {
    if x.is_finite() {
        format!("{:+.4}%", 100.0 * x)
    } else {
        format!("{x}")
    }
}

/// The `rtc analyze --errors` report for `scheme` (named `method`) at step `h`.
pub fn report(
    lin: &Linearization,
    modes: &[Mode],
    scheme: &Scheme,
    method: &str,
    h: f64,
    freqs: &[f64],
) -> Result<String, AccuracyError> {
    let mut s = String::new();
    let roots = root_errors(lin, modes, scheme, h)?;
    let _ = writeln!(
        s,
        "characteristic-root errors of {method} at h = {h} (Howe §1.3; of a conjugate pair the root with Im λ > 0):"
    );
    for r in &roots {
        let _ = writeln!(s, "  λ = {}", fmt_c(r.lambda));
        let _ = write!(
            s,
            "    z = {}  λ* = ln(z)/h = {}",
            fmt_c(r.z),
            fmt_c(r.star)
        );
        if r.lambda.re < 0.0 && r.z.norm() > 1.0 {
            let _ = write!(
                s,
                "  UNSTABLE: |z| = {:.4} > 1 for a stable mode",
                r.z.norm()
            );
        } else if r.z.re < 0.0 && r.lambda.im == 0.0 {
            s.push_str("  (z < 0: a spurious oscillation at the Nyquist frequency)");
        }
        s.push('\n');
        let _ = write!(
            s,
            "    e_|λ| = {}  damping (Re) {}",
            pct(r.e_abs),
            pct(r.e_re)
        );
        if let (Some(w), Some(z)) = (r.e_omega, r.e_zeta) {
            let _ = write!(
                s,
                "  frequency e_ω {}  damping ratio e_ζ {:+.3e}",
                pct(w),
                z
            );
            let _ = writeln!(s, "  amplitude per period {}", pct(r.amplitude));
        } else {
            let _ = writeln!(s, "  amplitude per time constant {}", pct(r.amplitude));
        }
        for z in &r.extraneous {
            let _ = writeln!(
                s,
                "    extraneous root z = {} (|z| = {:.4e}{})",
                fmt_c(*z),
                z.norm(),
                if z.norm() > 1.0 { ", UNSTABLE" } else { "" }
            );
        }
    }
    if !freqs.is_empty() {
        if lin.inputs.is_empty() || lin.outputs.is_empty() {
            let _ = writeln!(
                s,
                "transfer functions: the model has no top-level {} (needed for --freq)",
                if lin.inputs.is_empty() {
                    "inputs"
                } else {
                    "outputs"
                }
            );
        } else {
            let _ = writeln!(
                s,
                "transfer-function errors at h = {h} (gain |H*|/|H| − 1, phase arg(H*/H); inputs sampled where {method} samples them):"
            );
            for &f in freqs {
                for e in freq_errors(lin, scheme, h, f)? {
                    let _ = writeln!(
                        s,
                        "  {} -> {} at {f} Hz: |H| = {:.6e}, gain error {}, phase error {:+.4e} rad ({:+.4} deg)",
                        lin.inputs[e.input],
                        lin.outputs[e.output],
                        e.continuous.norm(),
                        pct(e.gain),
                        e.phase,
                        e.phase.to_degrees()
                    );
                }
            }
        }
    }
    Ok(s)
}

/// What `rtc analyze --errors --plot` draws: the stability boundary |R(q)| = 1 (largest root
/// modulus for multistep formulas), the model's hλ, and e_|λ| of each mode over a range of steps
/// around `h`.
pub struct Curves {
    pub boundary: Vec<[(f64, f64); 2]>,
    pub h_lambda: Vec<(f64, f64)>,
    pub steps: Vec<f64>,
    pub curves: Vec<(String, Vec<f64>)>,
}

/// The data of the accuracy plot (at most eight modes, the fastest, in the error curves).
pub fn curves(lin: &Linearization, modes: &[Mode], scheme: &Scheme, h: f64) -> Curves {
    let h_lambda: Vec<(f64, f64)> = modes
        .iter()
        .map(|m| (m.lambda.re * h, m.lambda.im * h))
        .collect();
    let (mut x0, mut x1, mut ym) = (-4.0f64, 3.0f64, 3.5f64);
    for &(x, y) in &h_lambda {
        x0 = x0.min(1.1 * x);
        x1 = x1.max(1.1 * x);
        ym = ym.max(1.1 * y.abs());
    }
    let modulus = |x: f64, y: f64| -> f64 {
        match scheme.roots(Complex::new(x, y)) {
            Some(ws) => ws.iter().map(|w| (w + c(1.0)).norm()).fold(0.0, f64::max) - 1.0,
            None => f64::NAN,
        }
    };
    let boundary = contour(&modulus, (x0, x1), (-ym, ym), 240);
    let steps: Vec<f64> = (-30..=10)
        .map(|k| h * 10f64.powf(k as f64 / 10.0))
        .collect();
    let mut shown: Vec<usize> = (0..modes.len())
        .filter(|&k| modes[k].lambda.im >= 0.0 && modes[k].lambda.norm() > 0.0)
        .collect();
    shown.sort_by(|&a, &b| modes[b].lambda.norm().total_cmp(&modes[a].lambda.norm()));
    shown.truncate(8);
    let per_step: Vec<Vec<RootError>> = steps
        .iter()
        .map(|&s| root_errors(lin, modes, scheme, s).unwrap_or_default())
        .collect();
    let curves = shown
        .iter()
        .map(|&k| {
            let l = modes[k].lambda;
            let label = format!("λ = {}", fmt_c(l));
            let values = per_step
                .iter()
                .map(|errs| {
                    errs.iter()
                        .find(|e| e.lambda == l)
                        .map_or(f64::NAN, |e| e.e_abs)
                })
                .collect();
            (label, values)
        })
        .collect();
    Curves {
        boundary,
        h_lambda,
        steps,
        curves,
    }
}

/// Segments of the curve f(x, y) = 0 over the box by marching squares on an n × n grid.
pub fn contour(
    f: &dyn Fn(f64, f64) -> f64,
    (x0, x1): (f64, f64),
    (y0, y1): (f64, f64),
    n: usize,
) -> Vec<[(f64, f64); 2]> {
    let dx = (x1 - x0) / n as f64;
    let dy = (y1 - y0) / n as f64;
    let v: Vec<Vec<f64>> = (0..=n)
        .map(|j| {
            (0..=n)
                .map(|i| f(x0 + i as f64 * dx, y0 + j as f64 * dy))
                .collect()
        })
        .collect();
    let mut segs = Vec::new();
    for j in 0..n {
        for i in 0..n {
            // Corners counter-clockwise from (i, j).
            let c = [
                (i, j, v[j][i]),
                (i + 1, j, v[j][i + 1]),
                (i + 1, j + 1, v[j + 1][i + 1]),
                (i, j + 1, v[j + 1][i]),
            ];
            let mut cross = Vec::new();
            for k in 0..4 {
                let (a, b) = (c[k], c[(k + 1) % 4]);
                if !(a.2.is_finite() && b.2.is_finite()) {
                    continue;
                }
                if (a.2 <= 0.0) != (b.2 <= 0.0) {
                    let t = a.2 / (a.2 - b.2);
                    let px = x0 + (a.0 as f64 + t * (b.0 as f64 - a.0 as f64)) * dx;
                    let py = y0 + (a.1 as f64 + t * (b.1 as f64 - a.1 as f64)) * dy;
                    cross.push((px, py));
                }
            }
            for pair in cross.chunks(2) {
                if let [p, q] = pair {
                    segs.push([*p, *q]);
                }
            }
        }
    }
    segs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::Rk;

    fn scalar(lambda: C64) -> (Linearization, Vec<Mode>) {
        // A real 1×1 or 2×2 model with the eigenvalue λ (and its conjugate).
        let a = if lambda.im == 0.0 {
            DMatrix::from_element(1, 1, lambda.re)
        } else {
            DMatrix::from_row_slice(2, 2, &[lambda.re, lambda.im, -lambda.im, lambda.re])
        };
        let n = a.nrows();
        let lin = Linearization {
            states: (0..n).map(|i| format!("x{i}")).collect(),
            jacobian: a,
            inputs: vec![],
            outputs: vec![],
            b: DMatrix::zeros(n, 0),
            c: DMatrix::zeros(0, n),
            d: DMatrix::zeros(0, 0),
            symbolic: true,
            values: Vec::new(),
            derivatives: Vec::new(),
        };
        let modes = crate::analysis::partition::modes(&lin).unwrap();
        (lin, modes)
    }

    #[test]
    fn roots_match_the_closed_form_stability_functions() {
        let one = c(1.0);
        type Stability = Box<dyn Fn(C64) -> C64>;
        let cases: Vec<(Method, Stability)> = vec![
            (Method::ForwardEuler, Box::new(move |q| one + q)),
            (Method::BackwardEuler, Box::new(move |q| one / (one - q))),
            (
                Method::Trapezoid,
                Box::new(move |q| (one + q / 2.0) / (one - q / 2.0)),
            ),
            (
                Method::Rk(Rk::Rk4),
                Box::new(move |q| one + q + q * q / 2.0 + q.powu(3) / 6.0 + q.powu(4) / 24.0),
            ),
            (
                Method::Radau,
                Box::new(move |q| (one + q / 3.0) / (one - q * 2.0 / 3.0 + q * q / 6.0)),
            ),
            (Method::Libe, Box::new(move |q| one / (one - q))),
        ];
        for (method, r) in &cases {
            for lambda in [c(-1.0), c(-10.0), Complex::new(-1.0, 10.0)] {
                for h in [0.01, 0.1] {
                    let (lin, modes) = scalar(lambda);
                    let scheme = Scheme::of(method, &lin.states).unwrap();
                    let errs = root_errors(&lin, &modes, &scheme, h).unwrap();
                    assert_eq!(errs.len(), 1);
                    let e = &errs[0];
                    let z = r(lambda * h);
                    assert!(
                        (e.z - z).norm() <= 1e-12 * z.norm(),
                        "{method:?} λ {lambda} h {h}: {} vs {z}",
                        e.z
                    );
                    if z.norm() == 0.0 {
                        // Forward Euler at hλ = −1 annihilates the mode in one step.
                        assert_eq!(e.star.re, f64::NEG_INFINITY);
                        continue;
                    }
                    let star = equivalent_root(z - 1.0, h, lambda);
                    assert!((star - z.ln() / h).norm() <= 1e-9 * star.norm() || lambda.im != 0.0);
                    assert!(
                        (e.star - star).norm() <= 1e-9 * star.norm(),
                        "{method:?}: {} vs {star}",
                        e.star
                    );
                    let e_abs = (star - lambda).norm() / lambda.norm();
                    assert!(
                        (e.e_abs - e_abs).abs() <= 1e-9,
                        "{method:?}: {} vs {e_abs}",
                        e.e_abs
                    );
                }
            }
        }
        // Forward Euler at λ = −1, h = 0.1: z = 0.9, λ* = 10·ln 0.9 = −1.053605…, e_λ = +5.36 %.
        let (lin, modes) = scalar(c(-1.0));
        let fe = Scheme::of(&Method::ForwardEuler, &lin.states).unwrap();
        let e = &root_errors(&lin, &modes, &fe, 0.1).unwrap()[0];
        assert!((e.star.re - 10.0 * 0.9f64.ln()).abs() < 1e-12);
        assert!((e.e_re - 0.053605156578263).abs() < 1e-12, "{}", e.e_re);
    }

    #[test]
    fn stability_boundaries_are_the_known_curves() {
        // Forward Euler: |1 + q| = 1; backward Euler: |1 − q| = 1; AB-2 crosses the real
        // axis at q = −1.
        let (lin, modes) = scalar(c(-1.0));
        for (m, on) in [
            (
                Method::ForwardEuler,
                Box::new(|q: C64| (q + 1.0).norm() - 1.0) as Box<dyn Fn(C64) -> f64>,
            ),
            (
                Method::BackwardEuler,
                Box::new(|q: C64| (c(1.0) - q).norm() - 1.0),
            ),
        ] {
            let scheme = Scheme::of(&m, &lin.states).unwrap();
            let cv = curves(&lin, &modes, &scheme, 0.1);
            assert!(cv.boundary.len() > 100);
            for seg in &cv.boundary {
                for &(x, y) in seg {
                    assert!(on(Complex::new(x, y)).abs() < 0.02, "{m:?}: ({x}, {y})");
                }
            }
            assert_eq!(cv.h_lambda, vec![(-0.1, 0.0)]);
        }
        let ab2 = Scheme::of(&Method::Ab(2), &lin.states).unwrap();
        let cv = curves(&lin, &modes, &ab2, 0.1);
        let left = cv
            .boundary
            .iter()
            .flat_map(|s| s.iter())
            .filter(|p| p.1.abs() < 0.05)
            .map(|p| p.0)
            .fold(0.0f64, f64::min);
        assert!((left + 1.0).abs() < 0.05, "{left}");
    }

    #[test]
    fn ab2_has_an_extraneous_root() {
        // ζ² − (1 + 3q/2)·ζ + q/2 = 0.
        let (lin, modes) = scalar(c(-10.0));
        let scheme = Scheme::of(&Method::Ab(2), &lin.states).unwrap();
        for h in [0.01, 0.1] {
            let q: f64 = -10.0 * h;
            let disc = ((1.0 + 1.5 * q) * (1.0 + 1.5 * q) - 2.0 * q).sqrt();
            let big = (1.0 + 1.5 * q + disc) / 2.0;
            let small = (1.0 + 1.5 * q - disc) / 2.0;
            let e = &root_errors(&lin, &modes, &scheme, h).unwrap()[0];
            assert!(
                (e.z.re - big).abs() < 1e-12 && e.z.im.abs() < 1e-12,
                "{} vs {big}",
                e.z
            );
            assert_eq!(e.extraneous.len(), 1);
            assert!(
                (e.extraneous[0].re - small).abs() < 1e-12,
                "{:?} vs {small}",
                e.extraneous
            );
        }
        // At h = 0.1 the extraneous root is −0.2287…: stable; at h = 0.2 (q = −2) it leaves the
        // unit circle.
        let e = &root_errors(&lin, &modes, &scheme, 0.2).unwrap()[0];
        assert!(e.extraneous[0].norm() > 1.0);
    }

    #[test]
    fn first_order_lag_transfer_function() {
        // x' = −a·x + a·u, y = x: H(jω) = a/(jω + a); forward Euler H* = h·a/(z − 1 + h·a)
        // (input at the step start), backward Euler H* = h·a·z/((1 + h·a)·z − 1) (at the end).
        let a = 20.0;
        let lin = Linearization {
            states: vec!["x".into()],
            jacobian: DMatrix::from_element(1, 1, -a),
            inputs: vec!["u".into()],
            outputs: vec!["y".into()],
            b: DMatrix::from_element(1, 1, a),
            c: DMatrix::from_element(1, 1, 1.0),
            d: DMatrix::from_element(1, 1, 0.0),
            symbolic: true,
            values: Vec::new(),
            derivatives: Vec::new(),
        };
        let (h, f) = (0.01, 3.0);
        let w = 2.0 * PI * f;
        let z = Complex::new(0.0, w * h).exp();
        let hc = c(a) / (Complex::new(0.0, w) + a);
        let fe = c(h * a) / (z - 1.0 + h * a);
        let be = z * (h * a) / (z * (1.0 + h * a) - 1.0);
        let tr = (z + 1.0) * (h * a / 2.0) / (z * (1.0 + h * a / 2.0) - (1.0 - h * a / 2.0));
        for (method, want) in [
            (Method::ForwardEuler, fe),
            (Method::BackwardEuler, be),
            (Method::Trapezoid, tr),
            (Method::Mixed { implicit: vec![] }, fe),
            (
                Method::Mixed {
                    implicit: vec!["x".into()],
                },
                be,
            ),
        ] {
            let scheme = Scheme::of(&method, &lin.states).unwrap();
            let e = &freq_errors(&lin, &scheme, h, f).unwrap()[0];
            assert!((e.continuous - hc).norm() < 1e-14);
            assert!(
                (e.digital - want).norm() < 1e-12,
                "{method:?}: {} vs {want}",
                e.digital
            );
            assert!((e.gain - ((want / hc).norm() - 1.0)).abs() < 1e-12);
        }
    }
}

/// How far a mode of the method's discrete system drifts from the exact mode over a run of
/// `t_run`, relative to the mode's size at the start: |λ* − λ| times the time over which the
/// difference e^(λ*t) − e^(λt) ≈ (λ* − λ)·t·e^(λt) can grow, which is the run for a mode that
/// does not decay within it and 1/(e·|Re λ|) (where t·e^(Re λ·t) peaks) for one that does.
pub fn drift(r: &RootError, t_run: f64) -> f64 {
    let grow = if r.lambda.re < 0.0 {
        t_run.min(1.0 / (std::f64::consts::E * -r.lambda.re))
    } else {
        t_run
    };
    let d = (r.star - r.lambda).norm() * grow;
    if d.is_nan() {
        f64::INFINITY
    } else {
        d
    }
}

/// What the method does to the model's modes at one step, judged for a run of `t_run`
/// recorded every `interval` ([`judge`]).
#[derive(Clone, Debug)]
pub struct Verdict {
    /// The mode whose [`drift`] is largest among those the output resolves (|λ| ≤ π/interval,
    /// the output's Nyquist frequency), with its drift and Howe's e_|λ|.
    pub worst: Option<(C64, f64, f64)>,
    /// A stable mode (Re λ < 0) whose discrete root lies outside the unit circle.
    pub unstable: Option<(C64, C64)>,
    /// A stable real mode the method turns into a slowly decaying oscillation at the Nyquist
    /// frequency (discrete root z < −1/2 for |hλ| ≥ 2: the trapezoidal rule's ringing on a
    /// stiff mode, visible after every discontinuity).
    pub rings: Option<(C64, C64)>,
}

impl Verdict {
    /// Within `tol`: no unstable or ringing mode, and the largest drift at most `tol`.
    pub fn within(&self, tol: f64) -> bool {
        self.unstable.is_none()
            && self.rings.is_none()
            && self.worst.is_none_or(|(_, d, _)| d <= tol)
    }
}

/// [`Verdict`] of `scheme` at step `h` on the modes of the model linearised at its initial
/// point.
pub fn judge(
    lin: &Linearization,
    modes: &[Mode],
    scheme: &Scheme,
    h: f64,
    t_run: f64,
    interval: f64,
) -> Result<Verdict, AccuracyError> {
    let roots = root_errors(lin, modes, scheme, h)?;
    let nyquist = PI / interval;
    let mut v = Verdict {
        worst: None,
        unstable: None,
        rings: None,
    };
    for r in &roots {
        if r.lambda.re < 0.0 && r.z.norm() > 1.0 + 1e-9 {
            v.unstable.get_or_insert((r.lambda, r.z));
        }
        let real = r.lambda.im.abs() <= 1e-12 * r.lambda.norm();
        if real && r.lambda.re < 0.0 && h * r.lambda.norm() >= 2.0 && r.z.re < -0.5 {
            v.rings.get_or_insert((r.lambda, r.z));
        }
        if r.lambda.norm() <= nyquist {
            let d = drift(r, t_run);
            if v.worst.is_none_or(|(_, w, _)| d > w) {
                v.worst = Some((r.lambda, d, r.e_abs));
            }
        }
    }
    Ok(v)
}

/// The methods rtc chooses from when the user names none: the A-stable implicit formulas
/// (a hybrid model's stiff modes may appear only after its first events, so an explicit
/// formula judged at the initial point is not trusted), with their orders.
pub const DEFAULT_CANDIDATES: [(&str, u32); 3] = [("be", 1), ("trapezoid", 2), ("radau", 3)];

/// Candidates that cost at most this many times the cheapest count as equally cheap, and of
/// those the highest order is taken: the modes do not see the error a method makes on what
/// drives them (an integrator of a switched or sampled signal, der(x) = u, has no mode to
/// judge; its error over a step is (h/2)·|Δu| with backward Euler, second order with the
/// trapezoid, for the same Newton system per step).
pub const COST_SLACK: f64 = 1.5;

/// Steps per output interval rtc tries for the default method: 1, 2, 4, …, this.
pub const MAX_REFINEMENT: u32 = 32;

/// A mode in words: λ with its time constant or period.
pub fn mode_text(l: C64) -> String {
    if l.im.abs() <= 1e-12 * l.norm() {
        format!("λ = {:.4e} (time constant {:.3e} s)", l.re, 1.0 / l.norm())
    } else {
        format!(
            "λ = {:.4e} ± {:.4e}j (period {:.3e} s)",
            l.re,
            l.im.abs(),
            2.0 * PI / l.im.abs()
        )
    }
}
