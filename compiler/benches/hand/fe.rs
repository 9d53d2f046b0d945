// The hand-written forward Euler and mixed-mode step of the VdPLine model, shared by the step
// benchmark (`benches/step.rs`) and the standalone program of `bench/standalone` (the same
// code built alone, as a user's own program would be).

/// Hand-written inline forward Euler (and mixed mode with the load by backward Euler): the
/// algorithm rtc's plan performs — update every state from its value and derivative at the
/// start of the step, then evaluate the derivatives at the new state.
struct Hand {
    n: usize,
    x: Vec<f64>, // iL, uC, i[1..n], u[1..n], ul
    d: Vec<f64>,
    mixed: bool,
}

const L: f64 = 10e-3;
const C: f64 = 1e-3;
const R: f64 = 10.0;
const K: f64 = 0.04;
const RL: f64 = 1e3;
const CL: f64 = 1e-9;

impl Hand {
    fn new(n: usize, mixed: bool) -> Hand {
        let mut x = vec![0.0; 2 * n + 3];
        x[1] = 1.0;
        let mut h = Hand {
            n,
            x,
            d: vec![0.0; 2 * n + 3],
            mixed,
        };
        h.derivatives();
        h
    }

    fn derivatives(&mut self) {
        let n = self.n;
        let (x, d) = (&self.x, &mut self.d);
        let (il, uc) = (x[0], x[1]);
        let i = |j: usize| x[2 + j];
        let u = |j: usize| x[2 + n + j];
        let ul = x[2 + 2 * n];
        d[0] = uc / L;
        // uc³ as uc·(uc·uc), the order of rtc's integer power (same multiplications), so that
        // the bench can compare the two memories bit for bit after the run.
        d[1] = (uc - K * (uc * (uc * uc)) - il - i(0)) / C;
        d[2] = uc / L - R / L * i(0) - u(0) / L;
        for j in 1..n {
            d[2 + j] = u(j - 1) / L - R / L * i(j) - u(j) / L;
        }
        for j in 0..n - 1 {
            d[2 + n + j] = (i(j) - i(j + 1)) / C;
        }
        d[2 + 2 * n - 1] = i(n - 1) / C - (u(n - 1) - ul) / (RL * C);
        d[2 + 2 * n] = (u(n - 1) - ul) / (RL * CL);
    }

    fn step(&mut self, h: f64) {
        let m = self.x.len();
        let last = if self.mixed { m - 1 } else { m };
        for k in 0..last {
            self.x[k] += h * self.d[k];
        }
        if self.mixed {
            let a = h / (RL * CL);
            self.x[m - 1] = (self.x[m - 1] + a * self.x[m - 2]) / (1.0 + a);
        }
        self.derivatives();
    }
}
