//! Step time: the JIT step of the equation-form Van-der-Pol line against the same discretised
//! algorithm written by hand in Rust (compiled by rustc with the bench profile, opt-level 3),
//! measured side by side; `rtc run`'s loop (the runtime driving the JIT step with events,
//! outputs and CSV recording) against the bare JIT step, with and without flush-to-zero; and
//! compile time from source to a callable step function.
//! Run with `cargo bench -p rtc --bench step` (`-- run-loop` for the run-loop table alone).

use rtc::flatten::Options;
use rtc::pipeline::check_source;
use rtc::pipeline::Method;
use std::hint::black_box;
use std::time::Instant;

include!("hand/fe.rs");

/// Hand-written inline backward Euler: Newton on all 2n + 3 new states with the hand-derived
/// Jacobian `I − h·∂f/∂x`, and the stopping tests of rtc's Newton (a residual below 1e-13 of
/// its equation's scale ends the iteration; so does a correction below 1e-12 + 1e-10·|x|,
/// after re-evaluating at the corrected point; at most ten evaluations). `Solver::Dense` is
/// the textbook implementation (dense LU with partial pivoting: rtc's LU without band limits); `Solver::Banded`
/// exploits the line's structure: with the states interleaved (iL, uC, i1, u1, i2, …) the
/// Jacobian is a band of two sub- and two super-diagonals, factored without pivoting (the
/// matrix is diagonally dominant at these steps) — what a specialist would write for this
/// one model.
struct HandBe {
    f: Hand,
    old: Vec<f64>,
    jac: Vec<f64>,
    r: Vec<f64>,
    scale: Vec<f64>,
    solver: Solver,
}

#[derive(Clone, Copy, PartialEq)]
enum Solver {
    Dense,
    Banded,
}

impl HandBe {
    fn new(n: usize, solver: Solver) -> HandBe {
        let m = 2 * n + 3;
        HandBe {
            f: Hand::new(n, false),
            old: vec![0.0; m],
            jac: vec![0.0; m * m],
            r: vec![0.0; m],
            scale: vec![0.0; m],
            solver,
        }
    }

    /// Position of natural state index k (iL, uC, i[0..n], u[0..n], ul) in the interleaved order.
    fn pos(n: usize, k: usize) -> usize {
        match k {
            0 | 1 => k,
            k if k < 2 + n => 2 + 2 * (k - 2),
            k if k < 2 + 2 * n => 3 + 2 * (k - 2 - n),
            _ => 2 + 2 * n,
        }
    }

    /// Residuals, scales and Jacobian at the current iterate (interleaved order).
    fn evaluate(&mut self, h: f64) {
        let n = self.f.n;
        let m = 2 * n + 3;
        self.f.derivatives();
        let (x, d) = (&self.f.x, &self.f.d);
        for k in 0..m {
            let p = Self::pos(n, k);
            let rhs = self.old[k] + h * d[k];
            self.r[p] = x[k] - rhs;
            self.scale[p] = x[k].abs() + rhs.abs();
        }
        let jac = &mut self.jac;
        let mut set = |row: usize, col: usize, v: f64| {
            let (r, c) = (Self::pos(n, row), Self::pos(n, col));
            jac[r * m + c] = if r == c { 1.0 } else { 0.0 } - h * v;
        };
        let (i0, u0, ul) = (2, 2 + n, 2 + 2 * n);
        let uc = x[1];
        set(0, 0, 0.0);
        set(0, 1, 1.0 / L);
        set(1, 1, (1.0 - 3.0 * K * uc * uc) / C);
        set(1, 0, -1.0 / C);
        set(1, i0, -1.0 / C);
        set(i0, 1, 1.0 / L);
        for j in 0..n {
            if j > 0 {
                set(i0 + j, u0 + j - 1, 1.0 / L);
            }
            set(i0 + j, i0 + j, -R / L);
            set(i0 + j, u0 + j, -1.0 / L);
        }
        for j in 0..n - 1 {
            set(u0 + j, i0 + j, 1.0 / C);
            set(u0 + j, i0 + j + 1, -1.0 / C);
            set(u0 + j, u0 + j, 0.0);
        }
        set(u0 + n - 1, i0 + n - 1, 1.0 / C);
        set(u0 + n - 1, u0 + n - 1, -1.0 / (RL * C));
        set(u0 + n - 1, ul, 1.0 / (RL * C));
        set(ul, u0 + n - 1, 1.0 / (RL * CL));
        set(ul, ul, -1.0 / (RL * CL));
    }

    /// One step; the number of LU solves it took (panics if Newton fails: the bench runs at a
    /// step where it converges).
    fn step(&mut self, h: f64) -> usize {
        let n = self.f.n;
        let m = 2 * n + 3;
        self.old.copy_from_slice(&self.f.x);
        if self.solver == Solver::Dense {
            self.jac.fill(0.0);
        }
        self.evaluate(h);
        let mut solves = 0;
        for evals in 1.. {
            if self
                .r
                .iter()
                .zip(&self.scale)
                .all(|(r, s)| r.abs() <= 1e-13 * s)
            {
                return solves;
            }
            assert!(evals < 10, "hand-written backward Euler did not converge");
            match self.solver {
                Solver::Dense => assert!(dense_lu_solve(&mut self.jac, &mut self.r, m)),
                Solver::Banded => band_lu_solve(&mut self.jac, &mut self.r, m, 2),
            }
            solves += 1;
            let mut small = true;
            for k in 0..m {
                let x = self.f.x[k] - self.r[Self::pos(n, k)];
                if (self.f.x[k] - x).abs() > 1e-12 + 1e-10 * x.abs() {
                    small = false;
                }
                self.f.x[k] = x;
            }
            self.evaluate(h);
            if small {
                return solves;
            }
        }
        unreachable!()
    }
}

/// `a·x = b` by dense LU with partial pivoting (row-major, x overwrites b).
fn dense_lu_solve(a: &mut [f64], b: &mut [f64], n: usize) -> bool {
    for col in 0..n {
        let mut piv = col;
        for r in col + 1..n {
            if a[r * n + col].abs() > a[piv * n + col].abs() {
                piv = r;
            }
        }
        if a[piv * n + col] == 0.0 {
            return false;
        }
        if piv != col {
            for c in 0..n {
                a.swap(piv * n + c, col * n + c);
            }
            b.swap(piv, col);
        }
        let d = a[col * n + col];
        let (top, rest) = a.split_at_mut((col + 1) * n);
        let prow = &top[col * n..];
        for r in 0..n - col - 1 {
            let row = &mut rest[r * n..(r + 1) * n];
            let f = row[col] / d;
            if f != 0.0 {
                for c in col..n {
                    row[c] -= f * prow[c];
                }
                b[col + 1 + r] -= f * b[col];
            }
        }
    }
    for col in (0..n).rev() {
        let mut s = b[col];
        for c in col + 1..n {
            s -= a[col * n + c] * b[c];
        }
        b[col] = s / a[col * n + col];
    }
    true
}

/// `a·x = b` for a matrix with `w` sub- and super-diagonals (dense storage, only the band
/// touched), LU without pivoting.
fn band_lu_solve(a: &mut [f64], b: &mut [f64], n: usize, w: usize) {
    for col in 0..n {
        let d = a[col * n + col];
        let end = (col + w + 1).min(n);
        for r in col + 1..end {
            let f = a[r * n + col] / d;
            for c in col..end {
                a[r * n + c] -= f * a[col * n + c];
            }
            b[r] -= f * b[col];
        }
    }
    for col in (0..n).rev() {
        let mut s = b[col];
        for c in col + 1..(col + w + 1).min(n) {
            s -= a[col * n + c] * b[c];
        }
        b[col] = s / a[col * n + col];
    }
}

fn time_per_step(mut f: impl FnMut(), steps: usize) -> f64 {
    // Best of five runs, in nanoseconds per step.
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t0 = Instant::now();
        for _ in 0..steps {
            f();
        }
        best = best.min(t0.elapsed().as_secs_f64() * 1e9 / steps as f64);
    }
    best
}

/// Steps timed in alternating rounds (seven each), so that a burst of machine noise does
/// not fall on one side only: the best round of each, in nanoseconds per step. Every side runs
/// the same number of steps, so their states can be compared after.
fn alternating(sides: &mut [&mut dyn FnMut()], steps: usize) -> Vec<f64> {
    let mut best = vec![f64::MAX; sides.len()];
    for _ in 0..7 {
        for (f, best) in sides.iter_mut().zip(&mut best) {
            let t0 = Instant::now();
            for _ in 0..steps {
                f();
            }
            *best = best.min(t0.elapsed().as_secs_f64() * 1e9 / steps as f64);
        }
    }
    best
}

/// Largest difference between the states of the JIT's memory (from slot `first`, in the
/// hand-written order iL, uC, i[1..n], u[1..n], u_l) and a hand-written step's, relative to
/// the largest state; 0 means bitwise equal.
fn state_difference(mem: &[f64], first: usize, hand: &[f64]) -> f64 {
    let js = &mem[first..first + hand.len()];
    let big = js.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    let worst = hand.iter().zip(js).fold(0.0f64, |a, (p, q)| {
        if p.to_bits() == q.to_bits() {
            a
        } else {
            a.max((p - q).abs())
        }
    });
    worst / big
}

/// A state difference in words.
fn describe(d: f64) -> String {
    if d == 0.0 {
        "bitwise equal".into()
    } else {
        format!("{d:.1e} of the largest state")
    }
}

fn main() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/VdPLine.mo");
    let text = std::fs::read_to_string(path).expect("read examples/VdPLine.mo");
    // `cargo bench -p rtc --bench step -- run-loop`: the run-loop table alone.
    if std::env::args().any(|a| a == "run-loop") {
        run_loop(&text);
        return;
    }
    println!("step time [ns/step]: JIT and hand-written Rust best of 7 alternating rounds, interpreter best of 5");
    println!(
        "{:>6} {:>8} {:>10} {:>10} {:>10} {:>7}",
        "n", "method", "jit", "interp", "hand Rust", "jit/hand"
    );
    // Small enough that every method is stable here (forward Euler on the load mode needs
    // h < 2e-6): a diverging run would stop its checks early and look faster than it is.
    let h = 5e-7;
    let mut be_rows = Vec::new();
    let mut agreement = Vec::new();
    for n in [5usize, 50, 500] {
        let opts = Options {
            params: vec![("n".into(), n as f64)],
            ..Options::default()
        };
        let model = check_source("VdPLine.mo", &text, &opts)
            .model
            .expect("model");
        for (name, method) in [
            ("fe", Method::ForwardEuler),
            (
                "mixed",
                Method::Mixed {
                    implicit: vec!["u_l".into()],
                },
            ),
            ("be", Method::BackwardEuler),
        ] {
            let plan = rtc::pipeline::plan(&model, &rtc::pipeline::Settings::of(&method))
                .expect("plan")
                .plan;
            let code = rtc::codegen::jit(&plan, false).expect("jit");
            let steps = (200_000 / n).max(200);
            let mut mem = code.memory();
            code.init(&mut mem, 0.0);
            let mut t = 0.0;
            let jit = || {
                black_box(code.step(&mut mem, t, h));
                t += h;
            };
            let first = plan.vars.iter().position(|v| v.name == "iL").expect("iL");
            let (jit_ns, hand_ns) = if name == "be" {
                let steps = (2000 / n).max(4);
                let mut dense = HandBe::new(n, Solver::Dense);
                let mut banded = HandBe::new(n, Solver::Banded);
                let mut solves = 0usize;
                let mut counted = 0usize;
                let mut jit = jit;
                let mut dense_step = || {
                    solves += dense.step(black_box(h));
                    counted += 1;
                    black_box(&dense.f.x);
                };
                let mut banded_step = || {
                    banded.step(black_box(h));
                    black_box(&banded.f.x);
                };
                let t = alternating(&mut [&mut jit, &mut dense_step, &mut banded_step], steps);
                // The same steps on every side, each ending its Newton iteration by rtc's tests
                // (residuals below 1e-13 of their scale, or corrections below 1e-12 +
                // 1e-10·|x|): the iterates agree to the corrections' tolerance, 1e-10 of a
                // state, and the line damps what one step leaves.
                let d = state_difference(&mem, first, &dense.f.x).max(state_difference(
                    &mem,
                    first,
                    &banded.f.x,
                ));
                assert!(
                    d <= 1e-9,
                    "n = {n} be: states differ by {d:e} of the largest"
                );
                agreement.push(format!("n = {n} be: {}", describe(d)));
                be_rows.push((n, t[1], t[2], t[0], solves as f64 / counted as f64));
                (t[0], t[1])
            } else {
                let mut hand = Hand::new(n, name == "mixed");
                let mut hand_step = || {
                    hand.step(black_box(h));
                    black_box(&hand.x);
                };
                let mut jit = jit;
                let t = alternating(&mut [&mut jit, &mut hand_step], steps);
                // The same steps on both sides: forward Euler computes the same operations
                // in the same order (bitwise); mixed mode's load formula is written
                // differently by hand, (u_l + a·u_n)/(1 + a) against rtc's
                // (u_l + h·(u_n/(Rl·Cl)))/(1 − h·(−1/(Rl·Cl))): a few units in the last place
                // per step in one state of a damped system.
                let d = state_difference(&mem, first, &hand.x);
                let tol = if name == "fe" { 0.0 } else { 1e-10 };
                assert!(
                    d <= tol,
                    "n = {n} {name}: states differ by {d:e} of the largest"
                );
                agreement.push(format!("n = {n} {name}: {}", describe(d)));
                (t[0], t[1])
            };
            let mut it = rtc::plan::interp::Interp::new(&plan);
            let mut mem2 = it.memory();
            it.init(&mut mem2, 0.0);
            let mut t2 = 0.0;
            let interp_ns = time_per_step(
                || {
                    black_box(it.step(&mut mem2, t2, h));
                    t2 += h;
                },
                steps / 10 + 1,
            );
            println!(
                "{:>6} {:>8} {:>10.1} {:>10.1} {:>10.1} {:>7.2}",
                n,
                name,
                jit_ns,
                interp_ns,
                hand_ns,
                jit_ns / hand_ns
            );
        }
    }
    println!();
    println!("backward Euler by hand: Newton on all 2n + 3 states, dense LU or banded");
    println!(
        "{:>6} {:>12} {:>12} {:>12} {:>10} {:>10} {:>12}",
        "n", "jit (torn)", "hand dense", "hand banded", "jit/dense", "jit/banded", "LU per step"
    );
    for (n, dense, banded, jit, solves) in be_rows {
        println!(
            "{n:>6} {jit:>12.1} {dense:>12.1} {banded:>12.1} {:>10.2} {:>10.2} {solves:>12.2}",
            jit / dense,
            jit / banded
        );
    }
    println!();
    println!("states after the timed steps, JIT against hand-written (largest difference / largest state):");
    for a in &agreement {
        println!("  {a}");
    }
    band_lu(&text);
    per_method(&text);
    run_loop(&text);
    println!();
    println!("compile time, source to callable step function [ms] (mixed mode), median of runs");
    println!("{:>6} {:>10} {:>10} {:>10}", "n", "to plan", "jit", "total");
    for n in [5usize, 50, 500, 5000] {
        let opts = Options {
            params: vec![("n".into(), n as f64)],
            ..Options::default()
        };
        let runs = if n >= 5000 { 3 } else { 11 };
        let mut rows = Vec::new();
        for _ in 0..runs {
            let t0 = Instant::now();
            let model = check_source("VdPLine.mo", &text, &opts)
                .model
                .expect("model");
            let plan = rtc::pipeline::plan(
                &model,
                &rtc::pipeline::Settings::of(&Method::Mixed {
                    implicit: vec!["u_l".into()],
                }),
            )
            .expect("plan")
            .plan;
            let t1 = Instant::now();
            let code = rtc::codegen::jit(&plan, false).expect("jit");
            let t2 = Instant::now();
            black_box(&code);
            rows.push((
                (t1 - t0).as_secs_f64() * 1e3,
                (t2 - t1).as_secs_f64() * 1e3,
                (t2 - t0).as_secs_f64() * 1e3,
            ));
        }
        rows.sort_by(|a, b| a.2.total_cmp(&b.2));
        let m = rows[runs / 2];
        println!("{:>6} {:>10.2} {:>10.2} {:>10.2}", n, m.0, m.1, m.2);
    }
}

/// JIT step time of every method on the n = 50 line; then mixed mode against full backward
/// Euler at the step mixed mode is used at (h = 1e-4).
/// The LU of the backward Euler line's torn loop alone: the generic routine (the pivot row's
/// band read again for every row below it) against the routine that carries its window in
/// registers (codegen/band.rs), on a diagonally dominant matrix with the loop's size and band.
/// Each call first restores the band from a copy (timed alone too); the results are compared
/// bitwise with the interpreter's `lu_solve`.
fn band_lu(text: &str) {
    println!();
    println!("band LU of the torn loop alone [ns/solve], best of 7 alternating rounds (each solve restores the band first)");
    println!(
        "{:>6} {:>6} {:>8} {:>10} {:>10} {:>10} {:>14}",
        "n", "k", "band", "generic", "window", "restore", "generic/window"
    );
    for n in [50usize, 500] {
        let opts = Options {
            params: vec![("n".into(), n as f64)],
            ..Options::default()
        };
        let model = check_source("VdPLine.mo", text, &opts)
            .model
            .expect("model");
        let plan =
            rtc::pipeline::plan(&model, &rtc::pipeline::Settings::of(&Method::BackwardEuler))
                .expect("plan")
                .plan;
        let Some((k, band)) = plan.step.iter().find_map(|s| match s {
            rtc::plan::Stmt::Block(b) => Some((b.tearing.len(), b.band)),
            _ => None,
        }) else {
            continue;
        };
        let (kl, w) = band;
        let ku = w.saturating_sub(kl);
        let mut a0 = vec![0.0; k * k];
        let mut b0 = vec![0.0; k];
        let mut cells = Vec::new();
        for r in 0..k {
            for c in r.saturating_sub(kl)..(r + w + 1).min(k) {
                cells.push(r * k + c);
                if c + ku >= r && c <= r + ku {
                    a0[r * k + c] = if r == c {
                        4.0
                    } else {
                        0.3 + 0.01 * ((r * 7 + c) % 13) as f64
                    };
                }
            }
            b0[r] = 1.0 + (r % 5) as f64;
        }
        let kern = rtc::codegen::lu_kernels(&plan, band).expect("lu kernels");
        let (mut ag, mut bg) = (a0.clone(), b0.clone());
        let (mut aw, mut bw) = (a0.clone(), b0.clone());
        let (mut ar, mut br) = (a0.clone(), b0.clone());
        let restore = |a: &mut [f64], b: &mut [f64]| {
            for &i in &cells {
                a[i] = a0[i];
            }
            b.copy_from_slice(&b0);
        };
        let (ki, kli, wi) = (k as i64, kl as i64, w as i64);
        let mut generic = || {
            restore(&mut ag, &mut bg);
            // SAFETY: k × k and k doubles, as the routine expects.
            black_box(unsafe {
                (kern.generic)(ag.as_mut_ptr(), bg.as_mut_ptr(), ki, kli, wi, 1e-6, 0)
            });
        };
        let mut window = || {
            restore(&mut aw, &mut bw);
            // SAFETY: as above.
            black_box(unsafe { (kern.band)(aw.as_mut_ptr(), bw.as_mut_ptr(), ki, kli, wi, 1e-6) });
        };
        let mut only_restore = || {
            restore(&mut ar, &mut br);
            black_box(&ar);
        };
        let reps = (200_000 / k).max(100);
        let t = alternating(&mut [&mut generic, &mut window, &mut only_restore], reps);
        let (mut ai, mut bi) = (a0.clone(), b0.clone());
        assert!(rtc::plan::interp::lu_solve(&mut ai, &mut bi, k, band, 1e-6));
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert!(
            bits(&ag) == bits(&ai) && bits(&bg) == bits(&bi),
            "generic LU differs"
        );
        assert!(
            bits(&aw) == bits(&ai) && bits(&bw) == bits(&bi),
            "band LU differs"
        );
        println!(
            "{n:>6} {k:>6} {:>8} {:>10.1} {:>10.1} {:>10.1} {:>14.2}",
            format!("{kl},{w}"),
            t[0],
            t[1],
            t[2],
            (t[0] - t[2]) / (t[1] - t[2])
        );
    }
}

fn per_method(text: &str) {
    use rtc::pipeline::Rk;
    let opts = Options {
        params: vec![("n".into(), 50.0)],
        ..Options::default()
    };
    let model = check_source("VdPLine.mo", text, &opts)
        .model
        .expect("model");
    let step_ns = |method: &Method, h: f64, steps: usize| -> (f64, u64) {
        let plan = rtc::pipeline::plan(&model, &rtc::pipeline::Settings::of(method))
            .expect("plan")
            .plan;
        let code = rtc::codegen::jit(&plan, false).expect("jit");
        let mut mem = code.memory();
        code.init(&mut mem, 0.0);
        let mut t = 0.0;
        let ns = time_per_step(
            || {
                black_box(code.step(&mut mem, t, h));
                t += h;
            },
            steps,
        );
        (ns, plan.work_bound().flops)
    };
    println!();
    println!("per method, n = 50, h = 5e-7 (every formula stable), JIT [ns/step]");
    println!("{:>10} {:>12} {:>14}", "method", "ns/step", "bound [flops]");
    let fast = vec!["iL".to_string(), "uC".to_string()];
    for (name, method) in [
        ("fe", Method::ForwardEuler),
        ("be", Method::BackwardEuler),
        ("trapezoid", Method::Trapezoid),
        ("radau", Method::Radau),
        ("libe", Method::Libe),
        (
            "mixed",
            Method::Mixed {
                implicit: vec!["u_l".into()],
            },
        ),
        (
            "multirate",
            Method::MultiRate {
                fast: fast.clone(),
                ratio: 10,
                implicit: vec!["u_l".into()],
                quadratic: false,
            },
        ),
        ("rtrk2", Method::Rk(Rk::Rtrk2)),
        ("rk3", Method::Rk(Rk::Rk3)),
        ("rk4", Method::Rk(Rk::Rk4)),
        ("rtrk4", Method::Rk(Rk::Rtrk4)),
        ("ab2", Method::Ab(2)),
        ("ab3", Method::Ab(3)),
    ] {
        let steps = if matches!(name, "be" | "trapezoid" | "radau") {
            300
        } else {
            5000
        };
        let (ns, w) = step_ns(&method, 5e-7, steps);
        println!("{name:>10} {ns:>12.1} {w:>14}");
    }
    let mixed = Method::Mixed {
        implicit: vec!["u_l".into()],
    };
    let (m_ns, _) = step_ns(&mixed, 1e-4, 5000);
    let (b_ns, _) = step_ns(&Method::BackwardEuler, 1e-4, 300);
    println!();
    println!(
        "n = 50, h = 1e-4: mixed {m_ns:.1} ns/step, backward Euler {b_ns:.1} ns/step, ratio {:.0}",
        b_ns / m_ns
    );
}

/// `rtc run` as fast as possible against the bare JIT step, side by side: the runtime's loop
/// with what `rtc run` puts around the step (the event wrapper, a CSV sink recording the
/// default variables once per simulated second, to a sink that discards the text) over the
/// same number of steps, alternating rounds; then the same loop with flush-to-zero.
fn run_loop(text: &str) {
    println!();
    println!("rtc run loop against the bare JIT step [ns/step], forward Euler, h = 5e-7, best of 7 alternating rounds");
    println!(
        "{:>6} {:>10} {:>10} {:>9} {:>12} {:>9}",
        "n", "bare jit", "rtc run", "run/bare", "run --ftz", "ftz gain"
    );
    let h = 5e-7;
    for n in [5usize, 50, 500] {
        let opts = Options {
            params: vec![("n".into(), n as f64)],
            ..Options::default()
        };
        let model = check_source("VdPLine.mo", text, &opts)
            .model
            .expect("model");
        let plan = rtc::pipeline::plan(&model, &rtc::pipeline::Settings::of(&Method::ForwardEuler))
            .expect("plan")
            .plan;
        let code = rtc::codegen::jit(&plan, false).expect("jit");
        let mut stepper = rtc::sim::stepper(&plan, rtc::sim::Engine::Jit).expect("stepper");
        let selected = rtc::sim::select_outputs(&plan, &[]).expect("outputs");
        let layout = rtc_runtime::Layout {
            outputs: plan.outputs.iter().map(|o| o.name.clone()).collect(),
            ..rtc_runtime::Layout::default()
        };
        let steps = (2_000_000 / n).max(20_000) as u64;
        let every = (1.0 / h) as u64;
        let mut bare_mem = code.memory();
        code.init(&mut bare_mem, 0.0);
        let mut bare_t = 0.0;
        let mut run_mem = stepper.memory();
        stepper.init(&mut run_mem, 0.0);
        let mut run_t = 0.0;
        let mut ftz_mem = run_mem.clone();
        let mut ftz_t = 0.0;
        let (mut bare, mut looped, mut ftz) = (f64::MAX, f64::MAX, f64::MAX);
        let mut through = |mem: &mut Vec<f64>, t: &mut f64, flush: bool| -> f64 {
            let events = rtc::sim::Events::new(&plan);
            let mut m = rtc::sim::RunModel::new(stepper.as_mut(), &plan, events);
            let mut cfg = rtc_runtime::Config::new(*t, h, steps);
            cfg.selected = selected.clone();
            cfg.flush_to_zero = flush;
            cfg.sinks = vec![Box::new(rtc_runtime::io::CsvSink::new(
                Box::new(std::io::sink()),
                every,
            ))];
            let t0 = Instant::now();
            let r = rtc_runtime::run(&mut m, mem, &layout, &mut cfg);
            let ns = t0.elapsed().as_secs_f64() * 1e9 / steps as f64;
            assert!(r.failure.is_none(), "{:?}", r.failure);
            *t = r.time;
            ns
        };
        for _ in 0..7 {
            // The step times the loop gives: the round's start plus i·h.
            let t0 = Instant::now();
            for i in 0..steps {
                black_box(code.step(&mut bare_mem, bare_t + i as f64 * h, h));
            }
            bare = bare.min(t0.elapsed().as_secs_f64() * 1e9 / steps as f64);
            bare_t += steps as f64 * h;
            looped = looped.min(through(&mut run_mem, &mut run_t, false));
            ftz = ftz.min(through(&mut ftz_mem, &mut ftz_t, true));
        }
        // The loop computed what the bare step computed.
        assert!(
            (bare_t - run_t).abs() < 1e-6 * bare_t,
            "{bare_t} vs {run_t}"
        );
        let same = bare_mem == run_mem;
        println!(
            "{n:>6} {bare:>10.1} {looped:>10.1} {:>9.3} {ftz:>12.1} {:>9.2}{}",
            looped / bare,
            looped / ftz,
            if same {
                "   (same memory bitwise)"
            } else {
                "   (memories differ!)"
            }
        );
    }
}
