//! Eigenvectors of a real matrix from one real Schur decomposition, A = Q·T·Qᵀ (T upper
//! quasi-triangular: 1×1 blocks for real eigenvalues, 2×2 blocks for complex pairs), by back
//! substitution on T — the way LAPACK's `trevc` does it. Each right eigenvector costs one
//! triangular solve and one product with Q, O(n²), so all of them cost O(n³): the inverse
//! iteration this replaces factored the shifted matrix once per eigenvalue, O(n⁴) in all
//! (the n = 500 line, 1003 states, took minutes before its first step).
//!
//! Right: (T − μI)·y = 0 with y zero below the eigenvalue's block, the block's own null
//! vector, then the blocks above solved upwards; v = Q·y. Left (Aᵀ·w = λ·w, the vector the
//! participation factors pair with v): (Tᵀ − μI)·z = 0 with z zero above the block, solved
//! downwards; w = Q·z. A diagonal block with μ as (nearly) its own eigenvalue — a repeated or
//! defective eigenvalue — gets its pivot raised to ε·‖T‖, as inverse iteration's shift does.

use nalgebra::{Complex, DMatrix, DVector};

type C64 = Complex<f64>;

/// A real Schur decomposition and the diagonal blocks of its T.
pub struct SchurVectors {
    q: DMatrix<f64>,
    t: DMatrix<f64>,
    /// (start, size) of every diagonal block, top to bottom.
    blocks: Vec<(usize, usize)>,
    /// The eigenvalues of each block (one or two), of the scaled matrix.
    mu: Vec<Vec<C64>>,
    scale: f64,
    /// The smallest pivot a substitution divides by.
    tiny: f64,
}

impl SchurVectors {
    /// The decomposition of `a`, or `None` when the QR iteration does not converge within
    /// `iterations` (or `a` has non-finite entries).
    pub fn new(a: &DMatrix<f64>, iterations: usize) -> Option<SchurVectors> {
        if a.iter().any(|x| !x.is_finite()) || a.nrows() != a.ncols() {
            return None;
        }
        let scale = a.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let scale = if scale > 0.0 { scale } else { 1.0 };
        let (q, t) =
            nalgebra::linalg::Schur::try_new(a / scale, f64::EPSILON, iterations)?.unpack();
        let n = t.nrows();
        let mut blocks = Vec::new();
        let mut mu = Vec::new();
        let mut k = 0;
        while k < n {
            if k + 1 < n && t[(k + 1, k)] != 0.0 {
                blocks.push((k, 2));
                mu.push(block_eigenvalues(&t, k).to_vec());
                k += 2;
            } else {
                blocks.push((k, 1));
                mu.push(vec![C64::new(t[(k, k)], 0.0)]);
                k += 1;
            }
        }
        let norm = t.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        Some(SchurVectors {
            q,
            t,
            blocks,
            mu,
            scale,
            tiny: f64::EPSILON * norm.max(f64::MIN_POSITIVE),
        })
    }

    /// The block whose eigenvalue is nearest `lambda` (unscaled), and that eigenvalue
    /// (scaled).
    fn nearest(&self, lambda: C64) -> (usize, C64) {
        let target = lambda / self.scale;
        let mut best = (0, C64::new(0.0, 0.0), f64::INFINITY);
        for (b, mus) in self.mu.iter().enumerate() {
            for &m in mus {
                let d = (m - target).norm();
                if d < best.2 {
                    best = (b, m, d);
                }
            }
        }
        (best.0, best.1)
    }

    /// The right eigenvector for the eigenvalue nearest `lambda` (not normalised).
    pub fn right(&self, lambda: C64) -> DVector<C64> {
        let (bk, mu) = self.nearest(lambda);
        let n = self.t.nrows();
        let t = &self.t;
        let mut y = DVector::<C64>::zeros(n);
        let (k, s) = self.blocks[bk];
        let own = null_vector(self.block(k, s, false), mu);
        for i in 0..s {
            y[k + i] = own[i];
        }
        let end = k + s;
        for &(j, size) in self.blocks[..bk].iter().rev() {
            let mut rhs = [C64::new(0.0, 0.0); 2];
            for (i, r) in rhs.iter_mut().enumerate().take(size) {
                let mut acc = C64::new(0.0, 0.0);
                for l in j + size..end {
                    acc += y[l] * t[(j + i, l)];
                }
                *r = -acc;
            }
            let x = self.solve_block(self.block(j, size, false), mu, rhs);
            for i in 0..size {
                y[j + i] = x[i];
            }
        }
        self.back(&y, 0, end)
    }

    /// The left eigenvector (Aᵀ·w = λ·w) for the eigenvalue nearest `lambda` (not normalised).
    pub fn left(&self, lambda: C64) -> DVector<C64> {
        let (bk, mu) = self.nearest(lambda);
        let n = self.t.nrows();
        let t = &self.t;
        let mut z = DVector::<C64>::zeros(n);
        let (k, s) = self.blocks[bk];
        let own = null_vector(self.block(k, s, true), mu);
        for i in 0..s {
            z[k + i] = own[i];
        }
        for &(j, size) in &self.blocks[bk + 1..] {
            let mut rhs = [C64::new(0.0, 0.0); 2];
            for (i, r) in rhs.iter_mut().enumerate().take(size) {
                let mut acc = C64::new(0.0, 0.0);
                for l in k..j {
                    acc += z[l] * t[(l, j + i)];
                }
                *r = -acc;
            }
            let x = self.solve_block(self.block(j, size, true), mu, rhs);
            for i in 0..size {
                z[j + i] = x[i];
            }
        }
        self.back(&z, k, n)
    }

    /// Q·y for y nonzero in rows `from..to` only.
    fn back(&self, y: &DVector<C64>, from: usize, to: usize) -> DVector<C64> {
        let n = self.q.nrows();
        let mut v = DVector::<C64>::zeros(n);
        for l in from..to {
            let yl = y[l];
            if yl == C64::new(0.0, 0.0) {
                continue;
            }
            for i in 0..n {
                v[i] += yl * self.q[(i, l)];
            }
        }
        v
    }

    /// The diagonal block at `k` of size `s` (transposed when `tr`), as a 2×2 array.
    fn block(&self, k: usize, s: usize, tr: bool) -> Block {
        let t = &self.t;
        if s == 1 {
            return Block::One(t[(k, k)]);
        }
        let (b01, b10) = (t[(k, k + 1)], t[(k + 1, k)]);
        let (b01, b10) = if tr { (b10, b01) } else { (b01, b10) };
        Block::Two([[t[(k, k)], b01], [b10, t[(k + 1, k + 1)]]])
    }

    /// (B − μI)·x = rhs for a diagonal block B, its pivots kept away from zero.
    fn solve_block(&self, b: Block, mu: C64, rhs: [C64; 2]) -> [C64; 2] {
        let guard = |d: C64| {
            if d.norm() < self.tiny {
                C64::new(self.tiny, 0.0)
            } else {
                d
            }
        };
        match b {
            Block::One(d) => [rhs[0] / guard(C64::new(d, 0.0) - mu), C64::new(0.0, 0.0)],
            Block::Two(m) => {
                let a = C64::new(m[0][0], 0.0) - mu;
                let d = C64::new(m[1][1], 0.0) - mu;
                let (b01, b10) = (C64::new(m[0][1], 0.0), C64::new(m[1][0], 0.0));
                let det = guard(a * d - b01 * b10);
                [
                    (rhs[0] * d - b01 * rhs[1]) / det,
                    (a * rhs[1] - b10 * rhs[0]) / det,
                ]
            }
        }
    }
}

/// The right eigenvectors of `m` for eigenvalues `ls`: from the real Schur form when `m` is
/// real, else (or where it fails) by inverse iteration.
pub fn right_eigenvectors(m: &DMatrix<C64>, ls: &[C64], iterations: usize) -> Vec<DVector<C64>> {
    let real = m.iter().all(|x| x.im == 0.0);
    let schur = if real {
        SchurVectors::new(&m.map(|x| x.re), iterations)
    } else {
        None
    };
    ls.iter()
        .map(|&l| {
            schur
                .as_ref()
                .map(|s| s.right(l))
                .filter(|v| v.iter().all(|x| x.re.is_finite() && x.im.is_finite()))
                .unwrap_or_else(|| super::partition::eigenvector(m, l))
        })
        .collect()
}

enum Block {
    One(f64),
    Two([[f64; 2]; 2]),
}

/// The eigenvalues of T's 2×2 diagonal block at `k`.
fn block_eigenvalues(t: &DMatrix<f64>, k: usize) -> [C64; 2] {
    let (a, b, c, d) = (t[(k, k)], t[(k, k + 1)], t[(k + 1, k)], t[(k + 1, k + 1)]);
    let mean = 0.5 * (a + d);
    let disc = 0.25 * (a - d) * (a - d) + b * c;
    if disc >= 0.0 {
        let r = disc.sqrt();
        [C64::new(mean + r, 0.0), C64::new(mean - r, 0.0)]
    } else {
        let r = (-disc).sqrt();
        [C64::new(mean, r), C64::new(mean, -r)]
    }
}

/// A null vector of B − μI for a diagonal block B with eigenvalue μ.
fn null_vector(b: Block, mu: C64) -> [C64; 2] {
    match b {
        Block::One(_) => [C64::new(1.0, 0.0), C64::new(0.0, 0.0)],
        Block::Two(m) => {
            // Of the two rows' null vectors, the one of the larger row (the other row is a
            // multiple of it up to rounding).
            let r0 = [C64::new(m[0][0], 0.0) - mu, C64::new(m[0][1], 0.0)];
            let r1 = [C64::new(m[1][0], 0.0), C64::new(m[1][1], 0.0) - mu];
            let (p, q) = if r0[0].norm() + r0[1].norm() >= r1[0].norm() + r1[1].norm() {
                (r0[0], r0[1])
            } else {
                (r1[0], r1[1])
            };
            if p.norm() + q.norm() == 0.0 {
                [C64::new(1.0, 0.0), C64::new(0.0, 0.0)]
            } else {
                [q, -p]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Residuals ‖A·v − λ·v‖ and ‖Aᵀ·w − λ·w‖ relative to ‖A‖·‖v‖ for every eigenvalue of a
    /// matrix with real, complex and repeated eigenvalues.
    #[test]
    fn vectors_satisfy_their_equations() {
        let a = DMatrix::from_row_slice(
            5,
            5,
            &[
                -1.0, 2.0, 0.0, 0.5, 0.0, //
                -3.0, -1.0, 1.0, 0.0, 0.2, //
                0.0, 0.0, -4.0, 1.0, 0.0, //
                0.1, 0.0, 0.0, -4.0, 3.0, //
                0.0, 0.3, 0.0, -2.0, -0.5,
            ],
        );
        let s = SchurVectors::new(&a, 5000).expect("converges");
        let ac = a.map(|x| C64::new(x, 0.0));
        let lambdas = nalgebra::linalg::Schur::new(a.clone()).complex_eigenvalues();
        for &l in lambdas.iter() {
            let v = s.right(l);
            let w = s.left(l);
            let rv = (&ac * &v - &v * l).norm() / (a.norm() * v.norm());
            let rw = (ac.transpose() * &w - &w * l).norm() / (a.norm() * w.norm());
            assert!(rv < 1e-12 && rw < 1e-12, "λ = {l}: {rv:e} {rw:e}");
        }
    }

    /// A block-triangular matrix with a repeated eigenvalue (−2 twice, a defective block) and
    /// a zero one: the vectors still satisfy their equations to rounding, scaled by the
    /// guarded pivot, and every entry is finite.
    #[test]
    fn repeated_and_zero_eigenvalues() {
        let a = DMatrix::from_row_slice(
            4,
            4,
            &[
                -2.0, 1.0, 0.0, 0.0, //
                0.0, -2.0, 0.0, 0.0, //
                1.0, 0.0, 0.0, 0.0, //
                0.0, 0.5, 0.0, -1.0,
            ],
        );
        let s = SchurVectors::new(&a, 5000).expect("converges");
        let ac = a.map(|x| C64::new(x, 0.0));
        for l in [-2.0, 0.0, -1.0] {
            let l = C64::new(l, 0.0);
            let v = s.right(l);
            assert!(v.iter().all(|x| x.re.is_finite() && x.im.is_finite()));
            let rv = (&ac * &v - &v * l).norm() / (a.norm() * v.norm());
            assert!(rv < 1e-7, "λ = {l}: {rv:e}");
        }
    }
}
