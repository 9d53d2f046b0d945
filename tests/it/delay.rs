//! `delay(expr, T)` against closed forms. The step keeps `expr` sampled every step and reads
//! it by linear interpolation, so a delayed signal is off by at most H²/8·max|expr''| (the
//! interpolation error of samples H apart) whatever the method; a delay differential equation
//! converges with the order of the method, capped at 2 by the interpolation.

use rtc::pipeline::Method;
use rtc::sim::{trajectory, RunSettings};

fn run(src: &str, method: &Method, h: f64, stop: f64, vars: &[&str]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let c = rtc::pipeline::check_source("delay.mo", src, &Default::default());
    assert!(!c.has_errors(), "{:?}", c.short_diagnostics());
    let model = c.model.expect("model");
    let settings = rtc::pipeline::Settings::of(method).step(Some(h));
    let plan = match rtc::pipeline::plan(&model, &settings) {
        Ok(p) => p.plan,
        Err(d) => panic!("{}: {}", method.name(), d.message),
    };
    let settings = RunSettings {
        start: 0.0,
        stop,
        step: h,
        every: 1,
        ..Default::default()
    };
    let names: Vec<String> = vars.iter().map(|v| v.to_string()).collect();
    let (tr, failure) = trajectory(&plan, &settings, &names).expect("run");
    assert!(
        failure.is_none(),
        "{}: {:?}",
        method.name(),
        failure.map(|f| f.message)
    );
    (tr.times, tr.values)
}

/// sin(5t) delayed by 0.123 (12.3 steps of 0.01): within the interpolation bound
/// H²/8·25 = 3.1e-4 for every method, and of that size (the bound is not loose by orders).
#[test]
fn delayed_signal_is_within_the_interpolation_bound() {
    let src = "model D\n  Real x = sin(5 * time);\n  Real y = delay(x, 0.123);\nend D;\n";
    let h = 0.01;
    let bound = h * h / 8.0 * 25.0;
    for method in [
        Method::ForwardEuler,
        Method::BackwardEuler,
        Method::Trapezoid,
        Method::Radau,
        Method::Rk(rtc::pipeline::Rk::Rk4),
    ] {
        let (t, v) = run(src, &method, h, 2.0, &["y"]);
        let err = t.iter().zip(&v).fold(0.0f64, |m, (&t, y)| {
            let exact = if t <= 0.123 {
                0.0
            } else {
                (5.0 * (t - 0.123)).sin()
            };
            m.max((y[0] - exact).abs())
        });
        eprintln!(
            "delay of sin(5t), {}: largest error {err:.3e} (bound {bound:.3e})",
            method.name()
        );
        assert!(
            err <= bound * (1.0 + 1e-9) && err > bound / 4.0,
            "{}: {err}",
            method.name()
        );
    }
}

/// z' = −z(t − 0.5), z = 1 up to t = 0 (the start value is the history): by the method of
/// steps z = 1 − t on [0, 0.5], 1.125 − 1.5(t − 0.5) + (t − 0.5)²/2 … on [0.5, 1], and a cubic
/// on [1, 1.5]. Steps of 0.03 and 0.015 (16.7 and 33.3 per delay): the error falls by 2 with
/// backward Euler and by 4 with the trapezoid.
#[test]
fn delay_differential_equation_converges_with_the_method() {
    let src = "model Dde\n  Real z(start = 1, fixed = true);\nequation\n  der(z) = -delay(z, 0.5);\nend Dde;\n";
    let exact = |t: f64| {
        let z2 = |u: f64| 1.125 - 1.5 * u + u * u / 2.0;
        if t <= 0.5 {
            1.0 - t
        } else if t <= 1.0 {
            z2(t)
        } else {
            let s = t - 0.5;
            z2(1.0) - 1.125 * (t - 1.0) + 0.75 * (s * s - 0.25) - (s * s * s - 0.125) / 6.0
        }
    };
    for (method, order) in [(Method::BackwardEuler, 1), (Method::Trapezoid, 2)] {
        let err = |h: f64| {
            let (t, v) = run(src, &method, h, 1.5, &["z"]);
            t.iter()
                .zip(&v)
                .fold(0.0f64, |m, (&t, z)| m.max((z[0] - exact(t)).abs()))
        };
        let (e1, e2) = (err(0.03), err(0.015));
        let want = 2f64.powi(order);
        eprintln!(
            "delay equation, {}: error {e1:.3e} at h = 0.03, {e2:.3e} at 0.015, ratio {:.2}",
            method.name(),
            e1 / e2
        );
        assert!(
            e1 / e2 > 0.75 * want && e1 / e2 < 1.35 * want,
            "{}",
            method.name()
        );
    }
}
