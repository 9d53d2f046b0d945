//! Step time: the JIT step of the equation-form Van-der-Pol line against the same discretised
//! algorithm written by hand in Rust (compiled by rustc with the bench profile, opt-level 3),
//! measured side by side; and compile time from source to a callable step function.
//! Run with `cargo bench -p rtc --bench step`.

use rtc::discretize::Method;
use rtc::driver::check_source;
use rtc::flatten::Options;
use rtc::plan::Newton;
use std::hint::black_box;
use std::time::Instant;

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
        d[1] = (uc - K * uc * uc * uc - il - i(0)) / C;
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

fn main() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/VdPLine.mo");
    let text = std::fs::read_to_string(path).expect("read examples/VdPLine.mo");
    println!("step time [ns/step], best of 5 runs");
    println!(
        "{:>6} {:>8} {:>10} {:>10} {:>10} {:>7}",
        "n", "method", "jit", "interp", "hand Rust", "jit/hand"
    );
    // Small enough that every method is stable here (forward Euler on the load mode needs
    // h < 2e-6): a diverging run would stop its checks early and look faster than it is.
    let h = 5e-7;
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
            let (plan, _, _) = rtc::sim::compile(&model, &method, Newton::default()).expect("plan");
            let code = rtc::codegen::jit(&plan, false).expect("jit");
            let steps = (200_000 / n).max(200);
            let mut mem = code.memory();
            code.init(&mut mem, 0.0);
            let mut t = 0.0;
            let jit_ns = time_per_step(
                || {
                    black_box(code.step(&mut mem, t, h));
                    t += h;
                },
                steps,
            );
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
            let hand_ns = if name == "be" {
                f64::NAN
            } else {
                let mut hand = Hand::new(n, name == "mixed");
                time_per_step(
                    || {
                        hand.step(black_box(h));
                        black_box(&hand.x);
                    },
                    steps,
                )
            };
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
    per_method(&text);
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
            let (plan, _, _) = rtc::sim::compile(
                &model,
                &Method::Mixed {
                    implicit: vec!["u_l".into()],
                },
                Newton::default(),
            )
            .expect("plan");
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
fn per_method(text: &str) {
    use rtc::discretize::Rk;
    let opts = Options {
        params: vec![("n".into(), 50.0)],
        ..Options::default()
    };
    let model = check_source("VdPLine.mo", text, &opts)
        .model
        .expect("model");
    let step_ns = |method: &Method, h: f64, steps: usize| -> (f64, u64) {
        let (plan, _, _) = rtc::sim::compile(&model, method, Newton::default()).expect("plan");
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
